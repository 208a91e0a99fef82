//===- FuzzCommon.h - shared pieces of the tile fuzz targets ----*- C++ -*-===//
//
// Both targets parse the input as tile IR with only the dialects tile kernels
// use (tile, func, arith, math, scf, ub), so that the fuzzer spends its time in
// our code and not in the parsers of unrelated upstream dialects. Every
// diagnostic is swallowed: bad input must end in a diagnostic, never in a
// crash, and a diagnostic is not a finding.
//
// A finding is anything libFuzzer or the sanitizers report (crash, abort,
// ASan/UBSan report, timeout, out-of-memory, exit) and the oracles each
// target checks with `fuzzFail` below. As the compile library does, the
// targets parse with its nesting limit and run each input on its large
// stack (mlir::tile::runWithLargeStack).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FUZZ_FUZZCOMMON_H
#define TILE_FUZZ_FUZZCOMMON_H

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Target/Compile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

namespace tile_fuzz {

/// The dialects a tile kernel is written in.
inline void registerKernelDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::tile::TileDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::ub::UBDialect>();
}

/// A registry of the kernel dialects, built once for all inputs.
inline const mlir::DialectRegistry &kernelRegistry() {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    registerKernelDialects(*r);
    return r;
  }();
  return *registry;
}

/// Ignores every diagnostic (errors included) of `context`.
inline void swallowDiagnostics(mlir::MLIRContext &context) {
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  context.getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
}

/// Parses (and so verifies) `text` as a module in `context`, with the
/// nesting limit the compile library applies to its input unless
/// `limitNesting` is false (for re-parsing what the printer wrote: the
/// generic form nests deeper than the custom one).
inline mlir::OwningOpRef<mlir::ModuleOp> parseKernel(llvm::StringRef text,
                                                     mlir::MLIRContext &context,
                                                     bool limitNesting = true) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz-input.mlir"),
      llvm::SMLoc());
  if (!limitNesting)
    return mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  return mlir::tile::parseTileSource(sourceMgr, &context);
}

/// An oracle failed: report and abort, so that libFuzzer saves the input.
[[noreturn]] inline void fuzzFail(const char *what, llvm::StringRef detail) {
  llvm::errs() << "tile-fuzz: " << what << "\n" << detail << "\n";
  llvm::errs().flush();
  std::abort();
}

} // namespace tile_fuzz

#endif // TILE_FUZZ_FUZZCOMMON_H
