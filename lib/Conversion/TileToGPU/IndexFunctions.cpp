//===- IndexFunctions.cpp - slots, coordinates, index functions
//-------------===//

#include "Emitter.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Types and memoization
//===----------------------------------------------------------------------===//

Type KernelEmitter::convertElementType(Type type) {
  if (isa<PtrType>(type))
    return LLVM::LLVMPointerType::get(type.getContext(), /*addressSpace=*/1);
  return type;
}

unsigned KernelEmitter::internCoords(ArrayRef<Value> coords) {
  std::vector<const void *> key;
  for (Value coord : coords)
    key.push_back(coord.getAsOpaquePointer());
  auto [it, inserted] = coordIds.try_emplace(key, coordIds.size());
  return it->second;
}

Value KernelEmitter::scopedConstI32(int64_t value) {
  for (Scope &scope : llvm::reverse(scopes)) {
    auto it = scope.constants.find(value);
    if (it != scope.constants.end())
      return it->second;
  }
  Value constant = constI32(kernel.getLoc(), value);
  scopes.back().constants[value] = constant;
  return constant;
}

Value KernelEmitter::scopedAddI32(Value value, int64_t constant) {
  auto key = std::make_pair(value.getAsOpaquePointer(), constant);
  for (Scope &scope : llvm::reverse(scopes)) {
    auto it = scope.sums.find(key);
    if (it != scope.sums.end())
      return it->second;
  }
  Value sum = arith::AddIOp::create(builder, kernel.getLoc(), value,
                                    constI32(kernel.getLoc(), constant));
  scopes.back().sums[key] = sum;
  return sum;
}

Value KernelEmitter::lookupMemo(MemoKey key) {
  for (Scope &scope : llvm::reverse(scopes)) {
    auto it = scope.values.find(key);
    if (it != scope.values.end())
      return it->second;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Index functions, slots and coordinates
//===----------------------------------------------------------------------===//

/// Whether `value` is a pure function of the element index and of scalars,
/// so that it can be evaluated at any index instead of being stored.
bool KernelEmitter::isIndexFunction(Value value) {
  auto it = indexFunction.find(value);
  if (it != indexFunction.end())
    return it->second;
  Operation *op = value.getDefiningOp();
  bool result = false;
  if (op && isa<BlockType>(value.getType())) {
    if (isa<ArangeOp, SplatOp>(op)) {
      result = true;
    } else if (auto constant = dyn_cast<ConstantOp>(op)) {
      result = isa<SplatElementsAttr>(constant.getValue());
    } else if (op->hasTrait<OpTrait::Elementwise>() ||
               isa<AddPtrOp, ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp>(
                   op)) {
      result = llvm::all_of(op->getOperands(), [&](Value operand) {
        return !isa<BlockType>(operand.getType()) || isIndexFunction(operand);
      });
    }
  }
  indexFunction[value] = result;
  return result;
}

SmallVector<Value> KernelEmitter::delinearize(Location loc,
                                              ArrayRef<int64_t> shape,
                                              Value linear) {
  SmallVector<Value> coords(shape.size());
  Value rest = linear;
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    if (dim == 0) {
      coords[dim] = rest;
      break;
    }
    Value extent = constI32(loc, shape[dim]);
    coords[dim] = arith::RemUIOp::create(builder, loc, rest, extent);
    rest = arith::DivUIOp::create(builder, loc, rest, extent);
  }
  return coords;
}

Value KernelEmitter::linearIndex(Location loc, ArrayRef<int64_t> shape,
                                 ArrayRef<Value> coords) {
  Value linear = coords[0];
  for (size_t dim = 1; dim < shape.size(); ++dim) {
    Value scaled =
        arith::MulIOp::create(builder, loc, linear, constI32(loc, shape[dim]));
    linear = arith::AddIOp::create(builder, loc, scaled, coords[dim]);
  }
  return linear;
}

SmallVector<Value> KernelEmitter::slotCoords(const Layout &layout,
                                             int64_t slot) {
  std::vector<int64_t> layoutKey(layout.shape.begin(), layout.shape.end());
  layoutKey.push_back(layout.vector);
  auto lookup = [&](int64_t which) -> const SmallVector<Value> * {
    for (Scope &scope : llvm::reverse(scopes)) {
      auto it = scope.coords.find(CoordKey(layoutKey, which));
      if (it != scope.coords.end())
        return &it->second;
    }
    return nullptr;
  };
  if (const SmallVector<Value> *cached = lookup(slot))
    return *cached;
  Location loc = kernel.getLoc();
  int64_t repeat = slot / layout.vector, lane = slot % layout.vector;
  int64_t chunkSlot = repeat * layout.vector;
  SmallVector<Value> coords;
  if (lane != 0 && layout.shape.back() % layout.vector == 0) {
    // Chunks do not cross rows: a lane is its chunk start moved along the
    // last dimension (the same value for every chunk starting in that
    // column, so the lanes' evaluations are shared too).
    coords = slotCoords(layout, chunkSlot);
    coords.back() = scopedAddI32(coords.back(), lane);
  } else if (lane == 0 && repeat > 0 &&
             (repeat * layout.threads * layout.vector) % layout.shape.back() ==
                 0) {
    // Repetition r starts r * T * V elements after the first: when that is
    // a whole number of rows, the trailing coordinates are the first
    // chunk's, so values indexed by them are shared between repetitions.
    coords = slotCoords(layout, 0);
    int64_t addend = repeat * layout.threads * layout.vector;
    int64_t dim = layout.shape.size() - 1;
    while (dim > 0 && addend % layout.shape[dim] == 0) {
      addend /= layout.shape[dim];
      --dim;
    }
    if (dim == 0) {
      coords[0] = scopedAddI32(coords[0], addend);
    } else {
      Value linear = arith::MulIOp::create(
          builder, loc,
          arith::AddIOp::create(builder, loc, tid,
                                constI32(loc, repeat * layout.threads)),
          constI32(loc, layout.vector));
      coords = delinearize(loc, layout.shape, linear);
    }
  } else {
    Value chunk = arith::AddIOp::create(builder, loc, tid,
                                        constI32(loc, repeat * layout.threads));
    Value linear = arith::MulIOp::create(builder, loc, chunk,
                                         constI32(loc, layout.vector));
    if (lane != 0)
      linear = arith::AddIOp::create(builder, loc, linear, constI32(loc, lane));
    coords = delinearize(loc, layout.shape, linear);
  }
  scopes.back().coords[CoordKey(layoutKey, slot)] = coords;
  return coords;
}

Value KernelEmitter::chunkValid(const Layout &layout, int64_t repeat) {
  Location loc = kernel.getLoc();
  if (layout.alwaysValid(repeat))
    return arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true));
  Value chunk = arith::AddIOp::create(builder, loc, tid,
                                      constI32(loc, repeat * layout.threads));
  Value start =
      arith::MulIOp::create(builder, loc, chunk, constI32(loc, layout.vector));
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, start,
                               constI32(loc, layout.numElements));
}

SmallVector<Value> KernelEmitter::getSlots(Value value) {
  auto it = slots.find(value);
  if (it != slots.end())
    return it->second;
  assert(isIndexFunction(value) && "block value was not emitted");
  // Index functions are evaluated afresh in each scope (memoized there), so
  // that a value computed inside a loop body is never used after the loop.
  Layout layout = getLayout(cast<BlockType>(value.getType()), threads);
  SmallVector<Value> result;
  for (int64_t slot = 0; slot < layout.numSlots(); ++slot)
    result.push_back(evalAt(value, slotCoords(layout, slot)));
  return result;
}

/// The coordinates in the operand of a shape op (expand_dims, broadcast,
/// reshape, trans) of the result element at `coords`.
SmallVector<Value> KernelEmitter::mapCoordsToOperand(Operation *op,
                                                     ArrayRef<Value> coords) {
  Location loc = op->getLoc();
  auto srcShape = cast<BlockType>(op->getOperand(0).getType()).getShape();
  auto dstShape = cast<BlockType>(op->getResult(0).getType()).getShape();
  SmallVector<Value> inner(coords);
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    inner.erase(inner.begin() + expand.getAxis());
  } else if (isa<BroadcastOp>(op)) {
    for (size_t dim = 0; dim < srcShape.size(); ++dim)
      if (srcShape[dim] == 1 && dstShape[dim] != 1)
        inner[dim] = scopedConstI32(0);
  } else if (isa<ReshapeOp>(op)) {
    inner = delinearize(loc, srcShape, linearIndex(loc, dstShape, coords));
  } else if (auto trans = dyn_cast<TransOp>(op)) {
    SmallVector<int32_t> order = trans.getPermutation();
    for (size_t dim = 0; dim < order.size(); ++dim)
      inner[order[dim]] = coords[dim];
  }
  return inner;
}

Value KernelEmitter::evalAt(Value value, ArrayRef<Value> coords) {
  MemoKey key(value.getAsOpaquePointer(), internCoords(coords));
  if (Value cached = lookupMemo(key))
    return cached;
  Operation *op = value.getDefiningOp();
  Location loc = op->getLoc();
  auto operandAt = [&](Value operand) -> Value {
    if (isa<BlockType>(operand.getType()))
      return evalAt(operand, coords);
    return getScalar(operand);
  };
  Value result =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case<ArangeOp>([&](ArangeOp arange) -> Value {
            if (arange.getStartAttr().getInt() == 0)
              return coords[0];
            return arith::AddIOp::create(
                builder, loc, coords[0],
                constI32(loc, arange.getStartAttr().getInt()));
          })
          .Case<SplatOp>(
              [&](SplatOp splat) { return getScalar(splat.getSrc()); })
          .Case<ConstantOp>([&](ConstantOp constant) -> Value {
            auto splat = cast<SplatElementsAttr>(constant.getValue());
            return arith::ConstantOp::create(
                builder, loc,
                cast<TypedAttr>(splat.getSplatValue<Attribute>()));
          })
          .Case<ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp>(
              [&](Operation *shapeOp) {
                return evalAt(shapeOp->getOperand(0),
                              mapCoordsToOperand(shapeOp, coords));
              })
          .Default([&](Operation *other) -> Value {
            SmallVector<Value> operands;
            for (Value operand : other->getOperands())
              operands.push_back(operandAt(operand));
            return emitScalarOp(other, operands, loc);
          });
  scopes.back().values[key] = result;
  return result;
}
