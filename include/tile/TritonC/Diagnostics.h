//===- Diagnostics.h - Triton-C errors with source lines --------*- C++ -*-===//

#ifndef TILE_TRITONC_DIAGNOSTICS_H
#define TILE_TRITONC_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace tile::tritonc {

/// A 1-based line and column in the kernel source. Tokens that come from a
/// macro carry the location of the macro's use, so errors point at the
/// kernel text the user wrote.
struct Location {
  unsigned line = 0;
  unsigned column = 0;
};

struct Diagnostic {
  Location loc;
  std::string message;
};

/// "file:line:col: error: message", the source line, and a caret under the
/// column (as clang and MLIR print them).
std::string formatDiagnostic(const Diagnostic &diag, llvm::StringRef fileName,
                             llvm::StringRef source);

/// Thrown inside the frontend on the first error and caught at its entry
/// point: the checker is a deep recursion, and unwinding to one place keeps
/// every caller free of error plumbing. Nothing escapes the library.
struct CompileError {
  Diagnostic diag;
};

[[noreturn]] void fail(Location loc, std::string message);

} // namespace tile::tritonc

#endif // TILE_TRITONC_DIAGNOSTICS_H
