//===- Occupancy.h - resident blocks per SM and register limits -*- C++ -*-===//
//
// How many blocks of a kernel one SM holds follows from its warps, its
// shared memory and its registers per thread. Assemblers choose registers
// without looking at the first two: nvJitLink 13.5 gives tutorial 05's
// layer-norm 56 registers where ptxas 12.8 and 13.0 give 32, so half the
// warps fit. When registers are what limits a kernel, the compile asks the
// assembler again under a `.maxnreg` that lets more blocks in, and keeps
// that cubin only if nothing spilled; for grids that fit at once it also
// asks for one block per SM, which ptxas 13.0 answers with more registers
// and loads in flight. A kernel that takes more registers for one block per
// SM than ptxas's own choice has loads to overlap: its main cubin gets
// registers up to half the SM's warps instead of more blocks. Kernels on the
// tensor cores are left as assembled (chooseRegisters in Compile.cpp says
// why).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TARGET_OCCUPANCY_H
#define TILE_LIB_TARGET_OCCUPANCY_H

#include "tile/Dialect/Tile/IR/Chips.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::tile {

/// What a kernel holds on an SM while it runs.
struct KernelFootprint {
  unsigned warps;
  /// Shared memory of one block (dynamic and static), in bytes.
  int64_t sharedBytes;
  unsigned registersPerThread;
};

/// Blocks of `kernel` that one SM of `chip` holds at once.
unsigned getResidentBlocks(const ChipInfo &chip, const KernelFootprint &kernel);

/// Whether registers are what keeps more blocks of `kernel` off an SM.
bool registersLimitBlocks(const ChipInfo &chip, const KernelFootprint &kernel);

/// The register limits per thread that would let more blocks of `kernel`
/// reside, fewest registers (most blocks) first. Only limits that keep at
/// least kMinRegisterPercent of the registers are listed: a deeper cut
/// spills in practice, and each one costs an assembly to try.
llvm::SmallVector<unsigned>
getOccupancyRegisterLimits(const ChipInfo &chip, const KernelFootprint &kernel);

/// The most registers per thread with which blocks of `kernel` still fill
/// kLatencyWarpsPercent of an SM's warps (at least one block): what a kernel
/// with loads to overlap may spend on them rather than on more warps.
unsigned getLatencyRegisterBudget(const ChipInfo &chip,
                                  const KernelFootprint &kernel);

/// See getLatencyRegisterBudget: the share of an SM's warps kept resident.
constexpr unsigned kLatencyWarpsPercent = 50;

/// See getOccupancyRegisterLimits: the smallest share of its registers a
/// kernel is asked to fit in, in percent.
constexpr unsigned kMinRegisterPercent = 70;

} // namespace mlir::tile

#endif // TILE_LIB_TARGET_OCCUPANCY_H
