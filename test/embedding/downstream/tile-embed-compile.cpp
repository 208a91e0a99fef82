//===- tile-embed-compile.cpp - tile IR to PTX from a downstream tool -----===//
//
//   tile-embed-compile kernel.mlir                PTX of the kernels on stdout
//   tile-embed-compile --parse-only file.mlir     parse, verify, print
//
// Everything comes from the installed tile package: the dialect and the
// pipeline are registered through tile/InitTile.h and named in a textual
// pipeline, as any MLIR tool would name its own.
//
//===----------------------------------------------------------------------===//

#include "DownstreamOps.h"

#include "tile/InitTile.h"
#include "tile/Target/Compile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;

int main(int argc, char **argv) {
  bool parseOnly = argc == 3 && !std::strcmp(argv[1], "--parse-only");
  if (argc != 2 && !parseOnly) {
    llvm::errs() << "usage: " << argv[0] << " [--parse-only] file.mlir\n";
    return 2;
  }
  const char *path = argv[argc - 1];

  DialectRegistry registry;
  // Upstream dialects, extensions and the NVVM target the pipeline needs;
  // then the tile dialect (already among them, named for the reader) and
  // our own dialect on top.
  tile::registerCompileDependencies(registry);
  tile::registerTileDialect(registry);
  registry.insert<downstream::DownstreamDialect>();
  tile::registerTilePassesAndPipelines();
  // gpu-module-to-binary, which serializes the result to PTX.
  registerGPUPasses();

  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, sourceMgr,
                                                           ParserConfig(&context));
  if (!module)
    return 1;
  if (parseOnly) {
    module->print(llvm::outs());
    llvm::outs() << "\n";
    return 0;
  }

  PassManager pm(&context);
  std::string pipeline = "tile-to-nvvm{chip=sm_90 num-warps=4},"
                         "gpu-module-to-binary{format=isa toolkit=" +
                         tile::getCudaToolkitPath({}) + "}";
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())) ||
      failed(pm.run(*module)))
    return 1;

  int binaries = 0;
  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects()) {
      llvm::outs() << cast<gpu::ObjectAttr>(object).getObject().getValue();
      ++binaries;
    }
  });
  if (!binaries) {
    llvm::errs() << "error: the pipeline produced no gpu.binary\n";
    return 1;
  }
  return 0;
}
