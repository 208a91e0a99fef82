//===- Values.cpp - constants, conversions and broadcasting ---------------===//
//
// C's usual arithmetic conversions and NumPy's broadcasting, written as
// tile/arith ops: scalars use `arith`, tiles use `tile`, and broadcasting is
// explicit (`tile.splat`, `tile.expand_dims`, `tile.broadcast`) as the
// dialect asks of every frontend.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "tile/Dialect/Tile/IR/TileLimits.h"

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace tile::tritonc;

std::string Emitter::locText() const {
  std::string name;
  for (char c : options.fileName) {
    if (c == '"' || c == '\\')
      name += '\\';
    name += c;
  }
  return "loc(\"" + name + "\":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.column) + ")";
}

void Emitter::line(const std::string &text) {
  out.append(2 * indent, ' ');
  out += text;
  out += '\n';
}

Val Emitter::op(const std::string &text, const TcType &type) {
  Val v;
  v.ssa = fresh();
  v.type = type;
  line(v.ssa + " = " + text + " " + locText());
  return v;
}

std::string Emitter::capture(Location at, const std::function<void()> &body) {
  // `indent` is 1 in a function body and one more in each region.
  if (indent > kMaxControlDepth)
    fail(at, "control flow (if, for, while, and ?: reading memory) nested "
             "more than " +
                 std::to_string(kMaxControlDepth) + " levels deep");
  std::string saved;
  std::swap(saved, out);
  ++indent;
  body();
  --indent;
  std::swap(saved, out);
  return saved;
}

namespace {
/// A float as MLIR reads it back exactly; infinities and NaN in hex.
std::string floatLiteral(double value, ScalarKind kind) {
  if (std::isinf(value) || std::isnan(value)) {
    bool negative = std::signbit(value);
    switch (kind) {
    case ScalarKind::Half:
      return std::isnan(value) ? "0x7E00" : negative ? "0xFC00" : "0x7C00";
    case ScalarKind::Double:
      return std::isnan(value) ? "0x7FF8000000000000"
             : negative        ? "0xFFF0000000000000"
                               : "0x7FF0000000000000";
    default:
      return std::isnan(value) ? "0x7FC00000"
             : negative        ? "0xFF800000"
                               : "0x7F800000";
    }
  }
  char buffer[64];
  if (kind == ScalarKind::Double)
    snprintf(buffer, sizeof buffer, "%.17g", value);
  else
    snprintf(buffer, sizeof buffer, "%.9g", (double)(float)value);
  std::string s = buffer;
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

std::string literalText(const Val &v, const TcType &type) {
  if (type.isBool())
    return v.intConstant != 0 ? "true" : "false";
  if (type.isFloat())
    return floatLiteral(v.floatConstant, type.scalar);
  return std::to_string(v.intConstant);
}

/// The range of an integer kind.
std::pair<int64_t, int64_t> integerRange(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool:
    return {0, 1};
  case ScalarKind::Int:
    return {INT32_MIN, INT32_MAX};
  default:
    return {INT64_MIN, INT64_MAX};
  }
}

int rank(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Void:
    return -1;
  case ScalarKind::Bool:
    return 0;
  case ScalarKind::Int:
    return 1;
  case ScalarKind::Long:
    return 2;
  case ScalarKind::Half:
    return 3;
  case ScalarKind::Float:
    return 4;
  case ScalarKind::Double:
    return 5;
  }
  return -1;
}
} // namespace

Val Emitter::constant(int64_t value, const TcType &type) {
  Val v;
  v.intConstant = value;
  v.floatConstant = (double)value;
  return sameConstant(v, type);
}

Val Emitter::floatConstant(double value, const TcType &type) {
  Val v;
  v.floatConstant = value;
  return sameConstant(v, type);
}

Val Emitter::sameConstant(const Val &v, const TcType &type) {
  std::string text = literalText(v, type);
  Val result;
  if (type.isTile())
    result = op("tile.constant dense<" + text + "> : " + type.mlir(), type);
  else if (type.isBool())
    result = op("arith.constant " + text, type);
  else
    result = op("arith.constant " + text + " : " + type.mlir(), type);
  result.isConstant = true;
  result.intConstant = v.intConstant;
  result.floatConstant = v.floatConstant;
  return result;
}

void Emitter::checkFits(int64_t value, ScalarKind kind, Location at,
                        const std::string &what) {
  auto [lo, hi] = integerRange(kind);
  if (value < lo || value > hi)
    fail(at, what + " does not fit in '" + scalarName(kind) + "' (" +
                 std::to_string(lo) + " to " + std::to_string(hi) + ")");
}

std::vector<int64_t> Emitter::checkShape(std::vector<int64_t> shape,
                                         Location at) {
  int64_t elements = 1;
  for (int64_t extent : shape) {
    if (extent <= 0 || elements > mlir::tile::kMaxBlockElements / extent)
      fail(at, "a tile of shape " + shapeString(shape) +
                   " has more than 2^31 elements, the most a tile can have");
    elements *= extent;
  }
  return shape;
}

ScalarKind Emitter::commonScalar(const Val &a, const Val &b) const {
  // A literal adapts to the other operand (Triton's "weak" constants), so
  // that `x * 2.0` keeps a half tile half; an integer meeting a float
  // literal still becomes float, as in C.
  ScalarKind ka = a.type.scalar, kb = b.type.scalar;
  if (a.isLiteral && !b.isLiteral) {
    if (a.type.isFloat() && !b.type.isFloat())
      return ka;
    return rank(kb) == 0 && rank(ka) > 0 ? ka : kb;
  }
  if (b.isLiteral && !a.isLiteral) {
    if (b.type.isFloat() && !a.type.isFloat())
      return kb;
    return rank(ka) == 0 && rank(kb) > 0 ? kb : ka;
  }
  return rank(ka) >= rank(kb) ? ka : kb;
}

Val Emitter::convert(Val v, ScalarKind to, Location at) {
  if (v.type.pointer) {
    if (to == v.type.scalar)
      return v;
    fail(at, "cannot convert the pointer type '" + v.type.str() + "' to '" +
                 scalarName(to) + "'");
  }
  if (v.type.isVoid())
    fail(at, "a void value is not allowed here");
  if (v.type.scalar == to)
    return v;
  TcType target = v.type.withScalar(to);
  if (v.isConstant) {
    Location saved = loc;
    loc = at;
    bool fromFloat = v.type.isFloat();
    Val c;
    if (to == ScalarKind::Bool) {
      c = constant(fromFloat ? v.floatConstant != 0 : v.intConstant != 0,
                   target);
    } else if (target.isFloat()) {
      c = floatConstant(fromFloat ? v.floatConstant : (double)v.intConstant,
                        target);
    } else if (fromFloat) {
      // C truncates toward zero; a value out of range has no integer.
      double truncated = std::trunc(v.floatConstant);
      auto [lo, hi] = integerRange(to);
      if (!(truncated >= (double)lo && truncated <= (double)hi))
        fail(at, "the constant " +
                     floatLiteral(v.floatConstant, ScalarKind::Double) +
                     " does not fit in '" + scalarName(to) + "'");
      c = constant((int64_t)truncated, target);
    } else if (v.isLiteral) {
      // A literal adapting to the other operand must keep its value.
      checkFits(v.intConstant, to, at,
                "the constant " + std::to_string(v.intConstant));
      c = constant(v.intConstant, target);
    } else {
      // Any other narrowing wraps, as arith.trunci does at run time.
      int64_t value = to == ScalarKind::Int
                          ? (int64_t)(int32_t)(uint32_t)v.intConstant
                          : v.intConstant;
      c = constant(value, target);
    }
    loc = saved;
    c.isLiteral = v.isLiteral;
    return c;
  }
  Location saved = loc;
  loc = at;
  Val result;
  if (v.type.isTile()) {
    result = op("tile.cast " + v.ssa + " : " + v.type.mlir() + " to " +
                    target.mlir(),
                target);
  } else {
    const TcType &from = v.type;
    std::string fromText = from.mlir(), toText = target.mlir();
    if (to == ScalarKind::Bool) {
      Val zero = constant(0, from);
      result = from.isFloat() ? op("arith.cmpf une, " + v.ssa + ", " +
                                       zero.ssa + " : " + fromText,
                                   target)
                              : op("arith.cmpi ne, " + v.ssa + ", " + zero.ssa +
                                       " : " + fromText,
                                   target);
    } else {
      std::string name;
      unsigned fromBytes = from.elementBytes(), toBytes = target.elementBytes();
      if (from.isFloat() && target.isFloat())
        name = toBytes > fromBytes ? "arith.extf" : "arith.truncf";
      else if (from.isFloat())
        name = "arith.fptosi";
      else if (target.isFloat())
        name = from.isBool() ? "arith.uitofp" : "arith.sitofp";
      else if (toBytes > fromBytes || from.isBool())
        name = from.isBool() ? "arith.extui" : "arith.extsi";
      else
        name = "arith.trunci";
      result =
          op(name + " " + v.ssa + " : " + fromText + " to " + toText, target);
    }
  }
  loc = saved;
  return result;
}

Val Emitter::expandDims(Val v, unsigned axis) {
  std::vector<int64_t> shape = v.type.shape;
  shape.insert(shape.begin() + axis, 1);
  TcType type = v.type.withShape(shape);
  return op("tile.expand_dims " + v.ssa + " {axis = " + std::to_string(axis) +
                " : i32} : " + v.type.mlir() + " -> " + type.mlir(),
            type);
}

std::vector<int64_t> Emitter::broadcastShapes(const TcType &a, const TcType &b,
                                              Location at,
                                              const std::string &context) {
  const auto &sa = a.shape, &sb = b.shape;
  size_t rank = std::max(sa.size(), sb.size());
  std::vector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - sa.size() ? 1 : sa[i - (rank - sa.size())];
    int64_t db = i < rank - sb.size() ? 1 : sb[i - (rank - sb.size())];
    if (da != db && da != 1 && db != 1)
      fail(at, context + ": shapes " + shapeString(sa) + " and " +
                   shapeString(sb) + " do not broadcast (dimension " +
                   std::to_string(i) + " is " + std::to_string(da) + " vs " +
                   std::to_string(db) + ")");
    result[i] = std::max(da, db);
  }
  return checkShape(std::move(result), at);
}

Val Emitter::broadcastTo(Val v, const std::vector<int64_t> &shape, Location at,
                         const std::string &context) {
  if (v.type.shape == shape)
    return v;
  Location saved = loc;
  loc = at;
  if (!v.type.isTile()) {
    TcType type = v.type.withShape(shape);
    Val result;
    if (v.isConstant && !type.pointer) {
      result = sameConstant(v, type);
      result.isLiteral = v.isLiteral;
    } else {
      result = op("tile.splat " + v.ssa + " : " + v.type.mlir() + " -> " +
                      type.mlir(),
                  type);
    }
    loc = saved;
    return result;
  }
  if (v.type.shape.size() > shape.size())
    fail(at, context + ": cannot broadcast shape " + shapeString(v.type.shape) +
                 " to " + shapeString(shape));
  // NumPy: align on the right, then stretch dimensions of extent 1.
  while (v.type.shape.size() < shape.size())
    v = expandDims(v, 0);
  for (size_t i = 0; i < shape.size(); ++i)
    if (v.type.shape[i] != shape[i] && v.type.shape[i] != 1)
      fail(at, context + ": cannot broadcast shape " +
                   shapeString(v.type.shape) + " to " + shapeString(shape));
  if (v.type.shape != shape) {
    TcType type = v.type.withShape(shape);
    v = op("tile.broadcast " + v.ssa + " : " + v.type.mlir() + " -> " +
               type.mlir(),
           type);
  }
  loc = saved;
  return v;
}

Val Emitter::coerce(Val v, const TcType &type, Location at,
                    const std::string &context) {
  if (v.type.pointer != type.pointer ||
      (type.pointer && v.type.scalar != type.scalar))
    fail(at, context + ": cannot convert '" + v.type.str() + "' to '" +
                 type.str() + "'");
  if (v.type.isTile() && !type.isTile())
    fail(at, context + ": cannot convert the tile '" + v.type.str() +
                 "' to the scalar type '" + type.str() + "'");
  if (v.type.isTile() && v.type.shape != type.shape) {
    // Broadcasting into a declared shape is allowed only where NumPy would
    // give exactly that shape.
    bool ok = v.type.shape.size() <= type.shape.size();
    for (size_t i = 0; ok && i < v.type.shape.size(); ++i) {
      int64_t have = v.type.shape[v.type.shape.size() - 1 - i];
      int64_t want = type.shape[type.shape.size() - 1 - i];
      ok = have == want || have == 1;
    }
    if (!ok)
      fail(at, context + ": shape mismatch: the value has shape " +
                   shapeString(v.type.shape) + " but '" + type.str() +
                   "' has shape " + shapeString(type.shape));
  }
  v = convert(v, type.scalar, at);
  return broadcastTo(v, type.shape, at, context);
}

Val Emitter::elementwise(const std::string &scalarOp, const std::string &tileOp,
                         const Val &a, const Val &b, const TcType &resultType) {
  if (a.type.isTile())
    return op(tileOp + " " + a.ssa + ", " + b.ssa + " : " + a.type.mlir(),
              resultType);
  return op(scalarOp + " " + a.ssa + ", " + b.ssa + " : " + a.type.mlir(),
            resultType);
}

Val Emitter::unaryElementwise(const std::string &scalarOp,
                              const std::string &tileOp, const Val &a) {
  if (a.type.isTile())
    return op(tileOp + " " + a.ssa + " : " + a.type.mlir(), a.type);
  return op(scalarOp + " " + a.ssa + " : " + a.type.mlir(), a.type);
}
