//===- Relayout.cpp - moving data between threads
//---------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// vector widths.
bool KernelEmitter::isRelayout(Operation *op) {
  if (isa<BroadcastOp, TransOp>(op))
    return true;
  auto src = cast<BlockType>(op->getOperand(0).getType());
  auto dst = cast<BlockType>(op->getResult(0).getType());
  return getLayout(src, threads).vector != getLayout(dst, threads).vector;
}

LoadOp KernelEmitter::findChainLoad(Value value) {
  Operation *op = value.getDefiningOp();
  while (op && isa<ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp>(op))
    op = op->getOperand(0).getDefiningOp();
  return dyn_cast_or_null<LoadOp>(op);
}

/// Whether `load` may be issued again at `user` with the same result: its
/// address, mask and `other` are functions of the index, and nothing in
/// between writes memory.
bool KernelEmitter::canReloadAt(LoadOp load, Operation *user) {
  if (!load || load->getBlock() != user->getBlock() ||
      !isa<BlockType>(load.getType()))
    return false;
  for (Value operand : load->getOperands())
    if (isa<BlockType>(operand.getType()) && !isIndexFunction(operand))
      return false;
  for (Operation *op = load->getNextNode(); op && op != user;
       op = op->getNextNode()) {
    bool writes = false;
    op->walk([&](Operation *inner) {
      if (isa<StoreOp>(inner) ||
          (!isMemoryEffectFree(inner) &&
           !isa<LoadOp, ReduceOp, ScanOp>(inner) &&
           !inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>()))
        writes = true;
    });
    if (writes)
      return false;
  }
  return true;
}

/// Whether every use of `value` (a load, or a shape op of one) ends in a
/// relayout that issues the load again: then the load itself is not emitted.
bool KernelEmitter::onlyReloaded(Value value, LoadOp load) {
  if (value.use_empty())
    return false;
  for (Operation *user : value.getUsers()) {
    if (!isa<ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp>(user))
      return false;
    if (isRelayout(user)) {
      if (!canReloadAt(load, user))
        return false;
    } else if (!onlyReloaded(user->getResult(0), load)) {
      return false;
    }
  }
  return true;
}

LogicalResult KernelEmitter::emitRelayout(Operation *op) {
  Location loc = op->getLoc();
  Value src = op->getOperand(0);
  auto srcType = cast<BlockType>(src.getType());
  auto dstType = cast<BlockType>(op->getResult(0).getType());
  Type element = srcType.getElementType();
  Layout layout = getLayout(dstType, threads);

  // Loaded data moved by shape ops only: load it again where it is needed,
  // from the L1 cache, instead of exchanging it through shared memory.
  LoadOp load = findChainLoad(op->getResult(0));
  if (load && canReloadAt(load, op)) {
    SmallVector<Value> ptrs, masks, others;
    for (int64_t slot = 0; slot < layout.numSlots(); ++slot) {
      SmallVector<Value> coords = slotCoords(layout, slot);
      for (Value v = op->getResult(0); v != load.getResult();
           v = v.getDefiningOp()->getOperand(0))
        coords = mapCoordsToOperand(v.getDefiningOp(), coords);
      ptrs.push_back(evalAt(load.getPtr(), coords));
      if (load.getMask())
        masks.push_back(evalAt(load.getMask(), coords));
      if (load.getOther())
        others.push_back(evalAt(load.getOther(), coords));
    }
    // The last dimension keeps its meaning through broadcasts and
    // expand_dims before it: the load's vector analysis still holds.
    int64_t width = 1;
    bool lastDimKept = true;
    for (Value v = op->getResult(0); v != load.getResult();
         v = v.getDefiningOp()->getOperand(0)) {
      Operation *shapeOp = v.getDefiningOp();
      auto in = cast<BlockType>(shapeOp->getOperand(0).getType());
      auto out = cast<BlockType>(shapeOp->getResult(0).getType());
      bool keeps = (isa<BroadcastOp>(shapeOp) &&
                    in.getShape().back() == out.getShape().back()) ||
                   (isa<ExpandDimsOp>(shapeOp) &&
                    cast<ExpandDimsOp>(shapeOp).getAxis() < in.getRank());
      lastDimKept = lastDimKept && keeps;
    }
    if (lastDimKept)
      width =
          axisInfo.getAccessWidth(load.getPtr(), load.getMask(), layout.vector);
    slots[op->getResult(0)] =
        loadSlots(loc, element, layout, width, ptrs, masks, others);
    return success();
  }

  reserveShared(srcType.getNumElements() *
                elementBytes(sharedStorageType(element)));
  Value zero = constI32(loc, 0);
  barrier(loc);
  spillToShared(loc, src, zero);
  barrier(loc);
  SmallVector<Value> result;
  for (int64_t slot = 0; slot < layout.numSlots(); ++slot) {
    SmallVector<Value> srcCoords =
        mapCoordsToOperand(op, slotCoords(layout, slot));
    Value linear = linearIndex(loc, srcType.getShape(), srcCoords);
    // Lanes past the end of the block read element 0 instead.
    if (!layout.alwaysValid(slot / layout.vector))
      linear = arith::SelectOp::create(
          builder, loc, chunkValid(layout, slot / layout.vector), linear, zero);
    result.push_back(loadShared(loc, zero, linear, element));
  }
  slots[op->getResult(0)] = std::move(result);
  return success();
}
