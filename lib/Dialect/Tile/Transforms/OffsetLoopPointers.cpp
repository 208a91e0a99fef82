//===- OffsetLoopPointers.cpp - carry an offset, not a block of pointers --===//
//
// Tutorial 03's K loop advances blocks of pointers, `a_ptrs += BLOCK_K *
// stride_ak`: carried through the loop, a 128x64 block of pointers is 64
// registers per thread. When a carried block starts as an index function
// (computed from aranges and scalars) and only ever moves by the same scalar
// for every element, it is that index function plus one scalar offset: the
// loop carries the offset, and the pointers are recomputed where they are
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
      // The yielded value: the argument moved by a splat of a scalar that is
      // defined outside the loop.
      auto step = yield.getOperand(index).getDefiningOp<AddPtrOp>();
      if (!step || step.getPtr() != arg)
        continue;
      auto splat = step.getOffset().getDefiningOp<SplatOp>();
      if (!splat || !loop.isDefinedOutsideOfLoop(splat.getSrc()))
        continue;
      Value delta = splat.getSrc();
      if (!isa<IntegerType>(delta.getType()))
        continue;
      return rewrite(loop, index, init, step, delta, rewriter);
    }
    return failure();
  }

  LogicalResult rewrite(scf::ForOp loop, unsigned index, Value init,
                        AddPtrOp step, Value delta,
                        PatternRewriter &rewriter) const {
    Location loc = step.getLoc();
    // The sum of the steps, in 64 bits: the pointers it replaces did not
    // overflow either.
    Type offsetType = rewriter.getI64Type();
    rewriter.setInsertionPoint(loop);
    if (delta.getType() != offsetType)
      delta = arith::ExtSIOp::create(rewriter, loc, offsetType, delta);
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
    auto moved = [&](Value by) -> Value {
      Value splat = SplatOp::create(rewriter, loc, offsetBlock, by);
      return AddPtrOp::create(rewriter, loc, ptrType, init, splat);
    };
    rewriter.replaceAllUsesWith(oldArg, moved(offset));
    // The old carried block passes through unchanged (canonicalization drops
    // it); after the loop, it is the initial one moved by the final offset.
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    Operation *oldStep = yield.getOperand(index).getDefiningOp();
    rewriter.modifyOpInPlace(yield, [&] { yield.setOperand(index, oldArg); });
    if (oldStep->use_empty())
      rewriter.eraseOp(oldStep);
    rewriter.setInsertionPointAfter(newLoop);
    Value result = newLoop.getResult(index);
    if (!result.use_empty())
      rewriter.replaceAllUsesWith(result, moved(newLoop.getResults().back()));
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
