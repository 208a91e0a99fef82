//===- Preprocessor.h - Triton-C macros -------------------------*- C++ -*-===//
//
// Object-like macros only: `#define NAME tokens`, `#undef`, `#ifdef`,
// `#ifndef`, `#else`, `#endif`, and `-DNAME=VALUE` from the command line.
// That is what parameterizes a kernel (tile sizes, element types); lists
// (`-DSIZE=[32, 64]`) are split into variants before this runs.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRITONC_PREPROCESSOR_H
#define TILE_TRITONC_PREPROCESSOR_H

#include "tile/TritonC/Lexer.h"

#include <string>
#include <utility>
#include <vector>

namespace tile::tritonc {

/// A command-line definition: NAME and its replacement text.
using MacroDefinition = std::pair<std::string, std::string>;

/// Macros expand inside each other at most this deep (A to B to C ...).
constexpr unsigned kMaxMacroDepth = 256;

/// Preprocessing yields at most this many tokens: a few macros doubling
/// each other can otherwise ask for billions.
constexpr size_t kMaxTokens = size_t(1) << 20;

/// Runs the directives and expands the macros in `tokens`. Expanded tokens
/// keep the location of the macro's use. Throws CompileError.
std::vector<Token> preprocess(const std::vector<Token> &tokens,
                              const std::vector<MacroDefinition> &defines);

} // namespace tile::tritonc

#endif // TILE_TRITONC_PREPROCESSOR_H
