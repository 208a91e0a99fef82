//===- Emitter.h - Triton-C checker and tile IR writer ----------*- C++ -*-===//
//
// One walk over the syntax tree checks types and shapes and writes tile IR
// text. Mutable C variables become SSA values: each variable holds its
// current value; `if` and loops carry (as scf results and iter_args) every
// variable declared outside them and assigned inside, found syntactically
// before the region is written. C variables have fixed types, so the
// carried types are known up front.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRITONC_EMITTER_H
#define TILE_LIB_TRITONC_EMITTER_H

#include "Types.h"

#include "tile/TritonC/AST.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tile::tritonc {

/// A checked value: its SSA name and type. Literals (and constants folded
/// from them) remember their value: they adapt to the other operand's
/// type (`x * 2` on half stays half) and can give shapes.
struct Val {
  std::string ssa;
  TcType type;
  bool isLiteral = false;
  bool isConstant = false;
  /// A constant's value: exact for integer and bool types (folded with
  /// checked arithmetic in the type's range), a double for float types.
  int64_t intConstant = 0;
  double floatConstant = 0;
};

/// Regions nest at most this deep: each `if`, `for` and `while` (and each
/// scalar `?:` whose branches read memory) becomes an scf region, and the
/// compile accepts tile IR nested at most mlir::tile::kMaxNestingDepth (256)
/// brackets deep.
constexpr int kMaxControlDepth = 128;

struct EmitterOptions {
  std::string fileName;
  bool assumeAligned = true;
  unsigned numWarps = 0; // 0: choose from the tile sizes
};

class Emitter {
public:
  explicit Emitter(EmitterOptions options) : options(std::move(options)) {}

  /// The module's tile IR; throws CompileError.
  std::string emitUnit(const TranslationUnit &unit);
  unsigned chosenNumWarps() const { return numWarps; }

private:
  struct Variable {
    TcType type;
    Val value;
  };
  struct MemoryAccess {
    int64_t elements;
    unsigned elementBytes;
  };
  struct EmittedFunction {
    const Function *ast;
    std::vector<TcType> paramTypes;
    TcType returnType;
    std::string body;
  };

  EmitterOptions options;
  unsigned numWarps = 4;
  std::string out;
  int indent = 1;
  unsigned counter = 0;
  Location loc;
  std::vector<std::map<std::string, Variable>> scopes;
  llvm::StringMap<const Function *> functions;
  llvm::StringMap<std::vector<TcType>> signatures;
  const Function *currentFunction = nullptr;
  std::vector<MemoryAccess> accesses;

  // Writing text.
  std::string fresh() { return "%" + std::to_string(counter++); }
  std::string locText() const;
  void line(const std::string &text);
  Val op(const std::string &text, const TcType &type);
  /// Runs `body` with `out` redirected, one region deeper (at most
  /// kMaxControlDepth, else an error at `at`); returns the text.
  std::string capture(Location at, const std::function<void()> &body);

  // Functions and statements (EmitStmt.cpp).
  EmittedFunction emitFunction(const Function &f);
  std::string functionText(const EmittedFunction &f);
  void emitStmt(const Stmt &stmt);
  void emitBlock(const Stmt &block, bool newScope);
  void emitDecl(const Stmt &stmt);
  void emitIf(const Stmt &stmt);
  void emitFor(const Stmt &stmt);
  bool emitCountedFor(const Stmt &stmt);
  void emitWhile(const Expr *cond, const Stmt *body, const Expr *step,
                 Location at);
  std::vector<std::string>
  carriedVariables(const std::vector<const Stmt *> &stmts,
                   const std::vector<const Expr *> &exprs);
  Variable *lookup(const std::string &name);
  void declare(const std::string &name, Location at, Variable var);
  TcType resolveType(const TypeSpec &spec, const std::vector<ExprPtr> &shape);

  // Expressions (EmitExpr.cpp).
  Val emitExpr(const Expr &e);
  Val emitUnary(const Expr &e);
  Val emitBinary(const std::string &opName, Val a, Val b, Location at);
  Val emitAssign(const Expr &e);
  Val assignTo(const Expr &target, Val value, Location at);
  Val emitTernary(const Expr &e);
  Val emitCall(const Expr &e);
  Val emitBuiltin(const Expr &e, bool &handled);
  Val emitSubscript(const Expr &e);
  Val emitLoad(Val ptr, std::optional<Val> mask, std::optional<Val> other,
               Location at);
  void emitStore(Val ptr, Val value, std::optional<Val> mask, Location at);
  Val notNullValue(const Expr &e); // an expression that must give a value
  std::optional<int64_t> constantInt(const Expr &e);
  int64_t requireConstantInt(const Expr &e, const std::string &what);

  // Values (Values.cpp).
  /// A constant of `type` (any scalar kind) holding the integer `value`,
  /// which must fit an integer `type`.
  Val constant(int64_t value, const TcType &type);
  /// A constant of the float `type`.
  Val floatConstant(double value, const TcType &type);
  /// The constant `v` as a constant of `type`, of the same scalar kind.
  Val sameConstant(const Val &v, const TcType &type);
  /// Fails at `at` unless `value` fits the integer kind `kind`; `what`
  /// describes the value ("the constant 4294967296").
  void checkFits(int64_t value, ScalarKind kind, Location at,
                 const std::string &what);
  /// Fails at `at` unless a tile of `shape` is within the dialect's limit
  /// on elements; returns the shape.
  std::vector<int64_t> checkShape(std::vector<int64_t> shape, Location at);
  Val convert(Val v, ScalarKind to, Location at);
  Val toBool(Val v, Location at) { return convert(v, ScalarKind::Bool, at); }
  Val broadcastTo(Val v, const std::vector<int64_t> &shape, Location at,
                  const std::string &context);
  std::vector<int64_t> broadcastShapes(const TcType &a, const TcType &b,
                                       Location at, const std::string &context);
  /// Converts to `type` as an assignment or argument does: the element
  /// converts, a scalar splats, a tile broadcasts to the declared shape.
  Val coerce(Val v, const TcType &type, Location at,
             const std::string &context);
  ScalarKind commonScalar(const Val &a, const Val &b) const;
  Val expandDims(Val v, unsigned axis);
  Val elementwise(const std::string &scalarOp, const std::string &tileOp,
                  const Val &a, const Val &b, const TcType &resultType);
  Val unaryElementwise(const std::string &scalarOp, const std::string &tileOp,
                       const Val &a);
};

} // namespace tile::tritonc

#endif // TILE_LIB_TRITONC_EMITTER_H
