//===- ReduceScan.cpp - reductions and scans
//--------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

Accumulator KernelEmitter::identityAccumulator(Location loc, CombineKind kind,
                                               Type type) {
  if (kind == CombineKind::custom) {
    Value zero = LLVM::ZeroOp::create(builder, loc, type);
    return {zero, arith::ConstantOp::create(builder, loc,
                                            builder.getBoolAttr(false))};
  }
  TypedAttr identity;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    if (kind == CombineKind::sum)
      identity = builder.getFloatAttr(type, APFloat::getZero(semantics, true));
    else
      identity = builder.getFloatAttr(
          type, APFloat::getInf(semantics, kind == CombineKind::max));
  } else {
    unsigned width = type.getIntOrFloatBitWidth();
    APInt value = kind == CombineKind::sum   ? APInt::getZero(width)
                  : kind == CombineKind::max ? APInt::getSignedMinValue(width)
                                             : APInt::getSignedMaxValue(width);
    if (width == 1) // i1 max is "or", min is "and"
      value =
          kind == CombineKind::min ? APInt::getAllOnes(1) : APInt::getZero(1);
    identity = builder.getIntegerAttr(type, value);
  }
  return {arith::ConstantOp::create(builder, loc, identity), Value()};
}

Value KernelEmitter::combineValues(Location loc, CombineKind kind,
                                   Region &region, Value a, Value b) {
  Type type = a.getType();
  bool isFloat = isa<FloatType>(type);
  switch (kind) {
  case CombineKind::sum:
    if (type.isInteger(1))
      return arith::XOrIOp::create(builder, loc, a, b);
    return isFloat ? Value(arith::AddFOp::create(builder, loc, a, b))
                   : Value(arith::AddIOp::create(builder, loc, a, b));
  case CombineKind::max:
    if (type.isInteger(1))
      return arith::OrIOp::create(builder, loc, a, b);
    return isFloat ? Value(arith::MaximumFOp::create(builder, loc, a, b))
                   : Value(arith::MaxSIOp::create(builder, loc, a, b));
  case CombineKind::min:
    if (type.isInteger(1))
      return arith::AndIOp::create(builder, loc, a, b);
    return isFloat ? Value(arith::MinimumFOp::create(builder, loc, a, b))
                   : Value(arith::MinSIOp::create(builder, loc, a, b));
  case CombineKind::custom: {
    IRMapping mapping;
    Block &body = region.front();
    mapping.map(body.getArgument(0), a);
    mapping.map(body.getArgument(1), b);
    for (Operation &inner : body.without_terminator())
      builder.clone(inner, mapping);
    return mapping.lookup(body.getTerminator()->getOperand(0));
  }
  }
  llvm_unreachable("unknown combine kind");
}

Accumulator KernelEmitter::combine(Location loc, CombineKind kind,
                                   Region &region, Accumulator a,
                                   Accumulator b) {
  Value combined = combineValues(loc, kind, region, a.value, b.value);
  if (!a.valid)
    return {combined, Value()};
  // Without an identity: take whichever side holds a value.
  Value both = arith::AndIOp::create(builder, loc, a.valid, b.valid);
  Value onlyA =
      arith::SelectOp::create(builder, loc, a.valid, a.value, b.value);
  Value value = arith::SelectOp::create(builder, loc, both, combined, onlyA);
  Value valid = arith::OrIOp::create(builder, loc, a.valid, b.valid);
  return {value, valid};
}

Value KernelEmitter::shuffleXor(Location loc, Value value, int64_t offset) {
  Type type = value.getType();
  Value offsetValue = constI32(loc, offset);
  Value width = constI32(loc, kWarpSize);
  auto shuffle32 = [&](Value word) -> Value {
    return gpu::ShuffleOp::create(builder, loc, word, offsetValue, width,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  if (type.isInteger(32) || type.isF32())
    return shuffle32(value);
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = builder.getIntegerType(bits);
  Value asInt =
      isa<FloatType>(type)
          ? Value(arith::BitcastOp::create(builder, loc, intType, value))
          : value;
  Value result;
  if (bits < 32) {
    Value wide = arith::ExtUIOp::create(builder, loc, i32Type(), asInt);
    result = arith::TruncIOp::create(builder, loc, intType, shuffle32(wide));
  } else {
    Value low = arith::TruncIOp::create(builder, loc, i32Type(), asInt);
    Value high = arith::TruncIOp::create(
        builder, loc, i32Type(),
        arith::ShRUIOp::create(
            builder, loc, asInt,
            arith::ConstantOp::create(builder, loc,
                                      builder.getIntegerAttr(intType, 32))));
    Value newLow =
        arith::ExtUIOp::create(builder, loc, intType, shuffle32(low));
    Value newHigh =
        arith::ExtUIOp::create(builder, loc, intType, shuffle32(high));
    result = arith::OrIOp::create(
        builder, loc, newLow,
        arith::ShLIOp::create(
            builder, loc, newHigh,
            arith::ConstantOp::create(builder, loc,
                                      builder.getIntegerAttr(intType, 32))));
  }
  return isa<FloatType>(type)
             ? Value(arith::BitcastOp::create(builder, loc, type, result))
             : result;
}

Accumulator KernelEmitter::butterfly(Location loc, CombineKind kind,
                                     Region &region, Accumulator acc,
                                     int64_t width) {
  for (int64_t offset = width / 2; offset >= 1; offset /= 2) {
    Accumulator other{shuffleXor(loc, acc.value, offset), Value()};
    if (acc.valid) {
      Value flag = arith::ExtUIOp::create(builder, loc, i32Type(), acc.valid);
      other.valid = arith::TruncIOp::create(builder, loc, builder.getI1Type(),
                                            shuffleXor(loc, flag, offset));
    }
    acc = combine(loc, kind, region, acc, other);
  }
  return acc;
}

Value KernelEmitter::lineStart(Location loc, Value line, int64_t extent,
                               int64_t inner) {
  Value outerIndex =
      arith::DivUIOp::create(builder, loc, line, constI32(loc, inner));
  Value innerIndex =
      arith::RemUIOp::create(builder, loc, line, constI32(loc, inner));
  // Element (outer, k, inner) sits at (outer * extent + k) * inner + inner.
  return arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, outerIndex,
                            constI32(loc, extent * inner)),
      innerIndex);
}

LogicalResult KernelEmitter::emitReduce(ReduceOp op) {
  Location loc = op.getLoc();
  auto srcType = cast<BlockType>(op.getSrc().getType());
  Type element = srcType.getElementType();
  CombineKind kind = op.getKind();
  Region &region = op.getCombine();
  ArrayRef<int64_t> shape = srcType.getShape();
  int64_t axis = op.getAxis();
  int64_t extent = shape[axis];
  int64_t inner = 1, outer = 1;
  for (int64_t dim = axis + 1; dim < int64_t(shape.size()); ++dim)
    inner *= shape[dim];
  for (int64_t dim = 0; dim < axis; ++dim)
    outer *= shape[dim];
  int64_t outputs = outer * inner;
  int64_t storageBytes = elementBytes(sharedStorageType(element));
  Value zero = constI32(loc, 0);

  if (outputs == 1) {
    // A whole-block reduction: registers, then the warp's shuffles, then
    // one value per warp through shared memory.
    Layout layout = getLayout(srcType, threads);
    SmallVector<Value> values(getSlots(op.getSrc()));
    Accumulator acc = identityAccumulator(loc, kind, element);
    for (int64_t slot = 0; slot < layout.numSlots(); ++slot) {
      Accumulator next{values[slot], Value()};
      if (acc.valid || !layout.alwaysValid(slot / layout.vector)) {
        Value valid = chunkValid(layout, slot / layout.vector);
        if (acc.valid) {
          next.valid = valid;
        } else {
          Accumulator identity = identityAccumulator(loc, kind, element);
          next.value = arith::SelectOp::create(builder, loc, valid,
                                               values[slot], identity.value);
        }
      }
      acc = combine(loc, kind, region, acc, next);
    }
    acc = butterfly(loc, kind, region, acc, kWarpSize);
    if (numWarps > 1) {
      // Warp w's lane 0 writes slot w; a flag array follows for custom
      // combines, whose empty warps must be skipped.
      int64_t flagsOffset = numWarps * storageBytes;
      reserveShared(flagsOffset + numWarps * 4);
      Value lane =
          arith::RemUIOp::create(builder, loc, tid, constI32(loc, kWarpSize));
      Value warp =
          arith::DivUIOp::create(builder, loc, tid, constI32(loc, kWarpSize));
      barrier(loc);
      Value isLeader = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, lane, zero);
      {
        auto ifOp =
            scf::IfOp::create(builder, loc, TypeRange{}, isLeader, false);
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
        storeShared(loc, zero, warp, acc.value);
        if (acc.valid)
          storeShared(
              loc, constI32(loc, flagsOffset), warp,
              arith::ExtUIOp::create(builder, loc, i32Type(), acc.valid));
      }
      barrier(loc);
      Accumulator total = identityAccumulator(loc, kind, element);
      for (int64_t w = 0; w < numWarps; ++w) {
        Accumulator part{loadShared(loc, zero, constI32(loc, w), element),
                         Value()};
        if (total.valid)
          part.valid = castScalar(loc,
                                  loadShared(loc, constI32(loc, flagsOffset),
                                             constI32(loc, w), i32Type()),
                                  builder.getI1Type(), false);
        total = combine(loc, kind, region, total, part);
      }
      acc = total;
    }
    if (isa<BlockType>(op.getType())) {
      // Reducing to a block of one element: every slot holds the total.
      Layout resultLayout = getLayout(cast<BlockType>(op.getType()), threads);
      slots[op.getResult()] =
          SmallVector<Value>(resultLayout.numSlots(), acc.value);
    } else {
      scalars.map(op.getResult(), acc.value);
    }
    return success();
  }

  // Along one axis: the block goes to shared memory; groups of lanes share
  // an output, each lane combines a strided part of the axis, the group
  // combines with shuffles, and its first lane writes the output.
  int64_t inputBytes = srcType.getNumElements() * storageBytes;
  int64_t outputOffset = (inputBytes + 15) / 16 * 16;
  reserveShared(outputOffset + outputs * storageBytes);
  barrier(loc);
  spillToShared(loc, op.getSrc(), zero);
  barrier(loc);

  int64_t group = 1;
  while (group < extent && group < kWarpSize)
    group *= 2;
  int64_t groups = threads / group;
  Value lane = arith::RemUIOp::create(builder, loc, tid, constI32(loc, group));
  Value groupId =
      arith::DivUIOp::create(builder, loc, tid, constI32(loc, group));
  int64_t rounds = (outputs + groups - 1) / groups;
  Value one = constI32(loc, 1);
  auto roundLoop = scf::ForOp::create(builder, loc, zero, constI32(loc, rounds),
                                      one, ValueRange{});
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(roundLoop.getBody());
    pushScope();
    Value output = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, roundLoop.getInductionVar(),
                              constI32(loc, groups)),
        groupId);
    Value outputValid =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, output,
                              constI32(loc, outputs));
    Value safeOutput =
        arith::SelectOp::create(builder, loc, outputValid, output, zero);
    Value rowBase = lineStart(loc, safeOutput, extent, inner);
    Accumulator start = identityAccumulator(loc, kind, element);
    SmallVector<Value> carried{start.value};
    if (start.valid)
      carried.push_back(start.valid);
    auto strideLoop =
        scf::ForOp::create(builder, loc, lane, constI32(loc, extent),
                           constI32(loc, group), carried);
    {
      OpBuilder::InsertionGuard innerGuard(builder);
      builder.setInsertionPointToStart(strideLoop.getBody());
      pushScope();
      Value k = strideLoop.getInductionVar();
      Value index = arith::AddIOp::create(
          builder, loc, rowBase,
          arith::MulIOp::create(builder, loc, k, constI32(loc, inner)));
      Accumulator acc{strideLoop.getRegionIterArgs()[0],
                      start.valid ? strideLoop.getRegionIterArgs()[1]
                                  : Value()};
      Accumulator element_{loadShared(loc, zero, index, element), Value()};
      if (acc.valid)
        element_.valid =
            arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true));
      Accumulator next = combine(loc, kind, op.getCombine(), acc, element_);
      SmallVector<Value> yielded{next.value};
      if (next.valid)
        yielded.push_back(next.valid);
      popScope();
      scf::YieldOp::create(builder, loc, yielded);
    }
    Accumulator acc{strideLoop.getResult(0),
                    start.valid ? strideLoop.getResult(1) : Value()};
    acc = butterfly(loc, kind, op.getCombine(), acc, group);
    Value isLeader = arith::AndIOp::create(
        builder, loc, outputValid,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, lane,
                              zero));
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, isLeader, false);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    storeShared(loc, constI32(loc, outputOffset), output, acc.value);
    popScope();
  }
  barrier(loc);
  auto resultType = cast<BlockType>(op.getType());
  Layout layout = getLayout(resultType, threads);
  SmallVector<Value> result;
  for (int64_t slot = 0; slot < layout.numSlots(); ++slot) {
    Value linear = linearIndex(loc, layout.shape, slotCoords(layout, slot));
    if (!layout.alwaysValid(slot / layout.vector))
      linear = arith::SelectOp::create(
          builder, loc, chunkValid(layout, slot / layout.vector), linear, zero);
    result.push_back(
        loadShared(loc, constI32(loc, outputOffset), linear, element));
  }
  slots[op.getResult()] = std::move(result);
  return success();
}

LogicalResult KernelEmitter::emitScan(ScanOp op) {
  // One thread per line along the axis combines it serially in shared
  // memory; lines are spread over all threads.
  Location loc = op.getLoc();
  auto type = cast<BlockType>(op.getSrc().getType());
  Type element = type.getElementType();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t axis = op.getAxis(), extent = shape[axis];
  int64_t inner = 1, outer = 1;
  for (int64_t dim = axis + 1; dim < int64_t(shape.size()); ++dim)
    inner *= shape[dim];
  for (int64_t dim = 0; dim < axis; ++dim)
    outer *= shape[dim];
  int64_t lines = outer * inner;
  reserveShared(type.getNumElements() *
                elementBytes(sharedStorageType(element)));
  Value zero = constI32(loc, 0), one = constI32(loc, 1);
  barrier(loc);
  spillToShared(loc, op.getSrc(), zero);
  barrier(loc);
  auto lineLoop = scf::ForOp::create(builder, loc, tid, constI32(loc, lines),
                                     constI32(loc, threads), ValueRange{});
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(lineLoop.getBody());
    pushScope();
    Value line = lineLoop.getInductionVar();
    Value base = lineStart(loc, line, extent, inner);
    Value first = loadShared(
        loc, zero,
        op.getReverse()
            ? Value(arith::AddIOp::create(builder, loc, base,
                                          constI32(loc, (extent - 1) * inner)))
            : base,
        element);
    auto stepLoop = scf::ForOp::create(builder, loc, one, constI32(loc, extent),
                                       one, ValueRange{first});
    OpBuilder::InsertionGuard innerGuard(builder);
    builder.setInsertionPointToStart(stepLoop.getBody());
    Value k = stepLoop.getInductionVar();
    if (op.getReverse())
      k = arith::SubIOp::create(builder, loc, constI32(loc, extent - 1), k);
    Value index = arith::AddIOp::create(
        builder, loc, base,
        arith::MulIOp::create(builder, loc, k, constI32(loc, inner)));
    Value current = loadShared(loc, zero, index, element);
    Value combined = combineValues(loc, op.getKind(), op.getCombine(),
                                   stepLoop.getRegionIterArgs()[0], current);
    storeShared(loc, zero, index, combined);
    scf::YieldOp::create(builder, loc, combined);
    popScope();
  }
  barrier(loc);
  Layout layout = getLayout(type, threads);
  SmallVector<Value> result;
  for (int64_t slot = 0; slot < layout.numSlots(); ++slot) {
    Value linear = linearIndex(loc, layout.shape, slotCoords(layout, slot));
    if (!layout.alwaysValid(slot / layout.vector))
      linear = arith::SelectOp::create(
          builder, loc, chunkValid(layout, slot / layout.vector), linear, zero);
    result.push_back(loadShared(loc, zero, linear, element));
  }
  slots[op.getResult()] = std::move(result);
  return success();
}
