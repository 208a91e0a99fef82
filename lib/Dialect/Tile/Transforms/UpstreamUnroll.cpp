//===- UpstreamUnroll.cpp - MLIR's scf.for unroller -----------------------===//
//
// Includes no tile header: see UpstreamUnroll.h.
//
//===----------------------------------------------------------------------===//

#include "UpstreamUnroll.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

using namespace mlir;

FailureOr<std::optional<scf::ForOp>>
mlir::upstream_unroll::unrollByFactor(scf::ForOp loop, uint64_t factor) {
  FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(loop, factor);
  if (failed(unrolled))
    return failure();
  return unrolled->epilogueLoopOp;
}
