//===- Chips.h - the GPUs tile compiles for and their limits ----*- C++ -*-===//
//
// The one place that knows per-chip facts: the drivers check chips against
// this table, and the lowering asks it for limits (without MLIR, so that any
// layer can).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_CHIPS_H
#define TILE_DIALECT_TILE_IR_CHIPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tile {

/// Static shared memory a block can use on every chip, without opting in to
/// more (cudaFuncAttributeMaxDynamicSharedMemorySize).
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// A GPU tile compiles for.
struct ChipInfo {
  /// The name `.target` and ptxas take: "sm_90a".
  llvm::StringRef name;
  /// Shared memory per block with the dynamic opt-in (CUDA programming
  /// guide, "Technical Specifications per Compute Capability", as the
  /// other limits here).
  int64_t maxSharedBytes;
  /// Shared memory of one SM, of which every resident block also holds
  /// kReservedSharedBytesPerBlock.
  int64_t sharedBytesPerSM;
  /// Resident warps and blocks one SM holds at most.
  unsigned maxWarpsPerSM;
  unsigned maxBlocksPerSM;
  /// NVPTX target features beyond the chip's own: a PTX ISA version above
  /// the oldest that LLVM writes for it, where an instruction tile emits
  /// needs one (sm_89's 8-bit float conversions, cvt with e4m3x2/e5m2x2,
  /// need PTX 8.1; LLVM writes 7.8).
  llvm::StringRef extraFeatures = "";
};

/// 32-bit registers of one SM, on every chip tile compiles for; they are
/// given to warps in units of kRegisterAllocationUnit, and a thread has at
/// most kMaxRegistersPerThread.
constexpr unsigned kRegistersPerSM = 64 * 1024;
constexpr unsigned kRegisterAllocationUnit = 256;
constexpr unsigned kMaxRegistersPerThread = 255;
/// Shared memory the driver reserves in each resident block (sm_80 on).
constexpr int64_t kReservedSharedBytesPerBlock = 1024;

/// The chips tile compiles for: sm_80, sm_86, sm_89, sm_90 and sm_90a. The
/// Hopper-only instructions (wgmma, TMA) need sm_90a, which runs only on
/// Hopper; sm_90 code runs on Hopper and later.
llvm::ArrayRef<ChipInfo> getSupportedChips();

/// The entry for `chip`, or null for a chip that is not supported.
const ChipInfo *lookupChip(llvm::StringRef chip);

/// The shared memory a block may use on `chip` with the dynamic opt-in
/// (163 KiB on sm_80, 99 KiB on sm_86 and sm_89, 227 KiB on sm_90 and
/// sm_90a), or nothing for a chip that is not supported.
std::optional<int64_t> getMaxSharedBytes(llvm::StringRef chip);

/// Whether tile emits TMA (`cp.async.bulk.tensor`, `mbarrier` transaction
/// counts) for `chip`: sm_90a, the chip the JIT compiles for on Hopper. The
/// PTX LLVM writes for sm_90 is ISA 7.8, which lacks them.
bool hasTensorMemoryAccelerator(llvm::StringRef chip);

/// The SM version of `chip`: 90 for "sm_90a" (0 for a malformed name).
unsigned getChipVersion(llvm::StringRef chip);

/// The message for a chip that is not supported (naming the supported
/// ones), or nothing for a supported chip.
std::optional<std::string> checkChip(llvm::StringRef chip);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_CHIPS_H
