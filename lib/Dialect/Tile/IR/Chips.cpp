//===- Chips.cpp - the GPUs tile compiles for and their limits ------------===//

#include "tile/Dialect/Tile/IR/Chips.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tile;

llvm::ArrayRef<ChipInfo> mlir::tile::getSupportedChips() {
  static const ChipInfo chips[] = {
      {"sm_80", 163 * 1024, 164 * 1024, 64, 32},
      {"sm_86", 99 * 1024, 100 * 1024, 48, 16},
      {"sm_89", 99 * 1024, 100 * 1024, 48, 24, "+ptx81"},
      {"sm_90", 227 * 1024, 228 * 1024, 64, 32},
      {"sm_90a", 227 * 1024, 228 * 1024, 64, 32},
  };
  return chips;
}

const ChipInfo *mlir::tile::lookupChip(llvm::StringRef chip) {
  llvm::ArrayRef<ChipInfo> chips = getSupportedChips();
  const ChipInfo *found = llvm::find_if(
      chips, [&](const ChipInfo &info) { return info.name == chip; });
  return found == chips.end() ? nullptr : found;
}

std::optional<int64_t> mlir::tile::getMaxSharedBytes(llvm::StringRef chip) {
  if (const ChipInfo *info = lookupChip(chip))
    return info->maxSharedBytes;
  return std::nullopt;
}

bool mlir::tile::hasTensorMemoryAccelerator(llvm::StringRef chip) {
  return chip == "sm_90a";
}

unsigned mlir::tile::getChipVersion(llvm::StringRef chip) {
  unsigned version = 0;
  if (chip.consume_front("sm_"))
    chip.take_while(llvm::isDigit).getAsInteger(10, version);
  return version;
}

std::optional<std::string> mlir::tile::checkChip(llvm::StringRef chip) {
  if (lookupChip(chip))
    return std::nullopt;
  // Upstream's NVVM target reads an uninitialized SM number for a chip that
  // is not `sm_<digits>` and crashes on an empty one, and LLVM would write
  // `.target <chip>` for anything: nothing else reaches them.
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "unsupported chip '";
  os.write_escaped(chip);
  os << "'; the supported chips are ";
  llvm::interleave(
      getSupportedChips(), os, [&](const ChipInfo &info) { os << info.name; },
      ", ");
  os << " (sm_90a for Hopper-only instructions)";
  return message;
}
