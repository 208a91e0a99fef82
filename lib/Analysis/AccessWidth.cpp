//===- AccessWidth.cpp - how wide a block's memory accesses can be --------===//

#include "tile/Analysis/AccessWidth.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::getAccessWidthAlong(AxisInfoAnalysis &axisInfo, Value ptr,
                                        Value mask, unsigned dim) {
  auto type = cast<BlockType>(ptr.getType());
  Type pointee = cast<PtrType>(type.getElementType()).getPointeeType();
  // i1 is stored as a byte.
  int64_t bytes = std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  const AxisInfo &info = axisInfo.get(ptr);
  int64_t width = 16 / bytes;
  width = std::min<int64_t>(width, info.contiguity[dim]);
  width = std::min<int64_t>(
      width, std::max<int64_t>(1, info.divisibility[dim] / bytes));
  if (mask)
    width = std::min<int64_t>(width, axisInfo.get(mask).constancy[dim]);
  // A group of registers is all inside or all outside the block: the extent
  // is a multiple of the width.
  int64_t extent = type.getShape()[dim];
  width = std::min<int64_t>(width, extent & -extent);
  return width <= 1 ? 1 : int64_t(llvm::bit_floor(uint64_t(width)));
}

int64_t mlir::tile::getAccessWidth(AxisInfoAnalysis &axisInfo, Value ptr,
                                   Value mask, const LinearLayout &layout) {
  LinearLayout::Run run = layout.getContiguousRun();
  if (run.length == 1)
    return 1;
  return std::min<int64_t>(run.length,
                           getAccessWidthAlong(axisInfo, ptr, mask, run.dim));
}
