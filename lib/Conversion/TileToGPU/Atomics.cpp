//===- Atomics.cpp - atomic read-modify-write and compare-and-swap --------===//
//
// One PTX `atom.global.<sem>.<scope>.<op>.<type>` per element (PTXAsm.h),
// predicated on the element's mask and on this thread owning the element:
// where a layout repeats an element in several registers or threads, only
// the owner (ownsRegister, as stores choose it) applies it, so each element
// is applied exactly once. The old values then reach the other copies
// through shared memory. A scalar atomic is done by thread 0 alone and its
// old value shared the same way. Float max/min are two integer atomics on
// the bits (Triton's): a signed max (min) where the value is non-negative,
// an unsigned min (max) where its sign bit is set.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// The PTX operation and type of `kind` (none: compare-and-swap) on
/// `element`, which is not a float max/min: "add.f32", "max.s64", ...
static std::string atomicOperation(std::optional<AtomicKind> kind,
                                   Type element) {
  std::string bits = std::to_string(element.getIntOrFloatBitWidth());
  if (!kind)
    return "cas.b" + bits;
  switch (*kind) {
  case AtomicKind::add:
    if (element.isF16() || element.isBF16())
      return element.isF16() ? "add.noftz.f16" : "add.noftz.bf16";
    return (isa<FloatType>(element) ? "add.f" : "add.u") + bits;
  case AtomicKind::max:
    return "max.s" + bits;
  case AtomicKind::min:
    return "min.s" + bits;
  case AtomicKind::umax:
    return "max.u" + bits;
  case AtomicKind::umin:
    return "min.u" + bits;
  case AtomicKind::bit_and:
    return "and.b" + bits;
  case AtomicKind::bit_or:
    return "or.b" + bits;
  case AtomicKind::bit_xor:
    return "xor.b" + bits;
  case AtomicKind::xchg:
    return "exch.b" + bits;
  }
  llvm_unreachable("unknown atomic kind");
}

Value KernelEmitter::atomicElement(Location loc, StringRef prefix,
                                   std::optional<AtomicKind> kind, Type element,
                                   Value ptr, ArrayRef<Value> operands,
                                   Value pred) {
  int64_t bits = element.getIntOrFloatBitWidth();
  Type word = builder.getIntegerType(bits);
  auto toWord = [&](Value value) -> Value {
    return isa<FloatType>(element)
               ? Value(LLVM::BitcastOp::create(builder, loc, word, value))
               : value;
  };
  auto fromWord = [&](Value value) -> Value {
    return isa<FloatType>(element)
               ? Value(LLVM::BitcastOp::create(builder, loc, element, value))
               : value;
  };
  SmallVector<Value> words;
  for (Value operand : operands)
    words.push_back(toWord(operand));
  auto atomic = [&](StringRef operation, Value onPred) {
    return createAtomic(builder, loc, (prefix + "." + operation).str(), ptr,
                        onPred, words, bits);
  };
  bool isFloatMinMax = kind &&
                       (*kind == AtomicKind::max || *kind == AtomicKind::min) &&
                       isa<FloatType>(element);
  if (!isFloatMinMax)
    return fromWord(atomic(atomicOperation(kind, element), pred));

  // Non-negative floats order as their bits do as signed integers; negative
  // ones (sign bit set, -0.0 included) in reverse as unsigned integers.
  bool isMax = *kind == AtomicKind::max;
  std::string width = std::to_string(bits);
  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getIntegerAttr(word, 0));
  Value negative = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::slt, words[0], zero);
  Value nonNegative =
      arith::XOrIOp::create(builder, loc, negative, constBool(loc, true));
  Value onPositive = atomic((isMax ? "max.s" : "min.s") + width,
                            andPredicates(loc, pred, nonNegative));
  Value onNegative = atomic((isMax ? "min.u" : "max.u") + width,
                            andPredicates(loc, pred, negative));
  return fromWord(
      arith::SelectOp::create(builder, loc, negative, onNegative, onPositive));
}

Value KernelEmitter::shareFromThreadZero(Location loc, Value value) {
  reserveShared(elementBytes(storageType(value.getType())));
  Value zero = constI32(loc, 0);
  barrier(loc); // earlier readers of shared memory are done
  Value isThreadZero = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, threadId(), zero);
  {
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, isThreadZero,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    storeShared(loc, zero, zero, value);
  }
  barrier(loc);
  return loadShared(loc, zero, zero, value.getType());
}

SmallVector<Value>
KernelEmitter::shareOwnedRegisters(Location loc, ArrayRef<Value> values,
                                   const BlockLayout &layout) {
  // Staged at the row-major index of the padded block: every register,
  // padding included, has a place.
  ArrayRef<int64_t> padded = layout.linear.getShape();
  int64_t elements = 1;
  for (int64_t extent : padded)
    elements *= extent;
  Type type = values[0].getType();
  reserveShared(elements * elementBytes(storageType(type)));
  Value zero = constI32(loc, 0);
  barrier(loc);
  SmallVector<Value> indices;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    indices.push_back(linearIndex(loc, padded, registerCoords(layout, reg)));
    Value owner = ownsRegister(layout, reg);
    if (!owner) {
      storeShared(loc, zero, indices.back(), values[reg]);
      continue;
    }
    if (auto constant = owner.getDefiningOp<arith::ConstantOp>())
      if (!cast<BoolAttr>(constant.getValue()).getValue())
        continue;
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, owner,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    storeShared(loc, zero, indices.back(), values[reg]);
  }
  barrier(loc);
  SmallVector<Value> result;
  for (Value index : indices)
    result.push_back(loadShared(loc, zero, index, type));
  return result;
}

LogicalResult KernelEmitter::emitAtomic(Operation *op) {
  Location loc = op->getLoc();
  auto rmw = dyn_cast<AtomicRMWOp>(op);
  auto cas = dyn_cast<AtomicCASOp>(op);
  std::optional<AtomicKind> kind;
  MemSemantic sem = rmw ? rmw.getSem() : cas.getSem();
  MemScope scope = rmw ? rmw.getScope() : cas.getScope();
  Value ptr = op->getOperand(0), mask, result = op->getResult(0);
  SmallVector<Value> data;
  if (rmw) {
    kind = rmw.getKind();
    mask = rmw.getMask();
    data.push_back(rmw.getValue());
  } else {
    data = {cas.getCmp(), cas.getValue()};
  }
  std::string prefix = ("atom.global." + stringifyMemSemantic(sem) + "." +
                        stringifyMemScope(scope))
                           .str();
  Type element = getElementTypeOrSelf(result.getType());
  bool used = !result.use_empty();

  if (!isa<BlockType>(result.getType())) {
    // One atomic per program: thread 0 does it.
    Value pred = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       threadId(), constI32(loc, 0));
    if (mask)
      pred = andPredicates(loc, pred, getScalar(mask));
    SmallVector<Value> operands;
    for (Value value : data)
      operands.push_back(getScalar(value));
    Value old = atomicElement(loc, prefix, kind, element, getScalar(ptr),
                              operands, pred);
    scalars.map(result, used ? shareFromThreadZero(loc, old) : old);
    return success();
  }

  BlockLayout layout = getBlockLayout(cast<BlockType>(result.getType()));
  std::optional<SmallVector<Value>> ptrs = registersIn(ptr, layout);
  std::optional<SmallVector<Value>> masks;
  if (mask)
    masks = registersIn(mask, layout);
  SmallVector<SmallVector<Value>> operands;
  for (Value value : data) {
    std::optional<SmallVector<Value>> registersOf = registersIn(value, layout);
    if (!registersOf)
      return op->emitOpError()
             << "has operands in another layout than its result";
    operands.push_back(std::move(*registersOf));
  }
  if (!ptrs || (mask && !masks))
    return op->emitOpError()
           << "has pointers or mask in another layout than its result";

  SmallVector<Value> old;
  bool replicated = false;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    Value owner = ownsRegister(layout, reg);
    replicated |= bool(owner);
    if (owner)
      if (auto constant = owner.getDefiningOp<arith::ConstantOp>())
        if (!cast<BoolAttr>(constant.getValue()).getValue()) {
          // A copy: its old value comes from the owner.
          old.push_back(arith::ConstantOp::create(
              builder, loc, builder.getZeroAttr(element)));
          continue;
        }
    Value pred = andPredicates(loc, registerValid(layout, reg), owner);
    if (masks)
      pred = andPredicates(loc, pred, (*masks)[reg]);
    SmallVector<Value> elementOperands;
    for (ArrayRef<Value> registersOf : operands)
      elementOperands.push_back(registersOf[reg]);
    old.push_back(atomicElement(loc, prefix, kind, element, (*ptrs)[reg],
                                elementOperands, pred));
  }
  registers[result] =
      used && replicated ? shareOwnedRegisters(loc, old, layout) : old;
  return success();
}
