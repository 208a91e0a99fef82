//===- PipelineLoops.cpp - loads of later iterations in flight ------------===//
//
// Software pipelining of the loads that feed `tile.dot` in an `scf.for`, with
// Triton's meaning of `num_stages`: the loads of iteration i + num_stages - 1
// are issued while iteration i computes, their results carried in registers
// through the loop until their dot uses them. GPU loads do not block until
// their registers are read, so the memory latency of the next tiles overlaps
// the current tile's matrix product.
//
// The schedule: the loads that reach a dot (directly or through elementwise
// ops and conversions), in loops of 16-bit float dots the row statistics
// that meet a product (which tile-async-dot-operands carries in rings, not
// registers), with everything in the body they depend on, go to stage 0; the
// rest of the body to the last stage, which the loop body runs first (see the
// schedule below). A stage-0 value the last stage uses too is recomputed there
// where it is a pure function of the induction variable and values from outside
// the loop (attention's `start_n + arange` column indices, which address the
// loads and build the causal mask): carried, it would live through num_stages -
// 1 iterations in registers and take its own layout, converted through shared
// memory each iteration. MLIR's loop pipeliner (scf::pipelineForLoop) then
// rotates the loop; iterations past the end in the prologue and the epilogue
// are predicated: their loads are masked off.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPIPELINELOOPS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The values in `body` computed from a dot's product.
llvm::DenseSet<Value> productValues(Block *body) {
  llvm::DenseSet<Value> products;
  SmallVector<Value> worklist;
  for (Operation &op : *body)
    if (isa<DotOp>(op))
      llvm::append_range(worklist, op.getResults());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!products.insert(value).second)
      continue;
    for (Operation *user : value.getUsers())
      if (user->getBlock() == body)
        llvm::append_range(worklist, user->getResults());
  }
  return products;
}

/// Where the value of `load` goes in `body`, through ops that keep its
/// elements (elementwise ops, conversions, shape ops): to a dot operand, or
/// into an op that also takes a value computed from a product (where the
/// walk stops).
struct LoadReach {
  bool dotOperand = false;
  bool product = false;
};

LoadReach reachOf(LoadOp load, Block *body,
                  const llvm::DenseSet<Value> &products) {
  LoadReach reach;
  SmallVector<Value> worklist{load.getResult()};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      if (user->getBlock() != body)
        continue;
      if (auto dot = dyn_cast<DotOp>(user))
        if (dot.getA() == value || dot.getB() == value)
          reach.dotOperand = true;
      if (llvm::any_of(user->getOperands(), [&](Value operand) {
            return products.contains(operand);
          })) {
        reach.product = true;
        continue;
      }
      if (user->hasTrait<OpTrait::Elementwise>() ||
          isa<ConvertLayoutOp, ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp>(
              user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  return reach;
}

/// Whether the value of `load` reaches a dot operand in `body` through ops
/// that keep its elements and take nothing computed from a product. A load
/// that meets a product first (attention backward's row statistics,
/// `exp2(qk - m)`) is used in the product's layout, a slice of an
/// accumulator with several registers per thread: carried through the
/// stages in registers, each stage's copy would need them, or a compact copy
/// would be converted each iteration. Row statistics go through
/// shared-memory rings instead (isRowStatistic); other such loads stay in
/// the iteration that uses them, where their latency overlaps the product
/// they wait for.
bool feedsDot(LoadOp load, Block *body, const llvm::DenseSet<Value> &products) {
  return reachOf(load, body, products).dotOperand;
}

/// Whether `load` is a row of statistics that a product meets in `body`
/// (attention backward's `exp2(qk - m[None, :])`) and that reaches no dot
/// operand otherwise: an isRowStatisticBlock (what a rank-1 ring holds), read
/// without volatility and with no `other` (its masked-off elements are
/// undefined; the ring's copies give zeros).
/// Pipelined, tile-async-dot-operands carries it in a shared-memory ring
/// beside the dots' operands (which the tensor-core dots of 16-bit floats
/// read from rings on every chip tile compiles for), so that it costs no
/// registers through the stages.
bool isRowStatistic(LoadOp load, Block *body,
                    const llvm::DenseSet<Value> &products) {
  auto type = dyn_cast<BlockType>(load.getType());
  if (!type || !isRowStatisticBlock(type) || load.getSem() ||
      load.getIsVolatile() || load.getTensorMap() || load.getOther())
    return false;
  LoadReach reach = reachOf(load, body, products);
  return reach.product && !reach.dotOperand;
}

/// Whether every dot in `body` multiplies 16-bit floats (on the tensor
/// cores, from rings).
bool multipliesHalves(Block *body) {
  bool any = false;
  for (auto dot : body->getOps<DotOp>()) {
    auto element = cast<BlockType>(dot.getA().getType()).getElementType();
    if (!element.isF16() && !element.isBF16())
      return false;
    any = true;
  }
  return any;
}

/// A load whose mask also holds `predicate`: the pipeliner's predication of
/// an iteration past the end.
Operation *predicateLoad(RewriterBase &rewriter, LoadOp load, Value predicate) {
  rewriter.setInsertionPoint(load);
  Location loc = load.getLoc();
  auto type = dyn_cast<BlockType>(load.getPtr().getType());
  Value mask = predicate;
  if (type)
    mask = SplatOp::create(
        rewriter, loc, type.withElementType(rewriter.getI1Type()), predicate);
  if (load.getMask())
    mask =
        type
            ? Value(AndIOp::create(rewriter, loc, load.getMask(), mask))
            : Value(arith::AndIOp::create(rewriter, loc, load.getMask(), mask));
  // The same load (cache hints and all) with the new mask.
  auto predicated = cast<LoadOp>(rewriter.clone(*load));
  predicated.getMaskMutable().assign(mask);
  rewriter.replaceOp(load, predicated);
  return predicated;
}

/// Gives the ops outside `early` their own copies of the stage-0 ops they
/// use that compute from the induction variable and loop-invariant values
/// alone, so that the pipeliner does not carry those results over from the
/// iteration whose loads they addressed.
void recomputeInLastStage(scf::ForOp loop,
                          const llvm::SetVector<Operation *> &early) {
  Block *body = loop.getBody();
  auto invariant = [&](Value value) {
    return value == loop.getInductionVar() ||
           !loop->isAncestor(value.getParentRegion()->getParentOp());
  };
  // In body order, so that an op's operands are decided before it.
  llvm::DenseSet<Operation *> recomputable;
  for (Operation &op : body->without_terminator())
    if (early.contains(&op) && op.getNumRegions() == 0 && isPure(&op) &&
        llvm::all_of(op.getOperands(), [&](Value operand) {
          Operation *def = operand.getDefiningOp();
          return invariant(operand) || recomputable.contains(def);
        }))
      recomputable.insert(&op);
  auto lateUse = [&](OpOperand &use) {
    Operation *user = body->findAncestorOpInBlock(*use.getOwner());
    return user != body->getTerminator() && !early.contains(user);
  };
  // The ops whose copies the last stage reads, and those their copies read.
  llvm::DenseSet<Operation *> copied;
  SmallVector<Operation *> worklist;
  for (Operation *op : recomputable)
    if (llvm::any_of(op->getUses(), lateUse))
      worklist.push_back(op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!copied.insert(op).second)
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); recomputable.contains(def))
        worklist.push_back(def);
  }
  IRMapping copies;
  OpBuilder builder(loop.getContext());
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator())) {
    if (!copied.contains(&op))
      continue;
    builder.setInsertionPointAfter(&op);
    builder.clone(op, copies);
    for (Value result : op.getResults())
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses()))
        if (lateUse(use) && !copied.contains(use.getOwner()))
          use.set(copies.lookup(result));
  }
}

LogicalResult pipeline(scf::ForOp loop, unsigned numStages,
                       bool rowStatistics) {
  Block *body = loop.getBody();
  // Stage 0: the loads that feed dots and everything they depend on in the
  // body.
  llvm::SetVector<Operation *> early;
  SmallVector<Operation *> worklist;
  llvm::DenseSet<Value> products = productValues(body);
  for (Operation &op : body->without_terminator())
    if (auto load = dyn_cast<LoadOp>(&op))
      if (isa<BlockType>(load.getType()) && !load.getSem() &&
          !load.getIsVolatile() && feedsDot(load, body, products))
        worklist.push_back(load);
  if (worklist.empty())
    return failure();
  if (rowStatistics && multipliesHalves(body))
    for (Operation &op : body->without_terminator())
      if (auto load = dyn_cast<LoadOp>(&op))
        if (isRowStatistic(load, body, products))
          worklist.push_back(load);
  // A value carried through the loop that stage 0 reads must be computed in
  // stage 0 too: iteration i + 1's loads run before iteration i's later
  // stages.
  auto require = [&](Value value) {
    if (Operation *def = value.getDefiningOp()) {
      if (def->getBlock() == body)
        worklist.push_back(def);
      return;
    }
    auto arg = dyn_cast<BlockArgument>(value);
    if (arg && arg.getOwner() == body && arg.getArgNumber() > 0)
      if (Operation *def = body->getTerminator()
                               ->getOperand(arg.getArgNumber() - 1)
                               .getDefiningOp())
        if (def->getBlock() == body)
          worklist.push_back(def);
  };
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!early.insert(op))
      continue;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        require(operand);
    });
  }
  // Stage 0 must be loads and pure computations (they run early, and past
  // the end they are predicated or harmless), and no dot: loads whose
  // addresses depend on a product are not prefetchable.
  for (Operation *op : early)
    if (isa<DotOp>(op) || (!isa<LoadOp>(op) && !isMemoryEffectFree(op)))
      return failure();
  recomputeInLastStage(loop, early);
  unsigned last = numStages - 1;
  scf::PipeliningOption options;
  options.getScheduleFn =
      [&](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &schedule) {
        // This iteration's compute first, then the loads of iteration
        // k + numStages - 1: issued after the dot has started the tensor
        // cores (and after its shared-memory fence, which waits for the
        // thread's outstanding loads), they are in flight while it runs.
        for (Operation &op : body->without_terminator())
          if (!early.contains(&op))
            schedule.emplace_back(&op, last);
        for (Operation &op : body->without_terminator())
          if (early.contains(&op))
            schedule.emplace_back(&op, 0);
      };
  options.peelEpilogue = false;
  options.supportDynamicLoops = true;
  options.predicateFn = [](RewriterBase &rewriter, Operation *op,
                           Value predicate) -> Operation * {
    if (auto load = dyn_cast<LoadOp>(op))
      return predicateLoad(rewriter, load, predicate);
    return isMemoryEffectFree(op) ? op : nullptr;
  };
  // The prologue goes where the rewriter points: just before the loop.
  IRRewriter rewriter(loop);
  bool modified = false;
  FailureOr<scf::ForOp> pipelined =
      scf::pipelineForLoop(rewriter, loop, options, &modified);
  if (failed(pipelined) && modified)
    return loop.emitError() << "software pipelining failed half way";
  return success(succeeded(pipelined));
}

struct TilePipelineLoopsPass
    : public tile::impl::TilePipelineLoopsBase<TilePipelineLoopsPass> {
  using TilePipelineLoopsBase::TilePipelineLoopsBase;

  void runOnOperation() override {
    // Innermost loops first; a loop that does not fit the scheme is left
    // as it is.
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (!loop.getBody()
               ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
               .wasInterrupted())
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      // The loop's own depth (tl.range(..., num_stages=)) before the
      // kernel's.
      unsigned stages = numStages;
      if (auto own = loop->getAttrOfType<IntegerAttr>(kNumStagesAttrName))
        stages = own.getInt();
      if (stages >= 2)
        (void)pipeline(loop, stages, rowStatistics);
    }
  }
};

} // namespace
