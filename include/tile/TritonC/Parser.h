//===- Parser.h - Triton-C recursive-descent parser -------------*- C++ -*-===//

#ifndef TILE_TRITONC_PARSER_H
#define TILE_TRITONC_PARSER_H

#include "tile/TritonC/AST.h"
#include "tile/TritonC/Lexer.h"

namespace tile::tritonc {

/// Statements nest at most this deep (blocks and the bodies of if, else,
/// for, while). Control flow is limited further, to kMaxControlDepth
/// (Emitter.h), by the checker.
constexpr unsigned kMaxStatementDepth = 1024;

/// Expressions nest at most this deep: parentheses, unary operators, casts,
/// masks, call arguments, subscripts, chained `=` and `?:` each add a level,
/// and so does each operator of a chain (`a + b + c` is two levels). The
/// checker walks expressions recursively; this keeps it on its stack.
constexpr unsigned kMaxExpressionDepth = 4096;

/// Parses preprocessed tokens into functions. Throws CompileError on the
/// first syntax error.
TranslationUnit parse(const std::vector<Token> &tokens);

} // namespace tile::tritonc

#endif // TILE_TRITONC_PARSER_H
