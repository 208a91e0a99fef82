//===- TileLimits.h - sizes the tile dialect accepts ------------*- C++ -*-===//
//
// Plain constants, without MLIR, so that frontends that write tile IR text
// (Triton-C) can check their input against the same limits and report it at
// the user's source.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILELIMITS_H
#define TILE_DIALECT_TILE_IR_TILELIMITS_H

#include <cstdint>

namespace mlir::tile {

/// The most elements a !tile.block may have.
constexpr int64_t kMaxBlockElements = int64_t(1) << 31;

/// The largest divisibility the axis analysis tracks (small enough that
/// products of two cannot overflow), and so the largest `tile.divisibility`
/// a kernel argument may promise.
constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILELIMITS_H
