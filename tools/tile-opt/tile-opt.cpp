//===- tile-opt.cpp - tile optimizer driver -------------------------------===//

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tile/InitTile.h"
#include "tile/Target/Compile.h"

namespace mlir::tile::test {
void registerTestAxisInfoPass();
} // namespace mlir::tile::test

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // The tile dialect and everything its pipeline lowers to and serializes
  // with, as the compile library registers them.
  mlir::tile::registerCompileDependencies(registry);
  mlir::registerAllPasses();
  mlir::tile::registerTilePassesAndPipelines();
  mlir::tile::test::registerTestAxisInfoPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile optimizer driver\n", registry));
}
