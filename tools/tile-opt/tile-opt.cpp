//===- tile-opt.cpp - tile optimizer driver -------------------------------===//

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tile/Conversion/TileToGPU/Passes.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Target/Compile.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tile::registerCompileDependencies(registry);
  mlir::registerAllPasses();
  mlir::tile::registerTilePasses();
  mlir::tile::registerTileConversionPasses();
  mlir::tile::registerTilePipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile optimizer driver\n", registry));
}
