//===- LayoutUtils.h - building and transforming layouts --------*- C++ -*-===//
//
// The layouts the layout pass chooses: the coalesced layout of a memory
// access, the default one, and the layouts shape ops carry over for free
// (expand_dims of a slice gives its parent, trans permutes, ...), with their
// preimages for propagating a wanted layout from a use back to a producer.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_LAYOUTUTILS_H
#define TILE_DIALECT_TILE_TRANSFORMS_LAYOUTUTILS_H

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir::tile {

/// A blocked layout of `shape` over `numWarps` warps with `sizePerThread`
/// and `order`: lanes and warps go to the fastest dimensions first, as many
/// as the (padded) extent takes, the rest to the slowest.
BlockedLayoutAttr buildBlockedLayout(MLIRContext *context,
                                     ArrayRef<int64_t> shape,
                                     ArrayRef<unsigned> sizePerThread,
                                     ArrayRef<unsigned> order,
                                     unsigned numWarps);

/// One element per thread per repetition, row-major.
BlockedLayoutAttr getDefaultLayout(MLIRContext *context,
                                   ArrayRef<int64_t> shape, unsigned numWarps);

/// The layout of a load or store through the block of pointers `ptr`
/// under `mask`: the dimension with the longest contiguous runs of
/// addresses fastest, as many consecutive elements per thread there as one
/// access of up to 16 bytes can move (and the block has elements per
/// thread), as Triton's coalescing does.
BlockedLayoutAttr getCoalescedLayout(AxisInfoAnalysis &axisInfo, Value ptr,
                                     Value mask, unsigned numWarps);

/// The tensor-core accumulator layout for `dot` on `chip` over `numWarps`
/// warps, or null when the dot runs on FMA there. Operands: f16/bf16, 8-bit
/// floats and tf32 summing in f32, int8 summing in i32. wgmma (version 3) on
/// sm_90a for 64-row warpgroup tiles, the instruction's columns the widest
/// power of two up to 256 that divides the warps' share of the columns;
/// mma.sync (version 2, 16 x 8 tiles) for other tiles and chips.
MmaLayoutAttr getMmaLayout(DotOp dot, unsigned numWarps, StringRef chip);

/// For a wgmma operand that the tensor cores read K-major only (8-bit floats,
/// tf32) but whose addresses are contiguous along the other dimension: each
/// thread holds a 16-byte run along `kDim` (`kDim` 1 for A, 0 for B) and the
/// lanes run along the other dimension. Its loads are element-wise but still
/// coalesced (consecutive lanes, consecutive addresses), and its staging into
/// the K-major swizzled layout is one 16-byte store per run, with the lanes
/// of a store spread over all eight 16-byte chunks of a swizzle row.
LinearLayoutAttr getKRunLayout(MLIRContext *context, ArrayRef<int64_t> shape,
                               unsigned kDim, int64_t elementBytes,
                               unsigned numWarps);

/// `layout` as a layout of blocks of `shape`. A #tile.linear layout names
/// coordinates of one shape; on a block with a smaller (padded) extent, as
/// the extent-1 dimension of an expand_dims or of a broadcast operand, its
/// coordinates along that dimension wrap (the threads and registers there
/// replicate), as a blocked layout's do. A slice of one fits its parent.
/// Other layouts are shape-independent and returned unchanged.
Attribute fitLayoutToShape(Attribute layout, ArrayRef<int64_t> shape);

/// The layout of `expand_dims(x, axis)` with `x` in `layout` that moves no
/// element (the parent of a slice along `axis`; otherwise the same
/// distribution with a dimension of extent 1 inserted).
Attribute getExpandedLayout(Attribute layout, ArrayRef<int64_t> srcShape,
                            unsigned axis);
/// The layout of `trans(x, order)` with `x` (of `srcShape`) in `layout`.
Attribute getPermutedLayout(Attribute layout, ArrayRef<int64_t> srcShape,
                            ArrayRef<int32_t> order);
/// The layout of `reshape(x)` that moves no element, when both shapes are
/// unpadded (null otherwise).
Attribute getReshapedLayout(Attribute layout, ArrayRef<int64_t> srcShape,
                            ArrayRef<int64_t> dstShape);

/// The operand layout that makes a shape op with result layout `layout`
/// move nothing (null when there is none to offer).
Attribute getOperandLayoutFor(Operation *shapeOp, Attribute resultLayout);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_TRANSFORMS_LAYOUTUTILS_H
