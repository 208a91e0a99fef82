//===- UpstreamUnroll.h - MLIR's scf.for unroller ---------------*- C++ -*-===//
//
// mlir/Dialect/SCF/Utils/Utils.h declares a function `mlir::tile`, which
// clashes with this project's namespace `mlir::tile`: no file may include
// both. UpstreamUnroll.cpp includes the upstream header alone and offers its
// unroller here.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_UPSTREAMUNROLL_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_UPSTREAMUNROLL_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::upstream_unroll {

/// `loop` unrolled by `factor` (mlir::loopUnrollByFactor): fails where the
/// unroller does; otherwise the remainder loop it added, if any.
FailureOr<std::optional<scf::ForOp>> unrollByFactor(scf::ForOp loop,
                                                    uint64_t factor);

} // namespace mlir::upstream_unroll

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_UPSTREAMUNROLL_H
