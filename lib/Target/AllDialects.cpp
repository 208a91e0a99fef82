//===- AllDialects.cpp - every upstream dialect, for tools
//-----------------===//
//
// Tools that parse any MLIR (tile-opt, the plugin, the C API's registry) want
// every upstream dialect and extension. Kept in its own file so that a
// library holding only the compile (the self-contained libTileCompiler.so)
// does not pull them all in.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Compile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::tile::registerCompileDependencies(DialectRegistry &registry) {
  registerPipelineDependencies(registry);
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}
