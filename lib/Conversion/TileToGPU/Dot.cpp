//===- Dot.cpp - matrix products ------------------------------------------===//
//
// A dot in a blocked layout runs on FMA. A dot whose result has a
// `#tile.mma` layout of version 3 runs on Hopper's wgmma: both operands are
// staged in shared memory in the layout the tensor cores read (rows of a
// swizzle width, 16-byte chunks XOR-swizzled by the row, as the TMA and
// wgmma's matrix descriptors define it), then each warpgroup issues one
// `wgmma.mma_async` per 64-row, instr-column tile and 16-deep step, commits,
// and waits.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"
#include "StagedMatrix.h"

#include "llvm/Support/MathExtras.h"
#include <set>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

static Value constant(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(builder, loc, value, 32);
}

StagedMatrix StagedMatrix::get(int64_t rows, int64_t cols, int64_t elementBytes,
                               bool transposed) {
  int64_t rowBytes = (transposed ? rows : cols) * elementBytes;
  int64_t swizzle = rowBytes >= 128 ? 128 : rowBytes >= 64 ? 64 : 32;
  return {rows, cols, elementBytes, swizzle, transposed};
}

Value StagedMatrix::logicalOffset(OpBuilder &builder, Location loc, Value row,
                                  Value col) const {
  if (transposed)
    std::swap(row, col); // the stored row and column
  // (col / perRow) * storedRows * swizzle + row * swizzle
  //   + (col % perRow) * bytes
  int64_t perRow = elementsPerRow();
  Value block = arith::ShRUIOp::create(
      builder, loc, col, constant(builder, loc, llvm::Log2_64(perRow)));
  Value within = arith::AndIOp::create(builder, loc, col,
                                       constant(builder, loc, perRow - 1));
  return arith::AddIOp::create(
      builder, loc,
      arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, block,
                                constant(builder, loc, leadingBytes())),
          arith::MulIOp::create(builder, loc, row,
                                constant(builder, loc, swizzleBytes))),
      arith::MulIOp::create(builder, loc, within,
                            constant(builder, loc, elementBytes)));
}

Value StagedMatrix::physicalOffset(OpBuilder &builder, Location loc, Value row,
                                   Value col) const {
  // The 16-byte chunk flips with the row bits above it (address bits 7..9
  // onto 4..6 for 128-byte swizzling); column blocks start 1024-aligned, so
  // the bits above a row are the row's.
  Value logical = logicalOffset(builder, loc, row, col);
  int64_t mask = (swizzleBytes / 16 - 1) << 4;
  Value flip = arith::AndIOp::create(
      builder, loc,
      arith::ShRUIOp::create(builder, loc, logical, constant(builder, loc, 3)),
      constant(builder, loc, mask));
  return arith::XOrIOp::create(builder, loc, logical, flip);
}

Value StagedMatrix::descriptorStart(OpBuilder &builder, Location loc,
                                    Value start, Value row, Value col) const {
  Value address = arith::AddIOp::create(builder, loc, start,
                                        logicalOffset(builder, loc, row, col));
  Value field = arith::AndIOp::create(
      builder, loc,
      arith::ShRUIOp::create(builder, loc, address, constant(builder, loc, 4)),
      constant(builder, loc, 0x3FFF));
  return arith::ExtUIOp::create(builder, loc, builder.getI64Type(), field);
}

int64_t StagedMatrix::logicalOffset(int64_t row, int64_t col) const {
  if (transposed)
    std::swap(row, col);
  int64_t perRow = elementsPerRow();
  return col / perRow * leadingBytes() + row * swizzleBytes +
         col % perRow * elementBytes;
}

int64_t StagedMatrix::physicalOffset(int64_t row, int64_t col) const {
  int64_t logical = logicalOffset(row, col);
  return logical ^ ((logical >> 3) & ((swizzleBytes / 16 - 1) << 4));
}

Value StagedMatrix::descriptor(OpBuilder &builder, Location loc, Value start,
                               int64_t row, int64_t col) const {
  // The offset is separable in the row and the column and a multiple of 16
  // bytes, and shared addresses fit the 14-bit field (256 KiB) with room to
  // spare: it adds to the field without a carry out of it. The other fields
  // are constants, added in the same 64-bit add, which LLVM must not turn
  // into an `or`: ptxas then keeps one start in a uniform register and adds
  // each K step's constant there (UIADD3.64), as for Triton's descriptors;
  // with `or`s it built each descriptor in vector registers and moved it
  // (R2UR), which cost tutorial 06's D128 backward 360 bytes of spills.
  int64_t offset = logicalOffset(row, col);
  assert(offset % 16 == 0 && "descriptors address 16-byte units");
  uint64_t low =
      uint64_t(offset >> 4) | (uint64_t(leadingBytes() >> 4) & 0x3FFF) << 16;
  uint64_t high = (uint64_t(strideBytes() >> 4) & 0x3FFF) | uint64_t(mode())
                                                                << 30;
  return createOpaqueAdd64(builder, loc, start, int64_t(high << 32 | low));
}

LogicalResult KernelEmitter::emitDot(DotOp op) {
  if (auto mma = dyn_cast<MmaLayoutAttr>(
          cast<BlockType>(op.getType()).getEncoding())) {
    if (mma.getVersion() == 3)
      return emitWarpGroupDot(op, mma);
    return emitMmaSyncDot(op, mma);
  }
  // Register-tiled FMA: a and b go to shared memory in their own type (in
  // the row-major order of their padded shapes); each thread accumulates its
  // registers of the result over k, in f32 (i8 inputs: in i32, exactly; f64
  // ones in f64). A rank-3 dot is a batch of them: the leading coordinate of
  // a result register picks its a and b. Rows and columns in the padding
  // read padding and are never stored.
  Location loc = op.getLoc();
  auto aType = cast<BlockType>(op.getA().getType());
  auto bType = cast<BlockType>(op.getB().getType());
  auto cType = cast<BlockType>(op.getAcc().getType());
  BlockLayout aLayout = getBlockLayout(aType), bLayout = getBlockLayout(bType);
  SmallVector<Value> aValues = getRegisters(op.getA());
  SmallVector<Value> bValues = getRegisters(op.getB());
  Type element = aType.getElementType();
  if (isFloat8Type(element) || isFloat8Type(bType.getElementType())) {
    // 8-bit floats (each operand its own kind) multiply exactly in f16, as
    // Triton's FMA dot computes them.
    element = builder.getF16Type();
    auto widen = [&](SmallVector<Value> &values, Type from) {
      for (Value &value : values)
        value = castElement(loc, value, from, element, false, false, false);
    };
    widen(aValues, aType.getElementType());
    widen(bValues, bType.getElementType());
  }
  int64_t rank = aType.getRank();
  ArrayRef<int64_t> aPadded = aLayout.linear.getShape();
  ArrayRef<int64_t> bPadded = bLayout.linear.getShape();
  int64_t k = aType.getShape()[rank - 1];
  int64_t mPadded = aPadded[rank - 2], kPadded = aPadded[rank - 1];
  int64_t bkPadded = bPadded[rank - 2], nPadded = bPadded[rank - 1];
  int64_t bytes = elementBytes(element);
  int64_t bOffset =
      (ShapedType::getNumElements(aPadded) * bytes + 15) / 16 * 16;
  reserveShared(bOffset + ShapedType::getNumElements(bPadded) * bytes);
  Value zero = constI32(loc, 0);
  Value bBase = constI32(loc, bOffset);
  barrier(loc);
  spillToShared(loc, aValues, aLayout, zero);
  spillToShared(loc, bValues, bLayout, bBase);
  barrier(loc);
  BlockLayout layout = getBlockLayout(cType);
  SmallVector<Value> accumulators = getRegisters(op.getAcc());
  // Per result register: the first element of its row of a and of its
  // column of b (the batch's matrices, in a batch), one value per distinct
  // row or column, so that the loop loads each once.
  llvm::DenseMap<std::pair<Value, Value>, Value> aStarts, bStarts;
  SmallVector<Value> aRowStarts, bColumnStarts;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    SmallVector<Value> coords = registerCoords(layout, reg);
    Value batch = rank == 3 ? coords[0] : Value();
    Value row = coords[rank - 2], col = coords[rank - 1];
    auto start = [&](int64_t batchStride, Value offset) -> Value {
      if (!batch)
        return offset;
      return arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, batch,
                                constI32(loc, batchStride)),
          offset);
    };
    Value &aRow = aStarts[{batch, row}];
    if (!aRow)
      aRow = start(
          mPadded * kPadded,
          arith::MulIOp::create(builder, loc, row, constI32(loc, kPadded)));
    Value &bColumn = bStarts[{batch, col}];
    if (!bColumn)
      bColumn = start(bkPadded * nPadded, col);
    aRowStarts.push_back(aRow);
    bColumnStarts.push_back(bColumn);
  }
  bool integer = element.isInteger(8);
  Type wide = integer           ? Type(builder.getI32Type())
              : element.isF64() ? element
                                : builder.getF32Type();
  auto widen = [&](Value value) -> Value {
    if (value.getType() == wide)
      return value;
    if (integer)
      return arith::ExtSIOp::create(builder, loc, wide, value);
    return arith::ExtFOp::create(builder, loc, wide, value);
  };
  auto multiplyAdd = [&](Value a, Value b, Value acc) -> Value {
    // LLVM's fma, not math.fma: the latter becomes libdevice's __nv_fmaf,
    // which flushes subnormals under reflect-ftz; Triton's FMA dot does not.
    if (!integer)
      return LLVM::FMAOp::create(builder, loc, a, b, acc);
    return arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, a, b), acc);
  };
  auto kLoop = scf::ForOp::create(builder, loc, zero, constI32(loc, k),
                                  constI32(loc, 1), accumulators);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(kLoop.getBody());
    pushScope();
    Value kk = kLoop.getInductionVar();
    Value kRow =
        arith::MulIOp::create(builder, loc, kk, constI32(loc, nPadded));
    SmallVector<Value> next;
    llvm::DenseMap<Value, Value> aCache, bCache;
    for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
      Value &a = aCache[aRowStarts[reg]];
      if (!a)
        a = widen(loadShared(
            loc, zero, arith::AddIOp::create(builder, loc, aRowStarts[reg], kk),
            element));
      Value &b = bCache[bColumnStarts[reg]];
      if (!b)
        b = widen(loadShared(
            loc, bBase,
            arith::AddIOp::create(builder, loc, kRow, bColumnStarts[reg]),
            element));
      next.push_back(multiplyAdd(a, b, kLoop.getRegionIterArgs()[reg]));
    }
    popScope();
    scf::YieldOp::create(builder, loc, next);
  }
  registers[op.getResult()] = SmallVector<Value>(kLoop.getResults());
  return success();
}

/// Whether wgmma reads the operands of `a`'s element type K-major only
/// (8-bit floats and tf32; only 16-bit ones can be transposed): A stored
/// row-major, B transposed.
static bool needsKMajorOperands(BlockType a) {
  return a.getElementType().getIntOrFloatBitWidth() != 16;
}

/// The operands of a wgmma dot, stored transposed where asked, or a
/// diagnostic on `op` saying why the tensor cores cannot take them.
static FailureOr<std::pair<StagedMatrix, StagedMatrix>>
stageForTensorCores(Operation *op, BlockType a, BlockType b, bool aTransposed,
                    bool bTransposed) {
  if (needsKMajorOperands(a) && (aTransposed || !bTransposed))
    return op->emitOpError() << "on tensor cores needs K-major 8-bit operands "
                                "and tf32 operands (A and B with K "
                                "contiguous)";
  int64_t bytes = elementBytes(a.getElementType());
  int64_t m = a.getShape()[0], k = a.getShape()[1], n = b.getShape()[1];
  for (int64_t extent : {m, n, k})
    if (!llvm::isPowerOf2_64(extent))
      return op->emitOpError() << "on tensor cores needs power-of-two extents";
  StagedMatrix sa = StagedMatrix::get(m, k, bytes, aTransposed);
  StagedMatrix sb = StagedMatrix::get(k, n, bytes, bTransposed);
  if (!sa.fitsTensorCores() || !sb.fitsTensorCores())
    return op->emitOpError() << "on tensor cores needs rows of at least 32 "
                                "bytes in both operands";
  return std::make_pair(sa, sb);
}

/// Whether a register-held operand is stored transposed for the tensor
/// cores: when its registers run along the rows (dimension 0), so that each
/// run is one vector store either way.
static bool runsAlongRows(const BlockLayout &layout) {
  LinearLayout::Run run = layout.linear.getContiguousRun();
  return run.dim == 0 && run.length > 1;
}

/// Whether `a` is held the way wgmma reads an A operand from registers: 16-bit
/// elements in the accumulator layout of the dot's own warps, one warp
/// column (each warpgroup holds whole rows), instruction tiles of whole
/// 16-column steps that the block's columns fill. An earlier dot's result
/// converted to f16 (attention's probabilities) is.
SmallVector<SmallVector<Value, 4>>
KernelEmitter::registerFragments(Value operand, int64_t m, int64_t k) {
  // The accumulator layout's registers of one instruction tile: bit 0 the
  // next column, bit 1 the row 8 below, the bits above 8-column steps
  // (MmaLayoutAttr::toLinearLayout); tiles repeat along the columns first.
  // A 64x16 A fragment is the accumulator fragment of 16 columns: registers
  // 2j and 2j + 1 from the step's first, packed, for j = 0..3.
  Location loc = operand.getLoc();
  auto type = cast<BlockType>(operand.getType());
  auto layout = cast<MmaLayoutAttr>(type.getEncoding());
  SmallVector<Value> values = getRegisters(operand);
  int64_t instrN = layout.getInstrN(), perTile = instrN / 2;
  int64_t rowTile = 16 * int64_t(layout.getWarpsPerCTA()[0]);
  int64_t repsM = std::max<int64_t>(1, m / rowTile);
  int64_t repsN = std::max<int64_t>(1, k / instrN);
  auto pair = VectorType::get({2}, type.getElementType());
  Type i32 = builder.getI32Type();
  SmallVector<SmallVector<Value, 4>> fragments;
  for (int64_t rm = 0; rm < repsM; ++rm)
    for (int64_t kk = 0; kk < k; kk += 16) {
      int64_t first = (rm * repsN + kk / instrN) * perTile + (kk % instrN) / 2;
      SmallVector<Value, 4> words;
      for (int64_t j = 0; j < 4; ++j) {
        Value packed = LLVM::UndefOp::create(builder, loc, pair);
        for (int64_t half = 0; half < 2; ++half)
          packed = LLVM::InsertElementOp::create(builder, loc, packed,
                                                 values[first + 2 * j + half],
                                                 constI32(loc, half));
        words.push_back(LLVM::BitcastOp::create(builder, loc, i32, packed));
      }
      fragments.push_back(std::move(words));
    }
  return fragments;
}

void KernelEmitter::stageOperand(Value operand, const StagedMatrix &matrix,
                                 int64_t offset, ArrayRef<Value> converted) {
  // Each register run along the contiguous dimension is one vector store (at
  // most a 16-byte chunk, which the swizzle keeps whole).
  Location loc = operand.getLoc();
  int64_t bytes = matrix.elementBytes;
  BlockLayout layout = getBlockLayout(cast<BlockType>(operand.getType()));
  SmallVector<Value> values =
      converted.empty() ? getRegisters(operand) : SmallVector<Value>(converted);
  LinearLayout::Run run = layout.linear.getContiguousRun();
  int64_t width = run.dim == matrix.contiguousDim()
                      ? std::min<int64_t>(run.length, 16 / bytes)
                      : int64_t(1);
  std::set<uint64_t> written;
  for (int64_t first = 0; first < layout.numRegisters(); first += width) {
    if (!written
             .insert(layout.linear.flatten(
                 layout.linear.apply(HWDim::Register, first)))
             .second)
      continue;
    SmallVector<Value> coords = registerCoords(layout, first);
    Value physical = matrix.physicalOffset(builder, loc, coords[0], coords[1]);
    Value index =
        arith::DivUIOp::create(builder, loc, physical, constI32(loc, bytes));
    storeSharedVector(loc, constI32(loc, offset), index,
                      ArrayRef<Value>(values).slice(first, width));
  }
}

LogicalResult KernelEmitter::emitWarpGroupDot(DotOp op, MmaLayoutAttr mma) {
  Location loc = op.getLoc();
  auto aType = cast<BlockType>(op.getA().getType());
  auto bType = cast<BlockType>(op.getB().getType());
  // 8-bit operands are stored K-major whatever their registers hold (then
  // element by element where those run along M or N).
  bool kMajor = needsKMajorOperands(aType);
  auto staged = stageForTensorCores(
      op, aType, bType, !kMajor && runsAlongRows(getBlockLayout(aType)),
      kMajor || runsAlongRows(getBlockLayout(bType)));
  if (failed(staged))
    return failure();
  auto [a, b] = *staged;
  // An A already in wgmma's register form is read from the registers.
  SmallVector<SmallVector<Value, 4>> aFragments;
  if (isWarpGroupRegisterOperand(aType, mma))
    aFragments = registerFragments(op.getA(), a.rows, a.cols);
  int64_t bOffset = aFragments.empty() ? a.alignedBytes() : 0;
  reserveShared(bOffset + b.bytes());

  barrier(loc);
  if (aFragments.empty())
    stageOperand(op.getA(), a, 0);
  stageOperand(op.getB(), b, bOffset);
  // The tensor cores read shared memory through the async proxy.
  createSideEffectAsm(builder, loc, "fence.proxy.async.shared::cta;");
  barrier(loc);
  Value start = LLVM::PtrToIntOp::create(builder, loc, builder.getI32Type(),
                                         sharedBase(loc));
  return issueWarpGroupMma(
      op, mma, a, start, aFragments, b,
      arith::AddIOp::create(builder, loc, start, constI32(loc, bOffset)),
      aType.getElementType(), bType.getElementType(), op.getAcc());
}

LogicalResult KernelEmitter::emitMmaSyncDot(DotOp op, MmaLayoutAttr mma) {
  // Both operands go to shared memory in the tensor cores' swizzled form (as
  // for wgmma), each warp reads its fragments with ldmatrix and multiplies
  // 16 x 8 tiles one instruction step deep with mma.sync, accumulating in
  // its registers of the result: the accumulator layout's tiles are
  // mma.sync's (d0..d3: row l / 4 columns 2 (l % 4) and + 1, then 8 rows
  // below). 8-bit floats are widened to f16 first (exactly; mma.sync's own
  // fp8 forms need sm_89 and PTX 8.4).
  Location loc = op.getLoc();
  auto aType = cast<BlockType>(op.getA().getType());
  auto bType = cast<BlockType>(op.getB().getType());
  SmallVector<Value> aWide, bWide;
  if (isFloat8Type(aType.getElementType())) {
    Type f16 = builder.getF16Type();
    auto widen = [&](Value operand, BlockType type) {
      SmallVector<Value> values = getRegisters(operand);
      for (Value &value : values)
        value = castElement(loc, value, type.getElementType(), f16, false,
                            false, false);
      return values;
    };
    aWide = widen(op.getA(), aType);
    bWide = widen(op.getB(), bType);
    aType = cast<BlockType>(aType.clone(f16));
    bType = cast<BlockType>(bType.clone(f16));
  }
  // ldmatrix transposes 16-bit elements only: 8-bit and tf32 operands are
  // stored K-major (A row-major, B transposed) whatever their registers hold.
  bool kMajor = needsKMajorOperands(aType);
  auto staged = stageForTensorCores(
      op, aType, bType, !kMajor && runsAlongRows(getBlockLayout(aType)),
      kMajor || runsAlongRows(getBlockLayout(bType)));
  if (failed(staged))
    return failure();
  auto [a, b] = *staged;
  int64_t bOffset = a.alignedBytes();
  reserveShared(bOffset + b.bytes());
  barrier(loc);
  stageOperand(op.getA(), a, 0, aWide);
  stageOperand(op.getB(), b, bOffset, bWide);
  barrier(loc);
  Value start = LLVM::PtrToIntOp::create(builder, loc, builder.getI32Type(),
                                         sharedBase(loc));
  FailureOr<SmallVector<Value>> product = issueMmaSync(
      op, mma, a, start, b,
      arith::AddIOp::create(builder, loc, start, constI32(loc, bOffset)),
      aType.getElementType(), bType.getElementType(), op.getAcc());
  if (failed(product))
    return failure();
  registers[op.getResult()] = std::move(*product);
  return success();
}

FailureOr<SmallVector<Value>>
KernelEmitter::issueMmaSync(Operation *op, MmaLayoutAttr mma,
                            const StagedMatrix &a, Value aStart,
                            const StagedMatrix &b, Value bStart, Type aElement,
                            Type bElement, Value accumulator) {
  Location loc = op->getLoc();
  int64_t m = a.rows, k = a.cols, n = b.cols;
  ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
  int64_t rowTile = 16 * int64_t(warps[0]), colTile = 8 * int64_t(warps[1]);
  int64_t repsM = std::max<int64_t>(1, m / rowTile);
  int64_t repsN = std::max<int64_t>(1, n / colTile);
  SmallVector<Value> acc = getRegisters(accumulator);
  if (int64_t(acc.size()) != repsM * repsN * 4)
    return op->emitOpError() << "accumulator registers do not match the "
                                "mma.sync tiles of its layout";
  // One step is 32 bytes of K, two 8x8 ldmatrix matrices of 16-byte rows.
  StringRef type = getTensorCoreType(aElement);
  int64_t depth = 32 / a.elementBytes, half = depth / 2;
  if (type.empty() || bElement != aElement ||
      int64_t(mma.getInstrK()) != depth || k % depth != 0)
    return op->emitOpError() << "has no mma.sync for its operands";
  // The warp's first tile: warps along the rows first, as the layout has
  // them; warps past the block's extent repeat its tiles (their bases are
  // dropped).
  auto [warpRow, warpCol] = warpPosition(loc, warps);
  Value rowStart = arith::RemUIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, warpRow, constI32(loc, 16)),
      constI32(loc, m));
  Value colStart = arith::RemUIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, warpCol, constI32(loc, 8)),
      constI32(loc, n));
  // ldmatrix: lane l gives the address of row l % 8 of 8x8 matrix l / 8,
  // a stored row being 16 bytes along the contiguous dimension; the
  // fragments hold 32-bit words along K (2 16-bit, 4 8-bit elements or one
  // tf32 one), so a 16-bit matrix stored with K not contiguous is read
  // transposed (.trans).
  Value matrixId =
      arith::DivUIOp::create(builder, loc, laneId(), constI32(loc, 8));
  Value rowInMatrix =
      arith::RemUIOp::create(builder, loc, laneId(), constI32(loc, 8));
  // The address lane l gives for the 8x8 matrix at (`row`, `col`) of
  // `matrix` (logical coordinates; the matrix at shared address `base`).
  auto rowAddress = [&](const StagedMatrix &matrix, Value base, Value row,
                        Value col) {
    Value r = row, c = col;
    if (matrix.contiguousDim() == 1)
      r = arith::AddIOp::create(builder, loc, row, rowInMatrix);
    else
      c = arith::AddIOp::create(builder, loc, col, rowInMatrix);
    return arith::AddIOp::create(builder, loc, base,
                                 matrix.physicalOffset(builder, loc, r, c));
  };
  auto plus = [&](Value value, Value extra) {
    return arith::AddIOp::create(builder, loc, value, extra);
  };
  // Matrix q of A's x4: rows + 8 (q % 2), K + half a step (q / 2): a0..a3.
  // Matrix q of B's x4: K + half a step (q % 2), the next tile's columns
  // (q / 2): b0, b1 of two tiles side by side; of an x2 for a last odd tile
  // (lanes 0..15 give addresses), q < 2.
  Value odd = arith::RemUIOp::create(builder, loc, matrixId, constI32(loc, 2));
  Value aRowOffset = arith::MulIOp::create(builder, loc, odd, constI32(loc, 8));
  Value bRowOffset =
      arith::MulIOp::create(builder, loc, odd, constI32(loc, half));
  Value upper =
      arith::DivUIOp::create(builder, loc, matrixId, constI32(loc, 2));
  Value aColOffset =
      arith::MulIOp::create(builder, loc, upper, constI32(loc, half));
  Value bColOffset =
      arith::MulIOp::create(builder, loc, upper, constI32(loc, colTile));
  bool aTrans = a.contiguousDim() != 1, bTrans = b.contiguousDim() != 0;
  SmallVector<Value> result(acc);
  for (int64_t kk = 0; kk < k; kk += depth) {
    SmallVector<SmallVector<Value>> aFragments, bFragments;
    for (int64_t rm = 0; rm < repsM; ++rm) {
      Value row = plus(plus(rowStart, constI32(loc, rm * rowTile)), aRowOffset);
      Value col = plus(constI32(loc, kk), aColOffset);
      aFragments.push_back(createLdMatrix(
          builder, loc, rowAddress(a, aStart, row, col), 4, aTrans));
    }
    for (int64_t rn = 0; rn < repsN; rn += 2) {
      Value row = plus(constI32(loc, kk), bRowOffset);
      Value col = plus(colStart, constI32(loc, rn * colTile));
      bool pair = rn + 1 < repsN;
      if (pair)
        col = plus(col, bColOffset);
      SmallVector<Value> loaded = createLdMatrix(
          builder, loc, rowAddress(b, bStart, row, col), pair ? 4 : 2, bTrans);
      for (size_t first = 0; first < loaded.size(); first += 2)
        bFragments.push_back({loaded[first], loaded[first + 1]});
    }
    for (int64_t rm = 0; rm < repsM; ++rm)
      for (int64_t rn = 0; rn < repsN; ++rn) {
        int64_t base = (rm * repsN + rn) * 4;
        SmallVector<Value> tile =
            createMmaSync(builder, loc, ArrayRef<Value>(result).slice(base, 4),
                          aFragments[rm], bFragments[rn], type);
        llvm::copy(tile, result.begin() + base);
      }
  }
  return result;
}

/// Whether an earlier `tile.ring_dot` of `op`'s block, with no
/// `tile.async_wait` after it, has made the ring copies visible to every
/// thread already (its fence and barrier): `op`'s slots were complete at the
/// same wait (tile-async-dot-operands waits once for the dots between two
/// commits, as attention's two products are).
static bool copiesVisibleFromEarlierDot(RingDotOp op) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (isa<RingDotOp>(prev))
      return true;
    if (prev->walk([](AsyncWaitOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return false;
  }
  return false;
}

LogicalResult KernelEmitter::emitRingDot(RingDotOp op) {
  Location loc = op.getLoc();
  auto mma = cast<MmaLayoutAttr>(cast<BlockType>(op.getType()).getEncoding());
  BlockType aType = op.getABlock();
  auto aRing = dyn_cast<TypedValue<RingType>>(op.getA());
  auto staged = stageForTensorCores(
      op, aType, op.getBBlock(),
      aRing ? ringTransposed.lookup(aRing)
            : runsAlongRows(getBlockLayout(aType)),
      // A transposed view flips how the slot is stored.
      ringTransposed.lookup(op.getB()) != op.getBTransposed());
  if (failed(staged))
    return failure();
  auto [a, b] = *staged;
  if (mma.getVersion() == 2)
    return emitRingMmaSync(op, mma, a, b);
  // An A in registers (the verifier checked its layout) is read from them.
  SmallVector<SmallVector<Value, 4>> aFragments;
  if (!aRing)
    aFragments = registerFragments(op.getA(), a.rows, a.cols);
  // In a K loop where the only group in flight is this dot's previous
  // iteration, that group keeps running through the barrier and into this
  // dot (which accumulates onto its registers, as wgmma allows): it is
  // waited for only after this dot's group is issued, so the tensor cores
  // never drain between iterations.
  bool overlap =
      defersWarpGroupWait(op) && asyncMmaPending && asyncMmaResults.empty();
  // Groups in flight that read only rings and registers, and whose results
  // this dot does not read, may keep running while it is issued.
  bool independent = asyncMmaPending && !asyncMmaReadsScratch &&
                     llvm::none_of(op->getOperands(), [&](Value operand) {
                       return llvm::is_contained(asyncMmaResults, operand);
                     });
  // They do where this dot's wait covers them: groups of the previous
  // iteration that other ops read later (attention's p @ v), or any when this
  // dot is waited for as soon as it is issued (attention's backward: dP's
  // group issued under dV's, q k^T's under the previous iteration's dK and
  // dV, whose accumulators only their next groups read).
  bool carried = !overlap && independent &&
                 (!defersWarpGroupWait(op) ||
                  (!asyncMmaResults.empty() &&
                   llvm::all_of(asyncMmaResults, [&](Value value) {
                     auto arg = dyn_cast<BlockArgument>(value);
                     return arg && arg.getOwner() == op->getBlock();
                   })));
  // TMA fills a ring through the async proxy the tensor cores read
  // through, and every thread has waited on the slot's mbarrier
  // (tile.ring_wait): nothing to fence and no barrier to wait at before
  // the dot.
  bool filledByTma =
      ringBarriers.count(op.getB()) && (!aRing || ringBarriers.count(aRing));
  if (copiesVisibleFromEarlierDot(op)) {
    if (!overlap && !carried)
      waitForAsyncMma(loc);
  } else if (filledByTma) {
    if (!overlap && !carried)
      waitForAsyncMma(loc);
    // The copies that follow overwrite slots that other warps' earlier
    // groups read (and whose barriers they waited on): every warp must be
    // past its wait for those groups before thread 0 arms a slot again,
    // so a barrier precedes them (the overlap's, after the dot, or the
    // copies' own).
    copiesNeedBarrier = true;
  } else {
    // Every thread's copies into the slots are complete (tile.async_wait);
    // the barrier makes all threads' copies visible. cp.async copies need
    // no proxy fence before the tensor cores read them (CUTLASS's and
    // Triton's cp.async mainloops have none); runs stored from registers
    // are generic-proxy writes, which the fence hands to the async proxy
    // the tensor cores read through.
    if (ringsStoredFromRegisters.contains(op.getB()) ||
        (aRing && ringsStoredFromRegisters.contains(aRing)))
      createSideEffectAsm(builder, loc, "fence.proxy.async.shared::cta;");
    if (overlap || carried) {
      gpu::BarrierOp::create(builder, loc);
      copiesNeedBarrier |= carried;
    } else {
      barrier(loc); // waits for what is in flight first
    }
  }
  Value aStart = aRing ? slotAddress(loc, aRing, op.getASlot()) : Value();
  if (failed(issueWarpGroupMma(
          op, mma, a, aStart, aFragments, b,
          slotAddress(loc, op.getB(), op.getBSlot()), aType.getElementType(),
          op.getB().getType().getBlock().getElementType(), op.getAcc())))
    return failure();
  if (overlap) {
    // The previous group is complete in this warp after wait_group 1, and in
    // every warp after the barrier: the copies that follow the dot overwrite
    // the slots it read.
    createSideEffectAsm(builder, loc, "wgmma.wait_group.sync.aligned 1;");
    gpu::BarrierOp::create(builder, loc);
    copiesNeedBarrier = false;
  }
  return success();
}

LogicalResult KernelEmitter::emitRingMmaSync(RingDotOp op, MmaLayoutAttr mma,
                                             const StagedMatrix &a,
                                             const StagedMatrix &b) {
  Location loc = op.getLoc();
  // Every thread's copies into the slots are complete (tile.async_wait):
  // the barrier makes them visible to every warp. It also tells the copies
  // after the dot, which overwrite the slots the previous iteration read,
  // that every warp's ldmatrix of them is done.
  barrier(loc);
  FailureOr<SmallVector<Value>> product =
      issueMmaSync(op, mma, a, slotAddress(loc, op.getA(), op.getASlot()), b,
                   slotAddress(loc, op.getB(), op.getBSlot()),
                   op.getABlock().getElementType(),
                   op.getBBlock().getElementType(), op.getAcc());
  if (failed(product))
    return failure();
  registers[op.getResult()] = std::move(*product);
  return success();
}

LogicalResult KernelEmitter::issueWarpGroupMma(
    Operation *op, MmaLayoutAttr mma, const StagedMatrix &a, Value aStart,
    ArrayRef<SmallVector<Value, 4>> aFragments, const StagedMatrix &b,
    Value bStart, Type aElement, Type bElement, Value accumulator) {
  // Each warpgroup's tiles: 64 rows from its first warp's position, instr
  // columns from the warp's column; repetitions as the layout has them.
  Location loc = op->getLoc();
  int64_t m = a.rows, n = b.cols, k = a.cols;
  ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
  unsigned instrN = mma.getInstrN();
  int64_t rowTile = 16 * warps[0], colTile = int64_t(instrN) * warps[1];
  int64_t repsM = std::max<int64_t>(1, m / rowTile);
  int64_t repsN = std::max<int64_t>(1, n / colTile);
  auto [warpRow, warpColumn] = warpPosition(loc, warps);
  // Warps 4w..4w+3 along the rows are warpgroup w.
  Value groupRow =
      warps[0] <= 4
          ? constI32(loc, 0)
          : arith::MulIOp::create(
                builder, loc,
                arith::ShRUIOp::create(builder, loc, warpRow, constI32(loc, 2)),
                constI32(loc, 64));
  Value warpCol =
      arith::MulIOp::create(builder, loc, warpColumn, constI32(loc, instrN));
  SmallVector<Value> acc = getRegisters(accumulator);
  int64_t perTile = instrN / 2;
  if (int64_t(acc.size()) != repsM * repsN * perTile)
    return op->emitOpError() << "accumulator registers do not match the "
                                "wgmma tiles of its layout";
  WarpGroupMmaShape shape{instrN, mma.getInstrK(), getTensorCoreType(aElement),
                          getTensorCoreType(bElement)};
  // One instruction is 32 bytes deep: 32 8-bit, 16 16-bit or 8 tf32 elements.
  if (shape.aType.empty() || shape.bType.empty() ||
      b.elementBytes != a.elementBytes || shape.k * a.elementBytes != 32 ||
      k % shape.k != 0)
    return op->emitOpError()
           << "has no wgmma for its operands at instruction depth " << shape.k;
  createSideEffectAsm(builder, loc, "wgmma.fence.sync.aligned;");
  Value one = constI32(loc, 1);
  // A product sum starting from -0.0 or from +0.0 differs only in the sign
  // of a zero.
  bool zeroAccumulator = isZeroSplat(accumulator);
  SmallVector<Value> result(acc.size());
  Value zero = constI32(loc, 0);
  for (int64_t rm = 0; rm < repsM; ++rm) {
    Value rowStart = arith::AddIOp::create(builder, loc, groupRow,
                                           constI32(loc, rm * rowTile));
    // Each K step's descriptor is the first one's plus a constant.
    Value aFirst = aFragments.empty()
                       ? a.descriptorStart(builder, loc, aStart, rowStart, zero)
                       : Value();
    for (int64_t rn = 0; rn < repsN; ++rn) {
      Value colStart = arith::AddIOp::create(builder, loc, warpCol,
                                             constI32(loc, rn * colTile));
      Value bFirst = b.descriptorStart(builder, loc, bStart, zero, colStart);
      int64_t base = (rm * repsN + rn) * perTile;
      SmallVector<Value> tile(acc.begin() + base, acc.begin() + base + perTile);
      for (int64_t kk = 0; kk < k; kk += shape.k) {
        // The first step onto a zero accumulator overwrites the registers
        // instead of reading zeros moved into them.
        Value useAcc = kk == 0 && zeroAccumulator ? Value() : one;
        Value bDescriptor = b.descriptor(builder, loc, bFirst, kk, 0);
        if (!aFragments.empty()) {
          tile = createWarpGroupMmaFromRegisters(
              builder, loc, tile, aFragments[rm * (k / 16) + kk / 16],
              bDescriptor, useAcc, shape, /*transB=*/!b.transposed);
          continue;
        }
        tile = createWarpGroupMma(
            builder, loc, tile, a.descriptor(builder, loc, aFirst, 0, kk),
            bDescriptor, useAcc, shape, /*transA=*/a.transposed,
            /*transB=*/!b.transposed);
      }
      llvm::copy(tile, result.begin() + base);
    }
  }
  createSideEffectAsm(builder, loc, "wgmma.commit_group.sync.aligned;");
  Value product = op->getResult(0);
  registers[product] = std::move(result);
  asyncMmaPending = true;
  asyncMmaResults.push_back(product);
  asyncMmaReadsScratch |= isa<DotOp>(op);
  if (!defersWarpGroupWait(op))
    waitForAsyncMma(loc);
  return success();
}

bool mlir::tile::lowering::defersWarpGroupWait(Operation *op) {
  if (!isa<DotOp, RingDotOp>(op))
    return false;
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(
      cast<BlockType>(op->getResult(0).getType()).getEncoding());
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!mma || mma.getVersion() != 3 || !loop)
    return false;
  // Only the next iteration reads the result: its dots, as their
  // accumulator (which wgmma chains onto the registers in flight), or
  // only other ops (which wait before they read it).
  if (defersToReaders(op))
    return true;
  for (OpOperand &use : op->getUses()) {
    if (!isa<scf::YieldOp>(use.getOwner()))
      return false;
    BlockArgument carried = loop.getRegionIterArgs()[use.getOperandNumber()];
    for (OpOperand &next : carried.getUses()) {
      Operation *user = next.getOwner();
      if (auto dot = dyn_cast<DotOp>(user)) {
        if (next.get() != dot.getAcc() || dot.getA() == carried ||
            dot.getB() == carried)
          return false;
      } else if (auto dot = dyn_cast<RingDotOp>(user)) {
        if (next.getOperandNumber() != dot.getAccMutable().getOperandNumber())
          return false;
      } else {
        return false;
      }
    }
  }
  return true;
}

bool mlir::tile::lowering::defersToReaders(Operation *op) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!isa<DotOp, RingDotOp>(op) || !loop || op->use_empty())
    return false;
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(
      cast<BlockType>(op->getResult(0).getType()).getEncoding());
  if (!mma || mma.getVersion() != 3)
    return false;
  return llvm::all_of(op->getUses(), [&](OpOperand &use) {
    if (!isa<scf::YieldOp>(use.getOwner()))
      return false;
    BlockArgument carried = loop.getRegionIterArgs()[use.getOperandNumber()];
    return llvm::none_of(carried.getUsers(), [](Operation *user) {
      return isa<DotOp, RingDotOp>(user);
    });
  });
}

void KernelEmitter::waitIfReadingAsyncMma(Operation *op) {
  if (!asyncMmaPending || asyncMmaResults.empty())
    return;
  // A dot chains its group onto an accumulator in flight.
  Value chained;
  if (auto dot = dyn_cast<DotOp>(op))
    chained = dot.getAcc();
  else if (auto dot = dyn_cast<RingDotOp>(op))
    chained = dot.getAcc();
  for (Value operand : op->getOperands())
    if (operand != chained && llvm::is_contained(asyncMmaResults, operand)) {
      waitForAsyncMma(op->getLoc());
      return;
    }
}

void KernelEmitter::waitForAsyncMma(Location loc) {
  if (!asyncMmaPending)
    return;
  SmallVector<Value> inFlight;
  for (Value block : asyncMmaResults)
    llvm::append_range(inFlight, registers[block]);
  if (inFlight.empty()) {
    createSideEffectAsm(builder, loc, "wgmma.wait_group.sync.aligned 0;");
  } else {
    SmallVector<Value> waited = createWarpGroupWait(builder, loc, inFlight, 0);
    ArrayRef<Value> rest(waited);
    for (Value block : asyncMmaResults) {
      SmallVector<Value> &regs = registers[block];
      llvm::copy(rest.take_front(regs.size()), regs.begin());
      rest = rest.drop_front(regs.size());
    }
  }
  asyncMmaPending = false;
  asyncMmaReadsScratch = false;
  asyncMmaResults.clear();
}
