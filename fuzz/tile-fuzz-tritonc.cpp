//===- tile-fuzz-tritonc.cpp - fuzz the Triton-C frontend -----------------===//
//
// Input: Triton-C source. The frontend must either fail with a located
// diagnostic or produce tile IR that parses and verifies: a failure without
// text, IR that does not verify (wrong code), a crash or a sanitizer report
// is a finding.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "tile/TritonC/Frontend.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  ::tile::tritonc::FrontendOptions options;
  options.defines.push_back({"SIZE", "64"});
  ::tile::tritonc::FrontendResult result =
      ::tile::tritonc::translateToTile(input, "fuzz-input.tc", options);
  if (!result.succeeded) {
    if (result.diagnostics.empty())
      tile_fuzz::fuzzFail("the frontend failed without a diagnostic", input);
    return 0;
  }
  bool verifies = false;
  mlir::tile::runWithLargeStack([&] {
    MLIRContext context(tile_fuzz::kernelRegistry(),
                        MLIRContext::Threading::DISABLED);
    tile_fuzz::swallowDiagnostics(context);
    verifies = bool(tile_fuzz::parseKernel(result.tileIR, context));
  });
  if (!verifies)
    tile_fuzz::fuzzFail("the frontend produced tile IR that does not verify",
                        result.tileIR);
  return 0;
}
