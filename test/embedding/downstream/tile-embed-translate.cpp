//===- tile-embed-translate.cpp - mlir-translate with tile translations ---===//
//
//   tile-embed-translate --tile-to-ptx kernel.mlir [--tile-chip=sm_90]
//
//===----------------------------------------------------------------------===//

#include "tile/InitTile.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::tile::registerTileTranslations();
  return mlir::failed(mlir::mlirTranslateMain(
             argc, argv, "downstream translator with tile's translations\n"))
             ? 1
             : 0;
}
