//===- AccessWidth.cpp - how wide a block's memory accesses can be --------===//

#include "tile/Analysis/AccessWidth.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::getAccessWidthAlong(AxisInfoAnalysis &axisInfo, Value ptr,
                                        Value mask, unsigned dim) {
  auto type = cast<BlockType>(ptr.getType());
  Type pointee = cast<PtrType>(type.getElementType()).getPointeeType();
  // i1 is stored as a byte.
  int64_t bytes = std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  // A copy: get() of another value may grow the cache and move this entry.
  AxisInfo info = axisInfo.get(ptr);
  // A group of registers must lie within one run of consecutive addresses,
  // one run of equal mask values, and all inside or all outside the block:
  // its width divides the run lengths and the extent (runs start at multiples
  // of their length). Then at most 16 bytes, and aligned.
  int64_t extent = type.getShape()[dim];
  int64_t runs = std::gcd(info.contiguity[dim], extent);
  if (mask)
    runs = std::gcd(runs, axisInfo.get(mask).constancy[dim]);
  int64_t width = runs & -runs;
  width = std::min<int64_t>(width, 16 / bytes);
  int64_t aligned = std::max<int64_t>(1, info.divisibility[dim] / bytes);
  width = std::min<int64_t>(width, aligned & -aligned);
  return std::max<int64_t>(width, 1);
}

int64_t mlir::tile::getAccessWidth(AxisInfoAnalysis &axisInfo, Value ptr,
                                   Value mask, const LinearLayout &layout) {
  LinearLayout::Run run = layout.getContiguousRun();
  if (run.length == 1)
    return 1;
  return std::min<int64_t>(run.length,
                           getAccessWidthAlong(axisInfo, ptr, mask, run.dim));
}
