//===- LayoutUtils.cpp - building and transforming layouts ----------------===//

#include "tile/Dialect/Tile/Transforms/LayoutUtils.h"
#include "tile/Analysis/AccessWidth.h"
#include "tile/Dialect/Tile/IR/Chips.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

BlockedLayoutAttr
mlir::tile::buildBlockedLayout(MLIRContext *context, ArrayRef<int64_t> shape,
                               ArrayRef<unsigned> sizePerThread,
                               ArrayRef<unsigned> order, unsigned numWarps) {
  unsigned rank = shape.size();
  SmallVector<unsigned> threadsPerWarp(rank, 1), warpsPerCTA(rank, 1);
  unsigned lanesLeft = kThreadsPerWarp, warpsLeft = numWarps;
  for (unsigned i = 0; i < rank; ++i) {
    unsigned d = order[i];
    if (i + 1 == rank) {
      // The slowest dimension takes what is left (replicating if the block
      // is smaller than the threads).
      threadsPerWarp[d] = lanesLeft;
      warpsPerCTA[d] = warpsLeft;
      break;
    }
    int64_t wanted = std::max<int64_t>(1, paddedExtent(shape[d]) /
                                              int64_t(sizePerThread[d]));
    unsigned lanes = unsigned(std::min<int64_t>(wanted, lanesLeft));
    threadsPerWarp[d] = lanes;
    lanesLeft /= lanes;
    wanted = std::max<int64_t>(1, wanted / lanes);
    unsigned warps = unsigned(std::min<int64_t>(wanted, warpsLeft));
    warpsPerCTA[d] = warps;
    warpsLeft /= warps;
  }
  return BlockedLayoutAttr::get(context, sizePerThread, threadsPerWarp,
                                warpsPerCTA, order);
}

static SmallVector<unsigned> rowMajorOrder(unsigned rank) {
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  return order;
}

BlockedLayoutAttr mlir::tile::getDefaultLayout(MLIRContext *context,
                                               ArrayRef<int64_t> shape,
                                               unsigned numWarps) {
  SmallVector<unsigned> sizePerThread(shape.size(), 1);
  return buildBlockedLayout(context, shape, sizePerThread,
                            rowMajorOrder(shape.size()), numWarps);
}

BlockedLayoutAttr mlir::tile::getCoalescedLayout(AxisInfoAnalysis &axisInfo,
                                                 Value ptr, Value mask,
                                                 unsigned numWarps) {
  auto type = cast<BlockType>(ptr.getType());
  ArrayRef<int64_t> shape = type.getShape();
  unsigned rank = shape.size();
  // A copy: get() of another value may grow the cache and move this entry.
  AxisInfo info = axisInfo.get(ptr);
  // Longest contiguous runs first; ties keep row-major order.
  SmallVector<unsigned> order = rowMajorOrder(rank);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return info.contiguity[a] > info.contiguity[b];
  });
  unsigned fastest = order.front();
  int64_t width = getAccessWidthAlong(axisInfo, ptr, mask, fastest);
  // No wider than a thread's share, so that small blocks keep every thread
  // busy.
  int64_t elements = 1;
  for (int64_t extent : shape)
    elements *= paddedExtent(extent);
  int64_t share = std::max<int64_t>(1, elements / (kThreadsPerWarp * numWarps));
  width = std::min(width, share);
  SmallVector<unsigned> sizePerThread(rank, 1);
  sizePerThread[fastest] = unsigned(width);
  return buildBlockedLayout(ptr.getContext(), shape, sizePerThread, order,
                            numWarps);
}

namespace {
/// What the tensor cores multiply a dot's operands as, and how deep one
/// instruction step is.
struct TensorCoreOperands {
  enum Kind { None, SixteenBit, Float8, Tf32, Int8 } kind = None;
  /// K elements per step: 16 for 16-bit operands, 32 for 8-bit ones, 8 for
  /// tf32 (32 bytes either way).
  unsigned depth() const {
    return kind == Float8 || kind == Int8 ? 32 : kind == Tf32 ? 8 : 16;
  }
};
} // namespace

/// The kind of a rank-2 dot the tensor cores take: f16 or bf16 operands
/// (both the same), 8-bit floats (e4m3 and e5m2, mixed as well), f32 ones
/// read as tf32 (where the dot allows it), all summing in f32, or int8 ones
/// summing in i32. A batched (rank-3) dot runs on FMA.
static TensorCoreOperands classifyOperands(DotOp dot) {
  auto aType = cast<BlockType>(dot.getA().getType());
  auto bType = cast<BlockType>(dot.getB().getType());
  Type a = aType.getElementType(), b = bType.getElementType();
  Type sum = cast<BlockType>(dot.getType()).getElementType();
  TensorCoreOperands operands;
  if (aType.getRank() != 2)
    return operands;
  if (isFloat8Type(a) && isFloat8Type(b))
    operands.kind = TensorCoreOperands::Float8;
  else if ((a.isF16() || a.isBF16()) && b == a)
    operands.kind = TensorCoreOperands::SixteenBit;
  else if (a.isF32() && b.isF32() && dot.getTf32())
    operands.kind = TensorCoreOperands::Tf32;
  else if (a.isInteger(8) && b == a)
    operands.kind = TensorCoreOperands::Int8;
  bool int8 = operands.kind == TensorCoreOperands::Int8;
  if (!(int8 ? sum.isInteger(32) : sum.isF32()))
    operands.kind = TensorCoreOperands::None;
  return operands;
}

/// The mma.sync accumulator layout of a dot, on any chip tile compiles for:
/// m16n8k16 for 16-bit operands (8-bit floats too, which the lowering widens
/// to f16 exactly), m16n8k8 for tf32, m16n8k32 for int8. The warps spread
/// over the 16 x 8 tiles, along the rows while they have more tiles to give
/// (Triton's warpsPerTileV2), the rest along the columns, repeating tiles
/// where there are more warps than tiles. Extents are powers of two, M and N
/// from 16, K from one step.
static MmaLayoutAttr getMmaSyncLayout(DotOp dot, unsigned numWarps,
                                      StringRef chip) {
  TensorCoreOperands operands = classifyOperands(dot);
  if (!lookupChip(chip) || operands.kind == TensorCoreOperands::None)
    return {};
  unsigned depth =
      operands.kind == TensorCoreOperands::Float8 ? 16 : operands.depth();
  auto cType = cast<BlockType>(dot.getType());
  int64_t m = cType.getShape()[0], n = cType.getShape()[1];
  int64_t k = cast<BlockType>(dot.getA().getType()).getShape()[1];
  if (m < 16 || n < 16 || k < depth || !llvm::isPowerOf2_64(m) ||
      !llvm::isPowerOf2_64(n) || !llvm::isPowerOf2_64(k))
    return {};
  unsigned rowWarps = 1, colWarps = 1;
  while (rowWarps * colWarps < numWarps) {
    if (m / 16 / rowWarps >= n / 16 / colWarps && rowWarps < m / 16)
      rowWarps *= 2;
    else
      colWarps *= 2;
  }
  return MmaLayoutAttr::get(dot.getContext(), 2, {rowWarps, colWarps},
                            {16, 8, depth});
}

MmaLayoutAttr mlir::tile::getMmaLayout(DotOp dot, unsigned numWarps,
                                       StringRef chip) {
  // wgmma where it applies (sm_90a, warpgroups, 64-row tiles), else
  // mma.sync.
  if (chip != "sm_90a" || numWarps % 4 != 0)
    return getMmaSyncLayout(dot, numWarps, chip);
  TensorCoreOperands operands = classifyOperands(dot);
  if (operands.kind == TensorCoreOperands::None)
    return {};
  auto cType = cast<BlockType>(dot.getType());
  int64_t m = cType.getShape()[0], n = cType.getShape()[1];
  int64_t k = cast<BlockType>(dot.getA().getType()).getShape()[1];
  unsigned depth = operands.depth();
  // The operands are staged in the swizzled form of power-of-two extents
  // (a 192-row tile runs on FMA, not on wgmma).
  if (m % 64 != 0 || n % 8 != 0 || k % depth != 0 || !llvm::isPowerOf2_64(m) ||
      !llvm::isPowerOf2_64(n) || !llvm::isPowerOf2_64(k))
    return getMmaSyncLayout(dot, numWarps, chip);
  // Warpgroups along the rows while there are 64-row tiles for them, the
  // other warps along the columns.
  unsigned rowWarps = 4 * unsigned(std::min<int64_t>(numWarps / 4, m / 64));
  unsigned colWarps = numWarps / rowWarps;
  if (n % (8 * colWarps) != 0)
    return getMmaSyncLayout(dot, numWarps, chip);
  int64_t share = n / colWarps;
  int64_t instrN = std::min<int64_t>(256, share & -share);
  if (instrN < 8)
    return getMmaSyncLayout(dot, numWarps, chip);
  return MmaLayoutAttr::get(dot.getContext(), 3, {rowWarps, colWarps},
                            {16, unsigned(instrN), depth});
}

LinearLayoutAttr mlir::tile::getKRunLayout(MLIRContext *context,
                                           ArrayRef<int64_t> shape,
                                           unsigned kDim, int64_t elementBytes,
                                           unsigned numWarps) {
  SmallVector<int64_t> padded;
  for (int64_t extent : shape)
    padded.push_back(paddedExtent(extent));
  LinearLayout layout(padded);
  unsigned otherDim = 1 - kDim;
  // The next unused coordinate bit of each dimension.
  int64_t next[2] = {1, 1};
  auto take = [&](unsigned dim) -> LinearLayout::Coord {
    LinearLayout::Coord basis(2, 0);
    if (next[dim] < padded[dim]) {
      basis[dim] = next[dim];
      next[dim] *= 2;
    }
    return basis;
  };
  auto takeEither = [&](unsigned first, unsigned second) {
    return next[first] < padded[first] ? take(first) : take(second);
  };
  int64_t run = std::min<int64_t>(16 / elementBytes, padded[kDim]);
  for (int64_t r = 1; r < run; r *= 2)
    layout.addBasis(HWDim::Register, take(kDim));
  for (int64_t l = 1; l < kThreadsPerWarp; l *= 2)
    layout.addBasis(HWDim::Lane, takeEither(otherDim, kDim));
  for (unsigned w = 1; w < numWarps; w *= 2)
    layout.addBasis(HWDim::Warp, takeEither(kDim, otherDim));
  while (next[kDim] < padded[kDim] || next[otherDim] < padded[otherDim])
    layout.addBasis(HWDim::Register, takeEither(kDim, otherDim));
  return LinearLayoutAttr::get(context, layout);
}

static LinearLayout linearOf(Attribute layout, ArrayRef<int64_t> shape) {
  return cast<DistributedLayoutAttrInterface>(layout).toLinearLayout(shape);
}

Attribute mlir::tile::fitLayoutToShape(Attribute layout,
                                       ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    SmallVector<int64_t> parentShape(shape);
    parentShape.insert(parentShape.begin() + slice.getDim(), 1);
    Attribute parent = fitLayoutToShape(slice.getParent(), parentShape);
    if (parent == slice.getParent())
      return layout;
    return SliceLayoutAttr::get(layout.getContext(), slice.getDim(),
                                cast<DistributedLayoutAttrInterface>(parent));
  }
  auto linear = dyn_cast<LinearLayoutAttr>(layout);
  if (!linear)
    return layout;
  LinearLayout given = linear.toLinearLayout(shape);
  LinearLayout fitted(given.getShape());
  bool changed = false;
  for (HWDim dim : {HWDim::Register, HWDim::Lane, HWDim::Warp}) {
    for (LinearLayout::Coord basis : given.getBases(dim)) {
      // Padded extents are powers of two: wrapping keeps the low bits.
      for (auto [coord, extent] : llvm::zip(basis, given.getShape())) {
        changed |= coord >= extent;
        coord &= extent - 1;
      }
      fitted.addBasis(dim, basis);
    }
  }
  return changed ? LinearLayoutAttr::get(layout.getContext(), fitted) : layout;
}

Attribute mlir::tile::getExpandedLayout(Attribute layout,
                                        ArrayRef<int64_t> srcShape,
                                        unsigned axis) {
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    if (slice.getDim() == axis)
      return slice.getParent();
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout)) {
    auto insert = [&](ArrayRef<unsigned> values) {
      SmallVector<unsigned> result(values);
      result.insert(result.begin() + axis, 1);
      return result;
    };
    SmallVector<unsigned> order;
    for (unsigned d : blocked.getOrder())
      order.push_back(d >= axis ? d + 1 : d);
    order.push_back(axis);
    return BlockedLayoutAttr::get(layout.getContext(),
                                  insert(blocked.getSizePerThread()),
                                  insert(blocked.getThreadsPerWarp()),
                                  insert(blocked.getWarpsPerCTA()), order);
  }
  return LinearLayoutAttr::get(layout.getContext(),
                               linearOf(layout, srcShape).insertDim(axis));
}

Attribute mlir::tile::getPermutedLayout(Attribute layout,
                                        ArrayRef<int64_t> srcShape,
                                        ArrayRef<int32_t> order) {
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout)) {
    auto permute = [&](ArrayRef<unsigned> values) {
      SmallVector<unsigned> result;
      for (int32_t d : order)
        result.push_back(values[d]);
      return result;
    };
    SmallVector<unsigned> position(order.size());
    for (auto [i, d] : llvm::enumerate(order))
      position[d] = i;
    SmallVector<unsigned> newOrder;
    for (unsigned d : blocked.getOrder())
      newOrder.push_back(position[d]);
    return BlockedLayoutAttr::get(layout.getContext(),
                                  permute(blocked.getSizePerThread()),
                                  permute(blocked.getThreadsPerWarp()),
                                  permute(blocked.getWarpsPerCTA()), newOrder);
  }
  return LinearLayoutAttr::get(layout.getContext(),
                               linearOf(layout, srcShape).permute(order));
}

static bool isUnpadded(ArrayRef<int64_t> shape) {
  return llvm::all_of(
      shape, [](int64_t extent) { return llvm::isPowerOf2_64(extent); });
}

Attribute mlir::tile::getReshapedLayout(Attribute layout,
                                        ArrayRef<int64_t> srcShape,
                                        ArrayRef<int64_t> dstShape) {
  if (srcShape == dstShape)
    return layout;
  if (!isUnpadded(srcShape) || !isUnpadded(dstShape))
    return {};
  return LinearLayoutAttr::get(layout.getContext(),
                               linearOf(layout, srcShape).reshape(dstShape));
}

Attribute mlir::tile::getOperandLayoutFor(Operation *shapeOp,
                                          Attribute resultLayout) {
  auto srcType = cast<BlockType>(shapeOp->getOperand(0).getType());
  auto dstType = cast<BlockType>(shapeOp->getResult(0).getType());
  if (auto expand = dyn_cast<ExpandDimsOp>(shapeOp))
    return SliceLayoutAttr::get(
        shapeOp->getContext(), expand.getAxis(),
        cast<DistributedLayoutAttrInterface>(resultLayout));
  // Every layout replicates along a dimension of extent 1 (a #tile.linear
  // one once fitted to the operand's shape), so the operand's threads hold
  // what the result's need.
  if (isa<BroadcastOp>(shapeOp))
    return resultLayout;
  if (auto trans = dyn_cast<TransOp>(shapeOp)) {
    SmallVector<int32_t> order = trans.getPermutation();
    SmallVector<int32_t> inverse(order.size());
    for (auto [i, d] : llvm::enumerate(order))
      inverse[d] = i;
    return getPermutedLayout(resultLayout, dstType.getShape(), inverse);
  }
  if (isa<ReshapeOp>(shapeOp))
    return getReshapedLayout(resultLayout, dstType.getShape(),
                             srcType.getShape());
  return {};
}
