//===- LinearLayout.h - layouts as linear maps over GF(2) -------*- C++ -*-===//
//
// Every distributed layout of a block (blocked, slice, MMA, ...) is, for a
// given shape, a linear map over GF(2) from the bits of the hardware index
// (register, lane, warp) to block coordinates, as in Triton's linear layouts
// (arXiv 2505.23819): each bit of each hardware index has a basis (one
// coordinate per dimension), and a hardware index maps to the XOR of the
// bases of its set bits. A zero basis means the elements are replicated
// along that bit (broadcast). Coordinates live in the block padded to powers
// of two per dimension; coordinates past the real extent are masked off,
// which is how any positive extent (24x40) is laid out.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_LINEARLAYOUT_H
#define TILE_DIALECT_TILE_IR_LINEARLAYOUT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <optional>
#include <string>

namespace mlir::tile {

/// The hardware index bits a layout maps from.
enum class HWDim : unsigned { Register = 0, Lane = 1, Warp = 2 };
inline constexpr unsigned kNumHWDims = 3;
inline constexpr int64_t kThreadsPerWarp = 32;

/// The power of two at or above `extent`: a layout covers the padded block.
int64_t paddedExtent(int64_t extent);

class LinearLayout {
public:
  using Coord = SmallVector<int64_t, 4>;

  LinearLayout() = default;
  /// A layout over a block of `paddedShape` (powers of two) with no bases.
  explicit LinearLayout(ArrayRef<int64_t> paddedShape);

  unsigned getRank() const { return shape.size(); }
  ArrayRef<int64_t> getShape() const { return shape; }
  ArrayRef<Coord> getBases(HWDim dim) const {
    return bases[static_cast<unsigned>(dim)];
  }
  unsigned getNumBits(HWDim dim) const { return getBases(dim).size(); }
  int64_t getSize(HWDim dim) const { return int64_t(1) << getNumBits(dim); }
  int64_t getNumRegisters() const { return getSize(HWDim::Register); }

  void addBasis(HWDim dim, Coord basis);
  void setBasis(HWDim dim, unsigned bit, Coord basis);
  void removeBasis(HWDim dim, unsigned bit);

  /// The coordinates that index `index` of `dim` contributes (the XOR of the
  /// bases of its set bits).
  Coord apply(HWDim dim, int64_t index) const;
  /// The coordinates of register `reg` of lane `lane` of warp `warp`.
  Coord apply(int64_t reg, int64_t lane, int64_t warp) const;

  /// The longest run of registers 0, 1, 2, ... holding consecutive elements
  /// along one dimension, with every other basis keeping the runs aligned (a
  /// power of two; 1 when register 1 is not the next element of register
  /// 0): what one vector access can cover.
  struct Run {
    unsigned dim = 0;
    int64_t length = 1;
  };
  Run getContiguousRun() const;

  /// Whether every coordinate of the padded block is held somewhere.
  bool isSurjective() const;

  /// A block coordinate as one integer: the coordinate bits of each
  /// dimension, the last dimension least significant (the row-major linear
  /// index of the padded block).
  uint64_t flatten(ArrayRef<int64_t> coord) const;
  Coord unflatten(uint64_t flat) const;
  unsigned getNumOutBits() const;

  /// Dimension `i` of the result is dimension `order[i]` of this layout.
  LinearLayout permute(ArrayRef<int32_t> order) const;
  /// Removes dimension `dim`, whose coordinates must all be zero.
  LinearLayout dropDim(unsigned dim) const;
  /// Inserts a dimension of extent 1 before `dim`.
  LinearLayout insertDim(unsigned dim) const;
  /// Reads the padded block in row-major order as `newShape` (powers of
  /// two with the same element count).
  LinearLayout reshape(ArrayRef<int64_t> newShape) const;
  /// Removes the register bases that are zero (registers that only repeat
  /// others).
  LinearLayout withoutZeroRegisters() const;

  bool operator==(const LinearLayout &other) const {
    return shape == other.shape && bases == other.bases;
  }
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }

  std::string str() const;

private:
  SmallVector<int64_t, 4> shape;
  std::array<SmallVector<Coord>, kNumHWDims> bases;
};

/// Solves linear systems over GF(2) whose columns are flattened basis
/// vectors: which bases XOR to a target.
class F2Solver {
public:
  explicit F2Solver(ArrayRef<uint64_t> columns);
  /// A set of columns (bit i = column i) whose XOR is `target`, preferring
  /// earlier columns; none if `target` is outside their span.
  std::optional<uint64_t> solve(uint64_t target) const;
  unsigned getRank() const { return pivots.size(); }

private:
  /// Reduced rows: a vector, its pivot bit, and the columns combined in it.
  struct Row {
    uint64_t vector;
    uint64_t pivotBit;
    uint64_t combination;
  };
  SmallVector<Row> pivots;
};

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_LINEARLAYOUT_H
