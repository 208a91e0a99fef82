//===- UnrollLoops.cpp - tl.range(..., loop_unroll_factor=n) ------------===//
//
// Unrolls each scf.for carrying a `tile.loop_unroll_factor` attribute by that
// factor, before the loop-level passes (reduction hoisting, loop pointers,
// pipelining) see it, as Triton unrolls in TTIR before its pipeliner. The
// remainder loop MLIR's unroller adds for trip counts the factor does not
// divide runs at most factor - 1 trips: pipelining it would only add a
// prologue, so it gets `tile.num_stages = 1`, as in Triton.
//
//===----------------------------------------------------------------------===//

#include "UpstreamUnroll.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEUNROLLLOOPS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileUnrollLoopsPass
    : public tile::impl::TileUnrollLoopsBase<TileUnrollLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kLoopUnrollFactorAttrName))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      auto factor = loop->getAttrOfType<IntegerAttr>(kLoopUnrollFactorAttrName);
      loop->removeAttr(kLoopUnrollFactorAttrName);
      // (Not an integer only where the IR skipped the verifier, which
      // rejects it.)
      if (!factor || factor.getInt() <= 1)
        continue;
      // The unroller computes the trip count as an unsigned division of
      // upper - lower, which an empty loop with upper < lower turns into a
      // huge count (range(0, -7, 2) ran its remainder loop once): clamp the
      // upper bound to the lower one, which keeps the trip count.
      if (!getConstantIntValue(loop.getLowerBound()) ||
          !getConstantIntValue(loop.getUpperBound())) {
        OpBuilder builder(loop);
        loop.setUpperBound(arith::MaxSIOp::create(builder, loop.getLoc(),
                                                  loop.getUpperBound(),
                                                  loop.getLowerBound()));
      }
      FailureOr<std::optional<scf::ForOp>> remainder =
          upstream_unroll::unrollByFactor(loop, factor.getInt());
      if (failed(remainder)) {
        loop.emitError() << "cannot unroll this loop by " << factor.getInt()
                         << " (loop_unroll_factor): its bounds or step are not "
                            "a loop MLIR's unroller handles";
        return signalPassFailure();
      }
      if (*remainder)
        (**remainder)
            ->setAttr(kNumStagesAttrName, Builder(loop).getI32IntegerAttr(1));
    }
  }
};

} // namespace
