//===- Emitter.h - shared state of the tile-to-GPU lowering -----*- C++ -*-===//
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
// The emitter is one class whose methods live in one file per op family:
// ControlFlow.cpp, IndexFunctions.cpp, Elementwise.cpp, LoadStore.cpp,
// SharedMemory.cpp, Relayout.cpp, ReduceScan.cpp, Dot.cpp; the pass and its
// resource limits are in TileToGPU.cpp and ResourceLimits.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_EMITTER_H
#define TILE_LIB_CONVERSION_TILETOGPU_EMITTER_H

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include <map>

namespace mlir::tile::lowering {

constexpr int64_t kWarpSize = 32;
/// Static shared memory a block can use without opting in to more.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
inline constexpr StringLiteral kSharedSymbol = "tile_shared";

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

inline Layout getLayout(BlockType type, int64_t threads) {
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

inline int64_t elementBytes(Type type) {
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

/// Diagnoses a kernel that cannot run: a bad warp count, or a block value
/// needing more registers per thread than a thread has.
LogicalResult checkResourceLimits(func::FuncOp kernel, int64_t numWarps);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_EMITTER_H
