//===- AccessWidth.h - how wide a block's memory accesses can be -*- C++
//-*-===//
//
// The layout pass and the GPU lowering ask the same question: how many
// consecutive elements can one access move, given the addresses' contiguity
// and alignment (AxisInfo), the mask's constancy, the block's extent, and
// (for the lowering) the registers a layout gives each thread.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_ACCESSWIDTH_H
#define TILE_ANALYSIS_ACCESSWIDTH_H

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/LinearLayout.h"

namespace mlir::tile {

/// The widest access (in elements, a power of two, at most 16 bytes) along
/// dimension `dim` through the block of pointers `ptr` under `mask` (null:
/// none) that the addresses and the extent allow.
int64_t getAccessWidthAlong(AxisInfoAnalysis &axisInfo, Value ptr, Value mask,
                            unsigned dim);

/// The widest access that a thread holding its registers in `layout` can
/// make through `ptr` under `mask`.
int64_t getAccessWidth(AxisInfoAnalysis &axisInfo, Value ptr, Value mask,
                       const LinearLayout &layout);

/// cp.async copies runs of 4, 8 or 16 bytes: a copy into shared memory
/// whose runs are `width` elements of `elementBytes` each goes through
/// registers when they are shorter.
inline bool copiesThroughRegisters(int64_t width, int64_t elementBytes) {
  return width * elementBytes < 4;
}

} // namespace mlir::tile

#endif // TILE_ANALYSIS_ACCESSWIDTH_H
