//===- EmitOp.cpp - dispatch of one op
//--------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitOp(Operation *op) {
  Location loc = op->getLoc();

  // Index functions are evaluated where they are used.
  if (op->getNumResults() == 1 && isIndexFunction(op->getResult(0)))
    return success();

  if (isa<func::ReturnOp>(op)) {
    gpu::ReturnOp::create(builder, loc);
    return success();
  }
  if (auto pid = dyn_cast<ProgramIdOp>(op)) {
    scalars.map(
        pid.getResult(),
        readAxisRegister<NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp>(
            loc, pid.getAxis()));
    return success();
  }
  if (auto num = dyn_cast<NumProgramsOp>(op)) {
    scalars.map(
        num.getResult(),
        readAxisRegister<NVVM::GridDimXOp, NVVM::GridDimYOp, NVVM::GridDimZOp>(
            loc, num.getAxis()));
    return success();
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return emitFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return emitIf(ifOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return emitWhile(whileOp);
  if (auto load = dyn_cast<LoadOp>(op))
    return emitLoad(load);
  if (auto store = dyn_cast<StoreOp>(op))
    return emitStore(store);
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return emitReduce(reduce);
  if (auto scan = dyn_cast<ScanOp>(op))
    return emitScan(scan);
  if (auto dot = dyn_cast<DotOp>(op))
    return emitDot(dot);
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    // Non-splat constants: each thread picks its elements from the
    // attribute with a chain of selects over the linear index.
    auto type = cast<BlockType>(constant.getType());
    Layout layout = getLayout(type, threads);
    auto elements = cast<DenseElementsAttr>(constant.getValue());
    SmallVector<Attribute> values(elements.getValues<Attribute>());
    if (values.size() > 4096)
      return op->emitOpError() << "non-splat constant with " << values.size()
                               << " elements is too large to lower";
    SmallVector<Value> result;
    for (int64_t slot = 0; slot < layout.numSlots(); ++slot) {
      Value linear = linearIndex(loc, layout.shape, slotCoords(layout, slot));
      Value picked =
          arith::ConstantOp::create(builder, loc, cast<TypedAttr>(values[0]));
      for (size_t i = 1; i < values.size(); ++i) {
        Value here = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::eq, linear, constI32(loc, i));
        Value candidate =
            arith::ConstantOp::create(builder, loc, cast<TypedAttr>(values[i]));
        picked = arith::SelectOp::create(builder, loc, here, candidate, picked);
      }
      result.push_back(picked);
    }
    slots[constant.getResult()] = std::move(result);
    return success();
  }
  if (isa<ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp>(op)) {
    if (reloadOnly.contains(op->getResult(0)))
      return success();
    if (!isRelayout(op)) {
      // Linear layouts: the same elements stay in the same registers.
      slots[op->getResult(0)] = getSlots(op->getOperand(0));
      return success();
    }
    return emitRelayout(op);
  }
  if (op->hasTrait<OpTrait::Elementwise>() || isa<AddPtrOp, SplatOp>(op)) {
    if (op->getNumResults() == 1 &&
        isa<BlockType>(op->getResult(0).getType())) {
      auto type = cast<BlockType>(op->getResult(0).getType());
      Layout layout = getLayout(type, threads);
      SmallVector<SmallVector<Value>> operandSlots;
      for (Value operand : op->getOperands())
        operandSlots.emplace_back(getSlots(operand));
      SmallVector<Value> result;
      for (int64_t slot = 0; slot < layout.numSlots(); ++slot) {
        SmallVector<Value> operands;
        for (auto &operand : operandSlots)
          operands.push_back(operand[slot]);
        Value value = emitScalarOp(op, operands, loc);
        if (!value)
          return op->emitOpError() << "cannot be lowered to the GPU yet";
        result.push_back(value);
      }
      slots[op->getResult(0)] = std::move(result);
      return success();
    }
    // Scalar tile.addptr.
    if (auto addptr = dyn_cast<AddPtrOp>(op)) {
      scalars.map(addptr.getResult(),
                  emitScalarOp(op,
                               {getScalar(addptr.getPtr()),
                                getScalar(addptr.getOffset())},
                               loc));
      return success();
    }
  }
  if (isa<func::CallOp>(op))
    return op->emitOpError()
           << "calls a device function; run the inliner before lowering";
  // Upstream scalar ops (arith, math) are cloned as they are.
  Dialect *dialect = op->getDialect();
  if (dialect && isa<arith::ArithDialect, math::MathDialect>(dialect) &&
      op->getNumRegions() == 0) {
    for (Value operand : op->getOperands())
      if (!scalars.contains(operand))
        return op->emitOpError() << "uses a value that could not be lowered";
    Operation *clone = builder.clone(*op, scalars);
    for (auto [oldResult, newResult] :
         llvm::zip(op->getResults(), clone->getResults()))
      scalars.map(oldResult, newResult);
    return success();
  }
  return op->emitOpError() << "cannot be lowered to the GPU yet";
}
