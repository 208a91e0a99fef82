//===- Lexer.h - Triton-C tokens and source locations -----------*- C++ -*-===//
//
// Triton-C is lexed once into tokens that remember where they came from, so
// that every later error (preprocessor, parser, type checker) can point at
// the source line with a caret.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRITONC_LEXER_H
#define TILE_TRITONC_LEXER_H

#include "tile/TritonC/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace tile::tritonc {

struct Token {
  enum Kind { Identifier, Integer, Float, Punct, End };
  Kind kind = End;
  std::string text;
  Location loc;
  /// The first token of a physical line (preprocessor directives start so).
  bool atLineStart = false;

  bool is(llvm::StringRef spelling) const {
    return (kind == Punct || kind == Identifier) && text == spelling;
  }
};

/// Splits `source` into tokens (comments and whitespace dropped; the last
/// token is End). Throws CompileError on a character that starts no token.
std::vector<Token> lex(llvm::StringRef source);

} // namespace tile::tritonc

#endif // TILE_TRITONC_LEXER_H
