//===- Dot.cpp - matrix products
//--------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult KernelEmitter::emitDot(DotOp op) {
  // Register-tiled FMA: a and b go to shared memory in their own type; each
  // thread accumulates its slots of the result in f32 over k.
  Location loc = op.getLoc();
  auto aType = cast<BlockType>(op.getA().getType());
  auto bType = cast<BlockType>(op.getB().getType());
  auto cType = cast<BlockType>(op.getAcc().getType());
  int64_t m = aType.getShape()[0], k = aType.getShape()[1];
  int64_t n = bType.getShape()[1];
  Type element = aType.getElementType();
  int64_t bytes = elementBytes(element);
  int64_t bOffset = (m * k * bytes + 15) / 16 * 16;
  reserveShared(bOffset + k * n * bytes);
  Value zero = constI32(loc, 0);
  Value bBase = constI32(loc, bOffset);
  barrier(loc);
  spillToShared(loc, op.getA(), zero);
  spillToShared(loc, op.getB(), bBase);
  barrier(loc);
  Layout layout = getLayout(cType, threads);
  SmallVector<Value> accumulators(getSlots(op.getAcc()));
  SmallVector<SmallVector<Value>> coords;
  for (int64_t slot = 0; slot < layout.numSlots(); ++slot) {
    SmallVector<Value> slotCoord = slotCoords(layout, slot);
    // Rows and columns of lanes past the end are clamped to 0: their
    // results are never stored.
    if (!layout.alwaysValid(slot / layout.vector)) {
      Value valid = chunkValid(layout, slot / layout.vector);
      for (Value &coord : slotCoord)
        coord = arith::SelectOp::create(builder, loc, valid, coord, zero);
    }
    coords.push_back(slotCoord);
  }
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
    for (int64_t slot = 0; slot < layout.numSlots(); ++slot) {
      Value row = coords[slot][0], col = coords[slot][1];
      Value &a = aCache[row];
      if (!a) {
        Value index = arith::AddIOp::create(
            builder, loc,
            arith::MulIOp::create(builder, loc, row, constI32(loc, k)), kk);
        a = toF32(loadShared(loc, zero, index, element));
      }
      Value &b = bCache[col];
      if (!b) {
        Value index = arith::AddIOp::create(
            builder, loc,
            arith::MulIOp::create(builder, loc, kk, constI32(loc, n)), col);
        b = toF32(loadShared(loc, bBase, index, element));
      }
      next.push_back(math::FmaOp::create(builder, loc, a, b,
                                         kLoop.getRegionIterArgs()[slot]));
    }
    popScope();
    scf::YieldOp::create(builder, loc, next);
  }
  slots[op.getResult()] = SmallVector<Value>(kLoop.getResults());
  return success();
}
