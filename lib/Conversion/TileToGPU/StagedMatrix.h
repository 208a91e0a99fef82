//===- StagedMatrix.h - operands where the tensor cores read them -*- C++
//-*-===//
//
// Private to the TileToGPU lowering: the shared-memory form of a wgmma
// operand, which the register staging of `tile.dot`, the `tile.async_copy`
// into ring slots and the matrix descriptors of `tile.ring_dot` share.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_STAGEDMATRIX_H
#define TILE_LIB_CONVERSION_TILETOGPU_STAGEDMATRIX_H

#include "mlir/IR/Builders.h"

namespace mlir::tile::lowering {

/// A `rows` x `cols` matrix stored with one of its dimensions contiguous:
/// `cols` (row-major, the default) or, `transposed`, `rows` (stored as the
/// row-major `cols` x `rows` transpose). The stored rows are split into
/// column blocks of `swizzleBytes` (the widest of 128, 64 and 32 bytes that
/// a stored row fills) that each hold every stored row, so that one row of a
/// block is one swizzle row; the 16-byte chunks of a row are XOR-swizzled by
/// the row, as the TMA and wgmma's matrix descriptors define it. wgmma reads
/// an A operand stored row-major as K-major and transposed as M-major, a B
/// operand stored row-major as N-major and transposed as K-major: the
/// descriptors are the same, the instruction's transpose flags say which.
struct StagedMatrix {
  int64_t rows, cols, elementBytes, swizzleBytes;
  bool transposed = false;

  static StagedMatrix get(int64_t rows, int64_t cols, int64_t elementBytes,
                          bool transposed = false);

  /// The dimension (0: rows, 1: cols) whose consecutive elements are
  /// adjacent in memory.
  unsigned contiguousDim() const { return transposed ? 0 : 1; }
  /// The extents as stored: rows of `storedCols()` contiguous elements.
  int64_t storedRows() const { return transposed ? cols : rows; }
  int64_t storedCols() const { return transposed ? rows : cols; }
  int64_t elementsPerRow() const { return swizzleBytes / elementBytes; }
  int64_t bytes() const { return rows * cols * elementBytes; }
  /// The bytes one matrix takes where several follow each other (the
  /// swizzle pattern repeats every 1024 bytes).
  int64_t alignedBytes() const { return (bytes() + 1023) / 1024 * 1024; }
  /// Leading and stride byte offsets of the matrix descriptor: between
  /// column blocks, and between groups of 8 stored rows.
  int64_t leadingBytes() const { return storedRows() * swizzleBytes; }
  int64_t strideBytes() const { return 8 * swizzleBytes; }
  /// The descriptor's swizzle mode.
  int64_t mode() const {
    return swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : 3;
  }
  /// Whether wgmma can read it: stored rows of at least 32 bytes.
  bool fitsTensorCores() const { return storedCols() * elementBytes >= 32; }

  /// The byte offset of element (`row`, `col`) from the matrix's start
  /// before the swizzle: where a descriptor starting there points.
  Value logicalOffset(OpBuilder &builder, Location loc, Value row,
                      Value col) const;
  /// The byte offset where element (`row`, `col`) is stored.
  Value physicalOffset(OpBuilder &builder, Location loc, Value row,
                       Value col) const;
  /// The same for constant coordinates.
  int64_t logicalOffset(int64_t row, int64_t col) const;
  int64_t physicalOffset(int64_t row, int64_t col) const;
  /// The start address field (bits 0..13, i64) of the wgmma matrix
  /// descriptor of the tile starting at (`row`, `col`) of the matrix at
  /// shared address `start` (bytes, i32); its other fields are constants.
  Value descriptorStart(OpBuilder &builder, Location loc, Value start,
                        Value row, Value col) const;
  /// The descriptor (i64) of the tile `row` and `col` elements (multiples
  /// of 16 bytes) on from the tile whose start field is `start`.
  Value descriptor(OpBuilder &builder, Location loc, Value start, int64_t row,
                   int64_t col) const;
};

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_STAGEDMATRIX_H
