//===- AssignLayouts.cpp - anchors, propagation, conversions --------------===//
//
// Gives every block value a distributed layout, in four steps:
//
// 1. Anchors. A load, store or atomic through a block of pointers wants its
//    coalesced layout (LayoutUtils.h): the dimension with contiguous
//    addresses fastest, 16-byte accesses per thread where the addresses and
//    masks allow.
// 2. Demands, backwards from the uses: a store wants its value in its
//    coalesced layout; elementwise ops pass a wanted layout to their
//    operands (or, wanted nothing, the tensor-core accumulator layout of a
//    dot product among them, except to blocks carried through a loop), shape
//    ops pass its preimage (a slice for expand_dims, the inverse permutation
//    for trans), loops and ifs pass it through their carried values.
// 3. Layouts, forwards in program order. A load takes the layout its uses
//    want when that costs it no vector width, else its own. An elementwise op
//    takes its operands' layout (the one wanted of its result if an operand
//    has it, else the one hardest to move: loop-carried values and results of
//    reductions, scans and dots, then the widest loads). A reduction's result
//    is the slice of its operand's layout; expand_dims, broadcast and trans
//    carry their operand's layout over without moving anything, unless a use
//    wants another layout, in which case the smaller operand is converted. A
//    loop-carried value takes the layout its loop body produces. A store
//    keeps its value's layout unless its own allows wider accesses.
// 4. Materialization. Types get their layouts. Where an operand's layout
//    differs from the one its op needs, a tile.convert_layout is inserted
//    right after the operand's definition (so a conversion of a value
//    defined outside a loop happens once, outside it). Index functions
//    (aranges, splats, constants and arithmetic on them) take any layout for
//    free: they are cloned into each layout their uses need. So are
//    elementwise ops over broadcasts of much smaller blocks (a mask built
//    from carried row and column indices): recomputed in the layout wanted,
//    with only the small blocks converted. They follow the other operands
//    of the ops that use them in step 3.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AccessWidth.h"
#include "tile/Dialect/Tile/Transforms/LayoutUtils.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

bool isBlock(Value value) { return value && isa<BlockType>(value.getType()); }

/// `type` in `layout`. The pass reasons about a #tile.linear layout as the
/// distribution of the largest block it reaches (an expand_dims result takes
/// its broadcast's); each type gets it fitted to its own shape.
BlockType withLayout(BlockType type, Attribute layout) {
  return type.withEncoding(fitLayoutToShape(layout, type.getShape()));
}

/// Shape ops: their result's elements are their operand's, rearranged.
bool isShapeOp(Operation *op) {
  return isa<ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp, ConvertLayoutOp>(
      op);
}

/// Ops whose block results take the layout of their block operands.
bool isElementwiseLike(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() || isa<AddPtrOp>(op);
}

/// The mask of an atomic (null for tile.atomic_cas, which has none).
Value atomicMask(Operation *op) {
  if (auto rmw = dyn_cast<AtomicRMWOp>(op))
    return rmw.getMask();
  return {};
}

/// How costly a value is to move: conversions go to the cheaper side.
constexpr int kCarriedPriority = 10;

class LayoutAssigner {
public:
  LayoutAssigner(func::FuncOp func, unsigned numWarps, StringRef chip)
      : func(func), numWarps(numWarps), chip(chip), context(func.getContext()) {
  }

  void run();

private:
  // Which values take any layout for free.
  bool isFree(Value value);
  // Which values are cheaper to compute again in another layout than to
  // convert: free ones, and elementwise ops over broadcasts of much smaller
  // blocks (a causal mask `rows[:, None] >= cols[None, :]` of carried
  // indices), whose small operands are what moves.
  bool isRecomputable(Value value);

  /// A load's coalesced layout, or, for a load whose block only becomes a
  /// wgmma operand read K-major only (8-bit floats, tf32) and whose
  /// addresses run along M or N, the layout with 16-byte runs along K
  /// (getKRunLayout), which the lowering stores K-major whole.
  Attribute getLoadLayout(LoadOp load);

  // Step 2.
  /// The tensor-core accumulator layout `value` will have: a dot's on
  /// tensor cores, or an elementwise op's over one. Null for others.
  Attribute getAccumulatorLayout(Value value);
  void setDemand(Value value, Attribute layout);
  SmallVector<Attribute> demandsOf(ArrayRef<ValueRange> ranges);
  void demandBlock(Block &block);
  void demandOp(Operation *op);

  // Step 3.
  Attribute layoutOf(Value value) { return layouts.lookup(value); }
  void assign(Value value, Attribute layout, int priority);
  void want(OpOperand &operand, Attribute layout) {
    if (isBlock(operand.get()) && layout)
      wanted[&operand] = layout;
  }
  Attribute orDefault(Attribute layout, Value value);
  int64_t widthIn(Value ptr, Value mask, Attribute layout);
  void assignBlock(Block &block);
  void assignOp(Operation *op);
  void assignFor(scf::ForOp op);
  void assignIf(scf::IfOp op);
  void assignWhile(scf::WhileOp op);

  // Step 4.
  void materialize();
  /// `value` (recomputable) computed again in `layout`: free values from
  /// scratch, others from their operands (the small operand of a broadcast
  /// converted).
  Value recompute(Value value, Attribute layout);
  Value convertTo(Value value, Attribute layout);

  func::FuncOp func;
  unsigned numWarps;
  StringRef chip;
  MLIRContext *context;
  std::optional<AxisInfoAnalysis> axisInfo;
  llvm::DenseMap<Value, bool> freeCache;
  llvm::DenseMap<Value, bool> recomputableCache;
  llvm::DenseMap<Value, Attribute> demands;
  llvm::DenseMap<Value, Attribute> accumulatorLayouts;
  llvm::DenseMap<Value, Attribute> layouts;
  llvm::DenseMap<Value, int> priorities;
  llvm::DenseMap<OpOperand *, Attribute> wanted;
  std::map<std::pair<const void *, const void *>, Value> freeClones;
  std::map<std::pair<const void *, const void *>, Value> conversions;
};

bool LayoutAssigner::isFree(Value value) {
  if (!isBlock(value))
    return false;
  auto it = freeCache.find(value);
  if (it != freeCache.end())
    return it->second;
  Operation *op = value.getDefiningOp();
  bool result = false;
  if (op && isa<ArangeOp, SplatOp, ConstantOp>(op))
    result = true;
  else if (op && (isElementwiseLike(op) || isShapeOp(op)))
    result = llvm::all_of(op->getOperands(), [&](Value operand) {
      return !isBlock(operand) || isFree(operand);
    });
  return freeCache[value] = result;
}

/// A broadcast to at least this many times its operand's elements moves its
/// operand rather than itself.
constexpr int64_t kBroadcastGrowth = 4;

bool LayoutAssigner::isRecomputable(Value value) {
  if (isFree(value))
    return true;
  if (!isBlock(value))
    return false;
  auto it = recomputableCache.find(value);
  if (it != recomputableCache.end())
    return it->second;
  Operation *op = value.getDefiningOp();
  bool result = false;
  if (op && isa<BroadcastOp>(op)) {
    auto src = cast<BlockType>(op->getOperand(0).getType());
    auto dst = cast<BlockType>(value.getType());
    result = src.getNumElements() * kBroadcastGrowth <= dst.getNumElements() ||
             isRecomputable(op->getOperand(0));
  } else if (op && (isElementwiseLike(op) || isShapeOp(op))) {
    result = llvm::all_of(op->getOperands(), [&](Value operand) {
      return !isBlock(operand) || isRecomputable(operand);
    });
  }
  return recomputableCache[value] = result;
}

//===----------------------------------------------------------------------===//
// Demands
//===----------------------------------------------------------------------===//

Attribute LayoutAssigner::getAccumulatorLayout(Value value) {
  if (!isBlock(value))
    return {};
  auto it = accumulatorLayouts.find(value);
  if (it != accumulatorLayouts.end())
    return it->second;
  accumulatorLayouts[value] = Attribute(); // no cycles through loops
  Attribute layout;
  Operation *op = value.getDefiningOp();
  if (auto dot = dyn_cast_or_null<DotOp>(op))
    layout = getMmaLayout(dot, numWarps, chip);
  else if (op && isElementwiseLike(op) && !isa<AddPtrOp>(op))
    for (Value operand : op->getOperands())
      if ((layout = getAccumulatorLayout(operand)))
        break;
  return accumulatorLayouts[value] = layout;
}

/// Whether `value` is, through shape and elementwise ops, made from a block
/// carried through a loop.
static bool isCarried(Value value, int depth = 0) {
  if (!isBlock(value) || depth > 8)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(value))
    return isa<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
  Operation *op = value.getDefiningOp();
  if (!isShapeOp(op) && !isElementwiseLike(op))
    return false;
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return isCarried(operand, depth + 1);
  });
}

void LayoutAssigner::setDemand(Value value, Attribute layout) {
  if (isBlock(value) && layout)
    demands.try_emplace(value, layout);
}

/// The demands on the values of `ranges`, in order (null for none).
SmallVector<Attribute> LayoutAssigner::demandsOf(ArrayRef<ValueRange> ranges) {
  SmallVector<Attribute> result;
  for (ValueRange range : ranges)
    for (Value value : range)
      result.push_back(demands.lookup(value));
  return result;
}

void LayoutAssigner::demandBlock(Block &block) {
  for (Operation &op : llvm::reverse(block))
    demandOp(&op);
}

void LayoutAssigner::demandOp(Operation *op) {
  if (auto store = dyn_cast<StoreOp>(op)) {
    // A TMA store stages its value in shared memory from whatever layout it
    // has: it asks for none.
    if (isBlock(store.getPtr()) && !writesWithTensorMap(store, chip))
      setDemand(store.getValue(),
                getCoalescedLayout(*axisInfo, store.getPtr(), store.getMask(),
                                   numWarps));
    return;
  }
  if (isa<AtomicRMWOp, AtomicCASOp>(op)) {
    // Like a store: the operands come in the pointers' coalesced layout.
    Value ptr = op->getOperand(0);
    if (isBlock(ptr)) {
      Attribute layout =
          getCoalescedLayout(*axisInfo, ptr, atomicMask(op), numWarps);
      for (Value operand : op->getOperands().drop_front())
        setDemand(operand, layout);
    }
    return;
  }
  if (auto load = dyn_cast<LoadOp>(op)) {
    // Pointers carried through a loop follow the load.
    if (isBlock(load.getPtr()) && !isFree(load.getPtr()))
      setDemand(load.getPtr(), getLoadLayout(load));
    return;
  }
  if (isElementwiseLike(op) || isa<ScanOp>(op)) {
    Attribute demand =
        op->getNumResults() ? demands.lookup(op->getResult(0)) : Attribute();
    if (demand || !isElementwiseLike(op)) {
      for (Value operand : op->getOperands())
        setDemand(operand, demand);
      return;
    }
    // Else the accumulator layout of a dot it combines with (attention's
    // `qk - m[:, None]`), so that what is combined with the product (a
    // loaded vector, a causal mask) is loaded or computed in that layout
    // rather than converted to it in every iteration. Not of blocks carried
    // through a loop (a load the pipeliner moved to earlier iterations):
    // carried in the accumulator's slice, every thread would hold copies of
    // the elements for each stage in flight.
    for (Value operand : op->getOperands())
      if ((demand = getAccumulatorLayout(operand)))
        break;
    if (!demand)
      return;
    for (Value operand : op->getOperands())
      if (!isCarried(operand))
        setDemand(operand, demand);
    return;
  }
  if (isShapeOp(op) && !isa<ConvertLayoutOp>(op)) {
    if (Attribute demand = demands.lookup(op->getResult(0)))
      setDemand(op->getOperand(0), getOperandLayoutFor(op, demand));
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    Block *body = forOp.getBody();
    Operation *yield = body->getTerminator();
    // Twice if the body demands something new of a carried value, so that
    // it reaches the yield; only then, or nested loops would take 2^depth
    // walks (250 nested loops did not finish).
    ValueRange carried[] = {forOp.getRegionIterArgs(), yield->getOperands()};
    for (int pass = 0; pass < 2; ++pass) {
      for (auto [result, arg, yielded] :
           llvm::zip(forOp.getResults(), forOp.getRegionIterArgs(),
                     yield->getOperands())) {
        setDemand(arg, demands.lookup(result));
        setDemand(yielded, demands.lookup(result));
        setDemand(yielded, demands.lookup(arg));
      }
      SmallVector<Attribute> before = demandsOf(carried);
      demandBlock(*body);
      if (demandsOf(carried) == before)
        break;
    }
    for (auto [init, arg] :
         llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs()))
      setDemand(init, demands.lookup(arg));
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      if (region->empty())
        continue;
      for (auto [result, yielded] :
           llvm::zip(ifOp.getResults(),
                     region->front().getTerminator()->getOperands()))
        setDemand(yielded, demands.lookup(result));
      demandBlock(region->front());
    }
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    // As for scf.for: a second walk only for new demands on carried values.
    ValueRange carried[] = {
        whileOp.getBeforeArguments(), whileOp.getAfterArguments(),
        whileOp.getConditionOp().getArgs(), whileOp.getYieldOp().getOperands()};
    for (int pass = 0; pass < 2; ++pass) {
      for (auto [result, afterArg, forwarded] :
           llvm::zip(whileOp.getResults(), whileOp.getAfterArguments(),
                     whileOp.getConditionOp().getArgs())) {
        setDemand(afterArg, demands.lookup(result));
        setDemand(forwarded, demands.lookup(afterArg));
      }
      SmallVector<Attribute> before = demandsOf(carried);
      demandBlock(*whileOp.getAfterBody());
      for (auto [beforeArg, yielded] :
           llvm::zip(whileOp.getBeforeArguments(),
                     whileOp.getYieldOp().getOperands()))
        setDemand(yielded, demands.lookup(beforeArg));
      demandBlock(*whileOp.getBeforeBody());
      if (demandsOf(carried) == before)
        break;
    }
    for (auto [init, beforeArg] :
         llvm::zip(whileOp.getInits(), whileOp.getBeforeArguments()))
      setDemand(init, demands.lookup(beforeArg));
  }
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

void LayoutAssigner::assign(Value value, Attribute layout, int priority) {
  layouts[value] = layout;
  priorities[value] = priority;
}

/// The dot and the operand number (0: A, 1: B) that `value` alone reaches,
/// through the loop-carried values of pipelined loops.
static std::optional<std::pair<DotOp, unsigned>> findDotOperand(Value value) {
  for (int hops = 0; hops < 16 && value.hasOneUse(); ++hops) {
    OpOperand &use = *value.getUses().begin();
    Operation *user = use.getOwner();
    if (auto dot = dyn_cast<DotOp>(user)) {
      if (use.getOperandNumber() > 1)
        return std::nullopt;
      return std::make_pair(dot, use.getOperandNumber());
    }
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      auto loop = dyn_cast<scf::ForOp>(yield->getParentOp());
      if (!loop)
        return std::nullopt;
      value = loop.getRegionIterArgs()[use.getOperandNumber()];
    } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
      unsigned first = loop.getNumControlOperands();
      if (use.getOperandNumber() < first)
        return std::nullopt;
      value = loop.getRegionIterArgs()[use.getOperandNumber() - first];
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

Attribute LayoutAssigner::getLoadLayout(LoadOp load) {
  BlockedLayoutAttr coalesced =
      getCoalescedLayout(*axisInfo, load.getPtr(), load.getMask(), numWarps);
  auto type = cast<BlockType>(load.getType());
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (type.getRank() != 2 || bits == 16)
    return coalesced;
  auto use = findDotOperand(load.getResult());
  if (!use || !getMmaLayout(use->first, numWarps, chip))
    return coalesced;
  unsigned kDim = use->second == 0 ? 1 : 0;
  LinearLayout::Run run =
      coalesced.toLinearLayout(type.getShape()).getContiguousRun();
  if (run.dim == kDim || run.length == 1)
    return coalesced;
  return getKRunLayout(context, type.getShape(), kDim, bits / 8, numWarps);
}

Attribute LayoutAssigner::orDefault(Attribute layout, Value value) {
  if (layout)
    return layout;
  if (Attribute demand = demands.lookup(value))
    return demand;
  return getDefaultLayout(context, cast<BlockType>(value.getType()).getShape(),
                          numWarps);
}

int64_t LayoutAssigner::widthIn(Value ptr, Value mask, Attribute layout) {
  auto type = cast<BlockType>(ptr.getType());
  return getAccessWidth(
      *axisInfo, ptr, mask,
      cast<DistributedLayoutAttrInterface>(layout).toLinearLayout(
          type.getShape()));
}

void LayoutAssigner::assignBlock(Block &block) {
  for (Operation &op : block)
    assignOp(&op);
}

/// Whether `layout`, fitted to `shape`, places every element of a block of
/// `shape` (a #tile.linear layout built for an extent-1 dimension does not
/// reach the rest of a broadcast result).
static bool reachesEveryElement(Attribute layout, ArrayRef<int64_t> shape) {
  return cast<DistributedLayoutAttrInterface>(fitLayoutToShape(layout, shape))
      .toLinearLayout(shape)
      .isSurjective();
}

/// The register-fragment layout for the A operand of `dot` (with wgmma
/// accumulator layout `layout`) when A is 16-bit and defined outside the
/// loop around the dot (attention's q): converted to it once, before the
/// loop, A is read from registers by every iteration's wgmma instead of
/// being staged through shared memory each time. Null otherwise.
static Attribute getLoopInvariantFragmentLayout(DotOp dot, Attribute layout) {
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(layout);
  auto loop = dot->getParentOfType<scf::ForOp>();
  auto aType = cast<BlockType>(dot.getA().getType());
  if (!mma || mma.getVersion() != 3 || mma.getWarpsPerCTA()[1] != 1 || !loop ||
      !loop.isDefinedOutsideOfLoop(dot.getA()) ||
      aType.getElementType().getIntOrFloatBitWidth() != 16)
    return {};
  int64_t k = aType.getShape()[1];
  if (k % 16 != 0 || !llvm::isPowerOf2_64(k))
    return {};
  unsigned instrN = std::min<int64_t>(mma.getInstrN(), k);
  return MmaLayoutAttr::get(dot.getContext(), 3, mma.getWarpsPerCTA(),
                            {mma.getInstrM(), instrN, mma.getInstrK()});
}

/// Whether every basis of `layout` on `shape` lies along one dimension, as
/// reductions and scans need.
static bool separatesDimensions(Attribute layout, ArrayRef<int64_t> shape) {
  LinearLayout linear =
      cast<DistributedLayoutAttrInterface>(layout).toLinearLayout(shape);
  for (HWDim dim : {HWDim::Register, HWDim::Lane, HWDim::Warp})
    for (const LinearLayout::Coord &basis : linear.getBases(dim))
      if (llvm::count_if(basis, [](int64_t c) { return c != 0; }) > 1)
        return false;
  return true;
}

void LayoutAssigner::assignOp(Operation *op) {
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return assignFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return assignIf(ifOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return assignWhile(whileOp);

  if (auto load = dyn_cast<LoadOp>(op)) {
    Value result = load.getResult();
    if (!isBlock(result))
      return;
    Attribute layout = layoutOf(load.getPtr());
    if (!layout) {
      layout = getLoadLayout(load);
      if (Attribute demand = demands.lookup(result))
        if (widthIn(load.getPtr(), load.getMask(), demand) >=
            widthIn(load.getPtr(), load.getMask(), layout))
          layout = demand;
    }
    int width = widthIn(load.getPtr(), load.getMask(), layout);
    assign(result, layout, 1 + llvm::Log2_64(width));
    for (OpOperand &operand : op->getOpOperands())
      want(operand, layout);
    return;
  }
  if (isa<AtomicRMWOp, AtomicCASOp>(op)) {
    // The pointers' layout (one atomic per element: no vector width to
    // gain), for the operands and the old values alike.
    Value ptr = op->getOperand(0), result = op->getResult(0);
    if (!isBlock(result))
      return;
    Attribute layout = layoutOf(ptr);
    if (!layout)
      layout = getCoalescedLayout(*axisInfo, ptr, atomicMask(op), numWarps);
    assign(result, layout, 1);
    for (OpOperand &operand : op->getOpOperands())
      want(operand, layout);
    return;
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    if (!isBlock(store.getValue()))
      return;
    if (writesWithTensorMap(store, chip)) {
      if (Attribute own = layoutOf(store.getValue()))
        for (OpOperand &operand : op->getOpOperands())
          want(operand, own);
      return;
    }
    Attribute layout = getCoalescedLayout(*axisInfo, store.getPtr(),
                                          store.getMask(), numWarps);
    if (Attribute own = layoutOf(store.getValue()))
      if (widthIn(store.getPtr(), store.getMask(), own) >=
          widthIn(store.getPtr(), store.getMask(), layout))
        layout = own;
    if (Attribute ptrLayout = layoutOf(store.getPtr()))
      layout = ptrLayout;
    for (OpOperand &operand : op->getOpOperands())
      want(operand, layout);
    return;
  }
  // Reductions and scans: every operand in one layout that separates the
  // dimensions (the first operand's if it does), which the results follow
  // (sliced along the axis for a reduction).
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    Value src = reduce.getSrc();
    auto srcShape = cast<BlockType>(src.getType()).getShape();
    Attribute srcLayout = layoutOf(src);
    if (!srcLayout || !separatesDimensions(srcLayout, srcShape))
      srcLayout = getDefaultLayout(context, srcShape, numWarps);
    for (OpOperand &operand : reduce.getSrcsMutable())
      want(operand, srcLayout);
    for (Value result : reduce.getResults())
      if (isBlock(result))
        assign(result,
               SliceLayoutAttr::get(
                   context, reduce.getAxis(),
                   cast<DistributedLayoutAttrInterface>(srcLayout)),
               kCarriedPriority);
    return;
  }
  // User asm and mapped scalar functions: operands and results in one
  // layout, the first block operand's (each instance runs on registers of
  // one thread).
  if (isa<InlineAsmOp, MapElementwiseOp>(op)) {
    auto inlineAsm = dyn_cast<InlineAsmOp>(op);
    auto map = dyn_cast<MapElementwiseOp>(op);
    MutableOperandRange args =
        inlineAsm ? inlineAsm.getArgsMutable() : map.getArgsMutable();
    unsigned pack = inlineAsm ? inlineAsm.getPack() : map.getPack();
    if (!isBlock(op->getResult(0)))
      return;
    Attribute layout;
    for (OpOperand &arg : args)
      if ((layout = layoutOf(arg.get())))
        break;
    layout = orDefault(layout, op->getResult(0));
    // Each instance takes `pack` registers: a thread must hold a multiple of
    // them, else `pack` consecutive elements per thread along the last
    // dimension.
    auto shape = cast<BlockType>(op->getResult(0).getType()).getShape();
    if (cast<DistributedLayoutAttrInterface>(layout)
                .toLinearLayout(shape)
                .getNumRegisters() %
            pack !=
        0) {
      SmallVector<unsigned> sizePerThread(shape.size(), 1), order;
      sizePerThread.back() = pack;
      for (unsigned d = shape.size(); d-- > 0;)
        order.push_back(d);
      layout =
          buildBlockedLayout(context, shape, sizePerThread, order, numWarps);
    }
    for (OpOperand &operand : args)
      want(operand, layout);
    for (Value result : op->getResults())
      assign(result, layout, 0);
    return;
  }
  if (auto scan = dyn_cast<ScanOp>(op)) {
    Value src = scan.getSrc();
    auto srcShape = cast<BlockType>(src.getType()).getShape();
    Attribute srcLayout = layoutOf(src);
    if (!srcLayout)
      srcLayout = orDefault(demands.lookup(scan.getResult()), src);
    if (!separatesDimensions(srcLayout, srcShape))
      srcLayout = getDefaultLayout(context, srcShape, numWarps);
    for (OpOperand &operand : scan.getSrcsMutable())
      want(operand, srcLayout);
    for (Value result : scan.getResults())
      assign(result, srcLayout, kCarriedPriority);
    return;
  }
  if (op->getNumResults() != 1 || !isBlock(op->getResult(0)) ||
      isFree(op->getResult(0)))
    return;
  Value result = op->getResult(0);

  if (isElementwiseLike(op)) {
    Attribute demand = demands.lookup(result);
    Attribute chosen;
    int best = -1;
    for (Value operand : op->getOperands()) {
      Attribute layout = layoutOf(operand);
      if (!layout)
        continue;
      // A recomputable operand follows the others at no cost.
      int priority = isRecomputable(operand) ? 0 : priorities.lookup(operand);
      if (layout == demand)
        priority += 2 * kCarriedPriority;
      if (priority > best) {
        best = priority;
        chosen = layout;
      }
    }
    chosen = orDefault(chosen, result);
    int priority = 0;
    for (Value operand : op->getOperands())
      if (layoutOf(operand) == chosen)
        priority = std::max(priority, priorities.lookup(operand));
    assign(result, chosen, priority);
    for (OpOperand &operand : op->getOpOperands())
      want(operand, chosen);
    return;
  }
  if (isShapeOp(op)) {
    Value src = op->getOperand(0);
    auto srcType = cast<BlockType>(src.getType());
    auto dstType = cast<BlockType>(result.getType());
    Attribute srcLayout = layoutOf(src);
    Attribute natural;
    if (srcLayout) {
      if (auto expand = dyn_cast<ExpandDimsOp>(op))
        natural =
            getExpandedLayout(srcLayout, srcType.getShape(), expand.getAxis());
      else if (isa<BroadcastOp>(op))
        natural = reachesEveryElement(srcLayout, dstType.getShape())
                      ? srcLayout
                      : Attribute();
      else if (auto trans = dyn_cast<TransOp>(op))
        natural = getPermutedLayout(srcLayout, srcType.getShape(),
                                    trans.getPermutation());
      else if (isa<ReshapeOp>(op))
        natural = getReshapedLayout(srcLayout, srcType.getShape(),
                                    dstType.getShape());
    }
    Attribute demand = demands.lookup(result);
    Attribute layout = natural;
    Attribute srcWanted = srcLayout;
    // Moving the smaller operand of expand_dims and broadcast is cheaper
    // than moving their result.
    if (demand && demand != natural && isa<ExpandDimsOp, BroadcastOp>(op))
      if (Attribute preimage = getOperandLayoutFor(op, demand)) {
        layout = demand;
        srcWanted = preimage;
      }
    if (!layout) {
      layout = orDefault(Attribute(), result);
      if (!srcWanted)
        srcWanted = getOperandLayoutFor(op, layout);
    }
    assign(result, layout, priorities.lookup(src));
    want(op->getOpOperand(0),
         srcWanted ? srcWanted : orDefault(Attribute(), src));
    return;
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    // Tensor cores: the instructions' accumulator layout, which the carried
    // accumulator takes too; the operands stay as loaded (the lowering
    // stages them in shared memory).
    Attribute layout = getMmaLayout(dot, numWarps, chip);
    if (!layout)
      layout = orDefault(layoutOf(dot.getAcc()), result);
    want(dot.getAccMutable(), layout);
    for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()})
      want(*operand, orDefault(layoutOf(operand->get()), operand->get()));
    if (Attribute fragment = getLoopInvariantFragmentLayout(dot, layout))
      want(dot.getAMutable(), fragment);
    assign(result, layout, kCarriedPriority);
    return;
  }
  // A gather's result and index share a layout (each result register reads
  // the element its index register picks); a histogram's mask is in its
  // operand's layout.
  if (auto gather = dyn_cast<GatherOp>(op)) {
    Attribute layout = orDefault(layoutOf(gather.getIndex()), result);
    want(gather.getIndexMutable(), layout);
    assign(result, layout, priorities.lookup(gather.getIndex()));
    return;
  }
  if (auto histogram = dyn_cast<HistogramOp>(op)) {
    if (Value mask = histogram.getMask())
      want(histogram.getMaskMutable()[0],
           orDefault(layoutOf(histogram.getSrc()), histogram.getSrc()));
    assign(result, orDefault(Attribute(), result), 0);
    return;
  }
  // Any other op with a block result: the default layout, operands as they
  // are.
  assign(result, orDefault(Attribute(), result), 0);
}

void LayoutAssigner::assignFor(scf::ForOp op) {
  Block *body = op.getBody();
  Operation *yield = body->getTerminator();
  SmallVector<Attribute> carried(op.getNumRegionIterArgs());
  // First the body with its carried values unknown, then with the layouts
  // the body produced for them, until they stop changing. A loop that
  // carries no block needs one walk (two per level would take 2^depth walks
  // of nested loops).
  bool carriesBlocks = llvm::any_of(op.getRegionIterArgs(), isBlock);
  for (int pass = 0; pass < 3; ++pass) {
    for (auto [arg, layout] : llvm::zip(op.getRegionIterArgs(), carried))
      if (layout)
        assign(arg, layout, kCarriedPriority);
    assignBlock(*body);
    bool changed = false;
    for (auto [i, init, arg, yielded] : llvm::enumerate(
             op.getInitArgs(), op.getRegionIterArgs(), yield->getOperands())) {
      if (!isBlock(arg))
        continue;
      Attribute layout = layoutOf(yielded);
      if (!layout)
        layout = layoutOf(init);
      layout = orDefault(layout, arg);
      changed = changed || layout != carried[i];
      carried[i] = layout;
    }
    if (!changed && (pass > 0 || !carriesBlocks))
      break;
  }
  for (auto [i, arg, result] :
       llvm::enumerate(op.getRegionIterArgs(), op.getResults())) {
    if (!isBlock(arg))
      continue;
    assign(arg, carried[i], kCarriedPriority);
    assign(result, carried[i], kCarriedPriority);
    want(op.getInitArgsMutable()[i], carried[i]);
    want(yield->getOpOperand(i), carried[i]);
  }
}

void LayoutAssigner::assignIf(scf::IfOp op) {
  SmallVector<Operation *> yields;
  for (Region *region : {&op.getThenRegion(), &op.getElseRegion()}) {
    if (region->empty())
      continue;
    assignBlock(region->front());
    yields.push_back(region->front().getTerminator());
  }
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    if (!isBlock(result))
      continue;
    Attribute layout;
    for (Operation *yield : yields)
      if (!layout)
        layout = layoutOf(yield->getOperand(i));
    layout = orDefault(layout, result);
    assign(result, layout, kCarriedPriority);
    for (Operation *yield : yields)
      want(yield->getOpOperand(i), layout);
  }
}

void LayoutAssigner::assignWhile(scf::WhileOp op) {
  scf::ConditionOp condition = op.getConditionOp();
  scf::YieldOp yield = op.getYieldOp();
  SmallVector<Attribute> before(op.getBeforeArguments().size());
  SmallVector<Attribute> after(op.getAfterArguments().size());
  // As for scf.for: one walk when no block is carried around.
  bool carriesBlocks = llvm::any_of(op.getBeforeArguments(), isBlock);
  for (int pass = 0; pass < 3; ++pass) {
    for (auto [arg, layout] : llvm::zip(op.getBeforeArguments(), before))
      if (layout)
        assign(arg, layout, kCarriedPriority);
    assignBlock(*op.getBeforeBody());
    for (auto [i, arg, forwarded] :
         llvm::enumerate(op.getAfterArguments(), condition.getArgs()))
      if (isBlock(arg)) {
        after[i] = orDefault(layoutOf(forwarded), arg);
        assign(arg, after[i], kCarriedPriority);
      }
    assignBlock(*op.getAfterBody());
    bool changed = false;
    for (auto [i, init, arg, yielded] : llvm::enumerate(
             op.getInits(), op.getBeforeArguments(), yield.getOperands())) {
      if (!isBlock(arg))
        continue;
      Attribute layout = layoutOf(yielded);
      if (!layout)
        layout = layoutOf(init);
      layout = orDefault(layout, arg);
      changed = changed || layout != before[i];
      before[i] = layout;
    }
    if (!changed && (pass > 0 || !carriesBlocks))
      break;
  }
  for (auto [i, arg] : llvm::enumerate(op.getBeforeArguments())) {
    if (!isBlock(arg))
      continue;
    assign(arg, before[i], kCarriedPriority);
    want(op.getInitsMutable()[i], before[i]);
    want(yield->getOpOperand(i), before[i]);
  }
  for (auto [i, arg, result] :
       llvm::enumerate(op.getAfterArguments(), op.getResults())) {
    if (!isBlock(arg))
      continue;
    assign(arg, after[i], kCarriedPriority);
    assign(result, after[i], kCarriedPriority);
    want(condition.getArgsMutable()[i], after[i]);
  }
}

//===----------------------------------------------------------------------===//
// Materialization
//===----------------------------------------------------------------------===//

Value LayoutAssigner::recompute(Value value, Attribute layout) {
  auto key =
      std::make_pair(value.getAsOpaquePointer(), layout.getAsOpaquePointer());
  if (Value done = freeClones[key])
    return done;
  Operation *op = value.getDefiningOp();
  auto type = cast<BlockType>(value.getType());
  // The operands' layouts that make the clone move nothing.
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    if (!isBlock(operand)) {
      operands.push_back(operand);
      continue;
    }
    Attribute operandLayout = layout;
    if (isShapeOp(op) && !isa<ConvertLayoutOp>(op)) {
      operandLayout = getOperandLayoutFor(op, layout);
      if (!operandLayout)
        operandLayout = getDefaultLayout(
            context, cast<BlockType>(operand.getType()).getShape(), numWarps);
    }
    auto operandType = cast<BlockType>(operand.getType());
    if (isRecomputable(operand))
      operands.push_back(recompute(operand, operandLayout));
    else if (operandType.getEncoding() ==
             withLayout(operandType, operandLayout).getEncoding())
      operands.push_back(operand);
    else
      operands.push_back(convertTo(operand, operandLayout));
  }
  OpBuilder builder(op->getContext());
  builder.setInsertionPointAfter(op);
  Operation *clone = builder.clone(*op);
  clone->setOperands(operands);
  clone->getResult(0).setType(withLayout(type, layout));
  return freeClones[key] = clone->getResult(0);
}

Value LayoutAssigner::convertTo(Value value, Attribute layout) {
  auto key =
      std::make_pair(value.getAsOpaquePointer(), layout.getAsOpaquePointer());
  if (Value done = conversions[key])
    return done;
  OpBuilder builder(value.getContext());
  if (auto arg = dyn_cast<BlockArgument>(value))
    builder.setInsertionPointToStart(arg.getOwner());
  else
    builder.setInsertionPointAfter(value.getDefiningOp());
  auto type = cast<BlockType>(value.getType());
  return conversions[key] = ConvertLayoutOp::create(
             builder, value.getLoc(), withLayout(type, layout), value);
}

void LayoutAssigner::materialize() {
  // Types of data values first, so that conversions see their layouts.
  for (auto [value, layout] : layouts)
    value.setType(withLayout(cast<BlockType>(value.getType()), layout));
  SmallVector<std::pair<OpOperand *, Attribute>> uses(wanted.begin(),
                                                      wanted.end());
  for (auto [operand, layout] : uses) {
    Value value = operand->get();
    if (isFree(value)) {
      operand->set(recompute(value, layout));
      continue;
    }
    auto type = cast<BlockType>(value.getType());
    if (type.getEncoding() == withLayout(type, layout).getEncoding())
      continue;
    operand->set(isRecomputable(value) ? recompute(value, layout)
                                       : convertTo(value, layout));
  }
  // Anything still without a layout (an index function feeding an op the
  // pass does not know): the default one. Index functions themselves are
  // cloned as their uses need.
  func.walk([&](Operation *op) {
    if (op->getNumResults() == 1 && isFree(op->getResult(0)))
      return;
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (isFree(value) && !cast<BlockType>(value.getType()).getEncoding())
        operand.set(recompute(
            value, getDefaultLayout(context,
                                    cast<BlockType>(value.getType()).getShape(),
                                    numWarps)));
    }
  });
  // The originals of the cloned index functions are dead now, as are those
  // of recomputed values (and clones) that no use kept.
  SmallVector<Operation *> dead;
  func.walk([&](Operation *op) {
    if (op->getNumResults() == 1 && isMemoryEffectFree(op) &&
        isRecomputable(op->getResult(0)))
      dead.push_back(op);
  });
  for (Operation *op : llvm::reverse(dead))
    if (op->use_empty())
      op->erase();
}

void LayoutAssigner::run() {
  // Start from no layouts: a second run gives the same result.
  func.walk([&](ConvertLayoutOp op) {
    op.getResult().replaceAllUsesWith(op.getSrc());
    op.erase();
  });
  auto strip = [](Value value) {
    if (auto type = dyn_cast<BlockType>(value.getType()))
      value.setType(type.withEncoding({}));
  };
  func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      strip(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          strip(arg);
  });
  axisInfo.emplace(func);
  demandBlock(func.getBody().front());
  assignBlock(func.getBody().front());
  materialize();
}

struct TileAssignLayoutsPass
    : public tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using TileAssignLayoutsBase::TileAssignLayoutsBase;

  void runOnOperation() override {
    if (numWarps == 0 || numWarps > 32 || !llvm::isPowerOf2_32(numWarps)) {
      getOperation().emitError()
          << "num-warps must be a power of two from 1 to 32, not "
          << numWarps.getValue();
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      LayoutAssigner(func, numWarps, chip).run();
      func->setAttr(
          kNumWarpsAttrName,
          IntegerAttr::get(IntegerType::get(&getContext(), 32), numWarps));
    }
  }
};

} // namespace
