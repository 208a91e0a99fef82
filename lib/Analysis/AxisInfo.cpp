//===- AxisInfo.cpp - contiguity, divisibility and constancy --------------===//
//
// A sparse forward data-flow analysis on MLIR's framework. Dead code
// analysis and sparse constant propagation run in the same solver (the
// framework needs them to know which blocks and region edges execute); the
// values carried by scf.for / scf.while and the results of scf.if get the
// join of what flows into them, iterated to a fixpoint.
//
// A fact that does not hold produces wrong vector code without any error, so
// every rule below is sound under one assumption, Triton's as well: integer
// arithmetic on offsets does not wrap (a kernel whose offsets overflow is
// wrong already). Where an operation can wrap by design (unsigned views of
// signed runs, truncation, zero extension), the rules split runs at the
// values where the wrap can happen.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <numeric>

using namespace mlir;
using namespace mlir::tile;

// Divisibility is tracked up to kMaxDivisibility (TileDialect.h): far more
// than any access needs, and small enough that products cannot overflow.

/// The largest power of two dividing `value`, at most kMaxDivisibility (0 is
/// divisible by every power).
static int64_t powerOf2Dividing(int64_t value) {
  if (value == 0)
    return kMaxDivisibility;
  uint64_t magnitude = static_cast<uint64_t>(value);
  uint64_t lowest = magnitude & (~magnitude + 1);
  return lowest >= uint64_t(kMaxDivisibility) ? kMaxDivisibility
                                              : int64_t(lowest);
}

static int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }
template <typename... Rest>
static int64_t gcd(int64_t a, int64_t b, Rest... rest) {
  return gcd(std::gcd(a, b), rest...);
}

/// Both factors are powers of two of at most 2^30: the product fits.
static int64_t mulDivisibility(int64_t a, int64_t b) {
  return std::min(a * b, kMaxDivisibility);
}

/// The divisibility of the elements of `info` whose index along `dim` is a
/// multiple of `stride`. They are run starts if runs are one element long or
/// `stride` is a multiple of the run length; otherwise such an element lies a
/// multiple of gcd(stride, run) after its run's start.
static int64_t divisibilityAt(const AxisInfo &info, unsigned dim,
                              int64_t stride) {
  int64_t run = info.contiguity[dim];
  if (run == 1 || stride % run == 0)
    return info.divisibility[dim];
  return gcd(info.divisibility[dim], powerOf2Dividing(gcd(stride, run)));
}

/// The divisibility of every element: along a dimension whose runs are one
/// element long, every element is a run start.
static int64_t elementDivisibility(const AxisInfo &info) {
  int64_t result = 1;
  for (unsigned dim = 0; dim < info.getRank(); ++dim)
    result = std::max(result, divisibilityAt(info, dim, 1));
  return result;
}

/// Shortens the runs of `dim` to `run` (a divisor of the current length).
static void shortenRuns(AxisInfo &info, unsigned dim, int64_t run) {
  info.divisibility[dim] = divisibilityAt(info, dim, run);
  info.contiguity[dim] = run;
}

/// Sets runs of `run` elements along `dim` for a result that is, at each
/// element, `a`'s value, `b`'s (times `bScale`), or their sum or difference:
/// its run starts are divisible by what divides both there.
static void setRuns(AxisInfo &info, unsigned dim, int64_t run,
                    const AxisInfo &a, const AxisInfo &b, int64_t bScale = 1) {
  info.contiguity[dim] = run;
  info.divisibility[dim] =
      gcd(divisibilityAt(a, dim, run),
          mulDivisibility(divisibilityAt(b, dim, run), bScale));
}

/// The longest runs, dividing the current ones, that start at values
/// divisible by their length: a wrap of the value at a multiple of `limit`
/// (a power of two) can then only fall at a run start.
static int64_t alignedRun(const AxisInfo &info, unsigned dim, int64_t limit) {
  return gcd(info.contiguity[dim], info.divisibility[dim], limit);
}

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo AxisInfo::unknown(unsigned rank) {
  unsigned entries = std::max(1u, rank);
  AxisInfo info;
  info.contiguity.assign(entries, 1);
  info.divisibility.assign(entries, 1);
  info.constancy.assign(entries, 1);
  return info;
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (lhs.isUninitialized())
    return rhs;
  if (rhs.isUninitialized())
    return lhs;
  AxisInfo info = unknown(lhs.getRank());
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    setRuns(info, dim, gcd(lhs.contiguity[dim], rhs.contiguity[dim]), lhs, rhs);
    info.constancy[dim] = gcd(lhs.constancy[dim], rhs.constancy[dim]);
  }
  if (lhs.constant == rhs.constant)
    info.constant = lhs.constant;
  info.nonNegative = lhs.nonNegative && rhs.nonNegative;
  return info;
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return contiguity == other.contiguity && divisibility == other.divisibility &&
         constancy == other.constancy && constant == other.constant &&
         nonNegative == other.nonNegative;
}

void AxisInfo::print(raw_ostream &os) const {
  if (isUninitialized()) {
    os << "uninitialized";
    return;
  }
  auto list = [&](StringRef name, ArrayRef<int64_t> values) {
    os << name << " = [";
    llvm::interleaveComma(values, os);
    os << "]";
  };
  list("contiguity", contiguity);
  list(", divisibility", divisibility);
  list(", constancy", constancy);
  if (constant)
    os << ", constant = " << *constant;
  if (nonNegative)
    os << ", non-negative";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto block = dyn_cast<BlockType>(type))
    return block.getShape();
  return {};
}

static int64_t extentOf(ArrayRef<int64_t> shape, unsigned dim) {
  return shape.empty() ? 1 : shape[dim];
}

/// The bits of an integer (or index) element type; 0 for others.
static unsigned intBits(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(element))
    return integer.getWidth();
  return 0;
}

/// Size in bytes of the pointee of a pointer or block of pointers.
static int64_t pointeeBytes(Type type) {
  auto ptr = dyn_cast<PtrType>(getElementTypeOrSelf(type));
  if (!ptr)
    return 1;
  return std::max<int64_t>(1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
}

/// Nothing known about a value of `type`.
static AxisInfo unknownOf(Type type) {
  return AxisInfo::unknown(shapeOf(type).size());
}

/// A value that is the same everywhere: a splat or a scalar.
static AxisInfo uniform(ArrayRef<int64_t> shape, int64_t divisibility) {
  AxisInfo info = AxisInfo::unknown(shape.size());
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    info.divisibility[dim] = divisibility;
    info.constancy[dim] = extentOf(shape, dim);
  }
  return info;
}

static AxisInfo uniformConstant(ArrayRef<int64_t> shape, int64_t value) {
  AxisInfo info = uniform(shape, powerOf2Dividing(value));
  info.constant = value;
  info.nonNegative = value >= 0;
  return info;
}

/// Keeps facts within their ranges: runs longer than a dimension say no more
/// than runs as long as it (there is one run, at index 0).
static AxisInfo normalized(AxisInfo info, ArrayRef<int64_t> shape) {
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    int64_t extent = extentOf(shape, dim);
    info.contiguity[dim] = std::clamp<int64_t>(info.contiguity[dim], 1, extent);
    info.constancy[dim] = std::clamp<int64_t>(info.constancy[dim], 1, extent);
    info.divisibility[dim] =
        std::clamp<int64_t>(info.divisibility[dim], 1, kMaxDivisibility);
  }
  if (info.constant)
    return uniformConstant(shape, *info.constant);
  return info;
}

/// `value` wrapped to a `bits`-wide integer, sign-extended.
static int64_t wrapTo(uint64_t value, unsigned bits) {
  return llvm::SignExtend64(value, bits);
}

//===----------------------------------------------------------------------===//
// Assumptions
//===----------------------------------------------------------------------===//

/// Whether `cmp` states `value >= 0`: `value >= c` with c >= 0, `value > c`
/// with c >= -1, or the same with the operands swapped.
static bool statesNonNegative(arith::CmpIOp cmp, Value value) {
  using P = arith::CmpIPredicate;
  bool onLeft = cmp.getLhs() == value;
  APInt bound;
  if (!matchPattern(onLeft ? cmp.getRhs() : cmp.getLhs(),
                    m_ConstantInt(&bound)))
    return false;
  // c <= value is value >= c; c < value is value > c.
  P predicate = cmp.getPredicate();
  if (!onLeft)
    predicate = predicate == P::sle   ? P::sge
                : predicate == P::slt ? P::sgt
                                      : P::eq;
  int64_t c = bound.getSExtValue();
  return (predicate == P::sge && c >= 0) || (predicate == P::sgt && c >= -1);
}

/// Whether `value >= 0` is assumed (`llvm.intr.assume`, from tl.assume) in
/// the block that defines it, with only straight-line ops between the
/// definition and the assumption: every execution that defines the value
/// then reaches the assumption, and one that would fail it is undefined.
static bool assumedNonNegative(Value value) {
  Block *block = value.getParentBlock();
  if (!block)
    return false;
  Operation *def = value.getDefiningOp();
  for (Operation *user : value.getUsers()) {
    auto cmp = dyn_cast<arith::CmpIOp>(user);
    if (!cmp || cmp->getBlock() != block || !statesNonNegative(cmp, value))
      continue;
    for (Operation *assume : cmp->getUsers()) {
      if (!isa<LLVM::AssumeOp>(assume) || assume->getBlock() != block ||
          (def && !def->isBeforeInBlock(assume)))
        continue;
      auto from = def ? std::next(def->getIterator()) : block->begin();
      if (llvm::none_of(llvm::make_range(from, assume->getIterator()),
                        [](Operation &op) { return op.getNumRegions() > 0; }))
        return true;
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// The rules: facts of a result from its operands' facts
//===----------------------------------------------------------------------===//

namespace {

enum class Combine { Sum, Max, Min, Other };

/// Computes the facts of the single result of one operation. This is the
/// analysis' transfer function, and how values created after it ran get
/// their facts.
class Rules {
public:
  Rules(Operation *op, ArrayRef<AxisInfo> operands)
      : op(op), operands(operands), resultType(op->getResult(0).getType()),
        shape(shapeOf(resultType)), bits(intBits(resultType)) {}

  AxisInfo compute() {
    AxisInfo info = dispatch();
    if (bits && !info.nonNegative)
      info.nonNegative = assumedNonNegative(op->getResult(0));
    return normalized(std::move(info), shape);
  }

private:
  AxisInfo dispatch();
  AxisInfo unknown() const { return AxisInfo::unknown(shape.size()); }

  AxisInfo constantFacts(Attribute value);
  AxisInfo denseFacts(DenseIntElementsAttr dense);
  AxisInfo add(const AxisInfo &lhs, const AxisInfo &rhs, int64_t rhsScale,
               bool subtract);
  AxisInfo mul(const AxisInfo &lhs, const AxisInfo &rhs);
  AxisInfo div(const AxisInfo &lhs, const AxisInfo &rhs, bool isUnsigned);
  AxisInfo rem(const AxisInfo &lhs, const AxisInfo &rhs, bool isUnsigned);
  AxisInfo shift(const AxisInfo &lhs, const AxisInfo &rhs, bool left,
                 bool isUnsigned);
  AxisInfo bitwise(const AxisInfo &lhs, const AxisInfo &rhs, bool isAnd);
  AxisInfo minMax(const AxisInfo &lhs, const AxisInfo &rhs, bool isMax,
                  bool isUnsigned);
  AxisInfo compare(arith::CmpIPredicate predicate, const AxisInfo &lhs,
                   const AxisInfo &rhs);
  AxisInfo select(const AxisInfo &cond, const AxisInfo &a, const AxisInfo &b);
  AxisInfo intCast(AxisInfo info, unsigned from, bool zeroExtend);
  AxisInfo keepConstancy();
  AxisInfo expandDims(const AxisInfo &src, unsigned axis);
  AxisInfo broadcast(const AxisInfo &src, ArrayRef<int64_t> srcShape);
  AxisInfo reshape(const AxisInfo &src, ArrayRef<int64_t> srcShape);
  AxisInfo trans(const AxisInfo &src, ArrayRef<int32_t> order);
  AxisInfo load(LoadOp load);
  AxisInfo reduceOrScan(const AxisInfo &src, unsigned axis, Combine combine,
                        bool reduce, ArrayRef<int64_t> srcShape);
  AxisInfo hint(HintOp hint);

  /// The facts of element-by-element binary ops, where a known constant on
  /// both sides gives a known constant result.
  std::optional<int64_t> fold(const AxisInfo &lhs, const AxisInfo &rhs,
                              function_ref<uint64_t(uint64_t, uint64_t)> fn) {
    if (!bits || !lhs.constant || !rhs.constant)
      return std::nullopt;
    return wrapTo(fn(uint64_t(*lhs.constant), uint64_t(*rhs.constant)), bits);
  }

  Operation *op;
  ArrayRef<AxisInfo> operands;
  Type resultType;
  ArrayRef<int64_t> shape;
  unsigned bits;
};

} // namespace

AxisInfo Rules::constantFacts(Attribute value) {
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return uniformConstant(shape, integer.getValue().getSExtValue());
  if (auto splat = dyn_cast<SplatElementsAttr>(value)) {
    if (auto integer = dyn_cast<IntegerAttr>(splat.getSplatValue<Attribute>()))
      return uniformConstant(shape, integer.getValue().getSExtValue());
    return uniform(shape, 1);
  }
  if (auto dense = dyn_cast<DenseIntElementsAttr>(value))
    return denseFacts(dense);
  return unknown();
}

/// Exact facts of a constant block: along each dimension, runs break only at
/// indices where some element breaks them, so the run length is the gcd of
/// those indices (the extent where there are none).
AxisInfo Rules::denseFacts(DenseIntElementsAttr dense) {
  SmallVector<int64_t> values;
  for (const APInt &value : dense.getValues<APInt>())
    values.push_back(value.getSExtValue());
  AxisInfo info = unknown();
  if (shape.empty() ||
      int64_t(values.size()) != cast<BlockType>(resultType).getNumElements())
    return info;
  int64_t stride = 1;
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    int64_t extent = shape[dim];
    int64_t consecutive = 0, equal = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      int64_t index = (i / stride) % extent;
      if (index == 0)
        continue;
      int64_t previous = values[i - stride];
      // Compare without overflow: the previous value plus one.
      if (previous == INT64_MAX || values[i] != previous + 1)
        consecutive = gcd(consecutive, index);
      if (values[i] != previous)
        equal = gcd(equal, index);
    }
    info.contiguity[dim] = consecutive ? consecutive : extent;
    info.constancy[dim] = equal ? equal : extent;
    int64_t divisibility = kMaxDivisibility;
    for (size_t i = 0; i < values.size(); ++i)
      if (((i / stride) % extent) % info.contiguity[dim] == 0)
        divisibility = std::min(divisibility, powerOf2Dividing(values[i]));
    info.divisibility[dim] = divisibility;
    stride *= extent;
  }
  info.nonNegative = llvm::all_of(values, [](int64_t v) { return v >= 0; });
  return info;
}

AxisInfo Rules::add(const AxisInfo &lhs, const AxisInfo &rhs, int64_t rhsScale,
                    bool subtract) {
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    // Consecutive plus constant (over the same aligned run) is consecutive.
    int64_t run = gcd(lhs.contiguity[dim], rhs.constancy[dim]);
    if (!subtract)
      run = std::max(run, gcd(lhs.constancy[dim], rhs.contiguity[dim]));
    setRuns(info, dim, run, lhs, rhs, rhsScale);
    info.constancy[dim] = gcd(lhs.constancy[dim], rhs.constancy[dim]);
  }
  if (!subtract)
    info.nonNegative = lhs.nonNegative && rhs.nonNegative;
  info.constant = fold(lhs, rhs, [&](uint64_t a, uint64_t b) {
    return subtract ? a - b : a + b;
  });
  return info;
}

AxisInfo Rules::mul(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (rhs.constant == 1)
    return lhs;
  if (lhs.constant == 1)
    return rhs;
  if (lhs.constant == 0 || rhs.constant == 0)
    return uniformConstant(shape, 0);
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    info.divisibility[dim] = mulDivisibility(divisibilityAt(lhs, dim, 1),
                                             divisibilityAt(rhs, dim, 1));
    info.constancy[dim] = gcd(lhs.constancy[dim], rhs.constancy[dim]);
  }
  info.nonNegative = lhs.nonNegative && rhs.nonNegative;
  info.constant = fold(lhs, rhs, [](uint64_t a, uint64_t b) { return a * b; });
  return info;
}

/// The aligned runs over which `lhs` is consecutive and `rhs` is one value,
/// both divisible by the run length: no multiple of the divisor falls inside
/// such a run, so a quotient is constant over it and a remainder
/// consecutive. For signed ops this needs `lhs` >= 0 (truncating division
/// of negative values changes one past the multiples); unsigned views of a
/// signed run wrap only at 0, a run start.
static int64_t runWithinMultiples(const AxisInfo &lhs, const AxisInfo &rhs,
                                  unsigned dim) {
  return gcd(alignedRun(lhs, dim, kMaxDivisibility), rhs.constancy[dim],
             divisibilityAt(rhs, dim, 1));
}

AxisInfo Rules::div(const AxisInfo &lhs, const AxisInfo &rhs, bool isUnsigned) {
  if (rhs.constant == 1)
    return lhs;
  if (lhs.constant == 0)
    return uniformConstant(shape, 0);
  bool ordered = isUnsigned || lhs.nonNegative;
  std::optional<int64_t> divisor = rhs.constant;
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    int64_t constancy = gcd(lhs.constancy[dim], rhs.constancy[dim]);
    if (ordered)
      constancy = std::max(constancy, runWithinMultiples(lhs, rhs, dim));
    info.constancy[dim] = constancy;
    // An exact division by a power of two keeps the rest of the power.
    if (divisor && *divisor != 0 && (*divisor > 0 || !isUnsigned)) {
      uint64_t magnitude =
          *divisor > 0 ? uint64_t(*divisor) : ~uint64_t(*divisor) + 1;
      if (llvm::isPowerOf2_64(magnitude))
        info.divisibility[dim] = std::max<int64_t>(
            1, divisibilityAt(lhs, dim, 1) /
                   int64_t(std::min<uint64_t>(magnitude, kMaxDivisibility)));
    }
  }
  info.nonNegative = lhs.nonNegative && (isUnsigned || rhs.nonNegative);
  return info;
}

AxisInfo Rules::rem(const AxisInfo &lhs, const AxisInfo &rhs, bool isUnsigned) {
  if (rhs.constant == 1 || (!isUnsigned && rhs.constant == -1))
    return uniformConstant(shape, 0);
  bool ordered = isUnsigned || lhs.nonNegative;
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    // lhs - q * rhs keeps what divides both.
    setRuns(info, dim, ordered ? runWithinMultiples(lhs, rhs, dim) : 1, lhs,
            rhs);
    info.constancy[dim] = gcd(lhs.constancy[dim], rhs.constancy[dim]);
  }
  // C's remainder has the sign of the dividend; an unsigned one is below the
  // divisor.
  info.nonNegative = isUnsigned ? rhs.nonNegative : lhs.nonNegative;
  return info;
}

AxisInfo Rules::shift(const AxisInfo &lhs, const AxisInfo &rhs, bool left,
                      bool isUnsigned) {
  if (rhs.constant == 0)
    return lhs;
  std::optional<int64_t> amount = rhs.constant;
  if (amount && (*amount < 0 || *amount >= int64_t(bits)))
    return keepConstancy(); // poison: no facts to derive
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    int64_t constancy = gcd(lhs.constancy[dim], rhs.constancy[dim]);
    int64_t element = divisibilityAt(lhs, dim, 1);
    int64_t power = amount ? int64_t(1) << std::min<int64_t>(*amount, 30) : 1;
    if (left) {
      // x << s = x * 2^s, for any s.
      info.divisibility[dim] = mulDivisibility(element, power);
    } else if (amount) {
      // A right shift is a floor division by 2^s, for either sign.
      info.divisibility[dim] = std::max<int64_t>(1, element / power);
      constancy = std::max(constancy, alignedRun(lhs, dim, power));
    }
    info.constancy[dim] = constancy;
  }
  if (!left)
    info.nonNegative = lhs.nonNegative || (isUnsigned && amount && *amount > 0);
  return info;
}

AxisInfo Rules::bitwise(const AxisInfo &lhs, const AxisInfo &rhs, bool isAnd) {
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    int64_t a = divisibilityAt(lhs, dim, 1), b = divisibilityAt(rhs, dim, 1);
    // Zero low bits stay zero: in either operand for `and`, in both for
    // `or` and `xor`.
    info.divisibility[dim] = isAnd ? std::max(a, b) : std::min(a, b);
    info.constancy[dim] = gcd(lhs.constancy[dim], rhs.constancy[dim]);
  }
  info.nonNegative = isAnd ? lhs.nonNegative || rhs.nonNegative
                           : lhs.nonNegative && rhs.nonNegative;
  return info;
}

AxisInfo Rules::minMax(const AxisInfo &lhs, const AxisInfo &rhs, bool isMax,
                       bool isUnsigned) {
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    // Two consecutive runs differ by one amount along a common run, so one
    // side wins all of it. An unsigned comparison sees a signed run wrap at
    // 0: shorten the runs so that it can only happen at a run start.
    int64_t run = gcd(lhs.contiguity[dim], rhs.contiguity[dim]);
    if (isUnsigned)
      run = gcd(run, alignedRun(lhs, dim, kMaxDivisibility),
                alignedRun(rhs, dim, kMaxDivisibility));
    setRuns(info, dim, run, lhs, rhs);
    info.constancy[dim] = gcd(lhs.constancy[dim], rhs.constancy[dim]);
  }
  // A signed max is at least either side; an unsigned min is at most either
  // side, unsigned: below 2^(bits-1) if either side is.
  bool either = isMax != isUnsigned;
  info.nonNegative = either ? lhs.nonNegative || rhs.nonNegative
                            : lhs.nonNegative && rhs.nonNegative;
  if (lhs.constant && rhs.constant && bits) {
    auto [a, b] = std::make_pair(*lhs.constant, *rhs.constant);
    bool lhsWins =
        isUnsigned ? (uint64_t(a) & llvm::maskTrailingOnes<uint64_t>(bits)) >
                         (uint64_t(b) & llvm::maskTrailingOnes<uint64_t>(bits))
                   : a > b;
    info.constant = lhsWins == isMax ? a : b;
  }
  return info;
}

AxisInfo Rules::compare(arith::CmpIPredicate predicate, const AxisInfo &lhs,
                        const AxisInfo &rhs) {
  using P = arith::CmpIPredicate;
  // `x < n` and `x >= n` flip only where x reaches n; so do `n > x` and
  // `n <= x`. Equality is true at one element of a run: no such rule.
  bool lhsRuns =
      llvm::is_contained({P::slt, P::ult, P::sge, P::uge}, predicate);
  bool rhsRuns =
      llvm::is_contained({P::sgt, P::ugt, P::sle, P::ule}, predicate);
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    int64_t constancy = gcd(lhs.constancy[dim], rhs.constancy[dim]);
    if (lhsRuns)
      constancy = std::max(constancy, runWithinMultiples(lhs, rhs, dim));
    if (rhsRuns)
      constancy = std::max(constancy, runWithinMultiples(rhs, lhs, dim));
    info.constancy[dim] = constancy;
  }
  return info;
}

AxisInfo Rules::select(const AxisInfo &cond, const AxisInfo &a,
                       const AxisInfo &b) {
  if (cond.constant)
    return *cond.constant ? a : b;
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    int64_t condRun = cond.getRank() == info.getRank() ? cond.constancy[dim]
                                                       : extentOf(shape, dim);
    setRuns(info, dim, gcd(a.contiguity[dim], b.contiguity[dim], condRun), a,
            b);
    info.constancy[dim] = gcd(a.constancy[dim], b.constancy[dim], condRun);
  }
  if (a.constant == b.constant)
    info.constant = a.constant;
  info.nonNegative = a.nonNegative && b.nonNegative;
  return info;
}

/// An integer conversion from `from` bits to the result's width: sign
/// extension keeps every fact; zero extension of a value that may be
/// negative, and truncation, wrap, so runs are shortened to start at values
/// divisible by their length and the wrap falls at a run start.
AxisInfo Rules::intCast(AxisInfo info, unsigned from, bool zeroExtend) {
  unsigned to = bits;
  if (to == from)
    return info;
  if (to > from) {
    if (!zeroExtend || info.nonNegative)
      return info;
    for (unsigned dim = 0; dim < info.getRank(); ++dim)
      shortenRuns(info, dim, alignedRun(info, dim, kMaxDivisibility));
    if (info.constant)
      info.constant = int64_t(uint64_t(*info.constant) &
                              llvm::maskTrailingOnes<uint64_t>(from));
    info.nonNegative = true;
    return info;
  }
  if (to == 1) { // the low bit
    AxisInfo bit = unknown();
    bit.constancy = info.constancy;
    if (info.constant)
      bit.constant = wrapTo(uint64_t(*info.constant), 1);
    return bit;
  }
  int64_t wrap = int64_t(1) << std::min(to - 1, 30u);
  for (unsigned dim = 0; dim < info.getRank(); ++dim)
    shortenRuns(info, dim, alignedRun(info, dim, wrap));
  if (info.constant)
    info.constant = wrapTo(uint64_t(*info.constant), to);
  info.nonNegative = false;
  return info;
}

/// A deterministic function of each element keeps runs of equal elements.
/// Scalar operands of a block op are the same everywhere: they do not count.
AxisInfo Rules::keepConstancy() {
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim)
    info.constancy[dim] = extentOf(shape, dim);
  for (auto [operand, fact] : llvm::zip(op->getOperands(), operands))
    if (shapeOf(operand.getType()) == shape)
      for (unsigned dim = 0; dim < info.getRank(); ++dim)
        info.constancy[dim] = gcd(info.constancy[dim], fact.constancy[dim]);
  return info;
}

AxisInfo Rules::expandDims(const AxisInfo &src, unsigned axis) {
  // Along the new dimension every element is a run start.
  AxisInfo info = src;
  info.contiguity.insert(info.contiguity.begin() + axis, 1);
  info.divisibility.insert(info.divisibility.begin() + axis,
                           elementDivisibility(src));
  info.constancy.insert(info.constancy.begin() + axis, 1);
  return info;
}

AxisInfo Rules::broadcast(const AxisInfo &src, ArrayRef<int64_t> srcShape) {
  AxisInfo info = src;
  for (unsigned dim = 0; dim < info.getRank(); ++dim)
    if (srcShape[dim] == 1 && shape[dim] != 1) {
      // The one element along `dim` is a run start: its divisibility holds.
      info.contiguity[dim] = 1;
      info.constancy[dim] = shape[dim];
    }
  return info;
}

/// Row-major order is kept: runs along the last dimension survive where they
/// fit in the rows of both shapes. Other dimensions keep what holds for every
/// element. A reshape that only adds or drops dimensions of extent 1 (a
/// block pointer's `reshape(offset + arange(n), (n, 1))`) keeps every
/// dimension's facts, as expand_dims does.
AxisInfo Rules::reshape(const AxisInfo &src, ArrayRef<int64_t> srcShape) {
  auto nonUnitDims = [](ArrayRef<int64_t> dims) {
    SmallVector<unsigned> kept;
    for (auto [dim, extent] : llvm::enumerate(dims))
      if (extent != 1)
        kept.push_back(dim);
    return kept;
  };
  SmallVector<unsigned> srcDims = nonUnitDims(srcShape),
                        dims = nonUnitDims(shape);
  if (srcDims.size() == dims.size() &&
      llvm::all_of(llvm::zip(srcDims, dims), [&](auto pair) {
        return srcShape[std::get<0>(pair)] == shape[std::get<1>(pair)];
      })) {
    // Along a dimension of extent 1 every element is a run start.
    AxisInfo info = unknown();
    for (unsigned dim = 0; dim < info.getRank(); ++dim)
      info.divisibility[dim] = elementDivisibility(src);
    for (auto [from, to] : llvm::zip(srcDims, dims)) {
      info.contiguity[to] = src.contiguity[from];
      info.divisibility[to] = src.divisibility[from];
      info.constancy[to] = src.constancy[from];
    }
    info.nonNegative = src.nonNegative;
    info.constant = src.constant;
    return info;
  }
  AxisInfo info = unknown();
  int64_t every = elementDivisibility(src);
  bool isUniform = true;
  for (unsigned dim = 0; dim < src.getRank(); ++dim)
    isUniform &= src.constancy[dim] == srcShape[dim];
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    info.divisibility[dim] = every;
    if (isUniform)
      info.constancy[dim] = shape[dim];
  }
  unsigned srcLast = src.getRank() - 1, last = info.getRank() - 1;
  int64_t rows = gcd(srcShape[srcLast], shape[last]);
  int64_t run = gcd(src.contiguity[srcLast], rows);
  info.contiguity[last] = run;
  info.divisibility[last] = std::max(every, divisibilityAt(src, srcLast, run));
  info.constancy[last] =
      std::max(info.constancy[last], gcd(src.constancy[srcLast], rows));
  info.nonNegative = src.nonNegative;
  if (isUniform)
    info.constant = src.constant;
  return info;
}

AxisInfo Rules::trans(const AxisInfo &src, ArrayRef<int32_t> order) {
  AxisInfo info = src;
  for (auto [dim, from] : llvm::enumerate(order)) {
    info.contiguity[dim] = src.contiguity[from];
    info.divisibility[dim] = src.divisibility[from];
    info.constancy[dim] = src.constancy[from];
  }
  return info;
}

/// Equal pointers (and equal mask bits and `other`s) load equal values.
AxisInfo Rules::load(LoadOp load) {
  AxisInfo info = unknown();
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    int64_t constancy = operands[0].constancy[dim];
    if (load.getMask())
      for (const AxisInfo &operand : operands.drop_front())
        constancy = gcd(constancy, operand.constancy[dim]);
    info.constancy[dim] = constancy;
  }
  return info;
}

/// The elements of a line along `axis` combine into one result (reduce) or
/// into its prefixes (scan). Sums, maxima and minima of integers are divisible
/// by what divides every element. Equal lines along other dimensions give
/// equal results where the combination is exact whatever its order: integer
/// sums, maxima and minima (float sums may round differently per line).
AxisInfo Rules::reduceOrScan(const AxisInfo &src, unsigned axis,
                             Combine combine, bool reduce,
                             ArrayRef<int64_t> srcShape) {
  bool integer = bits > 0;
  bool picks = combine == Combine::Max || combine == Combine::Min;
  bool exact = picks || (integer && combine == Combine::Sum);
  // The max or min of a line of equal elements is that element.
  if (reduce && picks && src.constancy[axis] == srcShape[axis] &&
      src.getRank() > 1) {
    AxisInfo info = src;
    info.contiguity.erase(info.contiguity.begin() + axis);
    info.divisibility.erase(info.divisibility.begin() + axis);
    info.constancy.erase(info.constancy.begin() + axis);
    return info;
  }
  AxisInfo info = unknown();
  int64_t every = integer && exact ? elementDivisibility(src) : 1;
  for (unsigned dim = 0; dim < info.getRank(); ++dim)
    info.divisibility[dim] = every;
  if (exact && !shape.empty()) {
    unsigned dim = 0;
    for (unsigned srcDim = 0; srcDim < src.getRank(); ++srcDim) {
      if (reduce && srcDim == axis)
        continue;
      if (srcDim != axis)
        info.constancy[dim] = src.constancy[srcDim];
      ++dim;
    }
  }
  info.nonNegative = integer && exact && src.nonNegative;
  if (integer && picks)
    info.constant = src.constant;
  return info;
}

/// The hint's facts replace the operand's.
AxisInfo Rules::hint(HintOp hint) {
  AxisInfo info = operands[0];
  if (auto divisibility = hint.getDivisibility())
    info.divisibility.assign(divisibility->begin(), divisibility->end());
  if (auto contiguity = hint.getContiguity())
    info.contiguity.assign(contiguity->begin(), contiguity->end());
  if (auto constancy = hint.getConstancy())
    info.constancy.assign(constancy->begin(), constancy->end());
  return info;
}

static Combine combineOf(CombineKind kind) {
  switch (kind) {
  case CombineKind::sum:
    return Combine::Sum;
  case CombineKind::max:
  case CombineKind::maxnum:
  case CombineKind::umax:
    return Combine::Max;
  case CombineKind::min:
  case CombineKind::minnum:
  case CombineKind::umin:
    return Combine::Min;
  case CombineKind::custom:
    return Combine::Other;
  }
  return Combine::Other;
}

AxisInfo Rules::dispatch() {
  using namespace arith;
  auto lhs = [&]() -> const AxisInfo & { return operands[0]; };
  auto rhs = [&]() -> const AxisInfo & { return operands[1]; };
  auto srcShape = [&]() { return shapeOf(op->getOperand(0).getType()); };
  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      // Ops that keep every element where it is: the operand's facts.
      .Case<UnrealizedConversionCastOp, ConvertLayoutOp>([&](auto cast) {
        Type from = cast->getNumOperands() == 1 ? cast->getOperand(0).getType()
                                                : Type();
        if (from && shapeOf(from) == shape &&
            getElementTypeOrSelf(from) == getElementTypeOrSelf(resultType))
          return lhs();
        return unknown();
      })
      .Case<arith::ConstantOp, tile::ConstantOp>(
          [&](auto constant) { return constantFacts(constant.getValue()); })
      .Case<ArangeOp>([&](ArangeOp arange) {
        AxisInfo info = unknown();
        int64_t start = arange.getStartAttr().getInt();
        info.contiguity[0] = shape[0];
        info.divisibility[0] = powerOf2Dividing(start);
        info.nonNegative = start >= 0;
        return info;
      })
      .Case<ProgramIdOp, NumProgramsOp>([&](auto) {
        AxisInfo info = unknown();
        info.nonNegative = true;
        return info;
      })
      .Case<SplatOp>([&](SplatOp) {
        AxisInfo info = uniform(shape, elementDivisibility(lhs()));
        info.constant = lhs().constant;
        info.nonNegative = lhs().nonNegative;
        return info;
      })
      .Case<ExpandDimsOp>([&](ExpandDimsOp expand) {
        return expandDims(lhs(), expand.getAxis());
      })
      .Case<BroadcastOp>([&](auto) { return broadcast(lhs(), srcShape()); })
      .Case<ReshapeOp>([&](auto) { return reshape(lhs(), srcShape()); })
      .Case<TransOp>([&](TransOp trans) {
        return this->trans(lhs(), trans.getPermutation());
      })
      .Case<HintOp>([&](HintOp hint) { return this->hint(hint); })
      .Case<AddPtrOp>([&](AddPtrOp) {
        AxisInfo info = add(lhs(), rhs(), pointeeBytes(resultType), false);
        info.constant.reset();
        info.nonNegative = false;
        return info;
      })
      .Case<tile::AddIOp, arith::AddIOp>(
          [&](auto) { return add(lhs(), rhs(), 1, false); })
      .Case<tile::SubIOp, arith::SubIOp>(
          [&](auto) { return add(lhs(), rhs(), 1, true); })
      .Case<tile::MulIOp, arith::MulIOp>(
          [&](auto) { return mul(lhs(), rhs()); })
      .Case<tile::DivSIOp, arith::DivSIOp>(
          [&](auto) { return div(lhs(), rhs(), false); })
      .Case<tile::DivUIOp, arith::DivUIOp>(
          [&](auto) { return div(lhs(), rhs(), true); })
      .Case<tile::RemSIOp, arith::RemSIOp>(
          [&](auto) { return rem(lhs(), rhs(), false); })
      .Case<tile::RemUIOp, arith::RemUIOp>(
          [&](auto) { return rem(lhs(), rhs(), true); })
      .Case<tile::ShLIOp, arith::ShLIOp>(
          [&](auto) { return shift(lhs(), rhs(), true, false); })
      .Case<tile::ShRSIOp, arith::ShRSIOp>(
          [&](auto) { return shift(lhs(), rhs(), false, false); })
      .Case<tile::ShRUIOp, arith::ShRUIOp>(
          [&](auto) { return shift(lhs(), rhs(), false, true); })
      .Case<tile::AndIOp, arith::AndIOp>(
          [&](auto) { return bitwise(lhs(), rhs(), true); })
      .Case<tile::OrIOp, arith::OrIOp, tile::XOrIOp, arith::XOrIOp>(
          [&](auto) { return bitwise(lhs(), rhs(), false); })
      .Case<tile::MaxSIOp, arith::MaxSIOp>(
          [&](auto) { return minMax(lhs(), rhs(), true, false); })
      .Case<tile::MinSIOp, arith::MinSIOp>(
          [&](auto) { return minMax(lhs(), rhs(), false, false); })
      .Case<tile::MaxUIOp, arith::MaxUIOp>(
          [&](auto) { return minMax(lhs(), rhs(), true, true); })
      .Case<tile::MinUIOp, arith::MinUIOp>(
          [&](auto) { return minMax(lhs(), rhs(), false, true); })
      .Case<tile::CmpIOp, arith::CmpIOp>(
          [&](auto cmp) { return compare(cmp.getPredicate(), lhs(), rhs()); })
      .Case<tile::SelectOp, arith::SelectOp>(
          [&](auto) { return select(operands[0], operands[1], operands[2]); })
      .Case<ExtSIOp, IndexCastOp>([&](Operation *cast) {
        return intCast(lhs(), intBits(cast->getOperand(0).getType()), false);
      })
      .Case<ExtUIOp, TruncIOp, IndexCastUIOp>([&](Operation *cast) {
        return intCast(lhs(), intBits(cast->getOperand(0).getType()), true);
      })
      .Case<CastOp>([&](CastOp cast) {
        unsigned from = intBits(cast.getSrc().getType());
        if (!from || !bits)
          return keepConstancy();
        if (bits == 1) { // x != 0
          AxisInfo info = keepConstancy();
          if (lhs().constant)
            info.constant = *lhs().constant != 0 ? -1 : 0;
          return info;
        }
        return intCast(lhs(), from, cast.getUnsignedSrc() || from == 1);
      })
      .Case<LoadOp>([&](LoadOp load) { return this->load(load); })
      .Case<ReduceOp>([&](ReduceOp reduce) {
        return reduceOrScan(lhs(), reduce.getAxis(),
                            combineOf(reduce.getKind()), true, srcShape());
      })
      .Case<ScanOp>([&](ScanOp scan) {
        return reduceOrScan(lhs(), scan.getAxis(), combineOf(scan.getKind()),
                            false, srcShape());
      })
      .Default([&](Operation *other) {
        if (other->hasTrait<OpTrait::Elementwise>() && isPure(other))
          return keepConstancy();
        return unknown();
      });
}

//===----------------------------------------------------------------------===//
// The data-flow analysis
//===----------------------------------------------------------------------===//

/// What holds for a value at an entry point: scalar and pointer arguments of
/// a function carry their alignment (pointers to their element size,
/// `tile.divisibility` from specialization); nothing else is known.
static AxisInfo entryFacts(Value value) {
  ArrayRef<int64_t> shape = shapeOf(value.getType());
  auto arg = dyn_cast<BlockArgument>(value);
  auto func = arg ? dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp())
                  : FunctionOpInterface();
  if (!func || arg.getOwner() != &func.getFunctionBody().front() ||
      !shape.empty())
    return AxisInfo::unknown(shape.size());
  int64_t divisibility =
      isa<PtrType>(value.getType()) ? pointeeBytes(value.getType()) : 1;
  if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                     "tile.divisibility"))
    divisibility = std::max(divisibility, powerOf2Dividing(attr.getInt()));
  AxisInfo info = normalized(uniform(shape, divisibility), shape);
  info.nonNegative = intBits(value.getType()) && assumedNonNegative(value);
  return info;
}

/// The facts of `op`'s single result (multi-result ops give nothing).
static AxisInfo computeFacts(Operation *op, ArrayRef<AxisInfo> operands) {
  if (op->getNumResults() != 1)
    return AxisInfo();
  return Rules(op, operands).compute();
}

namespace {

using AxisLattice = dataflow::Lattice<AxisInfo>;

class AxisInfoDataFlow
    : public dataflow::SparseForwardDataFlowAnalysis<AxisLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  void setToEntryState(AxisLattice *lattice) override {
    propagateIfChanged(lattice,
                       lattice->join(entryFacts(lattice->getAnchor())));
  }

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisLattice *> operands,
                               ArrayRef<AxisLattice *> results) override {
    SmallVector<AxisInfo> facts;
    for (const AxisLattice *operand : operands) {
      // Not reached yet: the op is visited again when it is.
      if (operand->getValue().isUninitialized())
        return success();
      facts.push_back(operand->getValue());
    }
    AxisInfo info = computeFacts(op, facts);
    for (AxisLattice *result : results)
      propagateIfChanged(
          result, result->join(info.isUninitialized()
                                   ? unknownOf(result->getAnchor().getType())
                                   : info));
    return success();
  }

  /// The induction variable of scf.for runs from the lower bound in steps:
  /// every value is divisible by what divides both.
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisLattice *> argLattices,
                                    unsigned firstIndex) override {
    auto forOp = dyn_cast<scf::ForOp>(op);
    if (!forOp || argLattices.empty() ||
        argLattices[0]->getAnchor() != forOp.getInductionVar())
      return SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
          op, successor, argLattices, firstIndex);
    // Depend on the bounds from the body's entry, so that the induction
    // variable is computed again when they change.
    ProgramPoint *body = getProgramPointBefore(forOp.getBody());
    const AxisInfo &lower =
        getLatticeElementFor(body, forOp.getLowerBound())->getValue();
    const AxisInfo &step =
        getLatticeElementFor(body, forOp.getStep())->getValue();
    if (lower.isUninitialized() || step.isUninitialized())
      return;
    AxisInfo info = AxisInfo::unknown(0);
    info.divisibility[0] =
        gcd(elementDivisibility(lower), elementDivisibility(step));
    // The step is positive and the variable below the upper bound: it never
    // goes below the lower bound (as a signed value, for a signed loop).
    info.nonNegative = lower.nonNegative && !forOp.getUnsignedCmp();
    propagateIfChanged(argLattices[0], argLattices[0]->join(info));
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root)
    : solver(std::make_unique<DataFlowSolver>(
          DataFlowConfig().setInterprocedural(false))) {
  // The framework prunes dead code and needs constant propagation for it.
  solver->load<dataflow::DeadCodeAnalysis>();
  solver->load<dataflow::SparseConstantPropagation>();
  solver->load<AxisInfoDataFlow>();
  if (failed(solver->initializeAndRun(root)))
    solver.reset(); // every value is then unknown
}

AxisInfoAnalysis::~AxisInfoAnalysis() = default;

AxisInfo AxisInfoAnalysis::get(Value value) {
  if (solver)
    if (auto *lattice = solver->lookupState<AxisLattice>(value)) {
      if (lattice->getValue().isUninitialized())
        return unknownOf(value.getType()); // dead code
      return lattice->getValue();
    }
  auto it = created.find(value);
  if (it != created.end())
    return it->second;
  AxisInfo info;
  Operation *op = value.getDefiningOp();
  if (op && op->getNumResults() == 1) {
    SmallVector<AxisInfo> operands;
    for (Value operand : op->getOperands())
      operands.push_back(get(operand));
    info = computeFacts(op, operands);
  } else {
    info = entryFacts(value);
  }
  if (info.isUninitialized())
    info = unknownOf(value.getType());
  created[value] = info;
  return info;
}

unsigned AxisInfoAnalysis::getPreferredWidth(Value ptr, Value mask) {
  ArrayRef<int64_t> shape = shapeOf(ptr.getType());
  if (shape.empty())
    return 1;
  unsigned last = shape.size() - 1;
  AxisInfo info = get(ptr);
  // Accesses of `width` elements start at multiples of it: the width must
  // divide the runs of consecutive addresses, of equal mask bits, and the row.
  int64_t run = gcd(info.contiguity[last], shape[last]);
  if (mask)
    run = gcd(run, get(mask).constancy[last]);
  int64_t bytes = pointeeBytes(ptr.getType());
  int64_t width =
      std::min({powerOf2Dividing(run), 16 / bytes,
                std::max<int64_t>(1, info.divisibility[last] / bytes)});
  return std::max<int64_t>(width, 1);
}

unsigned AxisInfoAnalysis::getAccessWidth(Value ptr, Value mask,
                                          unsigned vector) {
  unsigned width = getPreferredWidth(ptr, mask);
  while (vector % width != 0)
    width /= 2;
  return width;
}
