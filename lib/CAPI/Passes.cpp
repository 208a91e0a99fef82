//===- Passes.cpp - C API: tile passes and pipeline setup -----------------===//

#include "tile-c/Passes.h"
#include "tile/InitTile.h"
#include "tile/Target/Compile.h"

#include "mlir/CAPI/IR.h"

void tileRegisterPasses(void) { mlir::tile::registerTilePassesAndPipelines(); }

void tileRegisterCompileDependencies(MlirDialectRegistry registry) {
  if (mlir::DialectRegistry *dialects = unwrap(registry))
    mlir::tile::registerCompileDependencies(*dialects);
}
