//===- AxisInfo.h - contiguity, divisibility and constancy ------*- C++ -*-===//
//
// What is known, per dimension, about the integer and pointer values of a
// kernel: how long the runs of consecutive values are (contiguity), what
// power of two divides the first value of each run (divisibility, in bytes
// for pointers), and how long the runs of equal values are (constancy). Runs
// start at indices that are multiples of their length. The layout pass and
// the GPU conversion use it to pick the width of vector loads and stores.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_AXISINFO_H
#define TILE_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tile {

struct AxisInfo {
  /// One entry per dimension; scalars have a single entry.
  SmallVector<int64_t> contiguity;
  SmallVector<int64_t> divisibility;
  SmallVector<int64_t> constancy;

  /// Nothing known about a value of `rank` dimensions (0 for scalars).
  static AxisInfo unknown(unsigned rank);
  unsigned getRank() const { return contiguity.size(); }
};

/// Computes axis information for values on demand (one instance per
/// function: results are cached by value).
class AxisInfoAnalysis {
public:

  const AxisInfo &get(Value value);

  /// The widest access, in elements, that a thread owning `vector`
  /// consecutive (row-major) elements can make through `ptr` with `mask`
  /// (null: no mask): a power of two dividing `vector`, at most 16 bytes.
  unsigned getAccessWidth(Value ptr, Value mask, unsigned vector);

  /// The widest access through `ptr` that alignment and contiguity allow,
  /// ignoring the layout: what the layout pass asks the layout to allow.
  unsigned getPreferredWidth(Value ptr, Value mask);

private:
  AxisInfo compute(Value value);
  llvm::DenseMap<Value, AxisInfo> cache;
};

} // namespace mlir::tile

#endif // TILE_ANALYSIS_AXISINFO_H
