//===- tile-fuzz-compile.cpp - fuzz the whole pipeline to PTX -------------===//
//
// Input: tile IR text. Input that parses and verifies with the kernel
// dialects is compiled to PTX (no ptxas) with mlir::tile::compileTileSource,
// the library every driver uses, at a number of warps (1 to 32, so 1024
// threads are exercised too) and a chip picked from the input's hash.
//
// The compile may fail, but only with a diagnostic: a failure without any
// error text is a finding, as are crashes and sanitizer reports.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "tile/Target/Compile.h"

#include "llvm/ADT/Hashing.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  // Only inputs that verify with the kernel dialects go down the pipeline.
  bool verifies = false;
  mlir::tile::runWithLargeStack([&] {
    MLIRContext context(tile_fuzz::kernelRegistry(),
                        MLIRContext::Threading::DISABLED);
    tile_fuzz::swallowDiagnostics(context);
    verifies = bool(tile_fuzz::parseKernel(input, context));
  });
  if (!verifies)
    return 0;

  tile::CompileOptions options;
  options.emitCubin = false;
  size_t hash = llvm::hash_value(input);
  options.numWarps = 1u << (hash % 6); // 1, 2, ..., 32
  // The chip too: sm_90a's wgmma and TMA lowering, sm_80's mma.sync, and
  // sm_90 without either.
  static const char *const chips[] = {"sm_90a", "sm_90", "sm_80"};
  options.chip = chips[(hash / 6) % 3];
  tile::CompileResult result =
      tile::compileTileSource(input, "fuzz-input.mlir", options);
  if (!result.succeeded && result.diagnostics.empty())
    tile_fuzz::fuzzFail("the compile failed without a diagnostic", input);
  if (result.succeeded && result.ptx.empty())
    tile_fuzz::fuzzFail("the compile succeeded without PTX", input);
  return 0;
}
