//===- EmitStmt.cpp - Triton-C functions and statements to tile IR --------===//

#include "Emitter.h"

#include "llvm/ADT/STLExtras.h"

using namespace tile::tritonc;

namespace {

int64_t floorPowerOfTwo(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v)
    p *= 2;
  return p;
}

/// The variables a region assigns that it does not declare itself: the
/// values an scf op must carry out of it.
class AssignedNames {
public:
  std::vector<std::string> names;

  void stmt(const Stmt *s) {
    if (!s)
      return;
    switch (s->kind) {
    case Stmt::Decl:
      for (const Declarator &d : s->declarators) {
        if (d.init)
          expr(d.init.get());
        locals.back().push_back(d.name);
      }
      return;
    case Stmt::Block:
      locals.emplace_back();
      for (const StmtPtr &inner : s->stmts)
        stmt(inner.get());
      locals.pop_back();
      return;
    case Stmt::For:
      locals.emplace_back();
      stmt(s->init.get());
      expr(s->expr.get());
      expr(s->step.get());
      stmt(s->body.get());
      locals.pop_back();
      return;
    default:
      expr(s->expr.get());
      if (s->body) {
        locals.emplace_back();
        stmt(s->body.get());
        locals.pop_back();
      }
      if (s->elseBody) {
        locals.emplace_back();
        stmt(s->elseBody.get());
        locals.pop_back();
      }
      return;
    }
  }

  void expr(const Expr *e) {
    if (!e)
      return;
    bool increments =
        e->kind == Expr::Unary && (e->op.find("++") != std::string::npos ||
                                   e->op.find("--") != std::string::npos);
    if ((e->kind == Expr::Assign || increments) &&
        e->operands[0]->kind == Expr::Name)
      add(e->operands[0]->name);
    for (const ExprPtr &o : e->operands)
      expr(o.get());
  }

private:
  std::vector<std::vector<std::string>> locals{{}};

  void add(const std::string &name) {
    for (const auto &scope : locals)
      if (llvm::is_contained(scope, name))
        return;
    if (!llvm::is_contained(names, name))
      names.push_back(name);
  }
};

/// Names an expression reads.
void collectNames(const Expr *e, std::vector<std::string> &names) {
  if (!e)
    return;
  if (e->kind == Expr::Name)
    names.push_back(e->name);
  for (const ExprPtr &o : e->operands)
    collectNames(o.get(), names);
}

std::string joinTypes(const std::vector<TcType> &types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i)
    s += (i ? ", " : "") + types[i].mlir();
  return s;
}

} // namespace

Emitter::Variable *Emitter::lookup(const std::string &name) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    auto found = it->find(name);
    if (found != it->end())
      return &found->second;
  }
  return nullptr;
}

void Emitter::declare(const std::string &name, Location at, Variable var) {
  if (scopes.back().count(name))
    fail(at, "redefinition of '" + name + "'");
  scopes.back()[name] = std::move(var);
}

TcType Emitter::resolveType(const TypeSpec &spec,
                            const std::vector<ExprPtr> &shape) {
  TcType type{spec.scalar, spec.pointer, {}};
  for (const ExprPtr &dim : shape) {
    int64_t extent = requireConstantInt(*dim, "a tile dimension");
    if (extent <= 0)
      fail(dim->loc,
           "a tile dimension must be positive, got " + std::to_string(extent));
    type.shape.push_back(extent);
  }
  if (!shape.empty())
    checkShape(type.shape, shape.front()->loc);
  if (type.isVoid() && type.isTile())
    fail(spec.loc, "a tile of void");
  return type;
}

std::vector<std::string>
Emitter::carriedVariables(const std::vector<const Stmt *> &stmts,
                          const std::vector<const Expr *> &exprs) {
  AssignedNames walk;
  for (const Expr *e : exprs)
    walk.expr(e);
  for (const Stmt *s : stmts)
    walk.stmt(s);
  std::vector<std::string> carried;
  for (const std::string &name : walk.names)
    if (lookup(name))
      carried.push_back(name);
  return carried;
}

std::string Emitter::emitUnit(const TranslationUnit &unit) {
  for (const Function &f : unit.functions) {
    if (!functions.try_emplace(f.name, &f).second)
      fail(f.loc, "redefinition of function '" + f.name + "'");
    std::vector<TcType> params;
    for (const Declarator &p : f.params)
      params.push_back(resolveType(p.type, p.shape));
    signatures[f.name] = params;
  }
  if (llvm::none_of(unit.functions,
                    [](const Function &f) { return f.isKernel; }))
    fail(unit.functions.empty() ? Location{1, 1} : unit.functions.front().loc,
         "no __global__ kernel in this file");

  std::vector<EmittedFunction> emitted;
  for (const Function &f : unit.functions)
    emitted.push_back(emitFunction(f));

  // Warps: enough that each thread of the largest loaded or stored tile gets
  // a full 16-byte vector, at most 4. Small tiles get fewer warps rather
  // than idle threads.
  numWarps = options.numWarps ? options.numWarps : 4;
  if (!options.numWarps && !accesses.empty()) {
    const MemoryAccess &largest = *llvm::max_element(
        accesses, [](const MemoryAccess &a, const MemoryAccess &b) {
          return a.elements < b.elements;
        });
    int64_t perVector = std::max(1u, 16 / largest.elementBytes);
    numWarps = std::clamp<int64_t>(floorPowerOfTwo(std::max<int64_t>(
                                       1, largest.elements / (32 * perVector))),
                                   1, 4);
  }

  std::string text = "// Generated by tile-cc from " + options.fileName +
                     " (num_warps " + std::to_string(numWarps) + ")\n";
  for (const EmittedFunction &f : emitted)
    text += functionText(f);
  return text;
}

Emitter::EmittedFunction Emitter::emitFunction(const Function &f) {
  EmittedFunction result;
  result.ast = &f;
  result.paramTypes = signatures[f.name];
  result.returnType = TcType{f.returnType.scalar, f.returnType.pointer, {}};
  if (f.isKernel && !result.returnType.isVoid())
    fail(f.returnType.loc, "a __global__ kernel must return void");
  counter = 0;
  scopes.assign(1, {});
  currentFunction = &f;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Declarator &p = f.params[i];
    const TcType &type = result.paramTypes[i];
    if (type.isVoid())
      fail(p.loc, "a parameter cannot be void");
    if (f.isKernel && type.isTile())
      fail(p.loc, "kernel parameters are scalars and pointers, not tiles");
    if (p.multipleOf && type.isTile())
      fail(p.loc, "'__multipleof' applies to scalar parameters");
    declare(p.name, p.loc, Variable{type, Val{"%" + p.name, type}});
  }

  const Stmt &body = *f.body;
  const Stmt *finalReturn =
      !body.stmts.empty() && body.stmts.back()->kind == Stmt::Return
          ? body.stmts.back().get()
          : nullptr;
  out.clear();
  indent = 1;
  for (const StmtPtr &s : body.stmts) {
    if (s.get() != finalReturn) {
      emitStmt(*s);
      continue;
    }
    loc = s->loc;
    if (result.returnType.isVoid()) {
      if (s->expr)
        fail(s->loc, "a void function returns no value");
      line("return " + locText());
    } else {
      if (!s->expr)
        fail(s->loc, "'" + f.name + "' must return a value");
      Val v = notNullValue(*s->expr);
      v = coerce(v, result.returnType, s->loc, "return");
      loc = s->loc;
      line("return " + v.ssa + " : " + result.returnType.mlir() + " " +
           locText());
    }
  }
  if (!finalReturn) {
    if (!result.returnType.isVoid())
      fail(f.loc, "'" + f.name + "' must end with a return statement");
    loc = f.loc;
    line("return " + locText());
  }
  result.body = std::move(out);
  out.clear();
  return result;
}

std::string Emitter::functionText(const EmittedFunction &f) {
  const Function &ast = *f.ast;
  // A pointer argument is promised 16-byte aligned (as cudaMalloc gives),
  // but no more than one thread's share of the smallest tile accessed: a
  // wider vector would leave threads idle (32 floats on one warp are 32
  // scalar accesses, not 8 vectors of 4).
  unsigned threads = 32 * numWarps;
  int64_t alignment = 16;
  for (const MemoryAccess &a : accesses) {
    int64_t share = floorPowerOfTwo(std::max<int64_t>(1, a.elements / threads));
    alignment = std::min<int64_t>(alignment, share * a.elementBytes);
  }
  std::string params;
  for (size_t i = 0; i < ast.params.size(); ++i) {
    const Declarator &p = ast.params[i];
    const TcType &type = f.paramTypes[i];
    params += (i ? ", " : "") + std::string("%") + p.name + ": " + type.mlir();
    int64_t divisibility = p.multipleOf;
    if (!divisibility && type.pointer && options.assumeAligned)
      divisibility = alignment;
    if (ast.isKernel && divisibility > 1)
      params +=
          " {tile.divisibility = " + std::to_string(divisibility) + " : i32}";
  }
  std::string loc = "loc(\"" + options.fileName +
                    "\":" + std::to_string(ast.loc.line) + ":" +
                    std::to_string(ast.loc.column) + ")";
  std::string text = std::string("func.func ") +
                     (ast.isKernel ? "" : "private ") + "@" + ast.name + "(" +
                     params + ")";
  if (!f.returnType.isVoid())
    text += " -> " + f.returnType.mlir();
  return text + " {\n" + f.body + "} " + loc + "\n";
}

void Emitter::emitStmt(const Stmt &stmt) {
  loc = stmt.loc;
  switch (stmt.kind) {
  case Stmt::Empty:
    return;
  case Stmt::Decl:
    return emitDecl(stmt);
  case Stmt::ExprStmt:
    emitExpr(*stmt.expr);
    return;
  case Stmt::Block:
    return emitBlock(stmt, /*newScope=*/true);
  case Stmt::If:
    return emitIf(stmt);
  case Stmt::For:
    return emitFor(stmt);
  case Stmt::While:
    return emitWhile(stmt.expr.get(), stmt.body.get(), nullptr, stmt.loc);
  case Stmt::Return:
    fail(stmt.loc, "'return' is only supported as the last statement of a "
                   "function");
  }
}

void Emitter::emitBlock(const Stmt &block, bool newScope) {
  if (newScope)
    scopes.emplace_back();
  for (const StmtPtr &s : block.stmts)
    emitStmt(*s);
  if (newScope)
    scopes.pop_back();
}

void Emitter::emitDecl(const Stmt &stmt) {
  for (const Declarator &d : stmt.declarators) {
    TcType type = resolveType(d.type, d.shape);
    if (type.isVoid())
      fail(d.loc, "variable '" + d.name + "' declared void");
    if (d.multipleOf)
      fail(d.loc, "'__multipleof' applies to kernel parameters");
    Val value;
    if (d.init) {
      value = notNullValue(*d.init);
      value = coerce(value, type, d.init->loc, "initializing '" + d.name + "'");
    } else if (type.pointer) {
      fail(d.loc, "'" + d.name +
                      "' needs an initializer (pointers have no "
                      "default)");
    } else {
      // Uninitialized variables are zero: a tile accumulator reads well.
      loc = d.loc;
      value = constant(0, type);
    }
    value.isLiteral = false;
    declare(d.name, d.loc, Variable{type, value});
  }
}

void Emitter::emitIf(const Stmt &stmt) {
  Location at = stmt.loc;
  Val cond = notNullValue(*stmt.expr);
  if (cond.type.isTile())
    fail(stmt.expr->loc, "an 'if' condition must be a scalar, got '" +
                             cond.type.str() +
                             "'; use a mask ('@mask *p', 'mask ? *p : 0') "
                             "or '?:' on tiles");
  cond = toBool(cond, at);
  std::vector<std::string> carried =
      carriedVariables({stmt.body.get(), stmt.elseBody.get()}, {});
  std::vector<Val> before;
  std::vector<TcType> types;
  for (const std::string &name : carried) {
    before.push_back(lookup(name)->value);
    types.push_back(lookup(name)->type);
  }
  auto branch = [&](const Stmt *body) {
    return capture(at, [&] {
      if (body) {
        scopes.emplace_back();
        emitStmt(*body);
        scopes.pop_back();
      }
      if (carried.empty())
        return;
      std::string values;
      for (size_t i = 0; i < carried.size(); ++i)
        values += (i ? ", " : "") + lookup(carried[i])->value.ssa;
      loc = at;
      line("scf.yield " + values + " : " + joinTypes(types) + " " + locText());
    });
  };
  auto restore = [&] {
    for (size_t i = 0; i < carried.size(); ++i)
      lookup(carried[i])->value = before[i];
  };
  std::string thenText = branch(stmt.body.get());
  restore();
  std::string elseText;
  bool hasElse = stmt.elseBody || !carried.empty();
  if (hasElse)
    elseText = branch(stmt.elseBody.get());
  restore();

  loc = at;
  std::string result = carried.empty() ? "" : fresh();
  std::string header = "scf.if " + cond.ssa;
  if (!carried.empty())
    header = result +
             (carried.size() > 1 ? ":" + std::to_string(carried.size()) : "") +
             " = " + header + " -> (" + joinTypes(types) + ")";
  line(header + " {");
  out += thenText;
  if (hasElse) {
    line("} else {");
    out += elseText;
  }
  line("} " + locText());
  for (size_t i = 0; i < carried.size(); ++i) {
    Val v{carried.size() > 1 ? result + "#" + std::to_string(i) : result,
          types[i]};
    lookup(carried[i])->value = v;
  }
}

void Emitter::emitFor(const Stmt &stmt) {
  scopes.emplace_back();
  if (!emitCountedFor(stmt)) {
    if (stmt.init)
      emitStmt(*stmt.init);
    emitWhile(stmt.expr.get(), stmt.body.get(), stmt.step.get(), stmt.loc);
  }
  scopes.pop_back();
}

/// `for (int i = a; i < b; i += c)` with a positive constant step, `b` and
/// `i` not assigned in the body: an scf.for. Anything else is a while loop.
bool Emitter::emitCountedFor(const Stmt &stmt) {
  if (!stmt.init || stmt.init->kind != Stmt::Decl ||
      stmt.init->declarators.size() != 1 || !stmt.expr || !stmt.step)
    return false;
  const Declarator &iv = stmt.init->declarators[0];
  if (!iv.init || !iv.shape.empty() || iv.type.pointer ||
      (iv.type.scalar != ScalarKind::Int && iv.type.scalar != ScalarKind::Long))
    return false;
  const Expr &cond = *stmt.expr;
  if (cond.kind != Expr::Binary || (cond.op != "<" && cond.op != "<=") ||
      cond.operands[0]->kind != Expr::Name || cond.operands[0]->name != iv.name)
    return false;
  const Expr &step = *stmt.step;
  std::optional<int64_t> stepValue;
  auto isIv = [&](const Expr &e) {
    return e.kind == Expr::Name && e.name == iv.name;
  };
  if (step.kind == Expr::Unary && (step.op == "post++" || step.op == "pre++") &&
      isIv(*step.operands[0]))
    stepValue = 1;
  else if (step.kind == Expr::Assign && step.op == "+=" &&
           isIv(*step.operands[0]))
    stepValue = constantInt(*step.operands[1]);
  else if (step.kind == Expr::Assign && step.op == "=" &&
           isIv(*step.operands[0]) && step.operands[1]->kind == Expr::Binary &&
           step.operands[1]->op == "+" && isIv(*step.operands[1]->operands[0]))
    stepValue = constantInt(*step.operands[1]->operands[1]);
  if (!stepValue || *stepValue <= 0)
    return false;
  AssignedNames assigned;
  assigned.stmt(stmt.body.get());
  std::vector<std::string> boundNames{iv.name};
  collectNames(cond.operands[1].get(), boundNames);
  for (const std::string &name : boundNames)
    if (llvm::is_contained(assigned.names, name))
      return false;

  Location at = stmt.loc;
  TcType ivType = TcType::of(iv.type.scalar);
  Val lower =
      coerce(notNullValue(*iv.init), ivType, iv.init->loc, "the loop start");
  Val upper = coerce(notNullValue(*cond.operands[1]), ivType,
                     cond.operands[1]->loc, "the loop bound");
  if (cond.op == "<=") {
    Val one = constant(1, ivType);
    upper = emitBinary("+", upper, one, cond.loc);
  }
  loc = at;
  checkFits(*stepValue, ivType.scalar, step.loc,
            "the loop step " + std::to_string(*stepValue));
  Val stepVal = constant(*stepValue, ivType);

  std::vector<std::string> carried = carriedVariables({stmt.body.get()}, {});
  std::vector<TcType> types;
  std::vector<Val> inits, args;
  for (const std::string &name : carried) {
    Variable *var = lookup(name);
    types.push_back(var->type);
    inits.push_back(var->value);
    args.push_back(Val{fresh(), var->type});
  }
  std::string ivName = fresh();
  std::string body = capture(at, [&] {
    for (size_t i = 0; i < carried.size(); ++i)
      lookup(carried[i])->value = args[i];
    scopes.emplace_back();
    declare(iv.name, iv.loc, Variable{ivType, Val{ivName, ivType}});
    scopes.emplace_back();
    emitStmt(*stmt.body);
    scopes.pop_back();
    scopes.pop_back();
    if (!carried.empty()) {
      std::string values;
      for (size_t i = 0; i < carried.size(); ++i)
        values += (i ? ", " : "") + lookup(carried[i])->value.ssa;
      loc = at;
      line("scf.yield " + values + " : " + joinTypes(types) + " " + locText());
    }
  });
  loc = at;
  std::string result = carried.empty() ? "" : fresh();
  std::string header;
  if (!carried.empty())
    header = result +
             (carried.size() > 1 ? ":" + std::to_string(carried.size()) : "") +
             " = ";
  header += "scf.for " + ivName + " = " + lower.ssa + " to " + upper.ssa +
            " step " + stepVal.ssa;
  if (!carried.empty()) {
    header += " iter_args(";
    for (size_t i = 0; i < carried.size(); ++i)
      header += (i ? ", " : "") + args[i].ssa + " = " + inits[i].ssa;
    header += ") -> (" + joinTypes(types) + ")";
  }
  line(header + " : " + ivType.mlir() + " {");
  out += body;
  line("} " + locText());
  for (size_t i = 0; i < carried.size(); ++i)
    lookup(carried[i])->value =
        Val{carried.size() > 1 ? result + "#" + std::to_string(i) : result,
            types[i]};
  return true;
}

void Emitter::emitWhile(const Expr *cond, const Stmt *body, const Expr *step,
                        Location at) {
  std::vector<std::string> carried = carriedVariables({body}, {cond, step});
  std::vector<TcType> types;
  std::vector<Val> inits, beforeArgs, afterArgs;
  for (const std::string &name : carried) {
    Variable *var = lookup(name);
    types.push_back(var->type);
    inits.push_back(var->value);
    beforeArgs.push_back(Val{fresh(), var->type});
  }
  for (const TcType &type : types)
    afterArgs.push_back(Val{fresh(), type});
  auto currentValues = [&] {
    std::string values;
    for (size_t i = 0; i < carried.size(); ++i)
      values += (i ? ", " : "") + lookup(carried[i])->value.ssa;
    return values;
  };
  std::string typeList = joinTypes(types);

  std::string beforeText = capture(at, [&] {
    for (size_t i = 0; i < carried.size(); ++i)
      lookup(carried[i])->value = beforeArgs[i];
    Val c;
    if (cond) {
      c = notNullValue(*cond);
      if (c.type.isTile())
        fail(cond->loc,
             "a loop condition must be a scalar, got '" + c.type.str() + "'");
      c = toBool(c, cond->loc);
    } else {
      loc = at;
      c = constant(1, TcType::of(ScalarKind::Bool));
    }
    loc = at;
    std::string forwarded =
        carried.empty() ? "" : " " + currentValues() + " : " + typeList;
    line("scf.condition(" + c.ssa + ")" + forwarded + " " + locText());
  });
  std::string afterText = capture(at, [&] {
    for (size_t i = 0; i < carried.size(); ++i)
      lookup(carried[i])->value = afterArgs[i];
    scopes.emplace_back();
    if (body)
      emitStmt(*body);
    scopes.pop_back();
    if (step)
      emitExpr(*step);
    loc = at;
    line("scf.yield" +
         (carried.empty() ? "" : " " + currentValues() + " : " + typeList) +
         " " + locText());
  });

  loc = at;
  std::string result = carried.empty() ? "" : fresh();
  std::string header;
  if (carried.empty()) {
    header = "scf.while : () -> () {";
  } else {
    header = result +
             (carried.size() > 1 ? ":" + std::to_string(carried.size()) : "") +
             " = scf.while (";
    for (size_t i = 0; i < carried.size(); ++i)
      header += (i ? ", " : "") + beforeArgs[i].ssa + " = " + inits[i].ssa;
    header += ") : (" + typeList + ") -> (" + typeList + ") {";
  }
  line(header);
  out += beforeText;
  line("} do {");
  if (!carried.empty()) {
    std::string labels;
    for (size_t i = 0; i < carried.size(); ++i)
      labels += (i ? ", " : "") + afterArgs[i].ssa + ": " + types[i].mlir();
    line("^bb0(" + labels + "):");
  }
  out += afterText;
  line("} " + locText());
  for (size_t i = 0; i < carried.size(); ++i)
    lookup(carried[i])->value =
        Val{carried.size() > 1 ? result + "#" + std::to_string(i) : result,
            types[i]};
}
