//===- Reduce.cpp - reductions, and what scans share with them ------------===//
//
// A reduction along an axis follows the layout's bases: the registers of a
// thread that differ only along the axis are combined first, then the lanes
// that differ along it (xor shuffles), then the warps (one round through
// shared memory). The result is in the slice of the operand's layout along
// the axis, where the threads that held different parts of a line hold the
// same total; it is converted if the result type asks for another layout.
// The layout pass gives reductions layouts whose bases each lie along one
// dimension (blocked and slice layouts do).
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include <set>

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Combining
//===----------------------------------------------------------------------===//

Accumulator KernelEmitter::identityAccumulator(Location loc, CombineKind kind,
                                               Type type) {
  if (kind == CombineKind::custom) {
    Value zero = LLVM::ZeroOp::create(builder, loc, type);
    return {zero, constBool(loc, false)};
  }
  TypedAttr identity = getCombineIdentity(kind, type);
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
  case CombineKind::umax:
    if (type.isInteger(1))
      return arith::OrIOp::create(builder, loc, a, b);
    return arith::MaxUIOp::create(builder, loc, a, b);
  case CombineKind::umin:
    if (type.isInteger(1))
      return arith::AndIOp::create(builder, loc, a, b);
    return arith::MinUIOp::create(builder, loc, a, b);
  case CombineKind::maxnum:
    return arith::MaxNumFOp::create(builder, loc, a, b);
  case CombineKind::minnum:
    return arith::MinNumFOp::create(builder, loc, a, b);
  case CombineKind::custom: {
    // The region takes the earlier elements of every block, then the later
    // ones; several blocks travel packed in one struct.
    IRMapping mapping;
    Block &body = region.front();
    unsigned count = body.getNumArguments() / 2;
    SmallVector<Value> args = splitCombined(loc, a, count);
    llvm::append_range(args, splitCombined(loc, b, count));
    mapping.map(body.getArguments(), args);
    for (Operation &inner : body.without_terminator()) {
      // Scalars from outside the region (constants the canonicalizer hoisted
      // out of it) are the kernel's values.
      inner.walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (!mapping.contains(operand) &&
              !region.isAncestor(operand.getParentRegion()))
            mapping.map(operand, getScalar(operand));
      });
      // A device assertion in a combine function checks its scalar.
      if (auto assertOp = dyn_cast<AssertOp>(inner)) {
        emitAssertion(assertOp.getLoc(),
                      mapping.lookup(assertOp.getCondition()),
                      assertOp.getMessage());
        continue;
      }
      builder.clone(inner, mapping);
    }
    Operation *yield = body.getTerminator();
    if (count == 1)
      return mapping.lookup(yield->getOperand(0));
    Value packed = LLVM::UndefOp::create(builder, loc, type);
    for (auto [i, yielded] : llvm::enumerate(yield->getOperands()))
      packed = LLVM::InsertValueOp::create(builder, loc, packed,
                                           mapping.lookup(yielded), i);
    return packed;
  }
  }
  llvm_unreachable("unknown combine kind");
}

Accumulator KernelEmitter::combine(Location loc, CombineKind kind,
                                   Region &region, Accumulator a,
                                   Accumulator b) {
  Value combined = combineValues(loc, kind, region, a.value, b.value);
  if (!a.valid && !b.valid)
    return {combined, Value()};
  // Without an identity: take whichever side holds a value.
  Value aValid = a.valid ? a.valid : constBool(loc, true);
  Value bValid = b.valid ? b.valid : constBool(loc, true);
  Value both = arith::AndIOp::create(builder, loc, aValid, bValid);
  Value onlyA = arith::SelectOp::create(builder, loc, aValid, a.value, b.value);
  Value value = arith::SelectOp::create(builder, loc, both, combined, onlyA);
  Value valid = arith::OrIOp::create(builder, loc, aValid, bValid);
  return {value, valid};
}

Accumulator KernelEmitter::selectAccumulator(Location loc, Value condition,
                                             Accumulator a, Accumulator b) {
  Value value =
      arith::SelectOp::create(builder, loc, condition, a.value, b.value);
  if (!a.valid && !b.valid)
    return {value, Value()};
  Value aValid = a.valid ? a.valid : constBool(loc, true);
  Value bValid = b.valid ? b.valid : constBool(loc, true);
  return {value,
          arith::SelectOp::create(builder, loc, condition, aValid, bValid)};
}

Type KernelEmitter::combinedElementType(ValueRange srcs) {
  if (srcs.size() == 1)
    return cast<BlockType>(srcs.front().getType()).getElementType();
  SmallVector<Type> fields;
  for (Value src : srcs)
    fields.push_back(cast<BlockType>(src.getType()).getElementType());
  return LLVM::LLVMStructType::getLiteral(builder.getContext(), fields);
}

SmallVector<Value> KernelEmitter::combinedRegisters(Location loc,
                                                    ValueRange srcs) {
  if (srcs.size() == 1)
    return getRegisters(srcs.front());
  Type type = combinedElementType(srcs);
  SmallVector<Value> packed;
  for (auto [i, src] : llvm::enumerate(srcs))
    for (auto [reg, value] : llvm::enumerate(getRegisters(src))) {
      if (i == 0)
        packed.push_back(LLVM::UndefOp::create(builder, loc, type));
      packed[reg] =
          LLVM::InsertValueOp::create(builder, loc, packed[reg], value, i);
    }
  return packed;
}

SmallVector<Value> KernelEmitter::splitCombined(Location loc, Value value,
                                                unsigned count) {
  if (count == 1)
    return {value};
  SmallVector<Value> fields;
  for (unsigned i = 0; i < count; ++i)
    fields.push_back(LLVM::ExtractValueOp::create(builder, loc, value, i));
  return fields;
}

//===----------------------------------------------------------------------===//
// Shuffles
//===----------------------------------------------------------------------===//

Value KernelEmitter::shuffle(Location loc, Value value, Value laneOrOffset,
                             gpu::ShuffleMode mode) {
  Type type = value.getType();
  if (auto tuple = dyn_cast<LLVM::LLVMStructType>(type)) {
    Value result = LLVM::UndefOp::create(builder, loc, type);
    for (unsigned i = 0; i < tuple.getBody().size(); ++i) {
      Value field = LLVM::ExtractValueOp::create(builder, loc, value, i);
      result = LLVM::InsertValueOp::create(
          builder, loc, result, shuffle(loc, field, laneOrOffset, mode), i);
    }
    return result;
  }
  Value width = constI32(loc, kWarpSize);
  auto shuffle32 = [&](Value word) -> Value {
    return gpu::ShuffleOp::create(builder, loc, word, laneOrOffset, width, mode)
        .getShuffleResult();
  };
  if (type.isInteger(32) || type.isF32())
    return shuffle32(value);
  if (isa<LLVM::LLVMPointerType>(type)) {
    Value asInt =
        LLVM::PtrToIntOp::create(builder, loc, builder.getI64Type(), value);
    return LLVM::IntToPtrOp::create(builder, loc, type,
                                    shuffle(loc, asInt, laneOrOffset, mode));
  }
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
    Value shift = arith::ConstantOp::create(
        builder, loc, builder.getIntegerAttr(intType, 32));
    Value low = arith::TruncIOp::create(builder, loc, i32Type(), asInt);
    Value high = arith::TruncIOp::create(
        builder, loc, i32Type(),
        arith::ShRUIOp::create(builder, loc, asInt, shift));
    Value newLow =
        arith::ExtUIOp::create(builder, loc, intType, shuffle32(low));
    Value newHigh =
        arith::ExtUIOp::create(builder, loc, intType, shuffle32(high));
    result = arith::OrIOp::create(
        builder, loc, newLow,
        arith::ShLIOp::create(builder, loc, newHigh, shift));
  }
  return isa<FloatType>(type)
             ? Value(arith::BitcastOp::create(builder, loc, type, result))
             : result;
}

Value KernelEmitter::shuffleXor(Location loc, Value value, int64_t offset) {
  return shuffle(loc, value, constI32(loc, offset), gpu::ShuffleMode::XOR);
}

Accumulator KernelEmitter::shuffleAccumulator(Location loc, Accumulator acc,
                                              Value lane,
                                              gpu::ShuffleMode mode) {
  Accumulator result{shuffle(loc, acc.value, lane, mode), Value()};
  if (acc.valid)
    result.valid = shuffle(loc, acc.valid, lane, mode);
  return result;
}

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

/// Whether every basis of `layout` lies along `axis` alone or has no
/// component along it: then threads and registers split into lines.
static bool separatesAxis(const LinearLayout &layout, unsigned axis) {
  for (HWDim dim : {HWDim::Register, HWDim::Lane, HWDim::Warp})
    for (const LinearLayout::Coord &basis : layout.getBases(dim))
      for (unsigned d = 0; d < layout.getRank(); ++d)
        if (d != axis && basis[d] != 0 && basis[axis] != 0)
          return false;
  return true;
}

LogicalResult KernelEmitter::emitReduce(ReduceOp op) {
  Location loc = op.getLoc();
  auto srcType = cast<BlockType>(op.getSrc().getType());
  Type element = combinedElementType(op.getSrcs());
  CombineKind kind = op.getKind();
  Region &region = op.getCombine();
  unsigned axis = op.getAxis();
  BlockLayout layout = getBlockLayout(srcType);
  const LinearLayout &linear = layout.linear;
  if (!separatesAxis(linear, axis))
    return op.emitOpError() << "operand layout mixes the reduced dimension "
                            << axis << " with others; convert it first";
  for (Value src : op.getSrcs())
    if (cast<BlockType>(src.getType()).getEncoding() != srcType.getEncoding())
      return op.emitOpError() << "operands must have one layout";
  SmallVector<Value> values = combinedRegisters(loc, op.getSrcs());

  // 1. Within the thread: registers whose coordinates differ only along the
  //    axis go to one accumulator (a repeated element counts once).
  struct Group {
    int64_t representative;
    Accumulator acc;
  };
  std::map<uint64_t, size_t> groupOf;
  SmallVector<Group> groups;
  std::set<uint64_t> seen;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    LinearLayout::Coord coord = linear.apply(HWDim::Register, reg);
    if (!seen.insert(linear.flatten(coord)).second)
      continue;
    Accumulator next{values[reg], Value()};
    if (Value valid = registerValidAlong(layout, reg, axis)) {
      if (kind == CombineKind::custom)
        next.valid = valid;
      else
        next.value = arith::SelectOp::create(
            builder, loc, valid, values[reg],
            identityAccumulator(loc, kind, element).value);
    }
    coord[axis] = 0;
    auto [it, inserted] =
        groupOf.try_emplace(linear.flatten(coord), groups.size());
    if (inserted)
      groups.push_back({reg, next});
    else
      groups[it->second].acc =
          combine(loc, kind, region, groups[it->second].acc, next);
  }

  // 2. Across the lanes that hold other parts of the same lines.
  for (auto [bit, basis] : llvm::enumerate(linear.getBases(HWDim::Lane))) {
    if (basis[axis] == 0)
      continue;
    for (Group &group : groups) {
      Accumulator other =
          shuffleAccumulator(loc, group.acc, constI32(loc, int64_t(1) << bit),
                             gpu::ShuffleMode::XOR);
      group.acc = combine(loc, kind, region, group.acc, other);
    }
  }

  // 3. Across warps: each warp's partials go to shared memory, indexed by
  //    (warp along the axis, line), and every thread combines the partials
  //    of its lines in warp order.
  SmallVector<unsigned> axisWarpBits;
  for (auto [bit, basis] : llvm::enumerate(linear.getBases(HWDim::Warp)))
    if (basis[axis] != 0)
      axisWarpBits.push_back(5 + bit);
  if (!axisWarpBits.empty()) {
    SmallVector<int64_t> lineShape(linear.getShape());
    lineShape.erase(lineShape.begin() + axis);
    int64_t lines = 1;
    for (int64_t extent : lineShape)
      lines *= extent;
    int64_t partials = int64_t(1) << axisWarpBits.size();
    int64_t storageBytes = elementBytes(storageType(element));
    int64_t flagsOffset = (partials * lines * storageBytes + 15) / 16 * 16;
    reserveShared(kind == CombineKind::custom
                      ? flagsOffset + partials * lines * 4
                      : partials * lines * storageBytes);
    Value axisWarp = gatherThreadBits(loc, axisWarpBits);
    Value flags = constI32(loc, flagsOffset), zero = constI32(loc, 0);
    SmallVector<Value> lineIndex;
    for (Group &group : groups) {
      SmallVector<Value> coords = registerCoords(layout, group.representative);
      coords.erase(coords.begin() + axis);
      lineIndex.push_back(
          lineShape.empty() ? zero : linearIndex(loc, lineShape, coords));
    }
    barrier(loc);
    for (auto [group, line] : llvm::zip(groups, lineIndex)) {
      Value slot = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, axisWarp, constI32(loc, lines)),
          line);
      storeShared(loc, zero, slot, group.acc.value);
      if (group.acc.valid)
        storeShared(
            loc, flags, slot,
            arith::ExtUIOp::create(builder, loc, i32Type(), group.acc.valid));
    }
    barrier(loc);
    for (auto [group, line] : llvm::zip(groups, lineIndex)) {
      Accumulator total;
      for (int64_t w = 0; w < partials; ++w) {
        Value slot =
            arith::AddIOp::create(builder, loc, line, constI32(loc, w * lines));
        Accumulator part{loadShared(loc, zero, slot, element), Value()};
        if (group.acc.valid)
          part.valid = castScalar(loc, loadShared(loc, flags, slot, i32Type()),
                                  builder.getI1Type(), false);
        total = w == 0 ? part : combine(loc, kind, region, total, part);
      }
      group.acc = total;
    }
  }

  // 4. The result: a scalar (every thread holds the total), or the lines in
  //    the slice layout, converted to the result's layout if it differs.
  unsigned count = op.getSrcs().size();
  if (!isa<BlockType>(op.getResult().getType())) {
    for (auto [result, value] :
         llvm::zip(op.getResults(),
                   splitCombined(loc, groups.front().acc.value, count)))
      scalars.map(result, value);
    return success();
  }
  SmallVector<int64_t> resultShape(srcType.getShape());
  resultShape.erase(resultShape.begin() + axis);
  auto slice = SliceLayoutAttr::get(
      op.getContext(), axis,
      cast<DistributedLayoutAttrInterface>(srcType.getEncoding()));
  BlockLayout sliced{resultShape, slice.toLinearLayout(resultShape)};
  SmallVector<SmallVector<Value>> fields(count);
  for (int64_t reg = 0; reg < sliced.numRegisters(); ++reg) {
    LinearLayout::Coord coord = sliced.linear.apply(HWDim::Register, reg);
    coord.insert(coord.begin() + axis, 0);
    auto it = groupOf.find(linear.flatten(coord));
    if (it == groupOf.end())
      return op.emitOpError() << "internal error: no line for a result "
                                 "register of the slice layout";
    for (auto [i, value] : llvm::enumerate(
             splitCombined(loc, groups[it->second].acc.value, count)))
      fields[i].push_back(value);
  }
  for (auto [result, values] : llvm::zip(op.getResults(), fields)) {
    auto resultType = cast<BlockType>(result.getType());
    registers[result] =
        changeLayout(loc, resultType.getElementType(), values, sliced,
                     getBlockLayout(resultType), /*op=*/nullptr);
  }
  return success();
}
