//===- AxisInfo.h - contiguity, divisibility and constancy ------*- C++ -*-===//
//
// What is known, per dimension, about the integer and pointer values of a
// kernel: how long the runs of consecutive values are (contiguity), what
// power of two divides the first value of each run (divisibility, in bytes
// for pointers), and how long the runs of equal values are (constancy). Runs
// start at indices that are multiples of their length. The layout pass and
// the GPU conversion use it to pick the width of vector loads and stores.
//
// The facts come from a sparse forward data-flow analysis on MLIR's
// framework: they reach a fixpoint through the values that scf.for, scf.if
// and scf.while carry, and `tile.hint` states facts the analysis cannot
// derive (Triton's tl.multiple_of / tl.max_contiguous / tl.max_constancy).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_AXISINFO_H
#define TILE_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>

namespace mlir {
class DataFlowSolver;

namespace tile {

struct AxisInfo {
  /// One entry per dimension; scalars have a single entry. Contiguity and
  /// constancy are between 1 and the extent, divisibility is a power of two
  /// between 1 and 2^30.
  SmallVector<int64_t> contiguity;
  SmallVector<int64_t> divisibility;
  SmallVector<int64_t> constancy;
  /// The value of every element, when it is one known integer
  /// (sign-extended from its type's width).
  std::optional<int64_t> constant;
  /// Every element is at least 0 as a signed integer.
  bool nonNegative = false;

  /// Nothing known about a value of `rank` dimensions (0 for scalars).
  static AxisInfo unknown(unsigned rank);
  unsigned getRank() const { return contiguity.size(); }
  /// A value the analysis has not reached (dead code) has no entries: the
  /// lattice's bottom, the identity of `join`.
  bool isUninitialized() const { return contiguity.empty(); }
  /// What holds for a value that has the facts of `lhs` or those of `rhs`.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);
  bool operator==(const AxisInfo &other) const;
  void print(raw_ostream &os) const;
};

/// The facts of every value under a root operation (a kernel or a module),
/// computed once at construction. Values created afterwards get facts
/// computed from their operands' when first asked for.
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(Operation *root);
  ~AxisInfoAnalysis();
  AxisInfoAnalysis(const AxisInfoAnalysis &) = delete;
  AxisInfoAnalysis &operator=(const AxisInfoAnalysis &) = delete;

  AxisInfo get(Value value);

  /// The widest access, in elements, that a thread owning `vector`
  /// consecutive (row-major) elements can make through `ptr` with `mask`
  /// (null: no mask): a power of two dividing `vector`, at most 16 bytes.
  unsigned getAccessWidth(Value ptr, Value mask, unsigned vector);

  /// The widest access through `ptr` that alignment and contiguity allow,
  /// ignoring the layout: what the layout pass asks the layout to allow.
  unsigned getPreferredWidth(Value ptr, Value mask);

private:
  std::unique_ptr<DataFlowSolver> solver;
  /// Facts of values the solver has not seen, computed on demand.
  llvm::DenseMap<Value, AxisInfo> created;
};

} // namespace tile
} // namespace mlir

#endif // TILE_ANALYSIS_AXISINFO_H
