//===- IndexFunctions.cpp - registers, coordinates, index functions -------===//

#include "Emitter.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

BlockLayout mlir::tile::lowering::getBlockLayout(BlockType type) {
  return {SmallVector<int64_t>(type.getShape()), getLinearLayout(type)};
}

std::vector<int64_t> BlockLayout::key() const {
  std::vector<int64_t> result(shape.begin(), shape.end());
  for (HWDim dim : {HWDim::Register, HWDim::Lane, HWDim::Warp}) {
    result.push_back(-1);
    for (const LinearLayout::Coord &basis : linear.getBases(dim))
      result.insert(result.end(), basis.begin(), basis.end());
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Types and memoization
//===----------------------------------------------------------------------===//

Type mlir::tile::lowering::convertScalarType(Type type) {
  if (isa<PtrType>(type))
    return LLVM::LLVMPointerType::get(type.getContext(), /*addressSpace=*/1);
  // A tensor map is the generic address of its kernel parameter.
  if (isa<TensorMapType>(type))
    return LLVM::LLVMPointerType::get(type.getContext());
  if (isFloat8Type(type))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

Value KernelEmitter::andPredicates(Location loc, Value a, Value b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return arith::AndIOp::create(builder, loc, a, b);
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

Value KernelEmitter::scopedAddI32(Value value, int64_t constant, bool useXor) {
  if (constant == 0)
    return value;
  auto key = std::make_tuple(value.getAsOpaquePointer(), constant, useXor);
  for (Scope &scope : llvm::reverse(scopes)) {
    auto it = scope.sums.find(key);
    if (it != scope.sums.end())
      return it->second;
  }
  Location loc = kernel.getLoc();
  Value operand = scopedConstI32(constant);
  Value sum = useXor
                  ? Value(arith::XOrIOp::create(builder, loc, value, operand))
                  : Value(arith::AddIOp::create(builder, loc, value, operand));
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
// Thread and register coordinates
//===----------------------------------------------------------------------===//

Value KernelEmitter::gatherThreadBits(Location loc, ArrayRef<unsigned> bits) {
  OpBuilder::InsertionGuard guard(builder);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(entryBuilder, loc,
                                     entryBuilder.getI32IntegerAttr(value));
  };
  Value result;
  // Runs of consecutive thread-id bits become one shift and mask.
  for (size_t i = 0; i < bits.size();) {
    size_t j = i + 1;
    while (j < bits.size() && bits[j] == bits[j - 1] + 1)
      ++j;
    Value part = tid;
    if (bits[i] != 0)
      part = arith::ShRUIOp::create(entryBuilder, loc, part, constant(bits[i]));
    part = arith::AndIOp::create(entryBuilder, loc, part,
                                 constant((int64_t(1) << (j - i)) - 1));
    if (i != 0)
      part = arith::ShLIOp::create(entryBuilder, loc, part, constant(i));
    result = result
                 ? Value(arith::OrIOp::create(entryBuilder, loc, result, part))
                 : part;
    i = j;
  }
  return result ? result : constant(0);
}

const KernelEmitter::ThreadCoords &
KernelEmitter::threadCoords(const BlockLayout &layout) {
  std::vector<int64_t> key = layout.key();
  auto it = threadCoordCache.find(key);
  if (it != threadCoordCache.end())
    return it->second;
  Location loc = kernel.getLoc();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(entryBuilder, loc,
                                     entryBuilder.getI32IntegerAttr(value));
  };
  // Bit b of the thread id is lane bit b (b < 5) or warp bit b - 5.
  SmallVector<LinearLayout::Coord> tidBases;
  llvm::append_range(tidBases, layout.linear.getBases(HWDim::Lane));
  llvm::append_range(tidBases, layout.linear.getBases(HWDim::Warp));
  ThreadCoords coords;
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    // Group thread-id bits whose bases are consecutive powers of two along
    // d: each group is one shift and mask of the thread id.
    SmallVector<std::pair<unsigned, int64_t>> terms; // (tid bit, basis)
    for (auto [bit, basis] : llvm::enumerate(tidBases))
      if (basis[d] != 0)
        terms.push_back({unsigned(bit), basis[d]});
    Value value;
    int64_t bitsSoFar = 0;
    bool overlapping = false;
    for (size_t i = 0; i < terms.size();) {
      auto [firstBit, firstBasis] = terms[i];
      size_t j = i + 1;
      if (llvm::isPowerOf2_64(firstBasis))
        while (j < terms.size() && terms[j].first == terms[j - 1].first + 1 &&
               terms[j].second == terms[j - 1].second * 2)
          ++j;
      int64_t length = j - i;
      Value part = tid;
      if (firstBit != 0)
        part =
            arith::ShRUIOp::create(entryBuilder, loc, part, constant(firstBit));
      part = arith::AndIOp::create(entryBuilder, loc, part,
                                   constant((int64_t(1) << length) - 1));
      int64_t partBits;
      if (llvm::isPowerOf2_64(firstBasis)) {
        unsigned shift = llvm::Log2_64(firstBasis);
        if (shift != 0)
          part =
              arith::ShLIOp::create(entryBuilder, loc, part, constant(shift));
        partBits = ((int64_t(1) << length) - 1) << shift;
      } else {
        part = arith::MulIOp::create(entryBuilder, loc, part,
                                     constant(firstBasis));
        partBits = firstBasis;
      }
      overlapping = overlapping || (bitsSoFar & partBits);
      if (!value)
        value = part;
      else if (overlapping)
        value = arith::XOrIOp::create(entryBuilder, loc, value, part);
      else
        value = arith::OrIOp::create(entryBuilder, loc, value, part);
      bitsSoFar |= partBits;
      i = j;
    }
    coords.values.push_back(value ? value : constant(0));
    coords.bits.push_back(bitsSoFar);
  }
  return threadCoordCache[key] = std::move(coords);
}

SmallVector<Value> KernelEmitter::registerCoords(const BlockLayout &layout,
                                                 int64_t reg) {
  CoordKey key(layout.key(), reg);
  for (Scope &scope : llvm::reverse(scopes)) {
    auto it = scope.coords.find(key);
    if (it != scope.coords.end())
      return it->second;
  }
  const ThreadCoords &thread = threadCoords(layout);
  LinearLayout::Coord constant = layout.linear.apply(HWDim::Register, reg);
  SmallVector<Value> coords;
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    // Disjoint bits add; overlapping ones (a general linear layout) xor.
    bool useXor = (constant[d] & thread.bits[d]) != 0;
    coords.push_back(scopedAddI32(thread.values[d], constant[d], useXor));
  }
  scopes.back().coords[key] = coords;
  return coords;
}

SmallVector<Value> KernelEmitter::registerOffsets(
    Location loc, const BlockLayout &layout, int64_t step,
    llvm::function_ref<int64_t(const LinearLayout::Coord &)> offsetOf,
    llvm::function_ref<Value(int64_t reg)> emit) {
  const LinearLayout &linear = layout.linear;
  int64_t lanes = linear.getSize(HWDim::Lane);
  int64_t warps = linear.getSize(HWDim::Warp);
  // offset(reg, thread) = threadPart(thread) ^ registerPart(reg), checked
  // for every register and thread; the register part's bits that no
  // thread's part sets are added, the others XORed.
  int64_t origin = offsetOf(linear.apply(0, 0, 0));
  SmallVector<int64_t> threadParts;
  int64_t threadBits = 0;
  for (int64_t warp = 0; warp < warps; ++warp)
    for (int64_t lane = 0; lane < lanes; ++lane) {
      threadParts.push_back(offsetOf(linear.apply(0, lane, warp)) ^ origin);
      threadBits |= threadParts.back();
    }
  SmallVector<int64_t> registerParts;
  bool isLinear = true;
  for (int64_t reg = 0; reg < layout.numRegisters() && isLinear; reg += step) {
    int64_t part = offsetOf(linear.apply(reg, 0, 0));
    for (int64_t t = 0; t < lanes * warps && isLinear; ++t)
      isLinear = offsetOf(linear.apply(reg, t % lanes, t / lanes)) ==
                 (threadParts[t] ^ part);
    registerParts.push_back(part);
  }
  SmallVector<Value> offsets;
  if (!isLinear) {
    for (int64_t reg = 0; reg < layout.numRegisters(); reg += step)
      offsets.push_back(emit(reg));
    return offsets;
  }
  // base = threadPart ^ (register 0's XORed bits): register 0's offset less
  // its added bits.
  int64_t added0 = origin & ~threadBits;
  Value base = emit(0);
  if (added0)
    base = arith::SubIOp::create(builder, loc, base, constI32(loc, added0));
  for (int64_t part : registerParts) {
    Value offset = base;
    if (int64_t flipped = (part ^ origin) & threadBits)
      offset =
          arith::XOrIOp::create(builder, loc, offset, constI32(loc, flipped));
    if (int64_t added = part & ~threadBits)
      offset =
          arith::AddIOp::create(builder, loc, offset, constI32(loc, added));
    offsets.push_back(offset);
  }
  return offsets;
}

Value KernelEmitter::registerValidAlong(const BlockLayout &layout, int64_t reg,
                                        unsigned dim) {
  int64_t extent = layout.shape[dim];
  if (extent == layout.linear.getShape()[dim])
    return {};
  Location loc = kernel.getLoc();
  const ThreadCoords &thread = threadCoords(layout);
  int64_t constant = layout.linear.apply(HWDim::Register, reg)[dim];
  if ((constant & thread.bits[dim]) == 0) {
    // coordinate = constant + thread part, the thread part in [0, bits].
    if (constant + thread.bits[dim] < extent)
      return {};
    if (constant >= extent)
      return constBool(loc, false);
  }
  Value coord = registerCoords(layout, reg)[dim];
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, coord,
                               scopedConstI32(extent));
}

Value KernelEmitter::registerValid(const BlockLayout &layout, int64_t reg) {
  Value valid;
  for (unsigned d = 0; d < layout.getRank(); ++d)
    valid = andPredicates(kernel.getLoc(), valid,
                          registerValidAlong(layout, reg, d));
  return valid;
}

//===----------------------------------------------------------------------===//
// Index functions
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
    } else if ((isa<TileDialect>(op->getDialect()) &&
                op->hasTrait<OpTrait::Elementwise>()) ||
               isa<AddPtrOp, ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp,
                   ConvertLayoutOp>(op)) {
      // (Not arith.select of blocks on a scalar condition, which is
      // Elementwise too but has no per-element form: it picks registers.)
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

SmallVector<Value> KernelEmitter::getRegisters(Value value) {
  auto it = registers.find(value);
  if (it != registers.end())
    return it->second;
  assert(isIndexFunction(value) && "block value was not emitted");
  // Index functions are evaluated afresh in each scope (memoized there), so
  // that a value computed inside a loop body is never used after the loop.
  BlockLayout layout = getBlockLayout(cast<BlockType>(value.getType()));
  return perRun(value, layout, [&](int64_t reg) {
    return evalAt(value, registerCoords(layout, reg));
  });
}

std::optional<SmallVector<Value>>
KernelEmitter::registersIn(Value value, const BlockLayout &layout) {
  if (isIndexFunction(value))
    return perRun(value, layout, [&](int64_t reg) {
      return evalAt(value, registerCoords(layout, reg));
    });
  if (getBlockLayout(cast<BlockType>(value.getType())).key() != layout.key())
    return std::nullopt;
  return getRegisters(value);
}

SmallVector<Value>
KernelEmitter::perRun(Value value, const BlockLayout &layout,
                      function_ref<Value(int64_t reg)> compute) {
  // Runs are aligned at multiples of their length (a power of two dividing
  // the constancy). A thread's coordinates are its registers' XOR its
  // lane's and warp's, which flip the same bits of every register: two
  // registers are in one run where their own coordinates are. As Triton
  // does, a load mask `k < K - k0` with K % 16 == 0 is then one predicate
  // per 16 rows.
  SmallVector<unsigned> runBits;
  for (int64_t run : axisInfo.get(value).constancy)
    runBits.push_back(llvm::countr_zero(uint64_t(std::max<int64_t>(run, 1))));
  bool sharesRuns = runBits.size() == layout.getRank() &&
                    llvm::any_of(runBits, [](unsigned bits) { return bits; });
  std::map<LinearLayout::Coord, int64_t> firstInRun;
  SmallVector<Value> result;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    if (sharesRuns) {
      LinearLayout::Coord run = layout.linear.apply(HWDim::Register, reg);
      for (auto [coord, bits] : llvm::zip(run, runBits))
        coord >>= bits;
      auto [it, first] = firstInRun.try_emplace(run, reg);
      if (!first) {
        result.push_back(result[it->second]);
        continue;
      }
    }
    result.push_back(compute(reg));
  }
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
            return materializeConstant(
                loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
          })
          .Case<ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp, ConvertLayoutOp>(
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
