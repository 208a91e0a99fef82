//===- Dot.cpp - matrix products ------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult KernelEmitter::emitDot(DotOp op) {
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
