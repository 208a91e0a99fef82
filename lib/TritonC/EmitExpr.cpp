//===- EmitExpr.cpp - Triton-C expressions to tile IR ---------------------===//

#include "Emitter.h"

#include "llvm/ADT/STLExtras.h"
#include <cmath>

using namespace tile::tritonc;

namespace {
bool isDereference(const Expr &e) {
  return e.kind == Expr::Unary && e.op == "*";
}

/// Whether evaluating `e` can read memory or change state: such branches of
/// a scalar `?:` are written inside an scf.if rather than evaluated both.
bool hasEffects(const Expr &e) {
  if (isDereference(e) || e.kind == Expr::Call || e.kind == Expr::Assign ||
      e.kind == Expr::Masked ||
      (e.kind == Expr::Unary && e.op.find("++") != std::string::npos) ||
      (e.kind == Expr::Unary && e.op.find("--") != std::string::npos))
    return true;
  return llvm::any_of(e.operands,
                      [](const ExprPtr &o) { return o && hasEffects(*o); });
}

bool isComparison(const std::string &op) {
  return op == "<" || op == ">" || op == "<=" || op == ">=" || op == "==" ||
         op == "!=";
}
} // namespace

namespace {
/// `a op b` on int64, or nothing when the result overflows.
std::optional<int64_t> checkedArithmetic(const std::string &op, int64_t a,
                                         int64_t b) {
  int64_t r;
  if (op == "+")
    return __builtin_add_overflow(a, b, &r) ? std::nullopt
                                            : std::optional<int64_t>(r);
  if (op == "-")
    return __builtin_sub_overflow(a, b, &r) ? std::nullopt
                                            : std::optional<int64_t>(r);
  if (op == "*")
    return __builtin_mul_overflow(a, b, &r) ? std::nullopt
                                            : std::optional<int64_t>(r);
  // Division and remainder: the caller rules out b == 0.
  if (a == INT64_MIN && b == -1)
    return std::nullopt;
  return op == "/" ? a / b : a % b;
}
} // namespace

std::optional<int64_t> Emitter::constantInt(const Expr &e) {
  // Shapes, axes and ranges are computed exactly in 64 bits; anything that
  // does not fit is an error at the operator, never a wrapped value.
  auto overflow = [&](const std::string &what) -> int64_t {
    fail(e.loc, "integer overflow in a constant expression: " + what +
                    " does not fit in 64 bits");
  };
  switch (e.kind) {
  case Expr::IntLit:
  case Expr::BoolLit:
    return e.value;
  case Expr::Name: {
    Variable *var = lookup(e.name);
    if (var && var->value.isConstant && var->type.isInteger() &&
        !var->type.isTile())
      return var->value.intConstant;
    return std::nullopt;
  }
  case Expr::Cast:
    if (e.castType.pointer || e.castType.scalar == ScalarKind::Half ||
        e.castType.scalar == ScalarKind::Float ||
        e.castType.scalar == ScalarKind::Double)
      return std::nullopt;
    return constantInt(*e.operands[0]);
  case Expr::Unary: {
    auto v = constantInt(*e.operands[0]);
    if (!v)
      return std::nullopt;
    if (e.op == "-")
      return *v == INT64_MIN ? overflow("-(" + std::to_string(*v) + ")") : -*v;
    if (e.op == "+")
      return *v;
    if (e.op == "~")
      return ~*v;
    if (e.op == "!")
      return (int64_t)!*v;
    return std::nullopt;
  }
  case Expr::Ternary: {
    auto c = constantInt(*e.operands[0]);
    if (!c)
      return std::nullopt;
    return constantInt(*e.operands[*c ? 1 : 2]);
  }
  case Expr::Binary: {
    auto a = constantInt(*e.operands[0]), b = constantInt(*e.operands[1]);
    if (!a || !b)
      return std::nullopt;
    const std::string &op = e.op;
    std::string text = std::to_string(*a) + " " + op + " " + std::to_string(*b);
    if ((op == "/" || op == "%") && *b == 0)
      fail(e.loc, "division by zero in a constant expression");
    if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") {
      if (auto r = checkedArithmetic(op, *a, *b))
        return *r;
      return overflow(text);
    }
    if (op == "<<" || op == ">>") {
      if (*b < 0 || *b > 63)
        fail(e.loc, "shift count " + std::to_string(*b) +
                        " in a constant expression is out of range (0 to 63)");
      if (op == ">>")
        return *a >> *b;
      // A left shift must be exact: the bits shifted out are all zero (or
      // all one for a negative value).
      if (*b > 0 && (*a >> (63 - *b)) != 0 && (*a >> (63 - *b)) != -1)
        return overflow(text);
      return (int64_t)((uint64_t)*a << *b);
    }
    if (op == "&")
      return *a & *b;
    if (op == "|")
      return *a | *b;
    if (op == "^")
      return *a ^ *b;
    if (op == "<")
      return (int64_t)(*a < *b);
    if (op == ">")
      return (int64_t)(*a > *b);
    if (op == "<=")
      return (int64_t)(*a <= *b);
    if (op == ">=")
      return (int64_t)(*a >= *b);
    if (op == "==")
      return (int64_t)(*a == *b);
    if (op == "!=")
      return (int64_t)(*a != *b);
    if (op == "&&")
      return (int64_t)(*a && *b);
    if (op == "||")
      return (int64_t)(*a || *b);
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

int64_t Emitter::requireConstantInt(const Expr &e, const std::string &what) {
  auto v = constantInt(e);
  if (!v)
    fail(e.loc, what + " must be an integer constant (a literal, a macro or "
                       "arithmetic on them)");
  return *v;
}

Val Emitter::notNullValue(const Expr &e) {
  Val v = emitExpr(e);
  if (v.type.isVoid())
    fail(e.loc, "a void value is not allowed here");
  return v;
}

Val Emitter::emitExpr(const Expr &e) {
  loc = e.loc;
  switch (e.kind) {
  case Expr::IntLit: {
    // As C: int if it fits (and has no 'l' suffix), else long.
    bool wide = e.isLong || e.value > INT32_MAX;
    Val v = constant(e.value,
                     TcType::of(wide ? ScalarKind::Long : ScalarKind::Int));
    v.isLiteral = true;
    return v;
  }
  case Expr::FloatLit: {
    // Unsuffixed float literals are `float`, not `double`: GPU code.
    Val v = floatConstant(e.floatValue, TcType::of(ScalarKind::Float));
    v.isLiteral = true;
    return v;
  }
  case Expr::BoolLit: {
    Val v = constant(e.value, TcType::of(ScalarKind::Bool));
    v.isLiteral = true;
    return v;
  }
  case Expr::Name: {
    if (e.name == "newaxis")
      fail(e.loc, "'newaxis' is only allowed inside a subscript");
    Variable *var = lookup(e.name);
    if (!var)
      fail(e.loc, "use of undeclared identifier '" + e.name + "'");
    Val v = var->value;
    v.isLiteral = false;
    return v;
  }
  case Expr::Unary:
    return emitUnary(e);
  case Expr::Binary: {
    Val a = notNullValue(*e.operands[0]);
    Val b = notNullValue(*e.operands[1]);
    return emitBinary(e.op, a, b, e.loc);
  }
  case Expr::Assign:
    return emitAssign(e);
  case Expr::Ternary:
    return emitTernary(e);
  case Expr::Range: {
    int64_t lo = requireConstantInt(*e.operands[0], "the start of a range");
    int64_t hi = requireConstantInt(*e.operands[1], "the end of a range");
    if (hi <= lo)
      fail(e.loc, "the range " + std::to_string(lo) + " ... " +
                      std::to_string(hi) + " is empty");
    if (lo < INT32_MIN || hi > INT32_MAX)
      fail(e.loc, "range bounds must fit in int");
    TcType type =
        TcType::of(ScalarKind::Int).withShape(checkShape({hi - lo}, e.loc));
    loc = e.loc;
    return op("tile.arange " + std::to_string(lo) + ", " + std::to_string(hi) +
                  " : " + type.mlir(),
              type);
  }
  case Expr::Call:
    return emitCall(e);
  case Expr::Subscript:
    return emitSubscript(e);
  case Expr::Cast: {
    Val v = notNullValue(*e.operands[0]);
    if (e.castType.pointer || v.type.pointer) {
      if (e.castType.pointer && v.type.pointer &&
          e.castType.scalar == v.type.scalar)
        return v;
      fail(e.loc, "cannot cast '" + v.type.str() + "' to '" +
                      scalarName(e.castType.scalar) +
                      (e.castType.pointer ? "*" : "") +
                      "' (pointer casts are not supported)");
    }
    if (e.castType.scalar == ScalarKind::Void)
      fail(e.loc, "cannot cast to void");
    Val r = convert(v, e.castType.scalar, e.loc);
    r.isLiteral = false;
    return r;
  }
  case Expr::Masked: {
    const Expr &target = *e.operands[1];
    if (!isDereference(target))
      fail(target.loc, "expected a dereference '*pointers' after the mask");
    Val mask = notNullValue(*e.operands[0]);
    Val ptr = notNullValue(*target.operands[0]);
    return emitLoad(ptr, mask, std::nullopt, e.loc);
  }
  }
  fail(e.loc, "unsupported expression");
}

Val Emitter::emitUnary(const Expr &e) {
  const std::string &name = e.op;
  const Expr &operand = *e.operands[0];
  if (name.find("++") != std::string::npos ||
      name.find("--") != std::string::npos) {
    if (operand.kind != Expr::Name)
      fail(e.loc, "'" + name.substr(name.size() - 2) +
                      "' needs a variable (tiles in memory are updated "
                      "with '*p = *p + 1')");
    Val old = notNullValue(operand);
    Val one = constant(1, TcType::of(ScalarKind::Int));
    one.isLiteral = true;
    Val updated = emitBinary(name.find("++") != std::string::npos ? "+" : "-",
                             old, one, e.loc);
    updated = assignTo(operand, updated, e.loc);
    return name.rfind("pre", 0) == 0 ? updated : old;
  }
  if (name == "*") {
    Val ptr = notNullValue(operand);
    return emitLoad(ptr, std::nullopt, std::nullopt, e.loc);
  }
  Val v = notNullValue(operand);
  loc = e.loc;
  if (v.type.pointer)
    fail(e.loc, "operator '" + name + "' does not apply to the pointer type '" +
                    v.type.str() + "'");
  if (name == "+")
    return v.type.isBool() ? convert(v, ScalarKind::Int, e.loc) : v;
  if (name == "-") {
    if (v.type.isBool())
      v = convert(v, ScalarKind::Int, e.loc);
    if (v.isConstant) {
      Val c;
      if (v.type.isFloat()) {
        c = floatConstant(-v.floatConstant, v.type);
      } else {
        // -INT_MIN overflows; as C, `-2147483648` is a long literal negated.
        if (v.intConstant == INT64_MIN)
          fail(e.loc, "integer overflow in a constant expression: -(" +
                          std::to_string(v.intConstant) +
                          ") does not fit in 'long'");
        checkFits(-v.intConstant, v.type.scalar, e.loc,
                  "integer overflow in a constant expression: -(" +
                      std::to_string(v.intConstant) + ")");
        c = constant(-v.intConstant, v.type);
      }
      c.isLiteral = v.isLiteral;
      return c;
    }
    if (v.type.isFloat())
      return unaryElementwise("arith.negf", "tile.negf", v);
    Val zero = constant(0, v.type);
    return elementwise("arith.subi", "tile.subi", zero, v, v.type);
  }
  if (name == "!") {
    Val b = toBool(v, e.loc);
    if (b.isConstant)
      return constant(b.intConstant == 0, b.type);
    Val t = constant(1, b.type);
    return elementwise("arith.xori", "tile.xori", b, t, b.type);
  }
  if (name == "~") {
    if (!v.type.isInteger() || v.type.isBool())
      fail(e.loc, "'~' needs an integer, got '" + v.type.str() + "'");
    Val ones = constant(-1, v.type);
    return elementwise("arith.xori", "tile.xori", v, ones, v.type);
  }
  fail(e.loc, "unsupported operator '" + name + "'");
}

Val Emitter::emitBinary(const std::string &name, Val a, Val b, Location at) {
  loc = at;
  std::string context = "operator '" + name + "'";
  // Pointer arithmetic: pointers plus integer offsets, in elements.
  if (a.type.pointer || b.type.pointer) {
    if (name == "+" && b.type.pointer && !a.type.pointer)
      std::swap(a, b);
    if ((name != "+" && name != "-") || b.type.pointer)
      fail(at, "operator '" + name + "' does not apply to '" + a.type.str() +
                   "' and '" + b.type.str() +
                   "' (pointers take '+' or '-' "
                   "an integer offset)");
    if (!b.type.isInteger())
      fail(at,
           "a pointer offset must be an integer, got '" + b.type.str() + "'");
    if (b.type.isBool())
      b = convert(b, ScalarKind::Int, at);
    if (name == "-")
      b = emitBinary("-", constant(0, b.type.element()), b, at);
    std::vector<int64_t> shape = broadcastShapes(a.type, b.type, at, context);
    a = broadcastTo(a, shape, at, context);
    b = broadcastTo(b, shape, at, context);
    loc = at;
    return op("tile.addptr " + a.ssa + ", " + b.ssa + " : " + a.type.mlir() +
                  ", " + b.type.mlir(),
              a.type);
  }
  if (name == "&&" || name == "||") {
    a = toBool(a, at);
    b = toBool(b, at);
    std::vector<int64_t> shape = broadcastShapes(a.type, b.type, at, context);
    a = broadcastTo(a, shape, at, context);
    b = broadcastTo(b, shape, at, context);
    loc = at;
    return name == "&&" ? elementwise("arith.andi", "tile.andi", a, b, a.type)
                        : elementwise("arith.ori", "tile.ori", a, b, a.type);
  }
  ScalarKind kind = commonScalar(a, b);
  bool bitwise = name == "&" || name == "|" || name == "^";
  if (kind == ScalarKind::Bool && !bitwise && name != "==" && name != "!=")
    kind = ScalarKind::Int; // C promotes bool to int for arithmetic
  bool isFloat = TcType::of(kind).isFloat();
  if (isFloat && (bitwise || name == "<<" || name == ">>"))
    fail(at, "operator '" + name + "' needs integers, got '" + a.type.str() +
                 "' and '" + b.type.str() + "'");
  std::vector<int64_t> shape = broadcastShapes(a.type, b.type, at, context);
  bool literal = a.isLiteral && b.isLiteral;
  a = convert(a, kind, at);
  b = convert(b, kind, at);

  // Fold scalar constants, so that constants stay usable as shapes:
  // floats in double, integers exactly, an overflow in the operands' type
  // being an error here rather than a wrapped or out-of-range constant.
  bool foldable = name == "+" || name == "-" || name == "*" || name == "/";
  if (a.isConstant && b.isConstant && shape.empty() && foldable) {
    Val c;
    if (isFloat) {
      double x = a.floatConstant, y = b.floatConstant;
      double r = name == "+"   ? x + y
                 : name == "-" ? x - y
                 : name == "*" ? x * y
                               : x / y;
      c = floatConstant(r, a.type);
    } else if (name != "/" || b.intConstant != 0) {
      std::string text = std::to_string(a.intConstant) + " " + name + " " +
                         std::to_string(b.intConstant);
      std::optional<int64_t> r =
          checkedArithmetic(name, a.intConstant, b.intConstant);
      if (!r)
        fail(at, "integer overflow in a constant expression: " + text +
                     " does not fit in '" + scalarName(kind) + "'");
      checkFits(*r, kind, at,
                "integer overflow in a constant expression: " + text + " = " +
                    std::to_string(*r));
      c = constant(*r, a.type);
    }
    if (c.isConstant) {
      c.isLiteral = literal;
      return c;
    }
  }
  a = broadcastTo(a, shape, at, context);
  b = broadcastTo(b, shape, at, context);
  loc = at;
  TcType type = a.type;
  TcType boolType = type.withScalar(ScalarKind::Bool);
  auto both = [&](const char *intOp, const char *floatOp) {
    std::string o = isFloat ? floatOp : intOp;
    return elementwise("arith." + o, "tile." + o, a, b, type);
  };
  if (name == "+")
    return both("addi", "addf");
  if (name == "-")
    return both("subi", "subf");
  if (name == "*")
    return both("muli", "mulf");
  if (name == "/")
    return both("divsi", "divf");
  if (name == "%")
    return both("remsi", "remf");
  if (name == "<<")
    return both("shli", "");
  if (name == ">>")
    return both("shrsi", "");
  if (name == "&")
    return both("andi", "");
  if (name == "|")
    return both("ori", "");
  if (name == "^")
    return both("xori", "");
  if (isComparison(name)) {
    static const std::map<std::string, std::pair<const char *, const char *>>
        predicates = {{"<", {"slt", "olt"}},  {">", {"sgt", "ogt"}},
                      {"<=", {"sle", "ole"}}, {">=", {"sge", "oge"}},
                      {"==", {"eq", "oeq"}},  {"!=", {"ne", "une"}}};
    auto [intPred, floatPred] = predicates.at(name);
    std::string prefix = isFloat ? "cmpf " : "cmpi ";
    std::string pred = isFloat ? floatPred : intPred;
    std::string text =
        prefix + pred + ", " + a.ssa + ", " + b.ssa + " : " + type.mlir();
    return op((type.isTile() ? "tile." : "arith.") + text, boolType);
  }
  fail(at, "unsupported operator '" + name + "'");
}

Val Emitter::emitAssign(const Expr &e) {
  const Expr &target = *e.operands[0];
  if (e.op == "=") {
    Val value = notNullValue(*e.operands[1]);
    return assignTo(target, value, e.loc);
  }
  Val current = notNullValue(target);
  Val rhs = notNullValue(*e.operands[1]);
  Val updated =
      emitBinary(e.op.substr(0, e.op.size() - 1), current, rhs, e.loc);
  return assignTo(target, updated, e.loc);
}

Val Emitter::assignTo(const Expr &target, Val value, Location at) {
  if (target.kind == Expr::Name) {
    Variable *var = lookup(target.name);
    if (!var)
      fail(target.loc, "use of undeclared identifier '" + target.name + "'");
    Val v = coerce(value, var->type, at, "assigning to '" + target.name + "'");
    v.isLiteral = false;
    var->value = v;
    return v;
  }
  if (isDereference(target)) {
    Val ptr = notNullValue(*target.operands[0]);
    emitStore(ptr, value, std::nullopt, at);
    return value;
  }
  if (target.kind == Expr::Masked) {
    const Expr &deref = *target.operands[1];
    if (!isDereference(deref))
      fail(deref.loc, "expected a dereference '*pointers' after the mask");
    Val mask = notNullValue(*target.operands[0]);
    Val ptr = notNullValue(*deref.operands[0]);
    emitStore(ptr, value, mask, at);
    return value;
  }
  if (target.kind == Expr::Subscript)
    fail(target.loc, "cannot assign to a subscript: tiles are values; "
                     "subscripts only reshape (':' and 'newaxis')");
  fail(target.loc, "cannot assign to this expression");
}

Val Emitter::emitLoad(Val ptr, std::optional<Val> mask,
                      std::optional<Val> other, Location at) {
  if (!ptr.type.pointer)
    fail(at, "cannot dereference '" + ptr.type.str() + "': not a pointer");
  std::vector<int64_t> shape = ptr.type.shape;
  if (mask) {
    *mask = toBool(*mask, at);
    shape = broadcastShapes(ptr.type, mask->type, at, "the mask of a load");
  }
  ptr = broadcastTo(ptr, shape, at, "the pointers of a load");
  TcType type = ptr.type.withScalar(ptr.type.scalar);
  std::string text = "tile.load " + ptr.ssa;
  if (mask) {
    *mask = broadcastTo(*mask, shape, at, "the mask of a load");
    // Masked-off lanes read nothing; they hold `other`, zero by default,
    // so that a masked load is deterministic.
    Val fill = other ? coerce(*other, type, at, "the other value of a load")
                     : constant(0, type);
    text += " mask " + mask->ssa + " other " + fill.ssa;
  }
  if (type.isTile())
    accesses.push_back({type.numElements(), type.elementBytes()});
  loc = at;
  return op(text + " : " + ptr.type.mlir(), type);
}

void Emitter::emitStore(Val ptr, Val value, std::optional<Val> mask,
                        Location at) {
  if (!ptr.type.pointer)
    fail(at, "cannot store through '" + ptr.type.str() + "': not a pointer");
  TcType type = ptr.type.withScalar(ptr.type.scalar);
  if (value.type.isTile() && ptr.type.isTile() &&
      value.type.shape != ptr.type.shape) {
    // The pointers decide where each element goes: the value may broadcast
    // to them, never the other way.
    const auto &have = value.type.shape, &want = ptr.type.shape;
    bool fits = have.size() <= want.size();
    for (size_t i = 1; fits && i <= have.size(); ++i)
      fits = have[have.size() - i] == 1 ||
             have[have.size() - i] == want[want.size() - i];
    if (!fits)
      fail(at, "cannot store a value of shape " +
                   shapeString(value.type.shape) +
                   " through pointers of shape " + shapeString(ptr.type.shape));
  }
  value = coerce(value, type, at, "store");
  std::string text = "tile.store " + ptr.ssa + ", " + value.ssa;
  if (mask) {
    *mask = toBool(*mask, at);
    *mask = broadcastTo(*mask, ptr.type.shape, at, "the mask of a store");
    text += " mask " + mask->ssa;
  }
  if (type.isTile())
    accesses.push_back({type.numElements(), type.elementBytes()});
  loc = at;
  line(text + " : " + ptr.type.mlir() + " " + locText());
}

Val Emitter::emitTernary(const Expr &e) {
  Location at = e.loc;
  Val cond = notNullValue(*e.operands[0]);
  const Expr &thenExpr = *e.operands[1], &elseExpr = *e.operands[2];
  // `mask ? *p : other` on tiles is a masked load, as in Triton-C.
  if (cond.type.isTile() && isDereference(thenExpr)) {
    Val ptr = notNullValue(*thenExpr.operands[0]);
    Val other = notNullValue(elseExpr);
    return emitLoad(ptr, cond, other, at);
  }
  cond = toBool(cond, at);
  if (!cond.type.isTile() && (hasEffects(thenExpr) || hasEffects(elseExpr))) {
    // Evaluate only the chosen branch: an scf.if yielding the value.
    Val a, b;
    std::string thenText = capture(at, [&] { a = notNullValue(thenExpr); });
    std::string elseText = capture(at, [&] { b = notNullValue(elseExpr); });
    TcType type = a.type;
    if (!a.type.pointer) {
      type = a.type.withScalar(commonScalar(a, b));
      type.shape = broadcastShapes(a.type, b.type, at, "'?:'");
    }
    thenText += capture(at, [&] {
      a = coerce(a, type, at, "'?:'");
      loc = at;
      line("scf.yield " + a.ssa + " : " + type.mlir() + " " + locText());
    });
    elseText += capture(at, [&] {
      b = coerce(b, type, at, "'?:'");
      loc = at;
      line("scf.yield " + b.ssa + " : " + type.mlir() + " " + locText());
    });
    loc = at;
    Val result{fresh(), type};
    line(result.ssa + " = scf.if " + cond.ssa + " -> (" + type.mlir() + ") {");
    out += thenText;
    line("} else {");
    out += elseText;
    line("} " + locText());
    return result;
  }
  Val a = notNullValue(thenExpr), b = notNullValue(elseExpr);
  TcType type = a.type;
  if (a.type.pointer != b.type.pointer)
    fail(at, "'?:' branches have types '" + a.type.str() + "' and '" +
                 b.type.str() + "'");
  if (!a.type.pointer)
    type = a.type.withScalar(commonScalar(a, b));
  std::vector<int64_t> shape = broadcastShapes(a.type, b.type, at, "'?:'");
  shape = broadcastShapes(cond.type, type.withShape(shape), at, "'?:'");
  type.shape = shape;
  a = coerce(a, type, at, "'?:'");
  b = coerce(b, type, at, "'?:'");
  cond = broadcastTo(cond, shape, at, "'?:'");
  loc = at;
  std::string prefix = type.isTile() ? "tile.select " : "arith.select ";
  return op(prefix + cond.ssa + ", " + a.ssa + ", " + b.ssa + " : " +
                type.mlir(),
            type);
}

Val Emitter::emitSubscript(const Expr &e) {
  Val v = notNullValue(*e.operands[0]);
  for (const Expr::Slice &s : e.slices)
    if (s.kind == Expr::Slice::Index)
      fail(s.loc, "subscripts never dereference or pick elements in "
                  "Triton-C: use ':' and 'newaxis' to reshape, and '*(p + "
                  "i)' to read memory");
  if (!v.type.isTile())
    fail(e.loc, "cannot subscript the scalar '" + v.type.str() +
                    "' (write *(p + i) to read memory)");
  size_t kept = llvm::count_if(e.slices, [](const Expr::Slice &s) {
    return s.kind == Expr::Slice::All;
  });
  if (kept != v.type.shape.size())
    fail(e.loc, "the subscript keeps " + std::to_string(kept) +
                    " dimension(s) with ':' but the tile '" + v.type.str() +
                    "' has " + std::to_string(v.type.shape.size()));
  unsigned axis = 0;
  for (const Expr::Slice &s : e.slices) {
    if (s.kind == Expr::Slice::NewAxis) {
      loc = s.loc;
      v = expandDims(v, axis);
    }
    ++axis;
  }
  return v;
}

Val Emitter::emitCall(const Expr &e) {
  bool handled = false;
  Val builtin = emitBuiltin(e, handled);
  if (handled)
    return builtin;
  auto it = functions.find(e.op);
  if (it == functions.end())
    fail(e.loc, "call to undeclared function '" + e.op + "'");
  const Function &callee = *it->second;
  if (callee.isKernel)
    fail(e.loc, "cannot call the __global__ kernel '" + e.op + "'");
  const std::vector<TcType> &params = signatures[e.op];
  if (params.size() != e.operands.size())
    fail(e.loc, "'" + e.op + "' takes " + std::to_string(params.size()) +
                    " argument(s), got " + std::to_string(e.operands.size()));
  std::string args, types;
  for (size_t i = 0; i < params.size(); ++i) {
    Val arg = notNullValue(*e.operands[i]);
    arg = coerce(arg, params[i], e.operands[i]->loc,
                 "argument " + std::to_string(i + 1) + " of '" + e.op + "'");
    args += (i ? ", " : "") + arg.ssa;
    types += (i ? ", " : "") + params[i].mlir();
  }
  TcType result =
      TcType{callee.returnType.scalar, callee.returnType.pointer, {}};
  loc = e.loc;
  std::string text =
      "func.call @" + e.op + "(" + args + ") : (" + types + ") -> ";
  if (result.isVoid()) {
    line(text + "() " + locText());
    return Val{"", result};
  }
  return op(text + result.mlir(), result);
}

Val Emitter::emitBuiltin(const Expr &e, bool &handled) {
  handled = true;
  const std::string &name = e.op;
  size_t n = e.operands.size();
  auto arity = [&](size_t lo, size_t hi) {
    if (n < lo || n > hi)
      fail(e.loc, "'" + name + "' takes " + std::to_string(lo) +
                      (hi != lo ? " to " + std::to_string(hi) : "") +
                      " argument(s), got " + std::to_string(n));
  };
  if (name == "get_program_id" || name == "get_num_programs") {
    arity(1, 1);
    int64_t axis = requireConstantInt(*e.operands[0], "the grid axis");
    if (axis < 0 || axis > 2)
      fail(e.operands[0]->loc, "the grid axis must be 0, 1 or 2");
    loc = e.loc;
    return op(std::string(name == "get_program_id" ? "tile.program_id "
                                                   : "tile.num_programs ") +
                  std::to_string(axis) + " : i32",
              TcType::of(ScalarKind::Int));
  }
  if (name == "sum" || name == "max" || name == "min") {
    arity(1, 2);
    Val x = notNullValue(*e.operands[0]);
    if (!x.type.isTile() || x.type.pointer)
      fail(e.loc, "'" + name + "' reduces a tile of numbers, got '" +
                      x.type.str() + "'");
    if (x.type.isBool())
      x = convert(x, ScalarKind::Int, e.loc);
    std::vector<int64_t> axes;
    int64_t rank = x.type.shape.size();
    if (n == 2) {
      int64_t axis = requireConstantInt(*e.operands[1], "the reduction axis");
      if (axis < 0)
        axis += rank;
      if (axis < 0 || axis >= rank)
        fail(e.operands[1]->loc,
             "axis out of range for '" + x.type.str() + "'");
      axes.push_back(axis);
    } else {
      axes.assign(rank, 0); // the whole tile: reduce axis 0 until a scalar
    }
    for (int64_t axis : axes) {
      std::vector<int64_t> shape = x.type.shape;
      shape.erase(shape.begin() + axis);
      TcType type = x.type.withShape(shape);
      loc = e.loc;
      x = op("tile.reduce " + name + " " + x.ssa +
                 " {axis = " + std::to_string(axis) +
                 " : i32} : " + x.type.mlir() + " -> " + type.mlir(),
             type);
    }
    return x;
  }
  if (name == "dot") {
    arity(2, 3);
    Val a = notNullValue(*e.operands[0]), b = notNullValue(*e.operands[1]);
    if (a.type.shape.size() != 2 || b.type.shape.size() != 2 ||
        !a.type.isFloat() || !b.type.isFloat())
      fail(e.loc, "'dot' multiplies two 2-D tiles of floats, got '" +
                      a.type.str() + "' and '" + b.type.str() + "'");
    if (a.type.shape[1] != b.type.shape[0])
      fail(e.loc,
           "'dot': the inner dimensions differ: " + shapeString(a.type.shape) +
               " times " + shapeString(b.type.shape));
    ScalarKind kind = commonScalar(a, b);
    if (kind == ScalarKind::Double)
      fail(e.loc, "'dot' takes half or float tiles, not double");
    a = convert(a, kind, e.loc);
    b = convert(b, kind, e.loc);
    TcType accType =
        TcType::of(ScalarKind::Float)
            .withShape(checkShape({a.type.shape[0], b.type.shape[1]}, e.loc));
    Val acc = n == 3 ? coerce(notNullValue(*e.operands[2]), accType,
                              e.operands[2]->loc, "the accumulator of 'dot'")
                     : constant(0, accType);
    loc = e.loc;
    return op("tile.dot " + a.ssa + ", " + b.ssa + ", " + acc.ssa + " : " +
                  a.type.mlir() + ", " + b.type.mlir() + " -> " +
                  accType.mlir(),
              accType);
  }
  if (name == "trans") {
    arity(1, 1);
    Val x = notNullValue(*e.operands[0]);
    if (x.type.shape.size() < 2)
      fail(e.loc, "'trans' needs a tile of rank 2 or more, got '" +
                      x.type.str() + "'");
    std::vector<int64_t> shape(x.type.shape.rbegin(), x.type.shape.rend());
    TcType type = x.type.withShape(shape);
    loc = e.loc;
    return op("tile.trans " + x.ssa + " : " + x.type.mlir() + " -> " +
                  type.mlir(),
              type);
  }
  static const char *const unaryFloat[] = {"exp",   "exp2",  "log", "log2",
                                           "sqrt",  "rsqrt", "sin", "cos",
                                           "floor", "ceil"};
  if (llvm::is_contained(unaryFloat, name) || name == "abs") {
    arity(1, 1);
    Val x = notNullValue(*e.operands[0]);
    if (x.type.pointer)
      fail(e.loc, "'" + name + "' takes numbers, got '" + x.type.str() + "'");
    loc = e.loc;
    if (name == "abs" && x.type.isInteger()) {
      x = convert(x, x.type.isBool() ? ScalarKind::Int : x.type.scalar, e.loc);
      return unaryElementwise("math.absi", "tile.absi", x);
    }
    if (!x.type.isFloat())
      x = convert(x, ScalarKind::Float, e.loc);
    std::string mathName = name == "abs" ? "absf" : name;
    return unaryElementwise("math." + mathName, "tile." + mathName, x);
  }
  if (name == "maximum" || name == "minimum" || name == "where") {
    if (name == "where") {
      arity(3, 3);
      // where(c, a, b) is c ? a : b with both sides evaluated.
      Val c = toBool(notNullValue(*e.operands[0]), e.loc);
      Val a = notNullValue(*e.operands[1]), b = notNullValue(*e.operands[2]);
      TcType type =
          a.type.pointer ? a.type : a.type.withScalar(commonScalar(a, b));
      std::vector<int64_t> shape =
          broadcastShapes(a.type, b.type, e.loc, "'where'");
      shape = broadcastShapes(c.type, type.withShape(shape), e.loc, "'where'");
      type.shape = shape;
      a = coerce(a, type, e.loc, "'where'");
      b = coerce(b, type, e.loc, "'where'");
      c = broadcastTo(c, shape, e.loc, "'where'");
      loc = e.loc;
      return op(std::string(type.isTile() ? "tile.select " : "arith.select ") +
                    c.ssa + ", " + a.ssa + ", " + b.ssa + " : " + type.mlir(),
                type);
    }
    arity(2, 2);
    Val a = notNullValue(*e.operands[0]), b = notNullValue(*e.operands[1]);
    if (a.type.pointer || b.type.pointer)
      fail(e.loc, "'" + name + "' takes numbers");
    ScalarKind kind = commonScalar(a, b);
    if (kind == ScalarKind::Bool)
      kind = ScalarKind::Int;
    std::vector<int64_t> shape = broadcastShapes(a.type, b.type, e.loc, name);
    a = broadcastTo(convert(a, kind, e.loc), shape, e.loc, name);
    b = broadcastTo(convert(b, kind, e.loc), shape, e.loc, name);
    bool isFloat = a.type.isFloat(), isMax = name == "maximum";
    std::string o = isFloat ? (isMax ? "maximumf" : "minimumf")
                            : (isMax ? "maxsi" : "minsi");
    loc = e.loc;
    return elementwise("arith." + o, "tile." + o, a, b, a.type);
  }
  handled = false;
  return Val{};
}
