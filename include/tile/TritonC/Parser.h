//===- Parser.h - Triton-C recursive-descent parser -------------*- C++ -*-===//

#ifndef TILE_TRITONC_PARSER_H
#define TILE_TRITONC_PARSER_H

#include "tile/TritonC/AST.h"
#include "tile/TritonC/Lexer.h"

namespace tile::tritonc {

/// Parses preprocessed tokens into functions. Throws CompileError on the
/// first syntax error.
TranslationUnit parse(const std::vector<Token> &tokens);

} // namespace tile::tritonc

#endif // TILE_TRITONC_PARSER_H
