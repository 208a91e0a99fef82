//===- Emitter.h - shared state of the tile-to-GPU lowering -----*- C++ -*-===//
//
// Each tile kernel becomes one gpu.func. The conversion walks the kernel in
// program order and emits, for every block value, the scalars its layout
// gives the running thread: register r of a thread holds the element at the
// coordinates its linear layout maps (r, lane, warp) to (LinearLayout.h).
// Coordinates are a per-thread part, computed once at the kernel's entry from
// the thread id, plus a per-register constant, so index arithmetic folds.
//
// Values that are functions of the element index alone (aranges, splats,
// constants, and elementwise ops, broadcasts, expand_dims, reshapes and
// transposes of those: index and pointer arithmetic) are not stored but
// evaluated at whatever coordinates a consumer needs, in whatever layout the
// consumer has. That makes them free to broadcast and to convert:
// `offs_m[:, None] * stride + offs_n[None, :]` costs a multiply-add per
// distinct row and column and no data movement. Other values live in
// registers; a change of layout (tile.convert_layout, or a shape op whose
// result layout does not line up with its operand's) is a renaming of
// registers when no element changes threads, warp shuffles when elements stay
// in their warp, and a trip through shared memory otherwise (Relayout.cpp).
//
// A thread's share of a block is a list of scalar SSA values, one per
// register, not an LLVM vector or struct: the per-element arithmetic stays
// plain arith/math that upstream lowers and LLVM schedules freely, and memory
// accesses group the registers of a contiguous run into vector loads and
// stores explicitly (LoadStore.cpp).
//
// The emitter is one class whose methods live in one file per op family:
// ControlFlow.cpp, IndexFunctions.cpp, Elementwise.cpp, MapElementwise.cpp,
// InlineAsm.cpp, LoadStore.cpp, Atomics.cpp, SharedMemory.cpp, Relayout.cpp,
// Reduce.cpp, Scan.cpp, Dot.cpp;
// the pass and its resource limits are in TileToGPU.cpp and ResourceLimits.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_EMITTER_H
#define TILE_LIB_CONVERSION_TILETOGPU_EMITTER_H

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/Chips.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "StagedMatrix.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include <map>
#include <optional>

namespace mlir::tile::lowering {

constexpr int64_t kWarpSize = 32;
inline constexpr StringLiteral kSharedSymbol = "tile_shared";

/// How a block value is spread over the threads of a program instance: the
/// linear layout of its encoding over the padded block, and the real extents
/// that mask the padding off.
struct BlockLayout {
  SmallVector<int64_t> shape;
  LinearLayout linear;

  int64_t numRegisters() const { return linear.getNumRegisters(); }
  unsigned getRank() const { return shape.size(); }
  /// Equal keys place equal elements in equal registers of equal threads.
  std::vector<int64_t> key() const;
};

BlockLayout getBlockLayout(BlockType type);

/// Bytes of one element in memory; a struct (the elements of a reduction
/// or scan of several blocks) has its fields at structFieldOffsets.
inline int64_t elementBytes(Type type);

/// Where the fields of a struct element go in shared memory, each at its
/// natural alignment, and the struct's size (the last entry). The lowering
/// addresses the fields itself: LLVM's layout of an aggregate depends on a
/// data layout that not every pass sees.
inline SmallVector<int64_t> structFieldOffsets(LLVM::LLVMStructType tuple) {
  SmallVector<int64_t> offsets;
  int64_t bytes = 0, alignment = 1;
  for (Type field : tuple.getBody()) {
    int64_t size = elementBytes(field);
    bytes = llvm::alignTo(bytes, size);
    offsets.push_back(bytes);
    bytes += size;
    alignment = std::max(alignment, size);
  }
  offsets.push_back(llvm::alignTo(bytes, alignment));
  return offsets;
}

inline int64_t elementBytes(Type type) {
  if (isa<PtrType, LLVM::LLVMPointerType>(type))
    return 8;
  if (auto tuple = dyn_cast<LLVM::LLVMStructType>(type))
    return structFieldOffsets(tuple).back();
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// An XOR swizzle of the last coordinate of a block staged in shared memory:
/// bit `colBit` of the last coordinate flips with bit `rowBit` of coordinate
/// `rowDim`. It permutes each row, so the staging stays a bijection, and it
/// spreads accesses that would fall into one bank over several.
struct SharedSwizzle {
  struct Term {
    unsigned rowDim, rowBit, colBit;
  };
  SmallVector<Term> terms;

  /// `coord` with its last coordinate swizzled (KernelEmitter::swizzleCoords
  /// emits the same).
  LinearLayout::Coord apply(LinearLayout::Coord coord) const {
    int64_t column = coord.back();
    for (const Term &term : terms)
      column ^= ((coord[term.rowDim] >> term.rowBit) & 1) << term.colBit;
    coord.back() = column;
    return coord;
  }
};

/// The swizzle under which the threads of `dst` read a block written by
/// the threads of `src` with the fewest bank conflicts, keeping runs of
/// `keptBits` low bits of the last coordinate (the writers' vectors) intact.
SharedSwizzle chooseSwizzle(const BlockLayout &dst, int64_t elementBytes,
                            int64_t readWidth, unsigned keptBits);

/// An accumulator of a reduction or scan: a value, and for combine
/// functions without an identity, whether it holds anything yet.
struct Accumulator {
  Value value;
  Value valid; // null: `value` is always valid
};

/// The cache hint and volatility of a tile.load or tile.store, as the PTX of
/// its accesses needs them.
struct MemoryHints {
  std::string hint;        // ".cg", ".L1::evict_last", ... or ""
  bool isVolatile = false; // ld.volatile / st.volatile
  /// What follows `ld`/`st` in the instruction.
  std::string space() const {
    return (isVolatile ? ".volatile.global" : ".global") + hint;
  }
};
MemoryHints memoryHints(std::optional<StringRef> cache,
                        std::optional<StringRef> evict, bool isVolatile);

/// The LLVM-compatible type that holds a scalar or an element of tile type
/// `type`: pointers become global pointers, a tensor map the generic address
/// of its kernel parameter, 8-bit floats their bits (i8).
Type convertScalarType(Type type);

class KernelEmitter {
public:
  /// `fpFusion`: whether float multiplies and adds may fuse into fmas;
  /// `chip` the target.
  KernelEmitter(func::FuncOp kernel, gpu::GPUFuncOp gpuFunc, int64_t numWarps,
                AxisInfoAnalysis &axisInfo, bool fpFusion, StringRef chip)
      : kernel(kernel), gpuFunc(gpuFunc), numWarps(numWarps),
        threads(numWarps * kWarpSize), fpFusion(fpFusion), chip(chip),
        axisInfo(axisInfo), builder(kernel.getContext()),
        entryBuilder(kernel.getContext()) {}

  LogicalResult emit();
  /// The rings, the scratch space, then the TMA rings' barriers.
  int64_t getSharedBytes() const {
    return barrierCount ? barrierOffset + 8 * barrierCount
                        : std::max(ringBytes, sharedBytes);
  }
  /// The box each tensor map parameter is encoded with, as launch facts
  /// (an array of {arg, box, swizzle, element_bytes}; empty without TMA).
  ArrayAttr getTensorMapFacts();

private:
  // Types and constants.
  /// The LLVM-compatible type that holds an element of tile type `type`
  /// (lowering::convertScalarType).
  Type convertElementType(Type type) { return convertScalarType(type); }
  Type i32Type() { return builder.getI32Type(); }
  Value constI32(Location loc, int64_t value) {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getI32IntegerAttr(value));
  }
  Value constBool(Location loc, bool value) {
    return arith::ConstantOp::create(builder, loc, builder.getBoolAttr(value));
  }
  /// `a & b` where either may be null (true).
  Value andPredicates(Location loc, Value a, Value b);

  /// The x, y or z special register (block ids, grid sizes) of `axis`.
  template <typename X, typename Y, typename Z>
  Value readAxisRegister(Location loc, unsigned axis) {
    if (axis == 0)
      return X::create(builder, loc, i32Type());
    if (axis == 1)
      return Y::create(builder, loc, i32Type());
    return Z::create(builder, loc, i32Type());
  }

  // Program structure (ControlFlow.cpp, EmitOp.cpp).
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitFor(scf::ForOp op);
  LogicalResult emitIf(scf::IfOp op);
  LogicalResult emitWhile(scf::WhileOp op);
  /// Emits `body` where `condition` holds (an scf.if; always when null).
  void guarded(Location loc, Value condition, function_ref<void()> body);
  SmallVector<Value> flatten(ValueRange values);
  void unflatten(ValueRange oldValues, ValueRange flat);
  SmallVector<Type> flatTypes(TypeRange types);

  // Registers, coordinates and index functions (IndexFunctions.cpp).
  bool isIndexFunction(Value value);
  /// The registers of a block value (evaluating it if it is an index
  /// function).
  SmallVector<Value> getRegisters(Value value);
  Value getScalar(Value value);
  /// The registers of `value` in `layout`: an index function is evaluated
  /// at the layout's coordinates; other values must already be in it.
  std::optional<SmallVector<Value>> registersIn(Value value,
                                                const BlockLayout &layout);
  /// `compute(reg)` for each register of `value` in `layout`, once per run
  /// of elements the axis analysis proves equal (`value`'s constancy):
  /// registers of one run take the first one's value.
  SmallVector<Value> perRun(Value value, const BlockLayout &layout,
                            function_ref<Value(int64_t reg)> compute);
  /// This thread's part of the coordinates of `layout` (computed once, at
  /// the kernel's entry) and the bits it may set, per dimension.
  struct ThreadCoords {
    SmallVector<Value> values;
    SmallVector<int64_t> bits;
  };
  const ThreadCoords &threadCoords(const BlockLayout &layout);
  /// The coordinates register `reg` of this thread holds.
  SmallVector<Value> registerCoords(const BlockLayout &layout, int64_t reg);
  /// `offsetOf` of the coordinates of this thread's registers 0, `step`,
  /// 2 * `step`, ... of `layout`, where `emit(reg)` computes it for register
  /// `reg`: an offset into shared memory (swizzled), whose bits are often a
  /// linear (XOR) function of the thread's and the register's bits. Then
  /// the offsets are one value per thread XORed with and added to
  /// constants, which ptxas folds into the accesses' immediates (as in
  /// Triton's code), rather than each register's coordinates offset apart.
  SmallVector<Value> registerOffsets(
      Location loc, const BlockLayout &layout, int64_t step,
      llvm::function_ref<int64_t(const LinearLayout::Coord &)> offsetOf,
      llvm::function_ref<Value(int64_t reg)> emit);
  /// Whether register `reg` of this thread is inside the block (null when
  /// always): padded dimensions are masked off.
  Value registerValid(const BlockLayout &layout, int64_t reg);
  /// Whether register `reg` is inside the block along dimension `dim` (null
  /// when always).
  Value registerValidAlong(const BlockLayout &layout, int64_t reg,
                           unsigned dim);
  Value linearIndex(Location loc, ArrayRef<int64_t> shape,
                    ArrayRef<Value> coords);
  SmallVector<Value> delinearize(Location loc, ArrayRef<int64_t> shape,
                                 Value linear);
  Value evalAt(Value value, ArrayRef<Value> coords);
  SmallVector<Value> mapCoordsToOperand(Operation *op, ArrayRef<Value> coords);
  Value threadId() { return tid; }
  Value laneId() { return lane; }
  /// The thread's warp (made at the kernel's entry at its first use).
  Value warpId();
  /// The warp's position in a grid of `warps[0]` x `warps[1]` warps (rows
  /// fastest), as constants where the grid is one row or one column of
  /// warps: ptxas cannot tell that the shuffled warp index is below the
  /// kernel's warp count, and a descriptor that depends on it leaves
  /// uniform registers.
  std::pair<Value, Value> warpPosition(Location loc, ArrayRef<unsigned> warps);
  /// The value of a hardware index built from bits of the thread id:
  /// bit i of the result is bit `bits[i]` of the thread id.
  Value gatherThreadBits(Location loc, ArrayRef<unsigned> bits);

  // Elementwise ops and constants (Elementwise.cpp).
  LogicalResult emitElementwise(Operation *op);
  LogicalResult emitDenseConstant(ConstantOp op);
  Value emitScalarOp(Operation *op, ValueRange operands, Location loc);
  Value castScalar(Location loc, Value value, Type to, bool unsignedSrc,
                   bool unsignedDst = false, bool towardZero = false);
  /// tile.cast of one element from `from` to `to` (tile's element types:
  /// 8-bit floats are i8 bits in `value` and in the result).
  Value castElement(Location loc, Value value, Type from, Type to,
                    bool unsignedSrc, bool unsignedDst, bool towardZero);
  /// An arith.constant of `attr`, an 8-bit float as its bits.
  Value materializeConstant(Location loc, TypedAttr attr);
  // Bit casts, pointer casts and external calls, one element
  // (BitsAndCalls.cpp).
  Value emitBitsOrCallOp(Operation *op, ValueRange operands, Location loc);

  // Global memory (LoadStore.cpp).
  LogicalResult emitLoad(LoadOp op);
  LogicalResult emitStore(StoreOp op);
  /// Loads and stores with a memory order: one LLVM atomic access per
  /// element.
  LogicalResult emitAtomicLoad(LoadOp op);
  LogicalResult emitAtomicStore(StoreOp op);
  /// The widest access (in elements) to `ptr` under `mask` that the
  /// registers of `layout` allow.
  int64_t accessWidth(Value ptr, Value mask, const BlockLayout &layout);
  /// `space` is what follows `ld`: ".global", ".volatile.global" or
  /// ".global" with a cache hint (".global.cg", ".global.L1::evict_last").
  SmallVector<Value> loadRegisters(Location loc, Type pointee,
                                   const BlockLayout &layout, int64_t width,
                                   ArrayRef<Value> ptrs, ArrayRef<Value> masks,
                                   ArrayRef<Value> others,
                                   const MemoryHints &hints = {});
  std::pair<SmallVector<Value>, int64_t> splitWords(Location loc, Value lanes);
  Value joinWords(Location loc, ArrayRef<Value> words, int64_t wordBits,
                  Type lanesType);
  Value loadWords(Location loc, Value ptr, Value pred, Value other,
                  const MemoryHints &hints);
  void storeWords(Location loc, Value lanes, Value ptr, Value pred,
                  const MemoryHints &hints);
  /// Whether this thread is the one that writes register `reg`'s element
  /// among the threads and registers holding copies of it (null: always).
  Value ownsRegister(const BlockLayout &layout, int64_t reg);
  /// Under what this thread writes register `reg`'s element: one copy of a
  /// replicated element (ownsRegister), none of the padding (registerValid).
  /// std::nullopt where it never does; a null predicate where it always
  /// does.
  std::optional<Value> writePredicate(Location loc, const BlockLayout &layout,
                                      int64_t reg);

  // Atomics (Atomics.cpp).
  LogicalResult emitAtomic(Operation *op);
  /// One atomic on the element behind `ptr` under `pred` (null: always):
  /// `kind` of `operands[0]`, or a compare-and-swap of `operands` (cmp,
  /// value) without a kind. Returns the old value, 0 where `pred` is off.
  Value atomicElement(Location loc, StringRef prefix,
                      std::optional<AtomicKind> kind, Type element, Value ptr,
                      ArrayRef<Value> operands, Value pred);
  /// The registers of a block in `layout` in every thread that holds a copy
  /// of their element, as the copy's owner (ownsRegister) holds them.
  SmallVector<Value> shareOwnedRegisters(Location loc, ArrayRef<Value> values,
                                         const BlockLayout &layout);
  /// `value` as thread 0 holds it, in every thread.
  Value shareFromThreadZero(Location loc, Value value);

  // Shared memory (SharedMemory.cpp).
  /// The scratch space ops reuse one after another (past the rings).
  Value sharedBase(Location loc);
  /// The start of the kernel's shared memory, where the rings are.
  Value ringBase(Location loc);
  Value sharedAddress(Location loc, Type elementType, Value byteOffset,
                      Value index);
  /// How an element is held in global or shared memory: i1 as a byte,
  /// 8-bit floats as their bits (convertElementType), structs field by field.
  Type storageType(Type elementType);
  void storeShared(Location loc, Value byteOffset, Value index, Value value);
  Value loadShared(Location loc, Value byteOffset, Value index,
                   Type elementType);
  /// Stores `values` (consecutive elements) at `index`, as one vector
  /// access when there is more than one.
  void storeSharedVector(Location loc, Value byteOffset, Value index,
                         ArrayRef<Value> values);
  SmallVector<Value> loadSharedVector(Location loc, Value byteOffset,
                                      Value index, Type elementType,
                                      int64_t count);
  /// Makes room for `bytes` of scratch space from sharedBase().
  void reserveShared(int64_t bytes) {
    sharedBytes = std::max(sharedBytes, scratchStart() + bytes);
  }
  /// Where scratch space starts: past the rings while one holds data, at 0
  /// elsewhere (every scratch use starts with a barrier, after which no
  /// thread reads a dead ring or still copies into it).
  int64_t scratchStart() const {
    return ringLiveOps.contains(currentTopLevelOp) ? ringBytes : 0;
  }
  /// A barrier before shared memory is written again; it first waits for
  /// wgmma groups still reading their operands there.
  void barrier(Location loc) {
    waitForAsyncMma(loc);
    gpu::BarrierOp::create(builder, loc);
    copiesNeedBarrier = false;
  }
  /// The shared-memory element index of registers 0, `step`, 2 * `step`, ...
  /// of a block in `layout` staged row-major over its padded shape, its last
  /// coordinate swizzled by `swizzle` (registerOffsets' form).
  SmallVector<Value> stagedIndices(Location loc, const BlockLayout &layout,
                                   int64_t step, const SharedSwizzle &swizzle);
  /// Writes the registers of a block in `layout` to shared memory at their
  /// row-major indices (vectorized along runs of the last dimension).
  void spillToShared(Location loc, ArrayRef<Value> values,
                     const BlockLayout &layout, Value byteOffset,
                     const SharedSwizzle &swizzle = {});
  /// `coords` with the swizzle applied to the last coordinate.
  SmallVector<Value> swizzleCoords(Location loc, ArrayRef<Value> coords,
                                   const SharedSwizzle &swizzle);

  // Layout changes (Relayout.cpp).
  LogicalResult emitLayoutChange(Operation *op);
  /// The registers of `dst` for a value held as `values` in `src`, where
  /// destination coordinates map to source coordinates through `op` (a shape
  /// op) or identically (null).
  SmallVector<Value> changeLayout(Location loc, Type elementType,
                                  ArrayRef<Value> values,
                                  const BlockLayout &src,
                                  const BlockLayout &dst, Operation *op);
  std::optional<SmallVector<Value>> renameRegisters(ArrayRef<Value> values,
                                                    const BlockLayout &src,
                                                    const BlockLayout &dst,
                                                    Operation *op);
  std::optional<SmallVector<Value>> shuffleWithinWarps(Location loc,
                                                       ArrayRef<Value> values,
                                                       const BlockLayout &src,
                                                       const BlockLayout &dst);
  /// Writes the registers of a block held as stmatrix's fragments with
  /// `stmatrix.x4`, `rows` saying where each lane's rows start.
  void storeMatrices(Location loc, ArrayRef<Value> values,
                     const BlockLayout &rows, const SharedSwizzle &swizzle);
  SmallVector<Value> exchangeThroughShared(Location loc, Type elementType,
                                           ArrayRef<Value> values,
                                           const BlockLayout &src,
                                           const BlockLayout &dst,
                                           Operation *op);

  // Reductions and scans (Reduce.cpp, Scan.cpp).
  LogicalResult emitReduce(ReduceOp op);
  LogicalResult emitScan(ScanOp op);
  /// The element type the combining code sees for `srcs`: the element type
  /// of one block, or an LLVM struct of those of several.
  Type combinedElementType(ValueRange srcs);
  /// The registers of `srcs` (one layout), each register's values packed into
  /// one struct when there are several blocks.
  SmallVector<Value> combinedRegisters(Location loc, ValueRange srcs);
  /// The values packed in `value` (itself when `count` is 1).
  SmallVector<Value> splitCombined(Location loc, Value value, unsigned count);
  Accumulator identityAccumulator(Location loc, CombineKind kind, Type type);
  Accumulator combine(Location loc, CombineKind kind, Region &region,
                      Accumulator a, Accumulator b);
  Value combineValues(Location loc, CombineKind kind, Region &region, Value a,
                      Value b);
  /// `a` where `condition` holds, `b` elsewhere, for accumulators.
  Accumulator selectAccumulator(Location loc, Value condition, Accumulator a,
                                Accumulator b);
  Value shuffle(Location loc, Value value, Value laneOrOffset,
                gpu::ShuffleMode mode);
  Value shuffleXor(Location loc, Value value, int64_t offset);
  Accumulator shuffleAccumulator(Location loc, Accumulator acc, Value lane,
                                 gpu::ShuffleMode mode);

  // User PTX (InlineAsm.cpp) and scalar functions (MapElementwise.cpp).
  LogicalResult emitInlineAsm(InlineAsmOp op);
  LogicalResult emitMapElementwise(MapElementwiseOp op);
  /// The registers of each of `args` in the layout of `result`, which is
  /// set in `layout` (one scalar each, and `layout` unset, when `result` is
  /// a scalar); the op runs once per `pack` registers, which must divide
  /// them. Fails with an error at `op`.
  FailureOr<SmallVector<SmallVector<Value>>>
  packedOperands(Operation *op, ValueRange args, Value result, int64_t pack,
                 std::optional<BlockLayout> &layout);
  /// Gives `results` the registers (`layout` set) or scalars computed for
  /// them, one list per result.
  void bindPackedResults(ValueRange results,
                         SmallVector<SmallVector<Value>> &values,
                         const std::optional<BlockLayout> &layout);

  // Gathers and histograms (Gather.cpp).
  LogicalResult emitGather(GatherOp op);
  LogicalResult emitHistogram(HistogramOp op);

  // Debugging (Debug.cpp).
  LogicalResult emitPrint(PrintOp op);
  LogicalResult emitAssert(AssertOp op);
  /// cf.assert of `holds` (a scalar of this thread) at `loc`: a call of
  /// __assertfail with the source file, line and kernel where it is false.
  void emitAssertion(Location loc, Value holds, StringRef message);

  // Matrix products (Dot.cpp).
  LogicalResult emitDot(DotOp op);
  LogicalResult emitWarpGroupDot(DotOp op, MmaLayoutAttr mma);
  LogicalResult emitRingDot(RingDotOp op);
  /// A dot with an mma.sync (#tile.mma version 2) layout: operands staged in
  /// shared memory, fragments by ldmatrix, 16 x 8 tiles a step deep.
  LogicalResult emitMmaSyncDot(DotOp op, MmaLayoutAttr mma);
  /// A `tile.ring_dot` with an mma.sync layout: both operands, their slots
  /// stored as `a` and `b` say, read by ldmatrix.
  LogicalResult emitRingMmaSync(RingDotOp op, MmaLayoutAttr mma,
                                const StagedMatrix &a, const StagedMatrix &b);
  /// The mma.sync tiles of this warp for `accumulator` plus A x B, both
  /// stored as `a` and `b` describe at shared addresses `aStart` and
  /// `bStart` (i32): the product's registers, or a diagnostic on `op`.
  FailureOr<SmallVector<Value>>
  issueMmaSync(Operation *op, MmaLayoutAttr mma, const StagedMatrix &a,
               Value aStart, const StagedMatrix &b, Value bStart, Type aElement,
               Type bElement, Value accumulator);
  /// Stores a register-held dot operand into shared memory at `offset`
  /// bytes in `matrix`'s form: its registers, or `converted` (the same
  /// layout, another element type) where given.
  void stageOperand(Value operand, const StagedMatrix &matrix, int64_t offset,
                    ArrayRef<Value> converted = {});
  /// The wgmma ops of `op`'s product of `a` and `b`, staged at the shared
  /// addresses `aStart` and `bStart` (A from `aFragments` instead when
  /// given), into `accumulator`'s registers; the group is committed and
  /// waited for unless its wait may be deferred.
  LogicalResult issueWarpGroupMma(Operation *op, MmaLayoutAttr mma,
                                  const StagedMatrix &a, Value aStart,
                                  ArrayRef<SmallVector<Value, 4>> aFragments,
                                  const StagedMatrix &b, Value bStart,
                                  Type aElement, Type bElement,
                                  Value accumulator);
  /// The A operand `operand` (m x k, in an mma layout wgmma reads from
  /// registers) as wgmma register fragments, per row tile and 16-deep step.
  SmallVector<SmallVector<Value, 4>> registerFragments(Value operand, int64_t m,
                                                       int64_t k);

  // Asynchronous copies into shared-memory rings (AsyncCopy.cpp).
  /// Places every `tile.ring_alloc` of the kernel in shared memory, before
  /// the scratch space the other ops share; rings whose live ranges do not
  /// overlap share bytes.
  void placeRings();
  LogicalResult emitAsyncCopy(AsyncCopyOp op);
  /// `tile.ring_store`: each thread's registers stored into the slot.
  LogicalResult emitRingStore(RingStoreOp op);
  /// Before the first write into a slot after a dot that read the ring: the
  /// barrier that tells every warp the slot is free, where one is due.
  void beforeSlotWrite(Location loc);
  /// One element stored into a ring slot from a register, at byte `offset`
  /// from the rings' start, where `pred` holds (null: always).
  struct SlotStore {
    Value value, offset, pred;
  };
  void storeToSlots(Location loc, ArrayRef<SlotStore> stores);
  /// `tile.async_copy ... tensor_map`: thread 0 issues the TMA copies of the
  /// slot's column blocks, completing on the slot's barrier.
  LogicalResult emitTensorCopy(AsyncCopyOp op);
  LogicalResult emitRingWait(RingWaitOp op);
  LogicalResult emitRingLoad(RingLoadOp op);
  /// `tile.store ... tensor_map` on a chip with TMA: the block staged in
  /// scratch space as its box's column blocks, which thread 0 writes with
  /// `cp.async.bulk.tensor` (waiting until they are read).
  LogicalResult emitTensorStore(StoreOp op);
  /// Whether global memory may be read after `op` (later in the kernel, or
  /// in a later iteration of a loop around it).
  bool readsGlobalMemoryAfter(Operation *op);
  /// Records that the map of kernel parameter `arg` is read or written in
  /// boxes of `matrix`'s column blocks; two shapes for one map are an error.
  LogicalResult noteTensorMapBox(Operation *op, unsigned arg,
                                 const StagedMatrix &matrix);
  /// Whether `ring`'s copies are TMA copies: every copy into it names a box
  /// of a kernel parameter's tensor map that a TMA box can hold.
  bool copiesWithTensorMap(Value ring);
  /// The shared address (i32) of the barrier of slot `slot` of a TMA ring.
  Value slotBarrier(Location loc, Value ring, Value slot);
  /// The first of the barriers of each TMA ring (one per slot), and how
  /// many there are. They follow everything else in shared memory
  /// (barrierOffset, known when the kernel is emitted: the constant
  /// barrierOffsetOp, which every barrier address adds, is set then).
  llvm::DenseMap<Value, int64_t> ringBarriers;
  /// Whether some ring is filled by cp.async (has no barriers): otherwise
  /// the cp.async groups' commits and waits have nothing to order.
  bool pointerCopies = false;
  int64_t barrierCount = 0;
  int64_t barrierOffset = 0;
  arith::ConstantOp barrierOffsetOp;
  /// The shared address (i32) of the first barrier.
  Value barrierBase;
  /// The encoding each tensor map parameter's TMA copies need, by argument
  /// number: {box (outermost first), swizzle bytes, element bytes}.
  struct TensorMapBox {
    SmallVector<int64_t> box;
    int64_t swizzle, elementBytes;
    bool operator==(const TensorMapBox &other) const {
      return box == other.box && swizzle == other.swizzle &&
             elementBytes == other.elementBytes;
    }
  };
  std::map<unsigned, TensorMapBox> tensorMapBoxes;
  /// Shared-memory byte offsets of the rings, from ringBase().
  llvm::DenseMap<Value, int64_t> ringOffsets;
  /// The rings whose slots are stored transposed (StagedMatrix): those whose
  /// copies read runs along the slot's rows.
  llvm::DenseMap<Value, bool> ringTransposed;
  /// The rings some of whose copies store runs from registers (too short for
  /// cp.async) rather than copying them with cp.async or TMA.
  llvm::DenseSet<Value> ringsStoredFromRegisters;
  /// Elements per copy instruction of `op`.
  int64_t copyWidth(AsyncCopyOp op);
  /// Whether `op`'s runs are too short for cp.async (under 4 bytes), so it
  /// loads and stores them through registers instead.
  bool storesFromRegisters(AsyncCopyOp op);
  /// The form of one slot of `ring`.
  StagedMatrix ringSlot(Value ring) const;
  /// The byte offset in a slot of `ring` of the element at `coords` (the
  /// slot's swizzled form for rank-2 rings, a plain row for rank-1 ones).
  Value slotElementOffset(Location loc, Value ring, ArrayRef<Value> coords);
  /// The byte offsets in slot `slot` of `ring` (from ringBase()) of the
  /// elements of `layout`'s registers 0, `width`, 2 * `width`, ...
  SmallVector<Value> slotRegisterOffsets(Location loc, Value ring, Value slot,
                                         const BlockLayout &layout,
                                         int64_t width);
  /// The byte offset from ringBase() (i32) where slot `slot` (an i32 value)
  /// of `ring` starts, and its shared address (i32).
  Value slotOffset(Location loc, Value ring, Value slot);
  Value slotAddress(Location loc, Value ring, Value slot);
  int64_t ringBytes = 0;
  /// The ops of the kernel's body from the first to the last use of a ring
  /// (its live range), and the one being emitted.
  llvm::DenseSet<Operation *> ringLiveOps;
  /// The first ops of live ranges of rings placed over bytes an earlier
  /// ring used.
  llvm::DenseSet<Operation *> ringReuseStarts;
  Operation *currentTopLevelOp = nullptr;
  /// Waits for every committed wgmma group, passing the registers of
  /// `asyncMmaResults` through the wait; nothing when none may be pending.
  void waitForAsyncMma(Location loc);
  /// Whether a wgmma group may still be running here: a dot in a loop
  /// commits without waiting (the next iteration's loads then overlap the
  /// math) and the next barrier, region or the loop's end waits.
  bool asyncMmaPending = false;
  /// The blocks whose registers such a group is still writing: its results,
  /// and at the start of a loop body the iter_args that carry the previous
  /// iteration's deferred results (`isCarriedInFlight`).
  SmallVector<Value> asyncMmaResults;
  /// Whether a group in flight reads operands staged in the scratch space,
  /// which the next barrier's users may overwrite.
  bool asyncMmaReadsScratch = false;
  /// Whether a barrier was passed while the previous iteration's groups were
  /// in flight: their slots are then free only after a barrier that follows
  /// their wait, which the next copy into a ring places.
  bool copiesNeedBarrier = false;
  /// Waits for the groups in flight first where `op` reads their registers
  /// (other than as the accumulator a dot chains onto them).
  void waitIfReadingAsyncMma(Operation *op);

  // Memoized evaluations, scoped by region so that a value computed inside a
  // loop body is never used after the loop.
  using MemoKey = std::pair<const void *, unsigned>;
  unsigned internCoords(ArrayRef<Value> coords);
  Value lookupMemo(MemoKey key);
  /// An i32 constant shared within the current scope, so that equal
  /// coordinates are equal values and their evaluations are shared.
  Value scopedConstI32(int64_t value);
  /// `value + constant` (or `value ^ constant`), shared within the current
  /// scope.
  Value scopedAddI32(Value value, int64_t constant, bool useXor = false);
  void pushScope() { scopes.emplace_back(); }
  void popScope() { scopes.pop_back(); }

  func::FuncOp kernel;
  gpu::GPUFuncOp gpuFunc;
  int64_t numWarps, threads;
  bool fpFusion;
  StringRef chip;
  AxisInfoAnalysis &axisInfo;
  OpBuilder builder;
  /// Inserts at the kernel's entry, after the thread id: per-thread values
  /// every scope shares.
  OpBuilder entryBuilder;
  Value tid, lane, warp;
  IRMapping scalars;
  llvm::DenseMap<Value, SmallVector<Value>> registers;
  llvm::DenseMap<Value, bool> indexFunction;
  std::map<std::vector<const void *>, unsigned> coordIds;
  std::map<std::vector<int64_t>, ThreadCoords> threadCoordCache;
  /// Layout key and register: a key for register coordinates.
  using CoordKey = std::pair<std::vector<int64_t>, int64_t>;
  struct Scope {
    llvm::DenseMap<MemoKey, Value> values;
    std::map<int64_t, Value> constants;
    std::map<std::tuple<const void *, int64_t, bool>, Value> sums;
    std::map<CoordKey, SmallVector<Value>> coords;
  };
  SmallVector<Scope> scopes;
  int64_t sharedBytes = 0;
};

/// Whether a wgmma dot may leave its group running past its end: it is in a
/// loop, and only the next iteration's dots read its result, as their
/// accumulator.
bool defersWarpGroupWait(Operation *op);
/// Whether `op` (one that `defersWarpGroupWait`) leaves its group running
/// into the next iteration for ops other than dots to read: its result
/// carried to them, and waited for where they first read it or where
/// another dot waits (attention's p @ v, rescaled after the next q @ k^T).
bool defersToReaders(Operation *op);

/// Fails, with an error at `op`, where `op` computes on 8-bit floats (other
/// than casting, selecting or naming a constant).
LogicalResult rejectFloat8Arithmetic(Operation *op);

/// Diagnoses ops that `chip` has no instructions for: a bf16 atomic add
/// before sm_90, 8-bit float conversions before sm_89.
LogicalResult checkChipSupport(func::FuncOp kernel, StringRef chip);

/// Diagnoses a kernel that cannot run: a bad warp count, a block value
/// without a distributed layout of the kernel's warps, one whose layout does
/// not fit its shape (an internal error of a layout pass), or one needing
/// more registers per thread than a thread has.
LogicalResult checkResourceLimits(func::FuncOp kernel, int64_t numWarps);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_EMITTER_H
