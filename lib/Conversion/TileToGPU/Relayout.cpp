//===- Relayout.cpp - moving data between layouts -------------------------===//
//
// `tile.convert_layout` and the shape ops (expand_dims, broadcast, reshape,
// trans) of values held in registers. Each destination register needs the
// element at some source coordinates (the same ones for a conversion; mapped
// through the op for a shape op). The cheapest correct path is taken:
//
// - a renaming of registers when every thread already holds what it needs:
//   the destination's lane and warp bases map onto the source's, so a
//   register's element is in the same thread, at a register found by its
//   coordinates (an expand_dims of a slice, a broadcast, a trans of a
//   blocked layout: all free);
// - warp shuffles when the warp bases agree and each destination register
//   reads one source register of another lane of its warp;
// - shared memory otherwise: the source is written in the padded block's
//   row-major order and each destination register reads its element back.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"

#include "llvm/Support/MathExtras.h"
#include <set>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// The source coordinates of destination coordinates `coord` through shape
/// op `op` (identity for a null op), when that map is linear on padded
/// coordinates (a reshape only when no extent is padded).
static std::optional<LinearLayout::Coord>
mapPaddedCoord(Operation *op, const LinearLayout::Coord &coord) {
  if (!op || isa<ConvertLayoutOp>(op))
    return coord;
  auto srcType = cast<BlockType>(op->getOperand(0).getType());
  auto dstType = cast<BlockType>(op->getResult(0).getType());
  ArrayRef<int64_t> srcShape = srcType.getShape();
  ArrayRef<int64_t> dstShape = dstType.getShape();
  LinearLayout::Coord result(coord);
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    result.erase(result.begin() + expand.getAxis());
  } else if (isa<BroadcastOp>(op)) {
    for (size_t d = 0; d < srcShape.size(); ++d)
      if (srcShape[d] == 1 && dstShape[d] != 1)
        result[d] = 0;
  } else if (auto trans = dyn_cast<TransOp>(op)) {
    SmallVector<int32_t> order = trans.getPermutation();
    for (size_t d = 0; d < order.size(); ++d)
      result[order[d]] = coord[d];
  } else if (isa<ReshapeOp>(op)) {
    auto exact = [](ArrayRef<int64_t> shape) {
      return llvm::all_of(shape,
                          [](int64_t e) { return llvm::isPowerOf2_64(e); });
    };
    if (!exact(srcShape) || !exact(dstShape))
      return std::nullopt;
    LinearLayout dst(dstShape), src(srcShape);
    result = src.unflatten(dst.flatten(coord));
  } else {
    return std::nullopt;
  }
  return result;
}

LogicalResult KernelEmitter::emitLayoutChange(Operation *op) {
  Value src = op->getOperand(0), dst = op->getResult(0);
  auto srcType = cast<BlockType>(src.getType());
  auto dstType = cast<BlockType>(dst.getType());
  registers[dst] =
      changeLayout(op->getLoc(), srcType.getElementType(), getRegisters(src),
                   getBlockLayout(srcType), getBlockLayout(dstType), op);
  return success();
}

SmallVector<Value> KernelEmitter::changeLayout(Location loc, Type elementType,
                                               ArrayRef<Value> values,
                                               const BlockLayout &src,
                                               const BlockLayout &dst,
                                               Operation *op) {
  if (std::optional<SmallVector<Value>> renamed =
          renameRegisters(values, src, dst, op))
    return *renamed;
  bool isConversion = !op || isa<ConvertLayoutOp>(op);
  if (isConversion)
    if (std::optional<SmallVector<Value>> shuffled =
            shuffleWithinWarps(loc, values, src, dst))
      return *shuffled;
  return exchangeThroughShared(loc, elementType, values, src, dst, op);
}

std::optional<SmallVector<Value>>
KernelEmitter::renameRegisters(ArrayRef<Value> values, const BlockLayout &src,
                               const BlockLayout &dst, Operation *op) {
  for (HWDim dim : {HWDim::Lane, HWDim::Warp}) {
    ArrayRef<LinearLayout::Coord> dstBases = dst.linear.getBases(dim);
    ArrayRef<LinearLayout::Coord> srcBases = src.linear.getBases(dim);
    if (dstBases.size() != srcBases.size())
      return std::nullopt;
    for (auto [dstBasis, srcBasis] : llvm::zip(dstBases, srcBases)) {
      std::optional<LinearLayout::Coord> mapped = mapPaddedCoord(op, dstBasis);
      if (!mapped || *mapped != srcBasis)
        return std::nullopt;
    }
  }
  std::map<uint64_t, int64_t> registerOf;
  for (int64_t reg = src.numRegisters() - 1; reg >= 0; --reg)
    registerOf[src.linear.flatten(src.linear.apply(HWDim::Register, reg))] =
        reg;
  SmallVector<Value> result;
  for (int64_t reg = 0; reg < dst.numRegisters(); ++reg) {
    std::optional<LinearLayout::Coord> mapped =
        mapPaddedCoord(op, dst.linear.apply(HWDim::Register, reg));
    if (!mapped)
      return std::nullopt;
    auto it = registerOf.find(src.linear.flatten(*mapped));
    if (it == registerOf.end())
      return std::nullopt;
    result.push_back(values[it->second]);
  }
  return result;
}

std::optional<SmallVector<Value>>
KernelEmitter::shuffleWithinWarps(Location loc, ArrayRef<Value> values,
                                  const BlockLayout &src,
                                  const BlockLayout &dst) {
  if (src.linear.getBases(HWDim::Warp) != dst.linear.getBases(HWDim::Warp))
    return std::nullopt;
  auto flatten = [&](const LinearLayout &layout, HWDim dim) {
    SmallVector<uint64_t> columns;
    for (const LinearLayout::Coord &basis : layout.getBases(dim))
      columns.push_back(layout.flatten(basis));
    return columns;
  };
  SmallVector<uint64_t> srcLanes = flatten(src.linear, HWDim::Lane);
  SmallVector<uint64_t> srcAll = flatten(src.linear, HWDim::Register);
  unsigned numSrcRegisterBits = srcAll.size();
  llvm::append_range(srcAll, srcLanes);
  // Each destination lane bit must select the same source register in
  // another lane: then the source lane is a linear function of the lane.
  F2Solver laneSolver(srcLanes);
  SmallVector<int64_t> laneMap;
  for (uint64_t column : flatten(dst.linear, HWDim::Lane)) {
    std::optional<uint64_t> lanes = laneSolver.solve(column);
    if (!lanes)
      return std::nullopt;
    laneMap.push_back(*lanes);
  }
  F2Solver solver(srcAll);
  SmallVector<std::pair<int64_t, int64_t>> sources; // (register, lane xor)
  for (int64_t reg = 0; reg < dst.numRegisters(); ++reg) {
    std::optional<uint64_t> location = solver.solve(
        dst.linear.flatten(dst.linear.apply(HWDim::Register, reg)));
    if (!location)
      return std::nullopt;
    int64_t registerMask = (int64_t(1) << numSrcRegisterBits) - 1;
    sources.push_back(
        {*location & registerMask, int64_t(*location >> numSrcRegisterBits)});
  }
  // srcLane = laneMap(lane) ^ the register's own lane offset.
  bool identity = true;
  for (auto [bit, lanes] : llvm::enumerate(laneMap))
    identity = identity && lanes == (int64_t(1) << bit);
  Value mappedLane = laneId();
  if (!identity) {
    mappedLane = constI32(loc, 0);
    for (auto [bit, lanes] : llvm::enumerate(laneMap)) {
      if (lanes == 0)
        continue;
      Value isSet = arith::AndIOp::create(
          builder, loc,
          arith::ShRUIOp::create(builder, loc, laneId(), constI32(loc, bit)),
          constI32(loc, 1));
      Value term =
          arith::MulIOp::create(builder, loc, isSet, constI32(loc, lanes));
      mappedLane = arith::XOrIOp::create(builder, loc, mappedLane, term);
    }
  }
  SmallVector<Value> result;
  std::map<std::pair<int64_t, int64_t>, Value> done;
  for (auto [reg, laneXor] : sources) {
    Value &value = done[{reg, laneXor}];
    if (!value) {
      Value sourceLane =
          laneXor ? Value(arith::XOrIOp::create(builder, loc, mappedLane,
                                                constI32(loc, laneXor)))
                  : mappedLane;
      value = shuffle(loc, values[reg], sourceLane, gpu::ShuffleMode::IDX);
    }
    result.push_back(value);
  }
  return result;
}

/// `values` (one per dimension of a block) listed in the staged order of
/// exchangeThroughShared: `order`'s dimensions, the fastest last.
template <typename T>
static SmallVector<T, 4> inStagedOrder(ArrayRef<T> values,
                                       ArrayRef<int32_t> order) {
  SmallVector<T, 4> result;
  for (int32_t d : order)
    result.push_back(values[d]);
  return result;
}

/// Where `staged` holds 16-bit elements as stmatrix's fragments (each
/// register pair two adjacent elements, lanes 0 and 1 the pairs of a
/// 16-byte row, lanes 2..4 its 8 rows, registers 1 and 2 four such 8x8
/// matrices, as the mma and wgmma accumulators hold them): the layout whose
/// register i, in lane l, is the first element of the row that lane l
/// addresses in the i-th `stmatrix.x4` (row l % 8 of matrix l / 8), of
/// registers 8i to 8i + 7.
static std::optional<BlockLayout> stMatrixRows(const BlockLayout &staged) {
  const LinearLayout &linear = staged.linear;
  ArrayRef<LinearLayout::Coord> registers = linear.getBases(HWDim::Register);
  ArrayRef<LinearLayout::Coord> lanes = linear.getBases(HWDim::Lane);
  if (registers.size() < 3 || lanes.size() != 5)
    return std::nullopt;
  auto isColumn = [](const LinearLayout::Coord &basis, int64_t column) {
    for (size_t d = 0; d + 1 < basis.size(); ++d)
      if (basis[d] != 0)
        return false;
    return basis.back() == column;
  };
  if (!isColumn(registers[0], 1) || !isColumn(lanes[0], 2) ||
      !isColumn(lanes[1], 4))
    return std::nullopt;
  // The rows, the matrices, the instructions and the warps: anywhere a
  // 16-byte row starts.
  SmallVector<LinearLayout::Coord> rowBases{lanes[2], lanes[3], lanes[4],
                                            registers[1], registers[2]};
  for (ArrayRef<LinearLayout::Coord> bases :
       {ArrayRef<LinearLayout::Coord>(rowBases), registers.drop_front(3),
        linear.getBases(HWDim::Warp)})
    for (const LinearLayout::Coord &basis : bases)
      if (basis.back() % 8 != 0)
        return std::nullopt;
  LinearLayout rows(linear.getShape());
  for (const LinearLayout::Coord &basis : registers.drop_front(3))
    rows.addBasis(HWDim::Register, basis);
  for (const LinearLayout::Coord &basis : rowBases)
    rows.addBasis(HWDim::Lane, basis);
  for (const LinearLayout::Coord &basis : linear.getBases(HWDim::Warp))
    rows.addBasis(HWDim::Warp, basis);
  return BlockLayout{staged.shape, rows};
}

/// Whether `stmatrix.x4` at the row starts of `rows` writes every element
/// of `staged`'s registers where spillToShared would (its flattened,
/// swizzled coordinate), by stmatrix's fragment semantics (ldmatrix's
/// inverse): word m of lane t holds elements 2(t % 4) and 2(t % 4) + 1 of
/// row t / 4 of matrix m, whose 16 bytes lane 8m + r addresses for row r.
/// stMatrixRows reads the fragments off the layout's bases; this checks its
/// reading for every instruction, lane and warp at compile time, so that a
/// layout it misreads is staged by plain stores instead of written
/// elsewhere.
static bool stMatrixWritesStaging(const BlockLayout &staged,
                                  const BlockLayout &rows,
                                  const SharedSwizzle &swizzle) {
  const LinearLayout &linear = staged.linear;
  if (linear.getSize(HWDim::Lane) != 32 ||
      linear.getNumRegisters() != 8 * rows.numRegisters() ||
      rows.linear.getSize(HWDim::Warp) != linear.getSize(HWDim::Warp))
    return false;
  for (int64_t i = 0; i < rows.numRegisters(); ++i)
    for (int64_t warp = 0; warp < linear.getSize(HWDim::Warp); ++warp)
      for (int64_t lane = 0; lane < 32; ++lane) {
        LinearLayout::Coord start = rows.linear.apply(i, lane, warp);
        uint64_t row = linear.flatten(swizzle.apply(start));
        if (row % 8 != 0) // 16 bytes, aligned
          return false;
        int64_t matrix = lane / 8, rowOfMatrix = lane % 8;
        for (int64_t column = 0; column < 8; ++column) {
          LinearLayout::Coord expected = start;
          expected.back() += column;
          LinearLayout::Coord held =
              linear.apply(8 * i + 2 * matrix + column % 2,
                           4 * rowOfMatrix + column / 2, warp);
          if (held != expected ||
              linear.flatten(swizzle.apply(held)) != row + column)
            return false;
        }
      }
  return true;
}

/// Two 16-bit values as one 32-bit word (`low` in its low half). Where both
/// are f32 values rounded (an accumulator's), they are rounded here as a
/// pair: `cvt.rn.f16x2.f32` writes the word in one instruction, in the
/// register the store reads, where rounding each where the accumulator was
/// (another block of the kernel: its exit, after the loop) left ptxas
/// moving every word into place.
static Value packWord(OpBuilder &builder, Location loc, Value low, Value high) {
  Type type = low.getType();
  auto lowTrunc = low.getDefiningOp<arith::TruncFOp>();
  auto highTrunc = high.getDefiningOp<arith::TruncFOp>();
  SmallVector<Value> halves{low, high};
  if (lowTrunc && highTrunc && lowTrunc.getIn().getType().isF32() &&
      highTrunc.getIn().getType().isF32() && !lowTrunc.getRoundingmodeAttr() &&
      !highTrunc.getRoundingmodeAttr())
    halves = {lowTrunc.getIn(), highTrunc.getIn()};
  Type halfType = halves[0].getType();
  Value vector =
      LLVM::UndefOp::create(builder, loc, VectorType::get({2}, halfType));
  for (auto [i, half] : llvm::enumerate(halves))
    vector = LLVM::InsertElementOp::create(
        builder, loc, vector, half,
        arith::ConstantIntOp::create(builder, loc, i, 32));
  if (halfType != type)
    vector = arith::TruncFOp::create(builder, loc, VectorType::get({2}, type),
                                     vector);
  return LLVM::BitcastOp::create(builder, loc, builder.getI32Type(), vector);
}

void KernelEmitter::storeMatrices(Location loc, ArrayRef<Value> values,
                                  const BlockLayout &rows,
                                  const SharedSwizzle &swizzle) {
  Type i32 = builder.getI32Type();
  SmallVector<Value> indices = stagedIndices(loc, rows, 1, swizzle);
  for (int64_t i = 0; i < rows.numRegisters(); ++i) {
    Value address = LLVM::PtrToIntOp::create(
        builder, loc, i32,
        sharedAddress(loc, values[0].getType(), constI32(loc, 0), indices[i]));
    SmallVector<Value> words;
    for (int64_t word = 0; word < 4; ++word)
      words.push_back(packWord(builder, loc, values[8 * i + 2 * word],
                               values[8 * i + 2 * word + 1]));
    createStMatrix(builder, loc, address, words);
  }
}

SmallVector<Value> KernelEmitter::exchangeThroughShared(
    Location loc, Type elementType, ArrayRef<Value> values,
    const BlockLayout &src, const BlockLayout &dst, Operation *op) {
  int64_t elements = 1;
  for (int64_t extent : src.linear.getShape())
    elements *= extent;
  int64_t bytes = elementBytes(storageType(elementType));
  reserveShared(elements * bytes);
  Value zero = constI32(loc, 0);
  bool identity = !op || isa<ConvertLayoutOp>(op);
  unsigned rank = src.getRank();
  int64_t maxVector = std::max<int64_t>(1, 16 / bytes);
  // The block is staged row-major with the dimension the writers hold
  // contiguously fastest (else the readers'), so that one side's accesses
  // are vectors: the staging is the row-major order of a permuted block.
  LinearLayout::Run srcRun = src.linear.getContiguousRun();
  LinearLayout::Run dstRun = dst.linear.getContiguousRun();
  unsigned fastest = srcRun.length > 1               ? srcRun.dim
                     : identity && dstRun.length > 1 ? dstRun.dim
                                                     : rank - 1;
  SmallVector<int32_t> order;
  for (unsigned d = 0; d < rank; ++d)
    if (d != fastest)
      order.push_back(d);
  order.push_back(fastest);
  auto permuted = [&](const BlockLayout &layout) {
    BlockLayout result{{}, layout.linear.permute(order)};
    result.shape.assign(inStagedOrder(ArrayRef(layout.shape), order));
    return result;
  };
  BlockLayout staged = permuted(src);
  unsigned keptBits =
      srcRun.dim == fastest
          ? llvm::Log2_64(std::min<int64_t>(srcRun.length, maxVector))
          : 0;
  int64_t width = identity && dstRun.dim == fastest
                      ? std::min<int64_t>(dstRun.length, maxVector)
                      : int64_t(1);
  // 16-bit accumulator fragments read back as vectors along their rows (an
  // f16 or bf16 product on its way to a store) are written by stmatrix, 16
  // bytes per lane where plain stores write the register pairs, 4 bytes
  // each; its 8 lanes of a phase write 8 rows, swizzled apart keeping the
  // readers' vectors of up to 16 bytes whole.
  Type storage = storageType(elementType);
  std::optional<BlockLayout> matrixRows;
  if (identity && width > 1 && getChipVersion(chip) >= 90 &&
      (storage.isF16() || storage.isBF16() || storage.isInteger(16)))
    matrixRows = stMatrixRows(staged);
  // Reads along the staged rows are contiguous; reads across them (a
  // transpose) are swizzled so that they spread over the banks, keeping the
  // writers' vectors intact.
  SharedSwizzle swizzle;
  if (matrixRows) {
    swizzle =
        chooseSwizzle(*matrixRows, bytes, maxVector, llvm::Log2_64(maxVector));
    if (!stMatrixWritesStaging(staged, *matrixRows, swizzle)) {
      matrixRows.reset();
      swizzle = SharedSwizzle();
    }
  }
  if (!matrixRows && identity && width == 1)
    swizzle = chooseSwizzle(permuted(dst), bytes, width, keptBits);
  else if (!matrixRows && identity && (int64_t(1) << keptBits) < width)
    // The writers' vectors are narrower than the readers' (an accumulator's
    // pairs, read back as 16-byte rows for the stores): swizzle for the
    // writers, whose rows would otherwise share banks, keeping the readers'
    // vectors intact.
    swizzle = chooseSwizzle(staged, bytes, int64_t(1) << keptBits,
                            llvm::Log2_64(width));
  // A reshape of padded blocks maps through real linear indices: the
  // padding of the destination may map anywhere, so it reads element 0.
  bool clamp = isa_and_nonnull<ReshapeOp>(op);
  barrier(loc);
  if (matrixRows)
    storeMatrices(loc, values, *matrixRows, swizzle);
  else
    spillToShared(loc, values, staged, zero, swizzle);
  barrier(loc);
  SmallVector<Value> result(dst.numRegisters());
  // A conversion's reads: each register's staged index, one per thread and
  // constants where the index is linear in the bits (registerOffsets).
  // The staged index of the element at `coords` of the block: its
  // coordinates in the staged order, swizzled, row-major.
  auto stagedIndex = [&](ArrayRef<Value> coords) {
    return linearIndex(
        loc, staged.linear.getShape(),
        swizzleCoords(loc, inStagedOrder(coords, order), swizzle));
  };
  SmallVector<Value> identityIndices;
  if (identity)
    identityIndices = registerOffsets(
        loc, dst, width,
        [&](const LinearLayout::Coord &coord) {
          return int64_t(staged.linear.flatten(
              swizzle.apply(inStagedOrder(ArrayRef(coord), order))));
        },
        [&](int64_t reg) { return stagedIndex(registerCoords(dst, reg)); });
  std::map<uint64_t, int64_t> loadedAt;
  for (int64_t first = 0; first < dst.numRegisters(); first += width) {
    uint64_t key = dst.linear.flatten(dst.linear.apply(HWDim::Register, first));
    if (auto it = loadedAt.find(key); it != loadedAt.end()) {
      for (int64_t i = 0; i < width; ++i)
        result[first + i] = result[it->second + i];
      continue;
    }
    loadedAt[key] = first;
    Value index;
    if (identity) {
      index = identityIndices[first / width];
    } else {
      index = stagedIndex(mapCoordsToOperand(op, registerCoords(dst, first)));
    }
    if (clamp)
      if (Value valid = registerValid(dst, first))
        index = arith::SelectOp::create(builder, loc, valid, index, zero);
    SmallVector<Value> loaded =
        loadSharedVector(loc, zero, index, elementType, width);
    for (int64_t i = 0; i < width; ++i)
      result[first + i] = loaded[i];
  }
  return result;
}
