//===- AsyncDotOperands.cpp - tensor-core operands through rings ----------===//
//
// After software pipelining (tile-pipeline-loops) a tensor-core dot's
// operands are loads of earlier iterations carried through the loop in
// registers, which the dot then stores to shared memory for the tensor
// cores (wgmma reads them there, mma.sync with ldmatrix). Here they go
// to shared memory directly: each load becomes a `tile.async_copy` into a
// slot of a ring, the carried blocks become carried slot indices, and the
// dot a `tile.ring_dot` of two slots (see the pass description), or, on
// wgmma, of A in registers and a slot of B where A is already in wgmma's
// register form (attention's q and p). Row statistics carried beside them
// (attention backward's m and Di) go through rank-1 rings, read back with
// `tile.ring_load` after the first dot's wait.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AccessWidth.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEASYNCDOTOPERANDS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// How a dot operand reaches the dot through a pipelined loop: the load in
/// the body that produces it for a later iteration, the iter_args it passes
/// through (the one the dot reads first) with the loads before the loop
/// that give them their initial values, and the layout conversions and
/// transposes between the first iter_arg and the dot (from the dot's side;
/// the last one, or else the dot, uses the iter_arg). Several dots may read
/// one iter_arg (attention's backward reads do as B and do^T as B): their
/// chains then share one ring.
struct OperandChain {
  LoadOp producer;
  SmallVector<unsigned> args;
  SmallVector<LoadOp> prologue;
  SmallVector<Operation *> views;
  /// Whether the dot reads the transpose of the loaded block.
  bool transposed = false;
  /// Whether the chain's copies would go one element at a time through
  /// registers (runs shorter than cp.async's 4 bytes) where a wgmma dot
  /// reads the ring after the producer: then the producer's block is loaded
  /// an iteration before it is stored (tile.ring_store), so that the reads'
  /// latency hides behind the next iteration's dot rather than stalling the
  /// stores of their own.
  bool storedAnIterationLater = false;
};

/// Whether copies of `load` into a ring would be stored from registers, as
/// the lowering decides from the runs the addresses allow in the layout's
/// registers.
bool copiedThroughRegisters(AxisInfoAnalysis &axisInfo, LoadOp load) {
  auto type = cast<BlockType>(load.getType());
  auto layout =
      dyn_cast_or_null<DistributedLayoutAttrInterface>(type.getEncoding());
  if (load.getTensorMap() || !layout)
    return false;
  return copiesThroughRegisters(
      getAccessWidth(axisInfo, load.getPtr(), load.getMask(),
                     layout.toLinearLayout(type.getShape())),
      type.getElementType().getIntOrFloatBitWidth() / 8);
}

/// Whether a copy group is committed between `from` and `to`, ops of one
/// block, `from` first.
bool committedBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (op->walk([](AsyncCommitGroupOp) {
            return WalkResult::interrupt();
          }).wasInterrupted())
      return true;
  return false;
}

bool isZero(Value value) {
  if (auto splat = value.getDefiningOp<SplatOp>())
    value = splat.getSrc();
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isPosZero();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  return false;
}

/// Whether a ring of `load`'s blocks can hold operand `operand` (0: A, 1: B)
/// of a wgmma dot: f16/bf16 ones either way (the ring stores them along the
/// dimension the load's registers run), 8-bit ones and f32 (tf32) only
/// where that dimension is K, since wgmma reads them K-major only, and
/// 8-bit ones only where the addresses let cp.async copy 4 bytes or more
/// along K (byte copies would be synchronous: the dot's own staging stores
/// whole 16-byte runs instead).
bool fitsRing(AxisInfoAnalysis &axisInfo, LoadOp load, unsigned operand) {
  Type element = cast<BlockType>(load.getType()).getElementType();
  if (element.isF16() || element.isBF16())
    return true;
  if (!isFloat8Type(element) && !element.isInteger(8) && !element.isF32())
    return false;
  auto type = cast<BlockType>(load.getType());
  auto layout =
      dyn_cast_or_null<DistributedLayoutAttrInterface>(type.getEncoding());
  if (!layout)
    return false;
  LinearLayout::Run run =
      layout.toLinearLayout(type.getShape()).getContiguousRun();
  unsigned k = operand == 0 ? 1 : 0;
  if (run.length == 1 || run.dim != k)
    return false;
  return element.isF32() ||
         getAccessWidthAlong(axisInfo, load.getPtr(), load.getMask(), k) >= 4;
}

/// A load whose only use is `user` and that a copy into a ring for operand
/// `operand` of a dot can replace: read without volatility, zero (or
/// nothing) where masked off.
bool isCopyable(AxisInfoAnalysis &axisInfo, LoadOp load, Operation *user,
                unsigned operand) {
  auto type = dyn_cast<BlockType>(load.getType());
  return type && load->hasOneUse() && *load->getUsers().begin() == user &&
         fitsRing(axisInfo, load, operand) && !load.getIsVolatile() &&
         !load.getSem() && (!load.getOther() || isZero(load.getOther()));
}

/// Whether `load` is a row of statistics a rank-1 ring can hold in place of
/// its registers: an isRowStatisticBlock, whose only use is
/// `user`, read without volatility, zero (or nothing) where masked off.
bool isStatisticCopyable(LoadOp load, Operation *user) {
  auto type = dyn_cast<BlockType>(load.getType());
  if (!type || !isRowStatisticBlock(type))
    return false;
  return load->hasOneUse() && *load->getUsers().begin() == user &&
         !load.getIsVolatile() && !load.getSem() && !load.getTensorMap() &&
         (!load.getOther() || isZero(load.getOther()));
}

/// The iter_args from `value` (one the body reads) back to the load in the
/// body that produces them for later iterations, added to `chain`, with the
/// loads before the loop that give them their initial values;
/// `copyable(load, user)` says which loads a ring copy may replace.
FailureOr<OperandChain>
traceCarried(scf::ForOp loop, Value value, OperandChain chain,
             function_ref<bool(LoadOp, Operation *)> copyable) {
  Block *body = loop.getBody();
  Operation *yield = body->getTerminator();
  while (auto arg = dyn_cast<BlockArgument>(value)) {
    // The iter_arg the body reads may have several users (the dots'
    // sharesRings checks them); the others pass it on.
    if (arg.getOwner() != body || arg.getArgNumber() == 0 ||
        (!chain.args.empty() && !arg.hasOneUse()))
      return failure();
    unsigned index = arg.getArgNumber() - 1;
    auto init = loop.getInitArgs()[index].getDefiningOp<LoadOp>();
    if (!init || !copyable(init, loop) || !loop.getResult(index).use_empty())
      return failure();
    chain.args.push_back(index);
    chain.prologue.push_back(init);
    value = yield->getOperand(index);
  }
  auto producer = value.getDefiningOp<LoadOp>();
  if (!producer || producer->getBlock() != body || !copyable(producer, yield) ||
      chain.args.empty())
    return failure();
  chain.producer = producer;
  return chain;
}

FailureOr<OperandChain> traceOperand(AxisInfoAnalysis &axisInfo,
                                     scf::ForOp loop, Value operand,
                                     unsigned operandNumber) {
  OperandChain chain;
  // Conversions, and for B transposes of 16-bit blocks (wgmma reads a slot
  // either way round).
  for (Operation *def = operand.getDefiningOp();
       def && isa<ConvertLayoutOp, TransOp>(def);
       def = operand.getDefiningOp()) {
    if (!def->hasOneUse())
      return failure();
    if (isa<TransOp>(def)) {
      auto type = cast<BlockType>(def->getResult(0).getType());
      if (operandNumber != 1 || type.getRank() != 2 ||
          type.getElementType().getIntOrFloatBitWidth() != 16)
        return failure();
      chain.transposed = !chain.transposed;
    }
    chain.views.push_back(def);
    operand = def->getOperand(0);
  }
  return traceCarried(loop, operand, std::move(chain),
                      [&](LoadOp load, Operation *user) {
                        return isCopyable(axisInfo, load, user, operandNumber);
                      });
}

/// Gives each dot that reads a transpose as B (`qT = tl.trans(q)` read by
/// two dots) a copy of its own, so that every dot's chain of views is its
/// own and the dots share one ring; a transpose of registers costs nothing
/// where no ring replaces it.
void splitSharedTransposes(scf::ForOp loop) {
  for (auto trans :
       llvm::make_early_inc_range(loop.getBody()->getOps<TransOp>())) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : trans->getUses())
      uses.push_back(&use);
    if (uses.size() < 2 || !llvm::all_of(uses, [](OpOperand *use) {
          return isa<DotOp>(use->getOwner()) && use->getOperandNumber() == 1;
        }))
      continue;
    OpBuilder builder(trans);
    for (OpOperand *use : llvm::drop_begin(uses))
      use->set(builder.clone(*trans)->getResult(0));
  }
}

/// The op of `chain` that uses its first iter_arg: its last view, or `dot`.
Operation *argUser(const OperandChain &chain, DotOp dot) {
  return chain.views.empty() ? dot.getOperation() : chain.views.back();
}

struct PipelinedDot {
  DotOp dot;
  /// Absent where A does not change from one iteration to the next.
  std::optional<OperandChain> a;
  OperandChain b;
  /// For such an A loaded before the loop (attention's q): the load, which
  /// one copy into a ring of one slot replaces; wgmma reads A from there
  /// every iteration rather than holding it in registers through the loop.
  /// Null where wgmma reads A from registers.
  LoadOp invariantA;
};

/// The load before `loop` that `operand` (a dot's A) is, through layout
/// conversions, where a ring of one slot can take its place: every use of
/// the load is, through conversions, the A of a wgmma dot in a loop.
LoadOp traceInvariantOperand(AxisInfoAnalysis &axisInfo, scf::ForOp loop,
                             Value operand) {
  while (auto conversion = operand.getDefiningOp<ConvertLayoutOp>())
    operand = conversion.getSrc();
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || loop->isAncestor(load) || !isa<BlockType>(load.getType()) ||
      !fitsRing(axisInfo, load, 0) || load.getIsVolatile() || load.getSem() ||
      (load.getOther() && !isZero(load.getOther())))
    return {};
  SmallVector<Value> worklist{load.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      if (auto conversion = dyn_cast<ConvertLayoutOp>(use.getOwner())) {
        worklist.push_back(conversion.getResult());
        continue;
      }
      auto dot = dyn_cast<DotOp>(use.getOwner());
      auto mma = dot ? dyn_cast_or_null<MmaLayoutAttr>(
                           cast<BlockType>(dot.getType()).getEncoding())
                     : MmaLayoutAttr();
      if (!mma || mma.getVersion() != 3 ||
          use.getOperandNumber() != dot.getAMutable().getOperandNumber() ||
          !isa<scf::ForOp>(dot->getParentOp()))
        return {};
    }
  }
  return load;
}

Value constI32(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(builder, loc, value, 32);
}

/// Whether a ring for operand `operand` (0: A, 1: B) of a wgmma dot can
/// take `load`'s block with TMA: the load names a box of a tensor map. The
/// ring then stores the tensor's contiguous dimension contiguously, which
/// suits wgmma either way for 16-bit elements; f32 (tf32) and 8-bit ones it
/// reads K-major only.
bool copiesWithTensorMap(LoadOp load, unsigned operand) {
  auto type = cast<BlockType>(load.getType());
  if (!load.getTensorMap() ||
      !fitsTensorMapBox(type, load.getMapDimsOrIdentity()))
    return false;
  if (type.getElementType().getIntOrFloatBitWidth() == 16)
    return true;
  // The block dimension that runs along the map's contiguous one.
  int64_t contiguous = load.getMapDimsOrIdentity()[0] == 1 ? 0 : 1;
  return contiguous == (operand == 0 ? 1 : 0);
}

void copyInto(OpBuilder &builder, LoadOp load, Value ring, Value slot,
              bool withTensorMap) {
  builder.setInsertionPoint(load);
  auto copy = AsyncCopyOp::create(builder, load.getLoc(), load.getPtr(), ring,
                                  slot, load.getMask(), Value(), ValueRange(),
                                  DenseI64ArrayAttr());
  if (withTensorMap) {
    copy.getTensorMapMutable().assign(load.getTensorMap());
    copy.getMapCoordsMutable().assign(load.getMapCoords());
    copy.setMapDimsAttr(load.getMapDimsAttr());
  }
  AsyncCommitGroupOp::create(builder, load.getLoc());
}

/// The rings of one slot that hold loop-invariant A operands, by the load
/// each replaces (one ring serves every loop that reads it).
using InvariantRings = llvm::DenseMap<Operation *, Value>;

Value invariantRing(InvariantRings &rings, LoadOp load) {
  Value &ring = rings[load];
  if (ring)
    return ring;
  auto type = cast<BlockType>(load.getType());
  auto func = load->getParentOfType<func::FuncOp>();
  OpBuilder atEntry(&func.getBody());
  ring = RingAllocOp::create(
      atEntry, load.getLoc(),
      RingType::get(load.getContext(), 1,
                    BlockType::get(type.getShape(), type.getElementType())));
  // Its copy is the oldest group any loop after it waits for.
  OpBuilder builder(load);
  copyInto(builder, load, ring, constI32(builder, load.getLoc(), 0),
           copiesWithTensorMap(load, 0));
  return ring;
}

/// Whether the copies into `ring` are TMA copies, which complete on the
/// slots' barriers rather than in cp.async groups.
bool isTensorMapRing(Value ring) {
  return llvm::any_of(ring.getUsers(), [](Operation *user) {
    auto copy = dyn_cast<AsyncCopyOp>(user);
    return copy && copy.getTensorMap();
  });
}

/// Where the row's one reader converts it to another layout, directly or
/// after `tile.expand_dims` (`m[None, :]` into the product's accumulator
/// layout), makes `read` read the slot in the layout that needs none: the
/// target's, or its slice along the expanded axis (the layout the row had
/// when each iteration loaded its own).
void readWithoutConversion(RingLoadOp read) {
  if (!read->hasOneUse())
    return;
  Operation *user = *read->getUsers().begin();
  if (auto conversion = dyn_cast<ConvertLayoutOp>(user)) {
    read.getResult().setType(conversion.getType());
    conversion.replaceAllUsesWith(read.getResult());
    conversion.erase();
    return;
  }
  auto expand = dyn_cast<ExpandDimsOp>(user);
  if (!expand || !expand->hasOneUse())
    return;
  auto conversion = dyn_cast<ConvertLayoutOp>(*expand->getUsers().begin());
  if (!conversion)
    return;
  auto target = cast<BlockType>(conversion.getType());
  auto parent =
      dyn_cast_or_null<DistributedLayoutAttrInterface>(target.getEncoding());
  if (!parent)
    return;
  auto row = cast<BlockType>(read.getType());
  read.getResult().setType(row.withEncoding(
      SliceLayoutAttr::get(read.getContext(), expand.getAxis(), parent)));
  expand.getResult().setType(target);
  conversion.replaceAllUsesWith(expand.getResult());
  conversion.erase();
}

/// The row statistics of `loop` that rings can carry beside `dots`' operands
/// (attention backward's m and Di): rank-1 loads carried through as many
/// iter_args as the dots' operands, first read after the loop's first dot,
/// whose wait and barrier then cover their copies too. None where a dot
/// operand comes by TMA, whose rings no cp.async wait covers.
SmallVector<OperandChain> traceStatistics(scf::ForOp loop,
                                          ArrayRef<PipelinedDot> dots) {
  SmallVector<OperandChain> statistics;
  auto withTensorMap = [](LoadOp load) {
    return load && bool(load.getTensorMap());
  };
  auto byTensorMap = [&](std::optional<OperandChain> chain) {
    return chain && (withTensorMap(chain->producer) ||
                     llvm::any_of(chain->prologue, withTensorMap));
  };
  if (llvm::any_of(dots, [&](PipelinedDot entry) {
        return byTensorMap(entry.a) || byTensorMap(entry.b) ||
               withTensorMap(entry.invariantA);
      }))
    return statistics;
  Block *body = loop.getBody();
  Operation *yield = body->getTerminator();
  Operation *firstDot = dots.front().dot;
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    auto type = dyn_cast<BlockType>(arg.getType());
    // The iter_arg the body reads (the others only pass theirs on).
    if (!type || type.getRank() != 1 || arg.use_empty() ||
        llvm::all_of(arg.getUsers(),
                     [&](Operation *user) { return user == yield; }))
      continue;
    bool afterFirstDot = llvm::all_of(arg.getUsers(), [&](Operation *user) {
      Operation *top = body->findAncestorOpInBlock(*user);
      return top && top != yield && firstDot->isBeforeInBlock(top);
    });
    if (!afterFirstDot)
      continue;
    FailureOr<OperandChain> chain =
        traceCarried(loop, arg, {}, isStatisticCopyable);
    if (succeeded(chain) && chain->args.size() == dots.front().b.args.size())
      statistics.push_back(*chain);
  }
  return statistics;
}

void rewrite(scf::ForOp loop, ArrayRef<PipelinedDot> dots,
             ArrayRef<OperandChain> statistics,
             InvariantRings &invariantRings) {
  unsigned stages = dots.front().b.args.size() + 1;
  auto func = loop->getParentOfType<func::FuncOp>();
  Location loc = loop.getLoc();
  OpBuilder builder(loop);
  Type i32 = builder.getI32Type();

  // The slot iteration k + stages - 1's copies fill: carried, counting
  // modulo the ring. With it, the phase of the slot iteration k reads
  // (k mod stages): 0 for its first copy, 1 for its next, ... which TMA
  // rings wait for. It flips after the last slot is read, the iteration
  // that fills slot stages - 2.
  SmallVector<Value> firsts{constI32(builder, loc, stages - 1),
                            constI32(builder, loc, 0)};
  IRRewriter rewriter(builder);
  auto grown = cast<scf::ForOp>(
      *cast<LoopLikeOpInterface>(*loop).replaceWithAdditionalYields(
          rewriter, firsts, /*replaceInitOperandUsesInLoop=*/false,
          [&](OpBuilder &b, Location l, ArrayRef<BlockArgument> args) {
            Value next =
                arith::AddIOp::create(b, l, args[0], constI32(b, l, 1));
            Value wraps = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                next, constI32(b, l, stages));
            Value lastRead =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, args[0],
                                      constI32(b, l, stages - 2));
            Value flipped =
                arith::XOrIOp::create(b, l, args[1], constI32(b, l, 1));
            return SmallVector<Value>{
                arith::SelectOp::create(b, l, wraps, constI32(b, l, 0), next),
                arith::SelectOp::create(b, l, lastRead, flipped, args[1])};
          }));
  // The old loop is gone, and the builder's insertion point with it.
  builder.setInsertionPoint(grown);
  Value nextSlot = grown.getRegionIterArgs().drop_back().back();
  Value phase = grown.getRegionIterArgs().back();
  Operation *yield = grown.getBody()->getTerminator();

  auto ringFor = [&](LoadOp load) -> Value {
    auto type = cast<BlockType>(load.getType());
    OpBuilder atEntry(&func.getBody());
    return RingAllocOp::create(
        atEntry, load.getLoc(),
        RingType::get(builder.getContext(), stages,
                      BlockType::get(type.getShape(), type.getElementType())));
  };
  // One ring per iter_arg the dots read, however many dots read it.
  llvm::DenseMap<unsigned, Value> movedRings;
  auto moveToRing = [&](OperandChain &chain, unsigned operand) -> Value {
    Value &moved = movedRings[chain.args.front()];
    if (moved)
      return moved;
    Value ring = ringFor(chain.producer);
    moved = ring;
    // TMA where every load of the chain reads a box of a tensor map.
    bool withTensorMap = copiesWithTensorMap(chain.producer, operand) &&
                         llvm::all_of(chain.prologue, [&](LoadOp load) {
                           return copiesWithTensorMap(load, operand);
                         });
    // A chain stored an iteration later keeps its newest iter_arg a block:
    // the prologue's last load, then the producer's, each stored into its
    // slot by the next iteration (the slot before nextSlot).
    bool later = chain.storedAnIterationLater && !withTensorMap;
    unsigned newest = chain.args.size() - 1;
    // Iteration t of the prologue fills slot t; the iter_arg nearest the dot
    // holds the oldest.
    for (auto [t, index, load] : llvm::enumerate(chain.args, chain.prologue)) {
      if (later && t == newest) {
        // Its group, empty, keeps the count the waits expect.
        builder.setInsertionPointAfter(load);
        AsyncCommitGroupOp::create(builder, load.getLoc());
        continue;
      }
      builder.setInsertionPoint(load);
      copyInto(builder, load, ring, constI32(builder, load.getLoc(), t),
               withTensorMap);
      builder.setInsertionPoint(grown);
      grown.getInitArgsMutable()[index].assign(
          constI32(builder, load.getLoc(), t));
      grown.getRegionIterArgs()[index].setType(i32);
      grown.getResult(index).setType(i32);
      load.erase();
    }
    if (later) {
      Location at = chain.producer.getLoc();
      builder.setInsertionPoint(chain.producer);
      Value previous = arith::SelectOp::create(
          builder, at,
          arith::CmpIOp::create(builder, at, arith::CmpIPredicate::eq, nextSlot,
                                constI32(builder, at, 0)),
          constI32(builder, at, stages - 1),
          arith::SubIOp::create(builder, at, nextSlot,
                                constI32(builder, at, 1)));
      RingStoreOp::create(builder, at,
                          grown.getRegionIterArgs()[chain.args.back()], ring,
                          previous);
      AsyncCommitGroupOp::create(builder, at);
      // The iter_arg before the newest takes the slot just stored; the
      // newest carries the producer's block on.
      yield->setOperand(chain.args[newest - 1], previous);
      return ring;
    }
    copyInto(builder, chain.producer, ring, nextSlot, withTensorMap);
    yield->setOperand(chain.args.back(), nextSlot);
    chain.producer.erase();
    return ring;
  };

  // The rings the dots wait for with barriers, in a stable order.
  llvm::SetVector<Value> tensorMapRings;
  llvm::DenseSet<unsigned> copiedArgs;
  for (const PipelinedDot &entry : dots) {
    if (entry.a)
      copiedArgs.insert(entry.a->args.front());
    copiedArgs.insert(entry.b.args.front());
  }
  unsigned copiesPerIteration = copiedArgs.size() + statistics.size();
  // The dot after which no copy has been committed: a later dot's slots were
  // complete at its wait already (attention's p @ v after q @ k^T).
  Operation *waited = nullptr;
  for (const PipelinedDot &entry : dots) {
    PipelinedDot pipelined = entry;
    DotOp dot = pipelined.dot;
    Value a = dot.getA(), aSlot;
    if (pipelined.a) {
      a = moveToRing(*pipelined.a, 0);
      aSlot = grown.getRegionIterArgs()[pipelined.a->args.front()];
    } else if (pipelined.invariantA) {
      a = invariantRing(invariantRings, pipelined.invariantA);
      builder.setInsertionPoint(grown);
      aSlot = constI32(builder, dot.getLoc(), 0);
    }
    Value ringB = moveToRing(pipelined.b, 1);
    Value bSlot = grown.getRegionIterArgs()[pipelined.b.args.front()];
    builder.setInsertionPoint(dot);
    if (!waited || committedBetween(waited, dot))
      AsyncWaitOp::create(builder, dot.getLoc(),
                          copiesPerIteration * (stages - 2));
    // TMA copies complete on their slots' barriers: this iteration's phase
    // (a ring of one slot holds one copy, phase 0).
    if (aSlot && isTensorMapRing(a)) {
      tensorMapRings.insert(a);
      RingWaitOp::create(builder, dot.getLoc(), a, aSlot,
                         pipelined.a ? phase
                                     : constI32(builder, dot.getLoc(), 0));
    }
    if (isTensorMapRing(ringB)) {
      tensorMapRings.insert(ringB);
      RingWaitOp::create(builder, dot.getLoc(), ringB, bSlot, phase);
    }
    auto product = RingDotOp::create(builder, dot.getLoc(), dot.getType(), a,
                                     ringB, bSlot, dot.getAcc(), aSlot);
    product.setBTransposed(pipelined.b.transposed);
    dot.replaceAllUsesWith(product.getResult());
    Value oldA = dot.getA();
    dot.erase();
    waited = product;
    // The conversions that made A's registers, where the ring replaced them.
    while (auto conversion = oldA.getDefiningOp<ConvertLayoutOp>()) {
      if (!conversion->use_empty())
        break;
      oldA = conversion.getSrc();
      conversion.erase();
    }
    for (OperandChain *chain :
         {pipelined.a ? &*pipelined.a : nullptr, &pipelined.b})
      if (chain)
        for (Operation *view : chain->views)
          view->erase();
  }
  // Each row of statistics is read where the body first reads it, after
  // the first dot's wait and barrier.
  Block *body = grown.getBody();
  for (OperandChain chain : statistics) {
    BlockArgument first = grown.getRegionIterArgs()[chain.args.front()];
    auto type = cast<BlockType>(first.getType());
    Location statLoc = chain.producer.getLoc();
    Operation *reader = nullptr;
    for (Operation *user : first.getUsers()) {
      Operation *top = body->findAncestorOpInBlock(*user);
      if (!reader || top->isBeforeInBlock(reader))
        reader = top;
    }
    Value ring = moveToRing(chain, 0);
    builder.setInsertionPoint(reader);
    auto read = RingLoadOp::create(builder, statLoc, type, ring, first);
    first.replaceAllUsesExcept(read.getResult(), read);
    readWithoutConversion(read);
  }
  // The copies of iterations past the end (masked off, writing zeros) are
  // still in flight when the loop ends.
  builder.setInsertionPointAfter(grown);
  AsyncWaitOp::create(builder, loc, 0);
  // TMA ones too: slots n mod stages, ... of the next stages - 1 phases
  // (n iterations ran). A ring of one slot: its one copy, if no iteration
  // waited for it.
  if (tensorMapRings.empty())
    return;
  Value read = grown.getResult(dots.front().b.args.front());
  Value readPhase = grown.getResults().back();
  for (unsigned j = 0; j + 1 < stages; ++j) {
    Value slot =
        arith::AddIOp::create(builder, loc, read, constI32(builder, loc, j));
    Value wraps = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                        slot, constI32(builder, loc, stages));
    slot = arith::SelectOp::create(
        builder, loc, wraps,
        arith::SubIOp::create(builder, loc, slot,
                              constI32(builder, loc, stages)),
        slot);
    Value slotPhase = arith::SelectOp::create(
        builder, loc, wraps,
        arith::XOrIOp::create(builder, loc, readPhase,
                              constI32(builder, loc, 1)),
        readPhase);
    for (Value ring : tensorMapRings)
      if (cast<RingType>(ring.getType()).getSlots() > 1)
        RingWaitOp::create(builder, loc, ring, slot, slotPhase);
  }
  for (Value ring : tensorMapRings)
    if (cast<RingType>(ring.getType()).getSlots() == 1)
      RingWaitOp::create(builder, loc, ring, constI32(builder, loc, 0),
                         constI32(builder, loc, 0));
}

/// Drops the dots that read an iter_arg some other op reads too: a ring
/// replaces the iter_arg only where every use of it is the start of a
/// dot's chain (several dots may share it). Dropping one dot can leave
/// another's iter_arg with a use outside the chains: repeated until none.
void keepWholeRingReaders(scf::ForOp loop, SmallVector<PipelinedDot, 1> &dots) {
  for (bool dropped = true; dropped;) {
    dropped = false;
    llvm::DenseMap<unsigned, llvm::SmallPtrSet<Operation *, 4>> readers;
    for (const PipelinedDot &entry : dots) {
      if (entry.a)
        readers[entry.a->args.front()].insert(argUser(*entry.a, entry.dot));
      readers[entry.b.args.front()].insert(argUser(entry.b, entry.dot));
    }
    auto whole = [&](const OperandChain &chain) {
      BlockArgument arg = loop.getRegionIterArgs()[chain.args.front()];
      const auto &users = readers[chain.args.front()];
      return llvm::all_of(arg.getUses(), [&](OpOperand &use) {
        return users.contains(use.getOwner());
      });
    };
    auto *end = llvm::remove_if(dots, [&](const PipelinedDot &entry) {
      return (entry.a && !whole(*entry.a)) || !whole(entry.b);
    });
    dropped = end != dots.end();
    dots.erase(end, dots.end());
  }
}

struct TileAsyncDotOperandsPass
    : public tile::impl::TileAsyncDotOperandsBase<TileAsyncDotOperandsPass> {
  void runOnOperation() override {
    AxisInfoAnalysis axisInfo(getOperation());
    struct RingLoop {
      scf::ForOp loop;
      SmallVector<PipelinedDot, 1> dots;
      SmallVector<OperandChain> statistics;
    };
    std::vector<RingLoop> loops;
    getOperation().walk([&](scf::ForOp loop) {
      SmallVector<PipelinedDot, 1> dots;
      splitSharedTransposes(loop);
      for (auto dot : loop.getBody()->getOps<DotOp>()) {
        auto mma = dyn_cast_or_null<MmaLayoutAttr>(
            cast<BlockType>(dot.getType()).getEncoding());
        if (!mma || (mma.getVersion() != 2 && mma.getVersion() != 3))
          continue;
        FailureOr<OperandChain> b = traceOperand(axisInfo, loop, dot.getB(), 1);
        if (failed(b))
          continue;
        // mma.sync reads both operands from rings, filled by cp.async; its
        // 8-bit floats are widened in registers (tile.dot's lowering).
        if (mma.getVersion() == 2) {
          FailureOr<OperandChain> a =
              traceOperand(axisInfo, loop, dot.getA(), 0);
          auto fitsMmaSync = [](const OperandChain &chain) {
            auto loads = llvm::to_vector(chain.prologue);
            loads.push_back(chain.producer);
            return llvm::none_of(loads, [](LoadOp load) {
              return load.getTensorMap() ||
                     isFloat8Type(
                         cast<BlockType>(load.getType()).getElementType());
            });
          };
          if (succeeded(a) && a->args.size() == b->args.size() &&
              fitsMmaSync(*a) && fitsMmaSync(*b))
            dots.push_back({dot, *a, *b, {}});
          continue;
        }
        if (LoadOp invariant =
                traceInvariantOperand(axisInfo, loop, dot.getA())) {
          dots.push_back({dot, std::nullopt, *b, invariant});
          continue;
        }
        if (isWarpGroupRegisterOperand(cast<BlockType>(dot.getA().getType()),
                                       mma)) {
          dots.push_back({dot, std::nullopt, *b, {}});
          continue;
        }
        FailureOr<OperandChain> a = traceOperand(axisInfo, loop, dot.getA(), 0);
        if (failed(a) || a->args.size() != b->args.size())
          continue;
        dots.push_back({dot, *a, *b, {}});
      }
      keepWholeRingReaders(loop, dots);
      // Copies through registers into wgmma rings of three or more slots
      // (a slot to store into while the dot reads another and the newest
      // is in registers), whose producer follows the dot.
      for (PipelinedDot &entry : dots)
        for (OperandChain *chain : {entry.a ? &*entry.a : nullptr, &entry.b})
          if (chain && chain->args.size() >= 2 &&
              chain->prologue.size() == chain->args.size() &&
              cast<MmaLayoutAttr>(
                  cast<BlockType>(entry.dot.getType()).getEncoding())
                      .getVersion() == 3 &&
              entry.dot->isBeforeInBlock(chain->producer) &&
              copiedThroughRegisters(axisInfo, chain->producer))
            chain->storedAnIterationLater = true;
      // One ring counter per loop: every dot's operands have one depth.
      if (!dots.empty() && llvm::all_of(dots, [&](const PipelinedDot &d) {
            return d.b.args.size() == dots.front().b.args.size();
          })) {
        SmallVector<OperandChain> statistics = traceStatistics(loop, dots);
        loops.push_back({loop, std::move(dots), std::move(statistics)});
      }
    });
    InvariantRings invariantRings;
    for (RingLoop &entry : loops)
      rewrite(entry.loop, entry.dots, entry.statistics, invariantRings);
    // The loads the rings of one slot replaced, once no dot reads them.
    for (auto [load, ring] : invariantRings)
      if (load->use_empty())
        load->erase();
  }
};

} // namespace
