//===- TilePlugin.cpp - tile as a plugin for a stock mlir-opt -------------===//
//
//   mlir-opt --load-dialect-plugin=TilePlugin.so \
//            --load-pass-plugin=TilePlugin.so \
//            --pass-pipeline='builtin.module(tile-to-nvvm{chip=sm_90})' k.mlir
//
// One shared object answers both flags. It links libMLIR.so and libLLVM.so,
// as Debian's mlir-opt does, so the host's dialect and option registries
// are the ones the plugin registers with.
//
//===----------------------------------------------------------------------===//

#include "tile/InitTile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TileDialectPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::tile::registerTileDialect(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TilePassPlugin", LLVM_VERSION_STRING,
          [] { mlir::tile::registerTilePassesAndPipelines(); }};
}
