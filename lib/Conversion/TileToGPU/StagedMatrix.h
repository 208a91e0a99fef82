//===- StagedMatrix.h - operands where the tensor cores read them -*- C++
//-*-===//
//
// Private to the TileToGPU lowering: the shared-memory form of a wgmma
// operand, which the register staging of `tile.dot`, the `tile.async_copy`
// into ring slots and the matrix descriptors of `tile.warp_group_dot` share.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_STAGEDMATRIX_H
#define TILE_LIB_CONVERSION_TILETOGPU_STAGEDMATRIX_H

#include "mlir/IR/Builders.h"

namespace mlir::tile::lowering {

/// A `rows` x `cols` matrix with `cols` contiguous, split into column blocks
/// of `swizzleBytes` (the widest of 128, 64 and 32 bytes that a row fills)
/// that each hold every row, so that one row of a block is one swizzle row;
/// the 16-byte chunks of a row are XOR-swizzled by the row, as the TMA and
/// wgmma's matrix descriptors define it.
struct StagedMatrix {
  int64_t rows, cols, elementBytes, swizzleBytes;

  static StagedMatrix get(int64_t rows, int64_t cols, int64_t elementBytes);

  int64_t elementsPerRow() const { return swizzleBytes / elementBytes; }
  int64_t bytes() const { return rows * cols * elementBytes; }
  /// The bytes one matrix takes where several follow each other (the
  /// swizzle pattern repeats every 1024 bytes).
  int64_t alignedBytes() const { return (bytes() + 1023) / 1024 * 1024; }
  /// Leading and stride byte offsets of the matrix descriptor: between
  /// column blocks, and between groups of 8 rows.
  int64_t leadingBytes() const { return rows * swizzleBytes; }
  int64_t strideBytes() const { return 8 * swizzleBytes; }
  /// The descriptor's swizzle mode.
  int64_t mode() const {
    return swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : 3;
  }
  /// Whether wgmma can read it: rows of at least 32 bytes.
  bool fitsTensorCores() const { return cols * elementBytes >= 32; }

  /// The byte offset of element (`row`, `col`) from the matrix's start
  /// before the swizzle: where a descriptor starting there points.
  Value logicalOffset(OpBuilder &builder, Location loc, Value row,
                      Value col) const;
  /// The byte offset where element (`row`, `col`) is stored.
  Value physicalOffset(OpBuilder &builder, Location loc, Value row,
                       Value col) const;
  /// The wgmma matrix descriptor of the tile starting at (`row`, `col`) of
  /// the matrix at shared address `start` (bytes, i32).
  Value descriptor(OpBuilder &builder, Location loc, Value start, Value row,
                   Value col) const;
};

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_STAGEDMATRIX_H
