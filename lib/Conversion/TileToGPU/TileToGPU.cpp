//===- TileToGPU.cpp - lower tile kernels to gpu + nvvm -------------------===//
//
// Each tile kernel becomes one gpu.func. The conversion walks the kernel in
// program order and emits, for every block value, the scalars its layout
// gives the running thread ("slots"): slot s of a thread t holds the linear
// element (r * T + t) * V + v, with r = s / V and v = s % V, for a layout of
// vector width V over T threads.
//
// Values that are functions of the element index alone (aranges, splats,
// constants, and elementwise ops, broadcasts, expand_dims, reshapes and
// transposes of those: index and pointer arithmetic) are not stored but
// evaluated at whatever index a consumer needs. That makes broadcasting them
// free: `offs_m[:, None] * stride + offs_n[None, :]` costs two
// multiply-adds per element and no data movement. Other values live in
// registers; moving them between threads (broadcast, transpose, reduce,
// scan, dot) goes through shared memory and warp shuffles.
//
// Slots are scalar SSA values, not vectors: the per-element arithmetic stays
// plain arith/math that upstream lowers, and memory accesses group the slots
// of a chunk into vector loads and stores explicitly.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/TileToGPU/Passes.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"
#include <map>

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "tile/Conversion/TileToGPU/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

constexpr int64_t kWarpSize = 32;
/// Static shared memory a block can use without opting in to more.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
constexpr StringLiteral kSharedSymbol = "tile_shared";

/// How a block value is spread over the threads of a program instance.
struct Layout {
  SmallVector<int64_t> shape;
  int64_t numElements = 0;
  int64_t vector = 1;
  int64_t threads = 0;
  /// Chunks of `vector` elements each thread holds (the last may be masked).
  int64_t repeats = 0;

  int64_t numSlots() const { return repeats * vector; }
  /// Whether every chunk of repetition `r` lies inside the block.
  bool alwaysValid(int64_t r) const {
    return (r + 1) * threads * vector <= numElements;
  }
};

Layout getLayout(BlockType type, int64_t threads) {
  Layout layout;
  layout.shape.assign(type.getShape().begin(), type.getShape().end());
  layout.numElements = type.getNumElements();
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(type.getEncoding());
  layout.vector = blocked ? blocked.getVector() : 1;
  layout.threads = threads;
  int64_t perRepeat = threads * layout.vector;
  layout.repeats = (layout.numElements + perRepeat - 1) / perRepeat;
  return layout;
}

int64_t elementBytes(Type type) {
  if (isa<PtrType, LLVM::LLVMPointerType>(type))
    return 8;
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// An accumulator of a reduction: a value, and for combine functions
/// without an identity, whether it holds anything yet.
struct Accumulator {
  Value value;
  Value valid; // null: `value` starts at the identity and is always valid
};

class KernelEmitter {
public:
  KernelEmitter(func::FuncOp kernel, gpu::GPUFuncOp gpuFunc, int64_t numWarps,
                AxisInfoAnalysis &axisInfo)
      : kernel(kernel), gpuFunc(gpuFunc), numWarps(numWarps),
        threads(numWarps * kWarpSize), axisInfo(axisInfo),
        builder(kernel.getContext()) {}

  LogicalResult emit();
  int64_t getSharedBytes() const { return sharedBytes; }

private:
  // Types.
  Type convertElementType(Type type);
  Type convertScalarType(Type type) { return convertElementType(type); }
  Type i32Type() { return builder.getI32Type(); }
  Value constI32(Location loc, int64_t value) {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getI32IntegerAttr(value));
  }

  /// The x, y or z special register (block ids, grid sizes) of `axis`.
  template <typename X, typename Y, typename Z>
  Value readAxisRegister(Location loc, unsigned axis) {
    if (axis == 0)
      return X::create(builder, loc, i32Type());
    if (axis == 1)
      return Y::create(builder, loc, i32Type());
    return Z::create(builder, loc, i32Type());
  }

  // Program structure.
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitFor(scf::ForOp op);
  LogicalResult emitIf(scf::IfOp op);
  LogicalResult emitWhile(scf::WhileOp op);
  SmallVector<Value> flatten(ValueRange values);
  void unflatten(ValueRange oldValues, ValueRange flat);
  SmallVector<Type> flatTypes(TypeRange types);

  // Slots and index evaluation.
  bool isIndexFunction(Value value);
  SmallVector<Value> getSlots(Value value);
  Value getScalar(Value value);
  SmallVector<Value> slotCoords(const Layout &layout, int64_t slot);
  Value chunkValid(const Layout &layout, int64_t repeat);
  Value linearIndex(Location loc, ArrayRef<int64_t> shape,
                    ArrayRef<Value> coords);
  SmallVector<Value> delinearize(Location loc, ArrayRef<int64_t> shape,
                                 Value linear);
  Value evalAt(Value value, ArrayRef<Value> coords);
  SmallVector<Value> mapCoordsToOperand(Operation *op, ArrayRef<Value> coords);
  /// The load a shape-op chain ending in `value` starts from, if every op of
  /// the chain is a shape op.
  LoadOp findChainLoad(Value value);
  bool isRelayout(Operation *op);
  bool onlyReloaded(Value value, LoadOp load);
  Value emitScalarOp(Operation *op, ValueRange operands, Location loc);
  Value ptxUnaryOrBinary(Location loc, StringRef instruction,
                         ValueRange operands);
  Value castScalar(Location loc, Value value, Type to, bool unsignedSrc);
  Value threadId() { return tid; }

  // Memory.
  LogicalResult emitLoad(LoadOp op);
  SmallVector<Value> loadSlots(Location loc, Type pointee, const Layout &layout,
                               int64_t width, ArrayRef<Value> ptrs,
                               ArrayRef<Value> masks, ArrayRef<Value> others);
  bool canReloadAt(LoadOp load, Operation *user);
  LogicalResult emitStore(StoreOp op);
  Value sharedBase(Location loc);
  Value sharedAddress(Location loc, Type elementType, Value byteOffset,
                      Value index);
  Type sharedStorageType(Type elementType);
  void storeShared(Location loc, Value base, Value index, Value value);
  Value loadShared(Location loc, Value base, Value index, Type elementType);
  void reserveShared(int64_t bytes) {
    sharedBytes = std::max(sharedBytes, bytes);
  }
  void barrier(Location loc) { gpu::BarrierOp::create(builder, loc); }
  /// Writes the slots of `value` to shared memory at its linear indices.
  void spillToShared(Location loc, Value value, Value base);

  // Data movement.
  LogicalResult emitRelayout(Operation *op);
  LogicalResult emitReduce(ReduceOp op);
  LogicalResult emitScan(ScanOp op);
  LogicalResult emitDot(DotOp op);
  Accumulator identityAccumulator(Location loc, CombineKind kind, Type type);
  Accumulator combine(Location loc, CombineKind kind, Region &region,
                      Accumulator a, Accumulator b);
  Value combineValues(Location loc, CombineKind kind, Region &region, Value a,
                      Value b);
  Value shuffleXor(Location loc, Value value, int64_t offset);
  /// Combines `acc` across aligned groups of `width` lanes with xor
  /// shuffles; every lane of a group ends with the group's combination.
  Accumulator butterfly(Location loc, CombineKind kind, Region &region,
                        Accumulator acc, int64_t width);
  /// The linear index of element (outer, 0, inner) of the line `line`
  /// (= outer * inner + inner) along an axis of `extent` elements with
  /// `inner` elements after it: lines are what reductions and scans walk.
  Value lineStart(Location loc, Value line, int64_t extent, int64_t inner);

  // Memoized evaluations, scoped by region so that a value computed inside a
  // loop body is never used after the loop.
  using MemoKey = std::pair<const void *, unsigned>;
  unsigned internCoords(ArrayRef<Value> coords);
  Value lookupMemo(MemoKey key);
  /// An i32 constant shared within the current scope, so that equal
  /// coordinates are equal values and their evaluations are shared.
  Value scopedConstI32(int64_t value);
  /// `value + constant`, shared within the current scope.
  Value scopedAddI32(Value value, int64_t constant);
  void pushScope() { scopes.emplace_back(); }
  void popScope() { scopes.pop_back(); }

  func::FuncOp kernel;
  gpu::GPUFuncOp gpuFunc;
  int64_t numWarps, threads;
  AxisInfoAnalysis &axisInfo;
  OpBuilder builder;
  Value tid;
  IRMapping scalars;
  llvm::DenseMap<Value, SmallVector<Value>> slots;
  llvm::DenseMap<Value, bool> indexFunction;
  /// Loads (and shape ops of them) that are only ever loaded again where a
  /// relayout needs them: they are not emitted themselves.
  llvm::DenseSet<Value> reloadOnly;
  std::map<std::vector<const void *>, unsigned> coordIds;
  /// Layout (shape and vector width) and slot: a key for slot coordinates.
  using CoordKey = std::pair<std::vector<int64_t>, int64_t>;
  struct Scope {
    llvm::DenseMap<MemoKey, Value> values;
    std::map<int64_t, Value> constants;
    std::map<std::pair<const void *, int64_t>, Value> sums;
    std::map<CoordKey, SmallVector<Value>> coords;
  };
  SmallVector<Scope> scopes;
  int64_t sharedBytes = 0;
};

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
// Kernel structure
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emit() {
  Block &entry = gpuFunc.getBody().front();
  builder.setInsertionPointToStart(&entry);
  for (auto [oldArg, newArg] :
       llvm::zip(kernel.getArguments(), entry.getArguments()))
    scalars.map(oldArg, newArg);
  tid = NVVM::ThreadIdXOp::create(builder, kernel.getLoc(), i32Type());
  kernel.walk([&](LoadOp load) {
    if (!onlyReloaded(load.getResult(), load))
      return;
    SmallVector<Value> worklist{load.getResult()};
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      reloadOnly.insert(value);
      for (Operation *user : value.getUsers())
        if (!isRelayout(user))
          worklist.push_back(user->getResult(0));
    }
  });
  pushScope();
  return emitBlock(kernel.getBody().front());
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

SmallVector<Type> KernelEmitter::flatTypes(TypeRange types) {
  SmallVector<Type> flat;
  for (Type type : types) {
    if (auto block = dyn_cast<BlockType>(type)) {
      Layout layout = getLayout(block, threads);
      flat.append(layout.numSlots(),
                  convertElementType(block.getElementType()));
    } else {
      flat.push_back(convertScalarType(type));
    }
  }
  return flat;
}

SmallVector<Value> KernelEmitter::flatten(ValueRange values) {
  SmallVector<Value> flat;
  for (Value value : values) {
    if (isa<BlockType>(value.getType()))
      llvm::append_range(flat, getSlots(value));
    else
      flat.push_back(getScalar(value));
  }
  return flat;
}

void KernelEmitter::unflatten(ValueRange oldValues, ValueRange flat) {
  size_t position = 0;
  for (Value old : oldValues) {
    if (auto block = dyn_cast<BlockType>(old.getType())) {
      int64_t count = getLayout(block, threads).numSlots();
      slots[old] = SmallVector<Value>(flat.slice(position, count));
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
  auto newFor = scf::ForOp::create(builder, loc, getScalar(op.getLowerBound()),
                                   getScalar(op.getUpperBound()),
                                   getScalar(op.getStep()), inits);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(newFor.getBody());
  scalars.map(op.getInductionVar(), newFor.getInductionVar());
  unflatten(op.getRegionIterArgs(), newFor.getRegionIterArgs());
  pushScope();
  for (Operation &inner : op.getBody()->without_terminator())
    if (failed(emitOp(&inner)))
      return failure();
  SmallVector<Value> yielded =
      flatten(op.getBody()->getTerminator()->getOperands());
  popScope();
  // scf.for::create adds an empty yield when there are no iter_args.
  if (!newFor.getBody()->empty() && isa<scf::YieldOp>(newFor.getBody()->back()))
    newFor.getBody()->back().erase();
  builder.setInsertionPointToEnd(newFor.getBody());
  scf::YieldOp::create(builder, loc, yielded);
  unflatten(op.getResults(), newFor.getResults());
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

//===----------------------------------------------------------------------===//
// Scalar arithmetic
//===----------------------------------------------------------------------===//

Value KernelEmitter::castScalar(Location loc, Value value, Type to,
                                bool unsignedSrc) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  bool zeroExtend = unsignedSrc || (fromInt && fromInt.getWidth() == 1);
  if (fromInt && toInt) {
    if (toInt.getWidth() == 1)
      return arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ne, value,
          arith::ConstantOp::create(builder, loc,
                                    builder.getIntegerAttr(from, 0)));
    if (toInt.getWidth() > fromInt.getWidth())
      return zeroExtend
                 ? Value(arith::ExtUIOp::create(builder, loc, to, value))
                 : Value(arith::ExtSIOp::create(builder, loc, to, value));
    return arith::TruncIOp::create(builder, loc, to, value);
  }
  if (fromInt) {
    return zeroExtend ? Value(arith::UIToFPOp::create(builder, loc, to, value))
                      : Value(arith::SIToFPOp::create(builder, loc, to, value));
  }
  if (toInt) {
    if (toInt.getWidth() == 1) {
      Value zero = arith::ConstantOp::create(builder, loc,
                                             builder.getFloatAttr(from, 0.0));
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE,
                                   value, zero);
    }
    return arith::FPToSIOp::create(builder, loc, to, value);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth == toWidth) { // f16 <-> bf16 through f32
    Value wide =
        arith::ExtFOp::create(builder, loc, builder.getF32Type(), value);
    return arith::TruncFOp::create(builder, loc, to, wide);
  }
  if (toWidth > fromWidth)
    return arith::ExtFOp::create(builder, loc, to, value);
  return arith::TruncFOp::create(builder, loc, to, value);
}

/// A pure f32 PTX instruction on f32 operands: no side effects, so LLVM may
/// schedule, share and drop it like any arithmetic.
Value KernelEmitter::ptxUnaryOrBinary(Location loc, StringRef instruction,
                                      ValueRange operands) {
  std::string constraints = "=f";
  for (size_t i = 0; i < operands.size(); ++i)
    constraints += ",f";
  auto asmOp = LLVM::InlineAsmOp::create(
      builder, loc, builder.getF32Type(), operands, instruction, constraints,
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return asmOp.getResult(0);
}

/// Emits the scalar form of an elementwise tile op.
Value KernelEmitter::emitScalarOp(Operation *op, ValueRange operands,
                                  Location loc) {
  Type resultType =
      convertElementType(getElementTypeOrSelf(op->getResult(0).getType()));
  auto binary = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    return OpTy::create(builder, loc, operands[0], operands[1]);
  };
  // A multiply feeding an add may fuse into one fma, as Triton's default
  // (enable_fp_fusion) allows.
  auto contractible = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    auto op = OpTy::create(builder, loc, operands[0], operands[1]);
    op.setFastmath(arith::FastMathFlags::contract);
    return op;
  };
  // libdevice has f32 and f64 versions only: compute f16/bf16 in f32.
  auto transcendental = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    Type type = operands[0].getType();
    bool narrow = type.isF16() || type.isBF16();
    SmallVector<Value> wide;
    for (Value operand : operands)
      wide.push_back(narrow ? Value(arith::ExtFOp::create(
                                  builder, loc, builder.getF32Type(), operand))
                            : operand);
    Value result = OpTy::create(builder, loc, wide).getResult();
    return narrow ? Value(arith::TruncFOp::create(builder, loc, type, result))
                  : result;
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<AddIOp>([&](auto) { return binary(arith::AddIOp()); })
      .Case<AddFOp>([&](auto) { return contractible(arith::AddFOp()); })
      .Case<SubIOp>([&](auto) { return binary(arith::SubIOp()); })
      .Case<SubFOp>([&](auto) { return contractible(arith::SubFOp()); })
      .Case<MulIOp>([&](auto) { return binary(arith::MulIOp()); })
      .Case<MulFOp>([&](auto) { return contractible(arith::MulFOp()); })
      .Case<DivSIOp>([&](auto) { return binary(arith::DivSIOp()); })
      .Case<DivUIOp>([&](auto) { return binary(arith::DivUIOp()); })
      .Case<DivFOp>([&](auto) -> Value {
        // f32 division is div.full.f32 (at most 2 ulp), as Triton's `/`;
        // the IEEE-rounded div.rn.f32 is a long instruction sequence.
        if (resultType.isF32())
          return ptxUnaryOrBinary(loc, "div.full.f32 $0, $1, $2;", operands);
        return binary(arith::DivFOp());
      })
      .Case<RemSIOp>([&](auto) { return binary(arith::RemSIOp()); })
      .Case<RemUIOp>([&](auto) { return binary(arith::RemUIOp()); })
      .Case<RemFOp>([&](auto) { return transcendental(arith::RemFOp()); })
      .Case<MinSIOp>([&](auto) { return binary(arith::MinSIOp()); })
      .Case<MaxSIOp>([&](auto) { return binary(arith::MaxSIOp()); })
      .Case<MinUIOp>([&](auto) { return binary(arith::MinUIOp()); })
      .Case<MaxUIOp>([&](auto) { return binary(arith::MaxUIOp()); })
      .Case<MinimumFOp>([&](auto) { return binary(arith::MinimumFOp()); })
      .Case<MaximumFOp>([&](auto) { return binary(arith::MaximumFOp()); })
      .Case<AndIOp>([&](auto) { return binary(arith::AndIOp()); })
      .Case<OrIOp>([&](auto) { return binary(arith::OrIOp()); })
      .Case<XOrIOp>([&](auto) { return binary(arith::XOrIOp()); })
      .Case<ShLIOp>([&](auto) { return binary(arith::ShLIOp()); })
      .Case<ShRSIOp>([&](auto) { return binary(arith::ShRSIOp()); })
      .Case<ShRUIOp>([&](auto) { return binary(arith::ShRUIOp()); })
      .Case<PowFOp>([&](auto) { return transcendental(math::PowFOp()); })
      .Case<NegFOp>([&](auto) -> Value {
        return arith::NegFOp::create(builder, loc, operands[0]);
      })
      .Case<NotIOp>([&](auto) -> Value {
        Value ones = arith::ConstantOp::create(
            builder, loc, builder.getIntegerAttr(resultType, -1));
        return arith::XOrIOp::create(builder, loc, operands[0], ones);
      })
      .Case<AbsIOp>([&](auto) -> Value {
        // max(x, -x): the NVVM lowering has no math.absi.
        Value zero = arith::ConstantOp::create(
            builder, loc, builder.getIntegerAttr(resultType, 0));
        Value negated = arith::SubIOp::create(builder, loc, zero, operands[0]);
        return arith::MaxSIOp::create(builder, loc, operands[0], negated);
      })
      .Case<AbsFOp>([&](auto) -> Value {
        return math::AbsFOp::create(builder, loc, operands[0]);
      })
      .Case<ExpOp>([&](auto) -> Value {
        // exp(x) = 2^(x log2 e) with the hardware's ex2.approx, as Triton
        // computes f32 exp.
        if (!resultType.isF32())
          return transcendental(math::ExpOp());
        Value log2e = arith::ConstantOp::create(
            builder, loc, builder.getF32FloatAttr(1.4426950408889634));
        Value scaled = arith::MulFOp::create(builder, loc, operands[0], log2e);
        return ptxUnaryOrBinary(loc, "ex2.approx.f32 $0, $1;", scaled);
      })
      .Case<Exp2Op>([&](auto) { return transcendental(math::Exp2Op()); })
      .Case<LogOp>([&](auto) { return transcendental(math::LogOp()); })
      .Case<Log2Op>([&](auto) { return transcendental(math::Log2Op()); })
      .Case<SqrtOp>([&](auto) { return transcendental(math::SqrtOp()); })
      .Case<RsqrtOp>([&](auto) { return transcendental(math::RsqrtOp()); })
      .Case<FloorOp>([&](auto) { return transcendental(math::FloorOp()); })
      .Case<CeilOp>([&](auto) { return transcendental(math::CeilOp()); })
      .Case<SinOp>([&](auto) { return transcendental(math::SinOp()); })
      .Case<CosOp>([&](auto) { return transcendental(math::CosOp()); })
      .Case<FmaOp>([&](auto) -> Value {
        return math::FmaOp::create(builder, loc, operands[0], operands[1],
                                   operands[2]);
      })
      .Case<CmpIOp>([&](CmpIOp cmp) -> Value {
        return arith::CmpIOp::create(builder, loc, cmp.getPredicate(),
                                     operands[0], operands[1]);
      })
      .Case<CmpFOp>([&](CmpFOp cmp) -> Value {
        return arith::CmpFOp::create(builder, loc, cmp.getPredicate(),
                                     operands[0], operands[1]);
      })
      .Case<SelectOp>([&](auto) -> Value {
        return arith::SelectOp::create(builder, loc, operands[0], operands[1],
                                       operands[2]);
      })
      .Case<CastOp>([&](CastOp cast) -> Value {
        return castScalar(loc, operands[0], resultType, cast.getUnsignedSrc());
      })
      .Case<AddPtrOp>([&](AddPtrOp addptr) -> Value {
        Type pointee = cast<PtrType>(getElementTypeOrSelf(addptr.getType()))
                           .getPointeeType();
        if (pointee.isInteger(1))
          pointee = builder.getI8Type();
        return LLVM::GEPOp::create(builder, loc, resultType, pointee,
                                   operands[0], ValueRange{operands[1]});
      })
      .Default([&](Operation *) -> Value { return {}; });
}

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

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

/// PTX register constraint and bit width for an access word.
static StringRef wordConstraint(int64_t bytes) {
  return bytes == 8 ? "l" : bytes == 4 ? "r" : "h";
}

/// Loads the slots of a block in `layout` through `ptrs` (one per slot),
/// `width` elements per access, under `masks` (empty: none) with `others`
/// (empty: zero) where the mask is off. Accesses whose pointer, predicate
/// and `other` equal an earlier one's reuse its result.
SmallVector<Value> KernelEmitter::loadSlots(Location loc, Type pointee,
                                            const Layout &layout, int64_t width,
                                            ArrayRef<Value> ptrs,
                                            ArrayRef<Value> masks,
                                            ArrayRef<Value> others) {
  bool isBool = pointee.isInteger(1);
  Type memoryType = isBool ? builder.getI8Type() : pointee;
  int64_t bytes = elementBytes(memoryType);
  std::map<std::vector<const void *>, SmallVector<Value>> done;

  SmallVector<Value> result(layout.numSlots());
  for (int64_t repeat = 0; repeat < layout.repeats; ++repeat) {
    Value valid = chunkValid(layout, repeat);
    bool predicated = !masks.empty() || !layout.alwaysValid(repeat);
    for (int64_t first = repeat * layout.vector;
         first < (repeat + 1) * layout.vector; first += width) {
      Value pred = valid;
      if (!masks.empty())
        pred = arith::AndIOp::create(builder, loc, pred, masks[first]);
      int64_t totalBytes = width * bytes;
      SmallVector<Value> loaded;
      // Accesses with the same address, mask, `other` and validity share
      // one load (chunks that are always valid share "valid").
      std::vector<const void *> key{
          ptrs[first].getAsOpaquePointer(),
          masks.empty() ? nullptr : masks[first].getAsOpaquePointer(),
          reinterpret_cast<const void *>(
              layout.alwaysValid(repeat) ? intptr_t(-1) : intptr_t(repeat)),
          reinterpret_cast<const void *>(intptr_t(width))};
      for (int64_t lane = 0; lane < width && !others.empty(); ++lane)
        key.push_back(others[first + lane].getAsOpaquePointer());
      if (auto it = done.find(key); it != done.end()) {
        for (int64_t lane = 0; lane < width; ++lane)
          result[first + lane] = it->second[lane];
        continue;
      }
      if (!predicated) {
        // Unmasked: an aligned vector load LLVM turns into ld.global.vN.
        Type accessType =
            width == 1 ? memoryType : VectorType::get({width}, memoryType);
        Value value = LLVM::LoadOp::create(builder, loc, accessType,
                                           ptrs[first], totalBytes);
        for (int64_t lane = 0; lane < width; ++lane)
          loaded.push_back(
              width == 1 ? value
                         : Value(LLVM::ExtractElementOp::create(
                               builder, loc, value, constI32(loc, lane))));
      } else if (totalBytes >= 4 || totalBytes == 2) {
        // Predicated: one PTX instruction that leaves `other` in place
        // where the predicate is off, as Triton does.
        int64_t wordBytes = std::min<int64_t>(totalBytes, 4);
        if (totalBytes == 8 && width == 1)
          wordBytes = 8;
        int64_t words = totalBytes / wordBytes;
        Type wordType = builder.getIntegerType(wordBytes * 8);
        // Words of `other` (or zero): pack the lanes of each word.
        SmallVector<Value> otherWords;
        Type lanesType =
            width == 1 ? memoryType : VectorType::get({width}, memoryType);
        Value otherVector;
        if (!others.empty()) {
          if (width == 1) {
            otherVector =
                isBool ? castScalar(loc, others[first], memoryType, false)
                       : others[first];
          } else {
            otherVector = LLVM::UndefOp::create(builder, loc, lanesType);
            for (int64_t lane = 0; lane < width; ++lane) {
              Value element = others[first + lane];
              if (isBool)
                element = castScalar(loc, element, memoryType, false);
              otherVector = LLVM::InsertElementOp::create(
                  builder, loc, otherVector, element, constI32(loc, lane));
            }
          }
        } else {
          otherVector = LLVM::ZeroOp::create(builder, loc, lanesType);
        }
        Type wordsType =
            words == 1 ? wordType : VectorType::get({words}, wordType);
        Value otherBits =
            LLVM::BitcastOp::create(builder, loc, wordsType, otherVector);
        for (int64_t word = 0; word < words; ++word)
          otherWords.push_back(
              words == 1 ? otherBits
                         : Value(LLVM::ExtractElementOp::create(
                               builder, loc, otherBits, constI32(loc, word))));
        std::string asmText, constraints;
        llvm::raw_string_ostream asmStream(asmText),
            constraintStream(constraints);
        StringRef reg = wordConstraint(wordBytes);
        for (int64_t word = 0; word < words; ++word) {
          asmStream << "mov.b" << wordBytes * 8 << " $" << word << ", $"
                    << words + 2 + word << ";\n\t";
          constraintStream << "=" << reg << ",";
        }
        asmStream << "@$" << words + 1 << " ld.global";
        if (words > 1)
          asmStream << ".v" << words;
        asmStream << ".b" << wordBytes * 8 << " ";
        if (words > 1)
          asmStream << "{";
        for (int64_t word = 0; word < words; ++word)
          asmStream << (word ? ", " : "") << "$" << word;
        if (words > 1)
          asmStream << "}";
        asmStream << ", [$" << words << "];";
        constraintStream << "l,b";
        for (int64_t word = 0; word < words; ++word)
          constraintStream << "," << reg;
        SmallVector<Value> asmOperands{ptrs[first], pred};
        llvm::append_range(asmOperands, otherWords);
        Type asmResult = wordType;
        if (words > 1)
          asmResult = LLVM::LLVMStructType::getLiteral(
              builder.getContext(), SmallVector<Type>(words, wordType));
        auto asmOp = LLVM::InlineAsmOp::create(
            builder, loc, asmResult, asmOperands, asmText, constraints,
            /*has_side_effects=*/true, /*is_align_stack=*/false,
            LLVM::tailcallkind::TailCallKind::None,
            LLVM::AsmDialectAttr::get(builder.getContext(),
                                      LLVM::AsmDialect::AD_ATT),
            ArrayAttr());
        Value wordsValue;
        if (words == 1) {
          wordsValue = asmOp.getResult(0);
        } else {
          wordsValue = LLVM::UndefOp::create(builder, loc, wordsType);
          for (int64_t word = 0; word < words; ++word) {
            Value extracted = LLVM::ExtractValueOp::create(
                builder, loc, asmOp.getResult(0), ArrayRef<int64_t>{word});
            wordsValue = LLVM::InsertElementOp::create(
                builder, loc, wordsValue, extracted, constI32(loc, word));
          }
        }
        Value lanes =
            LLVM::BitcastOp::create(builder, loc, lanesType, wordsValue);
        for (int64_t lane = 0; lane < width; ++lane)
          loaded.push_back(
              width == 1 ? lanes
                         : Value(LLVM::ExtractElementOp::create(
                               builder, loc, lanes, constI32(loc, lane))));
      } else {
        // Single bytes: a branch around a plain load.
        auto ifOp =
            scf::IfOp::create(builder, loc, TypeRange{memoryType}, pred, true);
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
        scf::YieldOp::create(
            builder, loc,
            Value(LLVM::LoadOp::create(builder, loc, memoryType, ptrs[first])));
        builder.setInsertionPointToStart(&ifOp.getElseRegion().front());
        Value other =
            others.empty()
                ? Value(LLVM::ZeroOp::create(builder, loc, memoryType))
                : (isBool ? castScalar(loc, others[first], memoryType, false)
                          : others[first]);
        scf::YieldOp::create(builder, loc, other);
        loaded.push_back(ifOp.getResult(0));
      }
      for (int64_t lane = 0; lane < width; ++lane)
        result[first + lane] =
            isBool ? castScalar(loc, loaded[lane], pointee, false)
                   : loaded[lane];
      done[key] = SmallVector<Value>(result.begin() + first,
                                     result.begin() + first + width);
    }
  }
  return result;
}

LogicalResult KernelEmitter::emitLoad(LoadOp op) {
  Location loc = op.getLoc();
  if (reloadOnly.contains(op.getResult()))
    return success();
  Type resultType = op.getResult().getType();
  Type pointee = getElementTypeOrSelf(resultType);
  bool isBool = pointee.isInteger(1);
  Type memoryType = isBool ? builder.getI8Type() : pointee;

  // A scalar load: every thread reads the same address.
  if (!isa<BlockType>(resultType)) {
    Value ptr = getScalar(op.getPtr());
    auto loadIt = [&]() -> Value {
      Value value = LLVM::LoadOp::create(builder, loc, memoryType, ptr);
      return isBool ? castScalar(loc, value, pointee, false) : value;
    };
    if (!op.getMask()) {
      scalars.map(op.getResult(), loadIt());
      return success();
    }
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{pointee},
                                  getScalar(op.getMask()), true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(builder, loc, loadIt());
    builder.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value other = op.getOther()
                      ? getScalar(op.getOther())
                      : Value(LLVM::ZeroOp::create(builder, loc, pointee));
    scf::YieldOp::create(builder, loc, other);
    scalars.map(op.getResult(), ifOp.getResult(0));
    return success();
  }

  auto type = cast<BlockType>(resultType);
  Layout layout = getLayout(type, threads);
  int64_t width =
      axisInfo.getAccessWidth(op.getPtr(), op.getMask(), layout.vector);
  SmallVector<Value> masks, others;
  if (op.getMask())
    masks = getSlots(op.getMask());
  if (op.getOther())
    others = getSlots(op.getOther());
  SmallVector<Value> result = loadSlots(loc, pointee, layout, width,
                                        getSlots(op.getPtr()), masks, others);
  slots[op.getResult()] = std::move(result);
  return success();
}

LogicalResult KernelEmitter::emitStore(StoreOp op) {
  Location loc = op.getLoc();
  Type valueType = op.getValue().getType();
  Type pointee = getElementTypeOrSelf(valueType);
  bool isBool = pointee.isInteger(1);
  Type memoryType = isBool ? builder.getI8Type() : pointee;
  int64_t bytes = elementBytes(memoryType);
  auto toMemory = [&](Value value) {
    return isBool ? castScalar(loc, value, memoryType, false) : value;
  };

  if (!isa<BlockType>(valueType)) {
    Value ptr = getScalar(op.getPtr());
    Value value = toMemory(getScalar(op.getValue()));
    if (!op.getMask()) {
      LLVM::StoreOp::create(builder, loc, value, ptr);
      return success();
    }
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{},
                                  getScalar(op.getMask()), false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    LLVM::StoreOp::create(builder, loc, value, ptr);
    return success();
  }

  auto type = cast<BlockType>(valueType);
  Layout layout = getLayout(type, threads);
  int64_t width =
      axisInfo.getAccessWidth(op.getPtr(), op.getMask(), layout.vector);
  SmallVector<Value> ptrs(getSlots(op.getPtr()));
  SmallVector<Value> values(getSlots(op.getValue()));
  SmallVector<Value> masks;
  if (op.getMask())
    masks = getSlots(op.getMask());

  for (int64_t repeat = 0; repeat < layout.repeats; ++repeat) {
    Value valid = chunkValid(layout, repeat);
    bool predicated = !masks.empty() || !layout.alwaysValid(repeat);
    for (int64_t first = repeat * layout.vector;
         first < (repeat + 1) * layout.vector; first += width) {
      int64_t totalBytes = width * bytes;
      Type lanesType =
          width == 1 ? memoryType : VectorType::get({width}, memoryType);
      Value lanes;
      if (width == 1) {
        lanes = toMemory(values[first]);
      } else {
        lanes = LLVM::UndefOp::create(builder, loc, lanesType);
        for (int64_t lane = 0; lane < width; ++lane)
          lanes = LLVM::InsertElementOp::create(builder, loc, lanes,
                                                toMemory(values[first + lane]),
                                                constI32(loc, lane));
      }
      if (!predicated) {
        LLVM::StoreOp::create(builder, loc, lanes, ptrs[first], totalBytes);
        continue;
      }
      Value pred = valid;
      if (!masks.empty())
        pred = arith::AndIOp::create(builder, loc, pred, masks[first]);
      if (totalBytes < 2) {
        auto ifOp = scf::IfOp::create(builder, loc, TypeRange{}, pred, false);
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
        LLVM::StoreOp::create(builder, loc, lanes, ptrs[first]);
        continue;
      }
      int64_t wordBytes = std::min<int64_t>(totalBytes, 4);
      if (totalBytes == 8 && width == 1)
        wordBytes = 8;
      int64_t words = totalBytes / wordBytes;
      Type wordType = builder.getIntegerType(wordBytes * 8);
      Type wordsType =
          words == 1 ? wordType : VectorType::get({words}, wordType);
      Value bits = LLVM::BitcastOp::create(builder, loc, wordsType, lanes);
      SmallVector<Value> asmOperands{pred, ptrs[first]};
      for (int64_t word = 0; word < words; ++word)
        asmOperands.push_back(
            words == 1 ? bits
                       : Value(LLVM::ExtractElementOp::create(
                             builder, loc, bits, constI32(loc, word))));
      std::string asmText, constraints = "b,l";
      llvm::raw_string_ostream asmStream(asmText);
      asmStream << "@$0 st.global";
      if (words > 1)
        asmStream << ".v" << words;
      asmStream << ".b" << wordBytes * 8 << " [$1], ";
      if (words > 1)
        asmStream << "{";
      for (int64_t word = 0; word < words; ++word) {
        asmStream << (word ? ", " : "") << "$" << word + 2;
        constraints += std::string(",") + wordConstraint(wordBytes).str();
      }
      if (words > 1)
        asmStream << "}";
      asmStream << ";";
      LLVM::InlineAsmOp::create(
          builder, loc, Type(), asmOperands, asmText, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(builder.getContext(),
                                    LLVM::AsmDialect::AD_ATT),
          ArrayAttr());
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

Value KernelEmitter::sharedBase(Location loc) {
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext(), 3);
  return LLVM::AddressOfOp::create(builder, loc, ptrType, kSharedSymbol);
}

Type KernelEmitter::sharedStorageType(Type elementType) {
  if (elementType.isInteger(1))
    return builder.getI8Type();
  return convertElementType(elementType);
}

/// The address of element `index` of an array of `elementType` that starts
/// `byteOffset` bytes into shared memory.
Value KernelEmitter::sharedAddress(Location loc, Type elementType,
                                   Value byteOffset, Value index) {
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext(), 3);
  Value base = LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(),
                                   sharedBase(loc), ValueRange{byteOffset});
  return LLVM::GEPOp::create(builder, loc, ptrType,
                             sharedStorageType(elementType), base,
                             ValueRange{index});
}

void KernelEmitter::storeShared(Location loc, Value byteOffset, Value index,
                                Value value) {
  Type type = value.getType();
  Value address = sharedAddress(loc, type, byteOffset, index);
  if (type.isInteger(1))
    value = castScalar(loc, value, builder.getI8Type(), false);
  LLVM::StoreOp::create(builder, loc, value, address);
}

Value KernelEmitter::loadShared(Location loc, Value byteOffset, Value index,
                                Type elementType) {
  Value address = sharedAddress(loc, elementType, byteOffset, index);
  Type storage = sharedStorageType(elementType);
  Value value = LLVM::LoadOp::create(builder, loc, storage, address);
  if (elementType.isInteger(1))
    value = castScalar(loc, value, elementType, false);
  return value;
}

void KernelEmitter::spillToShared(Location loc, Value value, Value byteOffset) {
  auto type = cast<BlockType>(value.getType());
  Layout layout = getLayout(type, threads);
  SmallVector<Value> values(getSlots(value));
  for (int64_t repeat = 0; repeat < layout.repeats; ++repeat) {
    auto writeChunk = [&]() {
      for (int64_t slot = repeat * layout.vector;
           slot < (repeat + 1) * layout.vector; ++slot) {
        Value linear = linearIndex(loc, layout.shape, slotCoords(layout, slot));
        storeShared(loc, byteOffset, linear, values[slot]);
      }
    };
    if (layout.alwaysValid(repeat)) {
      writeChunk();
      continue;
    }
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{},
                                  chunkValid(layout, repeat), false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    pushScope();
    writeChunk();
    popScope();
  }
}

/// Whether a shape op moves elements between threads: broadcast and trans
/// always do; expand_dims and reshape only between layouts of different
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

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Where to report a problem with `op`: its own location, or, for a
/// constant that canonicalization hoisted (which drops the location), the
/// first user with one.
static Location userFacingLoc(Operation *op) {
  if (!isa<UnknownLoc>(op->getLoc()))
    return op->getLoc();
  for (Operation *user : op->getUsers())
    if (!isa<UnknownLoc>(user->getLoc()))
      return user->getLoc();
  return op->getLoc();
}

struct ConvertTileToGPUPass
    : public tile::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isPrivate())
        continue;
      kernels.push_back(func);
    }
    if (kernels.empty())
      return;
    OpBuilder builder(module.getBodyRegion());
    builder.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(builder, module.getLoc(), "tile_kernels");
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());

    int64_t maxShared = 0;
    for (func::FuncOp kernel : kernels) {
      if (failed(verifyKernelInterface(kernel)))
        return signalPassFailure();
      if (kernel.getNumResults() != 0) {
        kernel.emitError() << "kernel '" << kernel.getName()
                           << "' must not return values; store results "
                              "through pointers";
        return signalPassFailure();
      }
      auto numWarpsAttr = kernel->getAttrOfType<IntegerAttr>("tile.num_warps");
      if (!numWarpsAttr) {
        kernel.emitError() << "kernel '" << kernel.getName()
                           << "' has no layouts; run tile-assign-layouts first";
        return signalPassFailure();
      }
      int64_t numWarps = numWarpsAttr.getInt();
      // Resource limits, diagnosed before anything is emitted (see
      // docs/reliability.md): 1 to 1024 threads, and no block value with more
      // elements per thread than a thread has registers. The lowering keeps
      // one scalar per element per thread: 2^20 f32 at 4 warps (8192 per
      // thread) took ptxas 32 s and 2 GB, and spilled to local memory.
      {
        constexpr int64_t kMaxThreads = 1024, kMaxRegisters = 255;
        if (numWarps < 1 || numWarps * kWarpSize > kMaxThreads) {
          kernel.emitError()
              << "kernel '" << kernel.getName()
              << "' has tile.num_warps = " << numWarps << ": a block has 1 to "
              << kMaxThreads << " threads, so 1 to " << kMaxThreads / kWarpSize
              << " warps";
          return signalPassFailure();
        }
        int64_t numThreads = numWarps * kWarpSize;
        WalkResult tooBig = kernel.walk([&](Operation *op) {
          for (Type type : op->getResultTypes()) {
            auto block = dyn_cast<BlockType>(type);
            if (!block)
              continue;
            int64_t perThread = getLayout(block, numThreads).numSlots();
            if (perThread <= kMaxRegisters)
              continue;
            emitError(userFacingLoc(op))
                << "block of " << block.getNumElements() << " elements needs "
                << perThread << " registers per thread at " << numThreads
                << " threads, more than " << kMaxRegisters
                << "; use smaller blocks or more warps";
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        });
        if (tooBig.wasInterrupted())
          return signalPassFailure();
      }
      SmallVector<Type> argTypes;
      for (Type type : kernel.getArgumentTypes()) {
        argTypes.push_back(isa<PtrType>(type)
                               ? LLVM::LLVMPointerType::get(&getContext(), 1)
                               : type);
      }
      builder.setInsertionPointToEnd(gpuModule.getBody());
      auto gpuFunc =
          gpu::GPUFuncOp::create(builder, kernel.getLoc(), kernel.getName(),
                                 builder.getFunctionType(argTypes, {}));
      gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                       builder.getUnitAttr());
      int32_t threads = numWarps * kWarpSize;
      gpuFunc.setKnownBlockSizeAttr(
          builder.getDenseI32ArrayAttr({threads, 1, 1}));
      AxisInfoAnalysis axisInfo;
      KernelEmitter emitter(kernel, gpuFunc, numWarps, axisInfo);
      if (failed(emitter.emit()))
        return signalPassFailure();
      int64_t shared = emitter.getSharedBytes();
      if (shared > kMaxStaticSharedBytes) {
        kernel.emitError() << "kernel '" << kernel.getName() << "' needs "
                           << shared
                           << " bytes of shared memory, more than the "
                           << kMaxStaticSharedBytes
                           << " a block can have statically; use smaller "
                              "tiles";
        return signalPassFailure();
      }
      maxShared = std::max(maxShared, shared);
      gpuFunc->setAttr("tile.num_warps", builder.getI32IntegerAttr(numWarps));
      gpuFunc->setAttr("tile.threads", builder.getI32IntegerAttr(threads));
      gpuFunc->setAttr("tile.shared_bytes", builder.getI32IntegerAttr(shared));
      // Argument attributes (divisibility) carry over for documentation.
      for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
        if (auto attr =
                kernel.getArgAttrOfType<IntegerAttr>(i, "tile.divisibility"))
          gpuFunc.setArgAttr(i, "tile.divisibility", attr);
    }
    if (maxShared > 0) {
      builder.setInsertionPointToStart(gpuModule.getBody());
      auto arrayType = LLVM::LLVMArrayType::get(builder.getI8Type(), maxShared);
      LLVM::GlobalOp::create(builder, module.getLoc(), arrayType,
                             /*isConstant=*/false, LLVM::Linkage::Internal,
                             kSharedSymbol, Attribute(), /*alignment=*/16,
                             /*addrSpace=*/3);
    }
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      func.erase();
  }
};

} // namespace
