//===- Frontend.h - Triton-C to tile IR -------------------------*- C++ -*-===//
//
// Triton-C is C with tiles (see docs/triton-c.md). The frontend preprocesses,
// parses, checks and writes tile IR text with `loc("file.tc":line:col)`
// locations; compileTileSource (tile/Target/Compile.h) takes it from there,
// so every frontend shares one pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRITONC_FRONTEND_H
#define TILE_TRITONC_FRONTEND_H

#include "tile/TritonC/Preprocessor.h"

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace tile::tritonc {

struct FrontendOptions {
  /// -D definitions, in order (single values; see expandVariants for lists).
  std::vector<MacroDefinition> defines;
  /// Promise 16-byte aligned pointer arguments (tile.divisibility = 16).
  bool assumeAligned = true;
  /// Warps per program; 0 lets the frontend choose from the tile sizes.
  unsigned numWarps = 0;
};

struct FrontendResult {
  bool succeeded = false;
  /// "file:line:col: error: message", the source line and a caret.
  std::string diagnostics;
  std::string tileIR;
  /// The warps the module is meant to run with (chosen or given).
  unsigned numWarps = 4;
};

/// The stack translateToTile runs on: the parser and the checker recurse
/// over expressions, up to kMaxExpressionDepth levels (Parser.h).
constexpr unsigned kFrontendStackBytes = 256u << 20;

/// Translates one Triton-C file to tile IR text, on a thread with a
/// kFrontendStackBytes stack. Never throws.
FrontendResult translateToTile(llvm::StringRef source, llvm::StringRef fileName,
                               const FrontendOptions &options);

/// One point of the auto-tuning space: single-valued definitions, and a
/// file-name suffix naming the tuned values (".SIZE32.TYPEhalf").
struct Variant {
  std::vector<MacroDefinition> defines;
  std::vector<MacroDefinition> tuned;
  std::string suffix;
};

/// Expands list values (`SIZE=[32, 64]`) into the cartesian product of
/// variants; without lists, one variant with an empty suffix. Fills `error`
/// and returns nothing on a malformed list.
std::vector<Variant> expandVariants(const std::vector<MacroDefinition> &defines,
                                    std::string &error);

} // namespace tile::tritonc

#endif // TILE_TRITONC_FRONTEND_H
