//===- ControlFlow.cpp - kernel structure, scf ops ------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

Value KernelEmitter::warpId() {
  if (warp)
    return warp;
  // Read from lane 0, the warp index is one value across the warp as far as
  // ptxas can tell: what derives from it (a warpgroup's wgmma descriptors)
  // stays in uniform registers.
  Location loc = kernel.getLoc();
  Value index = arith::ShRUIOp::create(
      entryBuilder, loc, tid,
      arith::ConstantIntOp::create(entryBuilder, loc, 5, 32));
  warp = gpu::ShuffleOp::create(
             entryBuilder, loc, index,
             arith::ConstantIntOp::create(entryBuilder, loc, 0, 32),
             arith::ConstantIntOp::create(entryBuilder, loc, kWarpSize, 32),
             gpu::ShuffleMode::IDX)
             .getShuffleResult();
  return warp;
}

std::pair<Value, Value> KernelEmitter::warpPosition(Location loc,
                                                    ArrayRef<unsigned> warps) {
  Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
  if (int64_t(warps[0]) >= numWarps)
    return {warps[0] == 1 ? zero : warpId(), zero};
  if (warps[0] == 1)
    return {zero, warpId()};
  Value rows = arith::ConstantIntOp::create(builder, loc, warps[0], 32);
  return {arith::RemUIOp::create(builder, loc, warpId(), rows),
          arith::DivUIOp::create(builder, loc, warpId(), rows)};
}

LogicalResult KernelEmitter::emit() {
  Block &entry = gpuFunc.getBody().front();
  builder.setInsertionPointToStart(&entry);
  for (auto [oldArg, newArg] :
       llvm::zip(kernel.getArguments(), entry.getArguments()))
    scalars.map(oldArg, newArg);
  Location loc = kernel.getLoc();
  tid = NVVM::ThreadIdXOp::create(builder, loc, i32Type());
  lane = arith::AndIOp::create(builder, loc, tid, constI32(loc, kWarpSize - 1));
  warp = Value(); // made at its first use (warpId)
  // Per-thread coordinates go before this marker, ahead of everything that
  // uses them (an insertion point at the end of the block would move past
  // the ops emitted later). Canonicalization drops the unused constant.
  Operation *marker = constI32(loc, 0).getDefiningOp();
  entryBuilder.setInsertionPoint(marker);
  pushScope();
  placeRings();
  if (barrierCount > 0) {
    barrierOffsetOp = arith::ConstantIntOp::create(builder, loc, 0, 32);
    barrierBase = arith::AddIOp::create(
        builder, loc,
        LLVM::PtrToIntOp::create(builder, loc, i32Type(), ringBase(loc)),
        barrierOffsetOp);
    // The TMA rings' barriers, one arrival per phase, initialized by one
    // thread before any copy and made visible to the others (and to the
    // async proxy TMA signals them through).
    Value isFirst = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, tid, constI32(loc, 0));
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, isFirst, false);
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
      for (int64_t i = 0; i < barrierCount; ++i)
        createBarrierInit(builder, loc,
                          arith::AddIOp::create(builder, loc, barrierBase,
                                                constI32(loc, 8 * i)));
      createSideEffectAsm(builder, loc, "fence.mbarrier_init.release.cluster;");
    }
    gpu::BarrierOp::create(builder, loc);
  }
  if (failed(emitBlock(kernel.getBody().front())))
    return failure();
  if (barrierCount > 0) {
    barrierOffset = llvm::alignTo(std::max(ringBytes, sharedBytes), 8);
    barrierOffsetOp.setValueAttr(builder.getI32IntegerAttr(barrierOffset));
  }
  return success();
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  bool topLevel = &block == &kernel.getBody().front();
  for (Operation &op : block) {
    if (topLevel) {
      // Rings overlap the scratch space that ops before their live range
      // used (a layout conversion of the accumulator's initial value): wait
      // until every thread has read it before the first copy lands there.
      bool entersRings =
          ringLiveOps.contains(&op) && !ringLiveOps.contains(currentTopLevelOp);
      // TMA copies write through the async proxy: the threads' earlier
      // writes there must be ordered before them (fence.proxy.async).
      if (barrierCount > 0 &&
          (ringReuseStarts.contains(&op) || (entersRings && sharedBytes > 0)))
        createSideEffectAsm(builder, op.getLoc(),
                            "fence.proxy.async.shared::cta;");
      if (ringReuseStarts.contains(&op)) {
        // Or an earlier ring's bytes: its dots (asynchronous wgmma) must be
        // done reading them too.
        waitForAsyncMma(op.getLoc());
        barrier(op.getLoc());
      } else if (entersRings && sharedBytes > 0) {
        barrier(op.getLoc());
      }
      currentTopLevelOp = &op;
    }
    if (failed(emitOp(&op)))
      return failure();
  }
  return success();
}

SmallVector<Type> KernelEmitter::flatTypes(TypeRange types) {
  SmallVector<Type> flat;
  for (Type type : types) {
    if (auto block = dyn_cast<BlockType>(type)) {
      flat.append(getBlockLayout(block).numRegisters(),
                  convertElementType(block.getElementType()));
    } else {
      flat.push_back(convertElementType(type));
    }
  }
  return flat;
}

SmallVector<Value> KernelEmitter::flatten(ValueRange values) {
  SmallVector<Value> flat;
  for (Value value : values) {
    if (isa<BlockType>(value.getType()))
      llvm::append_range(flat, getRegisters(value));
    else
      flat.push_back(getScalar(value));
  }
  return flat;
}

void KernelEmitter::unflatten(ValueRange oldValues, ValueRange flat) {
  size_t position = 0;
  for (Value old : oldValues) {
    if (auto block = dyn_cast<BlockType>(old.getType())) {
      int64_t count = getBlockLayout(block).numRegisters();
      registers[old] = SmallVector<Value>(flat.slice(position, count));
      indexFunction[old] = false;
      position += count;
    } else {
      scalars.map(old, flat[position++]);
    }
  }
}

Value KernelEmitter::getScalar(Value value) {
  return scalars.lookupOrNull(value);
}

LogicalResult KernelEmitter::emitFor(scf::ForOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> inits = flatten(op.getInitArgs());
  Value lower = getScalar(op.getLowerBound());
  Value upper = getScalar(op.getUpperBound());
  Block *body = op.getBody();
  bool asyncMma = llvm::any_of(body->without_terminator(), [](Operation &op) {
    return defersWarpGroupWait(&op);
  });
  OpBuilder::InsertionGuard guard(builder);
  // A loop whose wgmma groups outlive its iterations waits for them on its
  // exit, inside `if (lower < upper)`: where a path that skips the loop
  // (and defines the accumulators there) joins before the wait, ptxas
  // serializes every wgmma.
  scf::IfOp runs;
  if (asyncMma) {
    Value any = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                      lower, upper);
    runs = scf::IfOp::create(builder, loc, flatTypes(op.getResultTypes()), any,
                             /*withElseRegion=*/true);
    for (Region *region : {&runs.getThenRegion(), &runs.getElseRegion()})
      if (!region->front().empty())
        region->front().back().erase();
    builder.setInsertionPointToEnd(&runs.getElseRegion().front());
    scf::YieldOp::create(builder, loc, inits);
    builder.setInsertionPointToEnd(&runs.getThenRegion().front());
  }
  auto newFor = scf::ForOp::create(builder, loc, lower, upper,
                                   getScalar(op.getStep()), inits);
  builder.setInsertionPointToStart(newFor.getBody());
  scalars.map(op.getInductionVar(), newFor.getInductionVar());
  unflatten(op.getRegionIterArgs(), newFor.getRegionIterArgs());
  // The previous iteration's wgmma may still be running when the body
  // starts: its first barrier waits, or the first op that reads an iter_arg
  // carrying a result it writes (defersToReaders).
  asyncMmaPending = asyncMma;
  asyncMmaResults.clear();
  copiesNeedBarrier = false;
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (auto [arg, value] :
       llvm::zip(op.getRegionIterArgs(), yield.getOperands()))
    if (Operation *def = value.getDefiningOp();
        def && def->getBlock() == body && defersToReaders(def))
      asyncMmaResults.push_back(arg);
  asyncMmaReadsScratch =
      asyncMma && llvm::any_of(body->without_terminator(), [](Operation &op) {
        return isa<DotOp>(op) && defersWarpGroupWait(&op);
      });
  pushScope();
  for (Operation &inner : body->without_terminator())
    if (failed(emitOp(&inner)))
      return failure();
  SmallVector<Value> yielded = flatten(yield.getOperands());
  // Results yielded while wgmma writes them are in flight after the loop.
  SmallVector<Value> inFlightResults;
  for (auto [index, value] : llvm::enumerate(yield.getOperands()))
    if (llvm::is_contained(asyncMmaResults, value))
      inFlightResults.push_back(op.getResult(index));
  popScope();
  // scf.for::create adds an empty yield when there are no iter_args.
  if (!newFor.getBody()->empty() && isa<scf::YieldOp>(newFor.getBody()->back()))
    newFor.getBody()->back().erase();
  builder.setInsertionPointToEnd(newFor.getBody());
  scf::YieldOp::create(builder, loc, yielded);
  builder.setInsertionPointAfter(newFor);
  unflatten(op.getResults(), newFor.getResults());
  asyncMmaResults = std::move(inFlightResults);
  waitForAsyncMma(loc);
  if (runs) {
    scf::YieldOp::create(builder, loc, flatten(op.getResults()));
    builder.setInsertionPointAfter(runs);
    unflatten(op.getResults(), runs.getResults());
  }
  return success();
}

LogicalResult KernelEmitter::emitIf(scf::IfOp op) {
  Location loc = op.getLoc();
  SmallVector<Type> resultTypes = flatTypes(op.getResultTypes());
  auto newIf =
      scf::IfOp::create(builder, loc, resultTypes, getScalar(op.getCondition()),
                        /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  for (auto [oldRegion, newRegion] :
       {std::make_pair(&op.getThenRegion(), &newIf.getThenRegion()),
        std::make_pair(&op.getElseRegion(), &newIf.getElseRegion())}) {
    Block *newBlock = &newRegion->front();
    if (!newBlock->empty())
      newBlock->back().erase();
    builder.setInsertionPointToEnd(newBlock);
    pushScope();
    SmallVector<Value> yielded;
    if (!oldRegion->empty()) {
      for (Operation &inner : oldRegion->front().without_terminator())
        if (failed(emitOp(&inner)))
          return failure();
      yielded = flatten(oldRegion->front().getTerminator()->getOperands());
    }
    popScope();
    scf::YieldOp::create(builder, loc, yielded);
  }
  builder.setInsertionPointAfter(newIf);
  unflatten(op.getResults(), newIf.getResults());
  return success();
}

LogicalResult KernelEmitter::emitWhile(scf::WhileOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> inits = flatten(op.getInits());
  SmallVector<Type> beforeTypes = flatTypes(op.getInits().getTypes());
  SmallVector<Type> afterTypes = flatTypes(op.getResultTypes());
  auto newWhile = scf::WhileOp::create(builder, loc, afterTypes, inits);
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Location> beforeLocs(beforeTypes.size(), loc);
  SmallVector<Location> afterLocs(afterTypes.size(), loc);
  Block *before =
      builder.createBlock(&newWhile.getBefore(), {}, beforeTypes, beforeLocs);
  unflatten(op.getBeforeArguments(), before->getArguments());
  pushScope();
  for (Operation &inner : op.getBeforeBody()->without_terminator())
    if (failed(emitOp(&inner)))
      return failure();
  scf::ConditionOp condition = op.getConditionOp();
  SmallVector<Value> forwarded = flatten(condition.getArgs());
  Value keepGoing = getScalar(condition.getCondition());
  popScope();
  scf::ConditionOp::create(builder, loc, keepGoing, forwarded);

  Block *after =
      builder.createBlock(&newWhile.getAfter(), {}, afterTypes, afterLocs);
  unflatten(op.getAfterArguments(), after->getArguments());
  pushScope();
  for (Operation &inner : op.getAfterBody()->without_terminator())
    if (failed(emitOp(&inner)))
      return failure();
  SmallVector<Value> yielded = flatten(op.getYieldOp().getOperands());
  popScope();
  scf::YieldOp::create(builder, loc, yielded);
  builder.setInsertionPointAfter(newWhile);
  unflatten(op.getResults(), newWhile.getResults());
  return success();
}

void KernelEmitter::guarded(Location loc, Value condition,
                            function_ref<void()> body) {
  if (!condition) {
    body();
    return;
  }
  auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, condition,
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
  body();
}
