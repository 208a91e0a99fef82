//===- EmitOp.cpp - dispatch of one op -----------------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult KernelEmitter::emitOp(Operation *op) {
  Location loc = op->getLoc();

  // Index functions are evaluated where they are used.
  if (op->getNumResults() == 1 && isIndexFunction(op->getResult(0)))
    return success();

  if (isa<func::ReturnOp>(op)) {
    waitForAsyncMma(loc);
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
  // A region runs or not at run time: what is pending is waited for first.
  if (op->getNumRegions() > 0)
    waitForAsyncMma(loc);
  waitIfReadingAsyncMma(op);
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
  if (isa<AtomicRMWOp, AtomicCASOp, ReduceOp, ScanOp>(op) &&
      failed(rejectFloat8Arithmetic(op)))
    return failure();
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return emitAtomic(op);
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return emitReduce(reduce);
  if (auto scan = dyn_cast<ScanOp>(op))
    return emitScan(scan);
  if (auto inlineAsm = dyn_cast<InlineAsmOp>(op))
    return emitInlineAsm(inlineAsm);
  if (auto map = dyn_cast<MapElementwiseOp>(op))
    return emitMapElementwise(map);
  if (auto gather = dyn_cast<GatherOp>(op))
    return emitGather(gather);
  if (auto histogram = dyn_cast<HistogramOp>(op))
    return emitHistogram(histogram);
  if (auto print = dyn_cast<PrintOp>(op))
    return emitPrint(print);
  if (auto assertOp = dyn_cast<AssertOp>(op))
    return emitAssert(assertOp);
  if (isa<BarrierOp>(op)) {
    barrier(loc);
    return success();
  }
  if (auto dot = dyn_cast<DotOp>(op))
    return emitDot(dot);
  if (auto dot = dyn_cast<RingDotOp>(op))
    return emitRingDot(dot);
  if (isa<RingAllocOp>(op))
    return success(); // placed before the kernel's first op (placeRings)
  if (auto map = dyn_cast<MakeTensorMapOp>(op)) {
    // One tile-launch-tensor-maps could not make a parameter: no TMA reads
    // it (that pass dropped the boxes of it), so it is a null address.
    scalars.map(
        map.getResult(),
        LLVM::ZeroOp::create(builder, loc, convertScalarType(map.getType())));
    return success();
  }
  if (auto copy = dyn_cast<AsyncCopyOp>(op))
    return emitAsyncCopy(copy);
  if (auto store = dyn_cast<RingStoreOp>(op))
    return emitRingStore(store);
  if (auto wait = dyn_cast<RingWaitOp>(op))
    return emitRingWait(wait);
  if (auto read = dyn_cast<RingLoadOp>(op))
    return emitRingLoad(read);
  // Where TMA fills every ring, the slots' mbarriers order the copies and
  // the cp.async groups would all be empty.
  if (isa<AsyncCommitGroupOp>(op)) {
    if (pointerCopies)
      createSideEffectAsm(builder, loc, "cp.async.commit_group;");
    return success();
  }
  if (auto wait = dyn_cast<AsyncWaitOp>(op)) {
    if (pointerCopies)
      createSideEffectAsm(builder, loc,
                          "cp.async.wait_group " +
                              std::to_string(wait.getPending()) + ";");
    return success();
  }
  if (auto constant = dyn_cast<ConstantOp>(op))
    return emitDenseConstant(constant);
  if (isa<ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp, ConvertLayoutOp>(op))
    return emitLayoutChange(op);
  if (isa<TileDialect>(op->getDialect()) &&
      (op->hasTrait<OpTrait::Elementwise>() || isa<AddPtrOp, SplatOp>(op)))
    return emitElementwise(op);
  // Canonicalization turns an scf.if that only picks between two blocks
  // into arith.select on a scalar condition: one select per register (the
  // operands and the result have one type, so one layout).
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<BlockType>(select.getType())) {
    Value condition = getScalar(select.getCondition());
    if (!condition)
      return op->emitOpError() << "uses a value that could not be lowered";
    SmallVector<Value> onTrue = getRegisters(select.getTrueValue());
    SmallVector<Value> onFalse = getRegisters(select.getFalseValue());
    SmallVector<Value> result;
    for (auto [t, f] : llvm::zip_equal(onTrue, onFalse))
      result.push_back(arith::SelectOp::create(builder, loc, condition, t, f));
    registers[select.getResult()] = std::move(result);
    return success();
  }
  if (isa<func::CallOp>(op))
    return op->emitOpError()
           << "calls a device function; run the inliner before lowering";
  // Upstream scalar ops (arith, math) are cloned as they are.
  Dialect *dialect = op->getDialect();
  if (((dialect && isa<arith::ArithDialect, math::MathDialect>(dialect)) ||
       isa<LLVM::AssumeOp>(op)) &&
      op->getNumRegions() == 0) {
    for (Value operand : op->getOperands())
      if (!scalars.contains(operand))
        return op->emitOpError() << "uses a value that could not be lowered";
    if (failed(rejectFloat8Arithmetic(op)))
      return failure();
    // 8-bit floats are i8 bits here (convertElementType).
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      scalars.map(constant.getResult(),
                  materializeConstant(loc, constant.getValue()));
      return success();
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      scalars.map(select.getResult(),
                  arith::SelectOp::create(
                      builder, loc, scalars.lookup(select.getCondition()),
                      scalars.lookup(select.getTrueValue()),
                      scalars.lookup(select.getFalseValue())));
      return success();
    }
    Operation *clone = builder.clone(*op, scalars);
    for (auto [oldResult, newResult] :
         llvm::zip(op->getResults(), clone->getResults()))
      scalars.map(oldResult, newResult);
    return success();
  }
  return op->emitOpError() << "cannot be lowered to the GPU yet";
}
