//===- AxisInfo.cpp - contiguity, divisibility and constancy --------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include <numeric>

using namespace mlir;
using namespace mlir::tile;

// Divisibility is tracked up to kMaxDivisibility (TileDialect.h): far more
// than any access needs, and small enough that products cannot overflow.

static int64_t highestPowerOf2Dividing(int64_t value) {
  if (value == 0)
    return kMaxDivisibility;
  return std::min<int64_t>(value & -value, kMaxDivisibility);
}

static int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

AxisInfo AxisInfo::unknown(unsigned rank) {
  unsigned entries = std::max(1u, rank);
  AxisInfo info;
  info.contiguity.assign(entries, 1);
  info.divisibility.assign(entries, 1);
  info.constancy.assign(entries, 1);
  return info;
}

static ArrayRef<int64_t> shapeOf(Value value) {
  if (auto block = dyn_cast<BlockType>(value.getType()))
    return block.getShape();
  return {};
}

static unsigned rankOf(Value value) { return shapeOf(value).size(); }

/// A value that is the same everywhere: a splat or a scalar.
static AxisInfo uniform(ArrayRef<int64_t> shape, int64_t divisibility) {
  AxisInfo info = AxisInfo::unknown(shape.size());
  for (unsigned dim = 0; dim < info.getRank(); ++dim) {
    info.divisibility[dim] = divisibility;
    info.constancy[dim] = shape.empty() ? 1 : shape[dim];
  }
  return info;
}

/// Size in bytes of the pointee of a pointer or block of pointers.
static int64_t pointeeBytes(Type type) {
  auto ptr = dyn_cast<PtrType>(getElementTypeOrSelf(type));
  if (!ptr)
    return 1;
  Type pointee = ptr.getPointeeType();
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

const AxisInfo &AxisInfoAnalysis::get(Value value) {
  auto it = cache.find(value);
  if (it != cache.end())
    return it->second;
  // Seed with "unknown" so that cycles through loops terminate.
  cache[value] = AxisInfo::unknown(rankOf(value));
  AxisInfo info = compute(value);
  return cache[value] = std::move(info);
}

AxisInfo AxisInfoAnalysis::compute(Value value) {
  ArrayRef<int64_t> shape = shapeOf(value);
  unsigned rank = shape.size();
  AxisInfo unknownInfo = AxisInfo::unknown(rank);

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // Kernel arguments may carry a divisibility fact from specialization.
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getFunctionBody().front())
      return unknownInfo;
    int64_t divisibility =
        isa<PtrType>(value.getType()) ? pointeeBytes(value.getType()) : 1;
    if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                       "tile.divisibility"))
      divisibility = std::max<int64_t>(divisibility, attr.getInt());
    return uniform(shape, divisibility);
  }

  Operation *op = value.getDefiningOp();
  auto binary = [&](auto combine) -> AxisInfo {
    const AxisInfo lhs = get(op->getOperand(0));
    const AxisInfo rhs = get(op->getOperand(1));
    AxisInfo info = AxisInfo::unknown(rank);
    for (unsigned dim = 0; dim < info.getRank(); ++dim)
      combine(lhs, rhs, dim, info);
    return info;
  };
  auto addLike = [&](int64_t rhsScale, bool subtract) {
    return binary([&](const AxisInfo &lhs, const AxisInfo &rhs, unsigned dim,
                      AxisInfo &info) {
      int64_t fromLhs = gcd(lhs.contiguity[dim], rhs.constancy[dim]);
      int64_t fromRhs =
          subtract ? 1 : gcd(lhs.constancy[dim], rhs.contiguity[dim]);
      info.contiguity[dim] = std::max(fromLhs, fromRhs);
      info.divisibility[dim] =
          gcd(lhs.divisibility[dim],
              std::min(kMaxDivisibility, rhs.divisibility[dim] * rhsScale));
      info.constancy[dim] = gcd(lhs.constancy[dim], rhs.constancy[dim]);
    });
  };
  auto keepConstancy = [&]() {
    return binary([](const AxisInfo &lhs, const AxisInfo &rhs, unsigned dim,
                     AxisInfo &info) {
      info.constancy[dim] = gcd(lhs.constancy[dim], rhs.constancy[dim]);
    });
  };

  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp constant) {
        if (auto integer = dyn_cast<IntegerAttr>(constant.getValue()))
          return uniform(shape, highestPowerOf2Dividing(integer.getInt()));
        return unknownInfo;
      })
      .Case<ConstantOp>([&](ConstantOp constant) {
        auto splat = dyn_cast<SplatElementsAttr>(constant.getValue());
        if (!splat)
          return unknownInfo;
        if (auto integer =
                dyn_cast<IntegerAttr>(splat.getSplatValue<Attribute>()))
          return uniform(shape, highestPowerOf2Dividing(integer.getInt()));
        return uniform(shape, 1);
      })
      .Case<ArangeOp>([&](ArangeOp arange) {
        AxisInfo info = AxisInfo::unknown(1);
        info.contiguity[0] = shape[0];
        info.divisibility[0] =
            highestPowerOf2Dividing(arange.getStartAttr().getInt());
        return info;
      })
      .Case<SplatOp>([&](SplatOp splat) {
        return uniform(shape, get(splat.getSrc()).divisibility[0]);
      })
      .Case<ExpandDimsOp>([&](ExpandDimsOp expand) {
        AxisInfo info = get(expand.getSrc());
        int64_t axis = expand.getAxis();
        int64_t divisibility = *llvm::min_element(info.divisibility);
        info.contiguity.insert(info.contiguity.begin() + axis, 1);
        info.divisibility.insert(info.divisibility.begin() + axis,
                                 divisibility);
        info.constancy.insert(info.constancy.begin() + axis, 1);
        return info;
      })
      .Case<BroadcastOp>([&](BroadcastOp broadcast) {
        AxisInfo info = get(broadcast.getSrc());
        ArrayRef<int64_t> srcShape = shapeOf(broadcast.getSrc());
        for (unsigned dim = 0; dim < rank; ++dim)
          if (srcShape[dim] == 1 && shape[dim] != 1) {
            info.contiguity[dim] = 1;
            info.constancy[dim] = shape[dim];
          }
        return info;
      })
      .Case<AddPtrOp>([&](AddPtrOp addptr) {
        return addLike(pointeeBytes(addptr.getType()), /*subtract=*/false);
      })
      .Case<AddIOp, arith::AddIOp>([&](auto) { return addLike(1, false); })
      .Case<SubIOp, arith::SubIOp>([&](auto) { return addLike(1, true); })
      .Case<MulIOp, arith::MulIOp>([&](auto) {
        return binary([](const AxisInfo &lhs, const AxisInfo &rhs, unsigned dim,
                         AxisInfo &info) {
          info.divisibility[dim] = std::min(
              kMaxDivisibility, lhs.divisibility[dim] * rhs.divisibility[dim]);
          info.constancy[dim] = gcd(lhs.constancy[dim], rhs.constancy[dim]);
        });
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
            arith::IndexCastOp>(
          [&](Operation *cast) { return get(cast->getOperand(0)); })
      .Case<CastOp>([&](CastOp cast) {
        if (isa<IntegerType>(getElementTypeOrSelf(cast.getSrc().getType())) &&
            isa<IntegerType>(getElementTypeOrSelf(cast.getType())))
          return get(cast.getSrc());
        AxisInfo info = AxisInfo::unknown(rank);
        info.constancy = get(cast.getSrc()).constancy;
        return info;
      })
      .Case<CmpIOp>([&](CmpIOp cmp) {
        // A comparison of a contiguous run with a value that is constant
        // over the run and divisible by the run's alignment flips at most at
        // a multiple of that alignment: `offs < n` with 16 | n is constant
        // over aligned groups of 16.
        return binary([](const AxisInfo &lhs, const AxisInfo &rhs, unsigned dim,
                         AxisInfo &info) {
          int64_t constancy = gcd(lhs.constancy[dim], rhs.constancy[dim]);
          auto runOf = [dim](const AxisInfo &run, const AxisInfo &bound) {
            int64_t aligned = gcd(run.contiguity[dim], run.divisibility[dim]);
            return gcd(gcd(aligned, bound.divisibility[dim]),
                       std::max<int64_t>(bound.constancy[dim], 1));
          };
          if (rhs.constancy[dim] > 1)
            constancy = std::max(constancy, runOf(lhs, rhs));
          if (lhs.constancy[dim] > 1)
            constancy = std::max(constancy, runOf(rhs, lhs));
          info.constancy[dim] = constancy;
        });
      })
      .Case<AndIOp, OrIOp, XOrIOp, CmpFOp>(
          [&](auto) { return keepConstancy(); })
      .Case<SelectOp>([&](SelectOp select) {
        const AxisInfo cond = get(select.getCondition());
        const AxisInfo a = get(select.getTrueValue());
        const AxisInfo b = get(select.getFalseValue());
        AxisInfo info = AxisInfo::unknown(rank);
        for (unsigned dim = 0; dim < rank; ++dim) {
          info.contiguity[dim] =
              std::min(gcd(cond.constancy[dim], a.contiguity[dim]),
                       gcd(cond.constancy[dim], b.contiguity[dim]));
          info.divisibility[dim] =
              gcd(a.divisibility[dim], b.divisibility[dim]);
          info.constancy[dim] =
              gcd(cond.constancy[dim], gcd(a.constancy[dim], b.constancy[dim]));
        }
        return info;
      })
      .Default([&](Operation *) { return unknownInfo; });
}

static unsigned largestPowerOf2AtMost(int64_t value) {
  unsigned width = 1;
  while (int64_t(width) * 2 <= value)
    width *= 2;
  return width;
}

unsigned AxisInfoAnalysis::getPreferredWidth(Value ptr, Value mask) {
  ArrayRef<int64_t> shape = shapeOf(ptr);
  if (shape.empty())
    return 1;
  unsigned last = shape.size() - 1;
  // A copy: get() of another value may grow the cache and move this entry.
  AxisInfo info = get(ptr);
  int64_t bytes = pointeeBytes(ptr.getType());
  int64_t width = std::min<int64_t>(info.contiguity[last], 16 / bytes);
  width = std::min<int64_t>(
      width, std::max<int64_t>(1, info.divisibility[last] / bytes));
  if (mask)
    width = std::min<int64_t>(width, get(mask).constancy[last]);
  // A chunk must not cross the end of a row.
  width = std::min<int64_t>(width, highestPowerOf2Dividing(shape[last]));
  return largestPowerOf2AtMost(std::max<int64_t>(width, 1));
}

unsigned AxisInfoAnalysis::getAccessWidth(Value ptr, Value mask,
                                          unsigned vector) {
  unsigned width = getPreferredWidth(ptr, mask);
  while (vector % width != 0)
    width /= 2;
  return width;
}
