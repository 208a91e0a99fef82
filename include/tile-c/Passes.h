/*===- tile-c/Passes.h - C API: tile passes and pipeline setup ----*- C -*-===*\
|*                                                                            *|
|* Registers the tile passes and the `tile-to-nvvm` pipeline, so that a C     *|
|* client can name them in mlirOpPassManagerAddPipeline / mlirParsePass-      *|
|* Pipeline, and fills a dialect registry with everything the pipeline needs. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_PASSES_H
#define TILE_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Registers `tile-assign-layouts`, `convert-tile-to-gpu` and the
 *  `tile-to-nvvm` pipeline (options `chip`, `num-warps`) with the global pass
 *  registry. Safe to call more than once. */
MLIR_CAPI_EXPORTED void tileRegisterPasses(void);

/** Adds to `registry` the tile dialect and every upstream dialect, interface
 *  extension and LLVM IR translation that running `tile-to-nvvm` and then
 *  `gpu-module-to-binary` needs (the NVVM target included). A null registry
 *  is ignored. */
MLIR_CAPI_EXPORTED void
tileRegisterCompileDependencies(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif /* TILE_C_PASSES_H */
