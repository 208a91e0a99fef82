//===- Occupancy.cpp - resident blocks per SM and register limits ---------===//

#include "Occupancy.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir::tile;

/// Registers a thread may use so that `warps` warps fit in `registers`
/// registers, in whole allocation units.
static unsigned registersPerThreadFor(unsigned registers, unsigned warps) {
  unsigned perWarp = registers / warps;
  perWarp -= perWarp % kRegisterAllocationUnit;
  return std::min(perWarp / 32, kMaxRegistersPerThread);
}

/// Blocks that fit by everything but registers.
static unsigned blocksBesidesRegisters(const ChipInfo &chip,
                                       const KernelFootprint &kernel) {
  unsigned blocks = std::min(chip.maxBlocksPerSM,
                             chip.maxWarpsPerSM / std::max(kernel.warps, 1u));
  int64_t shared = kernel.sharedBytes + kReservedSharedBytesPerBlock;
  return std::min<int64_t>(blocks, chip.sharedBytesPerSM / shared);
}

unsigned mlir::tile::getResidentBlocks(const ChipInfo &chip,
                                       const KernelFootprint &kernel) {
  unsigned perWarp = llvm::alignTo(std::max(kernel.registersPerThread, 1u) * 32,
                                   kRegisterAllocationUnit);
  unsigned byRegisters = kRegistersPerSM / perWarp / std::max(kernel.warps, 1u);
  return std::min(byRegisters, blocksBesidesRegisters(chip, kernel));
}

bool mlir::tile::registersLimitBlocks(const ChipInfo &chip,
                                      const KernelFootprint &kernel) {
  return getResidentBlocks(chip, kernel) < blocksBesidesRegisters(chip, kernel);
}

llvm::SmallVector<unsigned>
mlir::tile::getOccupancyRegisterLimits(const ChipInfo &chip,
                                       const KernelFootprint &kernel) {
  llvm::SmallVector<unsigned> limits;
  unsigned now = getResidentBlocks(chip, kernel);
  unsigned floor = kernel.registersPerThread * kMinRegisterPercent / 100;
  for (unsigned blocks = blocksBesidesRegisters(chip, kernel); blocks > now;
       --blocks) {
    unsigned limit =
        registersPerThreadFor(kRegistersPerSM, blocks * kernel.warps);
    if (limit < floor || limit >= kernel.registersPerThread)
      continue;
    if (limits.empty() || limits.back() != limit)
      limits.push_back(limit);
  }
  return limits;
}

unsigned mlir::tile::getLatencyRegisterBudget(const ChipInfo &chip,
                                              const KernelFootprint &kernel) {
  unsigned warps = std::max(kernel.warps, 1u);
  unsigned blocks = std::min(
      std::max(chip.maxWarpsPerSM * kLatencyWarpsPercent / 100 / warps, 1u),
      std::max(blocksBesidesRegisters(chip, kernel), 1u));
  return registersPerThreadFor(kRegistersPerSM, blocks * warps);
}
