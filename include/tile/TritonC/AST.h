//===- AST.h - Triton-C syntax tree -----------------------------*- C++ -*-===//
//
// The parser's output: plain C syntax plus tiles. Shapes are still
// expressions here (they are macro-substituted constants, evaluated by the
// checker), and nothing is typed yet.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRITONC_AST_H
#define TILE_TRITONC_AST_H

#include "tile/TritonC/Diagnostics.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tile::tritonc {

/// Element types of scalars and tiles.
enum class ScalarKind { Void, Bool, Int, Long, Half, Float, Double };

/// A type as written: `float`, `half*`, `int` (shapes live on declarators).
struct TypeSpec {
  ScalarKind scalar = ScalarKind::Int;
  bool pointer = false;
  Location loc;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum Kind {
    IntLit,    // value
    FloatLit,  // floatValue
    BoolLit,   // value
    Name,      // name
    Unary,     // op, operands[0]; op is - + ! ~ * pre++ pre-- post++ post--
    Binary,    // op, operands[0..1]
    Assign,    // op ("=", "+=", ...), operands[0] target, operands[1] value
    Ternary,   // operands[0] ? operands[1] : operands[2]
    Range,     // operands[0] ... operands[1]
    Call,      // name(operands...)
    Subscript, // operands[0][slices...]
    Cast,      // (castType) operands[0]
    Masked,    // @operands[0] operands[1]: a masked load (or store target)
  };
  /// One item of a subscript: `:`, `newaxis`, or an expression (rejected
  /// by the checker: subscripts never dereference).
  struct Slice {
    enum Kind { All, NewAxis, Index } kind;
    Location loc;
  };

  Kind kind;
  Location loc;
  std::string op;   // operator spelling, or the callee for Call
  std::string name; // Name
  int64_t value = 0;
  /// An integer literal with an 'l' or 'L' suffix: a long.
  bool isLong = false;
  double floatValue = 0;
  TypeSpec castType;
  std::vector<ExprPtr> operands;
  std::vector<Slice> slices;
  /// Levels of nodes below and including this one (the parser bounds it).
  unsigned depth = 1;

  Expr(Kind kind, Location loc) : kind(kind), loc(loc) {}
};

/// `name[shape...] = init` in a declaration or a parameter.
struct Declarator {
  TypeSpec type; // the element type (`float*` for a tile of pointers)
  std::string name;
  Location loc;
  std::vector<ExprPtr> shape; // empty: a scalar
  ExprPtr init;               // may be null
  /// `__multipleof(N)` / `__aligned(N)`: a divisibility the caller promises.
  int64_t multipleOf = 0;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
  enum Kind { Decl, ExprStmt, If, For, While, Block, Return, Empty };
  Kind kind;
  Location loc;
  std::vector<Declarator> declarators; // Decl
  ExprPtr expr;     // ExprStmt, Return (may be null), If/While/For condition
  ExprPtr step;     // For (may be null)
  StmtPtr init;     // For (Decl or ExprStmt, may be null)
  StmtPtr body;     // If (then), For, While
  StmtPtr elseBody; // If (may be null)
  std::vector<StmtPtr> stmts; // Block

  Stmt(Kind kind, Location loc) : kind(kind), loc(loc) {}
};

struct Function {
  std::string name;
  Location loc;
  bool isKernel = false; // __global__
  TypeSpec returnType;
  std::vector<Declarator> params;
  StmtPtr body;
};

struct TranslationUnit {
  std::vector<Function> functions;
};

} // namespace tile::tritonc

#endif // TILE_TRITONC_AST_H
