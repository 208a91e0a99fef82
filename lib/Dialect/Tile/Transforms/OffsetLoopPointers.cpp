//===- OffsetLoopPointers.cpp - carry an offset, not a block of pointers --===//
//
// Tutorial 03's K loop advances blocks of pointers, `a_ptrs += BLOCK_K *
// stride_ak`: carried through the loop, a 128x64 block of pointers is 64
// registers per thread. When a carried block starts as an index function
// (computed from aranges and scalars) and only ever moves by the same scalar
// for every element (a runtime one, a constant, or several steps in a row as
// an unrolled loop makes), it is that index function plus one scalar offset:
// the loop carries the offset, and the pointers are recomputed where they are
// used, for free (the lowering evaluates index functions in registers it
// needs anyway).
//
//   %r = scf.for ... iter_args(%p = %init) {      // %init: index function
//     ... uses of %p ...
//     %q = tile.addptr %p, (tile.splat %s)       // %s: the same every element
//     scf.yield %q
//   }
// becomes
//   %r' = scf.for ... iter_args(%o = 0) {
//     %p = tile.addptr %init, (tile.splat %o)
//     ... uses of %p ...
//     scf.yield %o + %s
//   }
//   %r = tile.addptr %init, (tile.splat %r')
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEOFFSETLOOPPOINTERS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether `value` is computed from aranges, splats and constants alone
/// (through elementwise and shape ops) and from values defined outside
/// `loop`.
bool isIndexFunctionOutside(Value value, scf::ForOp loop) {
  if (!loop.isDefinedOutsideOfLoop(value))
    return false;
  if (!isa<BlockType>(value.getType()))
    return true;
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (isa<ArangeOp, ConstantOp>(op))
    return true;
  if (!(op->hasTrait<OpTrait::Elementwise>() ||
        isa<AddPtrOp, SplatOp, ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp>(
            op)))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return isIndexFunctionOutside(operand, loop);
  });
}

/// One step of a carried block: the same integer for every element, a
/// scalar defined outside the loop or a splat constant.
struct UniformStep {
  Value scalar;
  IntegerAttr constant;
};

std::optional<UniformStep> getUniformStep(AddPtrOp step, scf::ForOp loop) {
  Value offset = step.getOffset();
  if (auto splat = offset.getDefiningOp<SplatOp>()) {
    if (loop.isDefinedOutsideOfLoop(splat.getSrc()) &&
        isa<IntegerType>(splat.getSrc().getType()))
      return UniformStep{splat.getSrc(), {}};
    return std::nullopt;
  }
  // A compile-time step (`a_ptrs += BLOCK`): canonicalization folded its
  // splat into a dense constant.
  if (auto constant = offset.getDefiningOp<ConstantOp>())
    if (auto dense = dyn_cast<SplatElementsAttr>(constant.getValue()))
      if (isa<IntegerType>(dense.getElementType()))
        return UniformStep{{}, dense.getSplatValue<IntegerAttr>()};
  return std::nullopt;
}

struct OffsetCarriedPointers : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto type = dyn_cast<BlockType>(arg.getType());
      if (!type || !isa<PtrType>(type.getElementType()))
        continue;
      Value init = loop.getInitArgs()[index];
      if (!isIndexFunctionOutside(init, loop))
        continue;
      // The yielded value: the argument moved by uniform steps, one or
      // several in a row (loop_unroll_factor's copies each move it).
      SmallVector<UniformStep> steps;
      Value moved = yield.getOperand(index);
      while (moved != arg) {
        auto step = moved.getDefiningOp<AddPtrOp>();
        if (!step || step->getBlock() != loop.getBody())
          break;
        std::optional<UniformStep> uniform = getUniformStep(step, loop);
        if (!uniform)
          break;
        steps.push_back(*uniform);
        moved = step.getPtr();
      }
      if (moved != arg || steps.empty())
        continue;
      return rewrite(loop, index, init, steps, rewriter);
    }
    return failure();
  }

  LogicalResult rewrite(scf::ForOp loop, unsigned index, Value init,
                        ArrayRef<UniformStep> steps,
                        PatternRewriter &rewriter) const {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    Location loc = yield.getOperand(index).getLoc();
    // The sum of the steps, in 64 bits: the pointers it replaces did not
    // overflow either.
    Type offsetType = rewriter.getI64Type();
    rewriter.setInsertionPoint(loop);
    Value delta;
    for (const UniformStep &step : steps) {
      Value term =
          step.scalar
              ? step.scalar
              : Value(arith::ConstantOp::create(
                    rewriter, loc,
                    rewriter.getIntegerAttr(
                        offsetType, step.constant.getValue().getSExtValue())));
      if (term.getType() != offsetType)
        term = arith::ExtSIOp::create(rewriter, loc, offsetType, term);
      delta = delta ? Value(arith::AddIOp::create(rewriter, loc, delta, term))
                    : term;
    }
    auto ptrType = cast<BlockType>(init.getType());
    auto offsetBlock = ptrType.withElementType(offsetType);
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getIntegerAttr(offsetType, 0));
    auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, ValueRange{zero}, /*replaceInitOperandUsesInLoop=*/false,
        // The builder points at the old body's yield: the body moves into
        // the new loop only afterwards.
        [&](OpBuilder &builder, Location, ArrayRef<BlockArgument> newArgs) {
          return SmallVector<Value>{
              arith::AddIOp::create(builder, loc, newArgs[0], delta)};
        }));
    // In the body: the pointers are the initial ones moved by the offset.
    Block *body = newLoop.getBody();
    BlockArgument oldArg = newLoop.getRegionIterArgs()[index];
    BlockArgument offset = newLoop.getRegionIterArgs().back();
    rewriter.setInsertionPointToStart(body);
    auto movedBy = [&](Value by) -> Value {
      Value splat = SplatOp::create(rewriter, loc, offsetBlock, by);
      return AddPtrOp::create(rewriter, loc, ptrType, init, splat);
    };
    rewriter.replaceAllUsesWith(oldArg, movedBy(offset));
    // The old carried block passes through unchanged (canonicalization drops
    // it); after the loop, it is the initial one moved by the final offset.
    // The steps stay where the body uses them (a copy's pointers).
    auto newYield = cast<scf::YieldOp>(body->getTerminator());
    Operation *lastStep = newYield.getOperand(index).getDefiningOp();
    rewriter.modifyOpInPlace(newYield,
                             [&] { newYield.setOperand(index, oldArg); });
    while (lastStep && lastStep->use_empty()) {
      Operation *previous = cast<AddPtrOp>(lastStep).getPtr().getDefiningOp();
      rewriter.eraseOp(lastStep);
      lastStep =
          previous && isa<AddPtrOp>(previous) && previous->getBlock() == body
              ? previous
              : nullptr;
    }
    rewriter.setInsertionPointAfter(newLoop);
    Value result = newLoop.getResult(index);
    if (!result.use_empty())
      rewriter.replaceAllUsesWith(result, movedBy(newLoop.getResults().back()));
    return success();
  }
};

struct TileOffsetLoopPointersPass
    : public tile::impl::TileOffsetLoopPointersBase<
          TileOffsetLoopPointersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<OffsetCarriedPointers>(&getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
