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

#include "llvm/Support/MathExtras.h"
#include <set>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
/// A matrix staged for wgmma: `rows` x `cols` (padded) with `cols`
/// contiguous, split into column blocks of `swizzleBytes` that each hold
/// every row, so that one row of a block is one swizzle row.
struct StagedMatrix {
  int64_t rows, cols, elementBytes, swizzleBytes;
  int64_t byteOffset; // of the region in shared memory, 1024-aligned

  int64_t elementsPerRow() const { return swizzleBytes / elementBytes; }
  int64_t bytes() const { return rows * cols * elementBytes; }
  /// Leading and stride byte offsets of the matrix descriptor: between
  /// column blocks, and between groups of 8 rows.
  int64_t leadingBytes() const { return rows * swizzleBytes; }
  int64_t strideBytes() const { return 8 * swizzleBytes; }
  /// The descriptor's swizzle mode.
  int64_t mode() const {
    return swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : 3;
  }
};

/// The widest swizzle (128, 64 or 32 bytes) whose row fits `cols`
/// elements.
int64_t swizzleFor(int64_t cols, int64_t elementBytes) {
  int64_t rowBytes = cols * elementBytes;
  return rowBytes >= 128 ? 128 : rowBytes >= 64 ? 64 : 32;
}
} // namespace

LogicalResult KernelEmitter::emitDot(DotOp op) {
  if (auto mma = dyn_cast<MmaLayoutAttr>(
          cast<BlockType>(op.getType()).getEncoding())) {
    if (mma.getVersion() == 3)
      return emitWarpGroupDot(op, mma);
    return op.emitOpError() << "has an mma.sync (version 2) layout, which "
                               "the lowering does not emit yet";
  }
  // Register-tiled FMA: a and b go to shared memory in their own type (in
  // the row-major order of their padded shapes); each thread accumulates its
  // registers of the result in f32 over k. Rows and columns in the padding
  // read padding and are never stored.
  Location loc = op.getLoc();
  auto aType = cast<BlockType>(op.getA().getType());
  auto bType = cast<BlockType>(op.getB().getType());
  auto cType = cast<BlockType>(op.getAcc().getType());
  BlockLayout aLayout = getBlockLayout(aType), bLayout = getBlockLayout(bType);
  int64_t k = aType.getShape()[1];
  int64_t kPadded = aLayout.linear.getShape()[1];
  int64_t nPadded = bLayout.linear.getShape()[1];
  Type element = aType.getElementType();
  int64_t bytes = elementBytes(element);
  int64_t bOffset =
      (aLayout.linear.getShape()[0] * kPadded * bytes + 15) / 16 * 16;
  reserveShared(bOffset + kPadded * nPadded * bytes);
  Value zero = constI32(loc, 0);
  Value bBase = constI32(loc, bOffset);
  barrier(loc);
  spillToShared(loc, getRegisters(op.getA()), aLayout, zero);
  spillToShared(loc, getRegisters(op.getB()), bLayout, bBase);
  barrier(loc);
  BlockLayout layout = getBlockLayout(cType);
  SmallVector<Value> accumulators = getRegisters(op.getAcc());
  SmallVector<SmallVector<Value>> coords;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg)
    coords.push_back(registerCoords(layout, reg));
  Type f32 = builder.getF32Type();
  auto toF32 = [&](Value value) {
    return element.isF32()
               ? value
               : Value(arith::ExtFOp::create(builder, loc, f32, value));
  };
  auto kLoop = scf::ForOp::create(builder, loc, zero, constI32(loc, k),
                                  constI32(loc, 1), accumulators);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(kLoop.getBody());
    pushScope();
    Value kk = kLoop.getInductionVar();
    SmallVector<Value> next;
    llvm::DenseMap<Value, Value> aCache, bCache;
    for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
      Value row = coords[reg][0], col = coords[reg][1];
      Value &a = aCache[row];
      if (!a) {
        Value index = arith::AddIOp::create(
            builder, loc,
            arith::MulIOp::create(builder, loc, row, constI32(loc, kPadded)),
            kk);
        a = toF32(loadShared(loc, zero, index, element));
      }
      Value &b = bCache[col];
      if (!b) {
        Value index = arith::AddIOp::create(
            builder, loc,
            arith::MulIOp::create(builder, loc, kk, constI32(loc, nPadded)),
            col);
        b = toF32(loadShared(loc, bBase, index, element));
      }
      next.push_back(math::FmaOp::create(builder, loc, a, b,
                                         kLoop.getRegionIterArgs()[reg]));
    }
    popScope();
    scf::YieldOp::create(builder, loc, next);
  }
  registers[op.getResult()] = SmallVector<Value>(kLoop.getResults());
  return success();
}

LogicalResult KernelEmitter::emitWarpGroupDot(DotOp op, MmaLayoutAttr mma) {
  Location loc = op.getLoc();
  auto aType = cast<BlockType>(op.getA().getType());
  auto cType = cast<BlockType>(op.getType());
  Type element = aType.getElementType();
  int64_t bytes = elementBytes(element);
  int64_t m = cType.getShape()[0], n = cType.getShape()[1];
  int64_t k = aType.getShape()[1];
  for (int64_t extent : {m, n, k})
    if (!llvm::isPowerOf2_64(extent))
      return op.emitOpError() << "on tensor cores needs power-of-two extents";
  StagedMatrix a{m, k, bytes, swizzleFor(k, bytes), 0};
  StagedMatrix b{k, n, bytes, swizzleFor(n, bytes),
                 (a.bytes() + 1023) / 1024 * 1024};
  if (a.cols * bytes < 32 || b.cols * bytes < 32)
    return op.emitOpError() << "on tensor cores needs rows of at least 32 "
                               "bytes in both operands";
  reserveShared(b.byteOffset + b.bytes());

  // 1. Stage the operands: each register run along the contiguous dimension
  //    is one vector store (at most a 16-byte chunk, which the swizzle keeps
  //    whole).
  auto stage = [&](Value operand, const StagedMatrix &matrix) {
    BlockLayout layout = getBlockLayout(cast<BlockType>(operand.getType()));
    SmallVector<Value> values = getRegisters(operand);
    LinearLayout::Run run = layout.linear.getContiguousRun();
    int64_t width =
        run.dim == 1 ? std::min<int64_t>(run.length, 16 / bytes) : int64_t(1);
    int64_t mask = (matrix.swizzleBytes / 16 - 1) << 4;
    std::set<uint64_t> written;
    for (int64_t first = 0; first < layout.numRegisters(); first += width) {
      if (!written
               .insert(layout.linear.flatten(
                   layout.linear.apply(HWDim::Register, first)))
               .second)
        continue;
      SmallVector<Value> coords = registerCoords(layout, first);
      Value row = coords[0], col = coords[1];
      int64_t perRow = matrix.elementsPerRow();
      // logical = (col / perRow) * rows * swizzle + row * swizzle +
      //           (col % perRow) * bytes
      Value block = arith::ShRUIOp::create(
          builder, loc, col, constI32(loc, llvm::Log2_64(perRow)));
      Value within =
          arith::AndIOp::create(builder, loc, col, constI32(loc, perRow - 1));
      Value logical = arith::AddIOp::create(
          builder, loc,
          arith::AddIOp::create(
              builder, loc,
              arith::MulIOp::create(builder, loc, block,
                                    constI32(loc, matrix.leadingBytes())),
              arith::MulIOp::create(builder, loc, row,
                                    constI32(loc, matrix.swizzleBytes))),
          arith::MulIOp::create(builder, loc, within, constI32(loc, bytes)));
      // The 16-byte chunk flips with the row bits above it (address bits
      // 7..9 onto 4..6 for 128-byte swizzling).
      Value flip = arith::AndIOp::create(
          builder, loc,
          arith::ShRUIOp::create(builder, loc, logical, constI32(loc, 3)),
          constI32(loc, mask));
      Value physical = arith::XOrIOp::create(builder, loc, logical, flip);
      Value index =
          arith::DivUIOp::create(builder, loc, physical, constI32(loc, bytes));
      storeSharedVector(loc, constI32(loc, matrix.byteOffset), index,
                        ArrayRef<Value>(values).slice(first, width));
    }
  };
  barrier(loc);
  stage(op.getA(), a);
  stage(op.getB(), b);
  // The tensor cores read shared memory through the async proxy.
  createSideEffectAsm(builder, loc, "fence.proxy.async.shared::cta;");
  barrier(loc);

  // 2. Matrix descriptors: the start address (>> 4) of each tile, the
  //    leading and stride byte offsets and the swizzle mode.
  Type i64 = builder.getI64Type();
  Value sharedStart = LLVM::PtrToIntOp::create(
      builder, loc, builder.getI32Type(), sharedBase(loc));
  auto descriptor = [&](const StagedMatrix &matrix, Value rowStart,
                        Value colStart) -> Value {
    int64_t perRow = matrix.elementsPerRow();
    Value block = arith::ShRUIOp::create(builder, loc, colStart,
                                         constI32(loc, llvm::Log2_64(perRow)));
    Value within = arith::AndIOp::create(builder, loc, colStart,
                                         constI32(loc, perRow - 1));
    Value offset = arith::AddIOp::create(
        builder, loc,
        arith::AddIOp::create(
            builder, loc,
            arith::MulIOp::create(builder, loc, block,
                                  constI32(loc, matrix.leadingBytes())),
            arith::MulIOp::create(builder, loc, rowStart,
                                  constI32(loc, matrix.swizzleBytes))),
        arith::MulIOp::create(builder, loc, within, constI32(loc, bytes)));
    Value address = arith::AddIOp::create(
        builder, loc, sharedStart,
        arith::AddIOp::create(builder, loc, offset,
                              constI32(loc, matrix.byteOffset)));
    Value start = arith::AndIOp::create(
        builder, loc,
        arith::ShRUIOp::create(builder, loc, address, constI32(loc, 4)),
        constI32(loc, 0x3FFF));
    uint64_t fixed = (uint64_t(matrix.leadingBytes() >> 4) & 0x3FFF) << 16 |
                     (uint64_t(matrix.strideBytes() >> 4) & 0x3FFF) << 32 |
                     uint64_t(matrix.mode()) << 62;
    return arith::OrIOp::create(
        builder, loc, arith::ExtUIOp::create(builder, loc, i64, start),
        arith::ConstantOp::create(builder, loc,
                                  builder.getI64IntegerAttr(int64_t(fixed))));
  };

  // 3. Each warpgroup's tiles: 64 rows from its first warp's position, instr
  //    columns from the warp's column; repetitions as the layout has them.
  ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
  unsigned instrN = mma.getInstrN();
  int64_t rowTile = 16 * warps[0], colTile = int64_t(instrN) * warps[1];
  int64_t repsM = std::max<int64_t>(1, m / rowTile);
  int64_t repsN = std::max<int64_t>(1, n / colTile);
  Value warpRow =
      arith::RemUIOp::create(builder, loc, warpId(), constI32(loc, warps[0]));
  Value groupRow = arith::MulIOp::create(
      builder, loc,
      arith::ShRUIOp::create(builder, loc, warpRow, constI32(loc, 2)),
      constI32(loc, 64));
  Value warpCol = arith::MulIOp::create(
      builder, loc,
      arith::DivUIOp::create(builder, loc, warpId(), constI32(loc, warps[0])),
      constI32(loc, instrN));
  SmallVector<Value> acc = getRegisters(op.getAcc());
  int64_t perTile = instrN / 2;
  if (int64_t(acc.size()) != repsM * repsN * perTile)
    return op.emitOpError() << "accumulator registers do not match the "
                               "wgmma tiles of its layout";
  StringRef type = element.isBF16() ? "bf16" : "f16";
  createSideEffectAsm(builder, loc, "wgmma.fence.sync.aligned;");
  Value one = constI32(loc, 1);
  SmallVector<Value> result(acc.size());
  for (int64_t rm = 0; rm < repsM; ++rm) {
    Value rowStart = arith::AddIOp::create(builder, loc, groupRow,
                                           constI32(loc, rm * rowTile));
    for (int64_t rn = 0; rn < repsN; ++rn) {
      Value colStart = arith::AddIOp::create(builder, loc, warpCol,
                                             constI32(loc, rn * colTile));
      int64_t base = (rm * repsN + rn) * perTile;
      SmallVector<Value> tile(acc.begin() + base, acc.begin() + base + perTile);
      for (int64_t kk = 0; kk < k; kk += 16) {
        Value kStart = constI32(loc, kk);
        tile = createWarpGroupMma(builder, loc, tile,
                                  descriptor(a, rowStart, kStart),
                                  descriptor(b, kStart, colStart), one, instrN,
                                  type, /*transA=*/false, /*transB=*/true);
      }
      llvm::copy(tile, result.begin() + base);
    }
  }
  createSideEffectAsm(builder, loc, "wgmma.commit_group.sync.aligned;");
  registers[op.getResult()] = std::move(result);
  asyncMmaPending = true;
  asyncMmaResults.push_back(op.getResult());
  if (!defersWarpGroupWait(op))
    waitForAsyncMma(loc);
  return success();
}

bool mlir::tile::lowering::defersWarpGroupWait(DotOp op) {
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(
      cast<BlockType>(op.getType()).getEncoding());
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!mma || mma.getVersion() != 3 || !loop)
    return false;
  // Only the next iteration's dots may read the result, as their
  // accumulator: anything else would read registers wgmma is writing.
  for (OpOperand &use : op->getUses()) {
    if (!isa<scf::YieldOp>(use.getOwner()))
      return false;
    BlockArgument carried = loop.getRegionIterArgs()[use.getOperandNumber()];
    for (OpOperand &next : carried.getUses()) {
      auto dot = dyn_cast<DotOp>(next.getOwner());
      if (!dot || next.get() != dot.getAcc() || dot.getA() == carried ||
          dot.getB() == carried)
        return false;
    }
  }
  return true;
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
  asyncMmaResults.clear();
}
