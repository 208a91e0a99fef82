//===- HoistLoopReductions.cpp - accumulate in threads, reduce once -------===//
//
// `acc += tl.sum(x, axis)` in a loop reduces x across threads on every
// iteration: shuffles, and shared memory with two barriers when warps share
// the axis. Accumulating x itself and reducing once after the loop computes
// the same combination (reassociated, as any parallel reduction is) with
// none of that in the loop: each thread adds its own elements, as Triton's
// thread-locality optimization does.
//
//   %r = scf.for ... iter_args(%a = %init) {
//     %s = tile.reduce sum %x {axis = 0}      // %s used only by the add
//     %n = tile.addf %a, %s                   // %a used only here
//     scf.yield %n
//   }
// becomes
//   %r2 = scf.for ... iter_args(%A = dense<-0.0>) {
//     %N = tile.addf %A, %x
//     scf.yield %N
//   }
//   %r = tile.addf %init, (tile.reduce sum %r2 {axis = 0})
//
// for sum, max and min with their elementwise (or scalar arith) combines.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEHOISTLOOPREDUCTIONS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether `op` combines two values the way `kind` does, for element type
/// `element`. Never for i1, where `tile.reduce max` is "or" but `maxsi` of
/// i1 is "and" (true is -1).
bool combinesAs(Operation *op, CombineKind kind, Type element) {
  if (element.isInteger(1))
    return false;
  bool isFloat = isa<FloatType>(element);
  switch (kind) {
  case CombineKind::sum:
    return isFloat ? isa<AddFOp, arith::AddFOp>(op)
                   : isa<AddIOp, arith::AddIOp>(op);
  case CombineKind::max:
    return isFloat ? isa<MaximumFOp, arith::MaximumFOp>(op)
                   : isa<MaxSIOp, arith::MaxSIOp>(op);
  case CombineKind::min:
    return isFloat ? isa<MinimumFOp, arith::MinimumFOp>(op)
                   : isa<MinSIOp, arith::MinSIOp>(op);
  case CombineKind::umax:
    return isa<MaxUIOp, arith::MaxUIOp>(op);
  case CombineKind::umin:
    return isa<MinUIOp, arith::MinUIOp>(op);
  case CombineKind::maxnum:
    return isa<MaxNumFOp, arith::MaxNumFOp>(op);
  case CombineKind::minnum:
    return isa<MinNumFOp, arith::MinNumFOp>(op);
  case CombineKind::custom:
    return false;
  }
  return false;
}

/// The elementwise tile op combining two blocks as `kind` does.
Value createBlockCombine(OpBuilder &builder, Location loc, CombineKind kind,
                         Value a, Value b) {
  bool isFloat = isa<FloatType>(cast<BlockType>(a.getType()).getElementType());
  switch (kind) {
  case CombineKind::sum:
    return isFloat ? Value(AddFOp::create(builder, loc, a, b))
                   : Value(AddIOp::create(builder, loc, a, b));
  case CombineKind::max:
    return isFloat ? Value(MaximumFOp::create(builder, loc, a, b))
                   : Value(MaxSIOp::create(builder, loc, a, b));
  case CombineKind::min:
    return isFloat ? Value(MinimumFOp::create(builder, loc, a, b))
                   : Value(MinSIOp::create(builder, loc, a, b));
  case CombineKind::umax:
    return MaxUIOp::create(builder, loc, a, b);
  case CombineKind::umin:
    return MinUIOp::create(builder, loc, a, b);
  case CombineKind::maxnum:
    return MaxNumFOp::create(builder, loc, a, b);
  case CombineKind::minnum:
    return MinNumFOp::create(builder, loc, a, b);
  case CombineKind::custom:
    break;
  }
  llvm_unreachable("a custom reduction is never hoisted");
}

struct HoistReductionFromLoop : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      Value yielded = yield.getOperand(index);
      Operation *combine = yielded.getDefiningOp();
      if (!combine || combine->getNumOperands() != 2 || !arg.hasOneUse() ||
          !yielded.hasOneUse() || combine->getBlock() != loop.getBody())
        continue;
      // The other operand of the combine is a reduction used only there.
      Value other = combine->getOperand(0) == arg ? combine->getOperand(1)
                                                  : combine->getOperand(0);
      if (other == arg || !llvm::is_contained(combine->getOperands(), arg))
        continue;
      auto reduce = other.getDefiningOp<ReduceOp>();
      if (!reduce || !other.hasOneUse() || reduce->getBlock() != loop.getBody())
        continue;
      auto srcType = cast<BlockType>(reduce.getSrc().getType());
      Type element = srcType.getElementType();
      if (!combinesAs(combine, reduce.getKind(), element))
        continue;
      return hoist(loop, index, combine, reduce, rewriter);
    }
    return failure();
  }

  LogicalResult hoist(scf::ForOp loop, unsigned index, Operation *combine,
                      ReduceOp reduce, PatternRewriter &rewriter) const {
    Location loc = reduce.getLoc();
    auto srcType = cast<BlockType>(reduce.getSrc().getType());
    CombineKind kind = reduce.getKind();
    // The accumulator of the operand, starting at the identity.
    rewriter.setInsertionPoint(loop);
    Value identity = ConstantOp::create(
        rewriter, loc, srcType,
        DenseElementsAttr::get(srcType.withEncoding({}),
                               ArrayRef<Attribute>(getCombineIdentity(
                                   kind, srcType.getElementType()))));
    Value source = reduce.getSrc();
    auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, ValueRange{identity}, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &builder, Location, ArrayRef<BlockArgument> newArgs) {
          builder.setInsertionPointAfterValue(source);
          return SmallVector<Value>{
              createBlockCombine(builder, loc, kind, newArgs[0], source)};
        }));
    // After the loop: reduce the accumulator once and combine it with what
    // the loop started from (the old carried value, which now passes through
    // unchanged; canonicalization drops it from the loop).
    int32_t axis = reduce.getAxis();
    rewriter.setInsertionPointAfter(newLoop);
    auto hoisted = ReduceOp::create(rewriter, loc, kind,
                                    newLoop.getResults().back(), axis);
    Value passed = newLoop.getResult(index);
    Operation *final = rewriter.clone(*combine);
    final->setOperands({passed, hoisted.getResult()});
    rewriter.replaceAllUsesExcept(passed, final->getResult(0), final);
    auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
    BlockArgument oldArg = newLoop.getRegionIterArgs()[index];
    rewriter.modifyOpInPlace(yield, [&] { yield.setOperand(index, oldArg); });
    rewriter.eraseOp(combine);
    rewriter.eraseOp(reduce);
    return success();
  }
};

struct TileHoistLoopReductionsPass
    : public tile::impl::TileHoistLoopReductionsBase<
          TileHoistLoopReductionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<HoistReductionFromLoop>(&getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
