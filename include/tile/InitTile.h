//===- InitTile.h - register the tile dialect, passes, translations -*- C++
//-*-===//
//
// The entry points an MLIR tool calls to offer tile: tile-opt, tile-translate,
// the mlir-opt plugin, the C API and downstream compilers all go through
// these, so every tool registers the same things.
//
// To run the whole pipeline (to NVVM and PTX) a context also needs the
// upstream dialects, interface extensions and the NVVM target that the
// lowering produces and serializes: see registerCompileDependencies in
// tile/Target/Compile.h, which includes everything below too.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INITTILE_H
#define TILE_INITTILE_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tile {

/// Adds the tile dialect to `registry`. Tile IR also uses func, arith and
/// scf; a tool that registers only the tile dialect must add those itself.
void registerTileDialect(DialectRegistry &registry);

/// Registers the tile passes (`tile-assign-layouts`, `convert-tile-to-gpu`)
/// and the `tile-to-nvvm` pipeline with the global pass registry, so that
/// they can be named on the command line and in textual pipelines. Safe to
/// call more than once.
void registerTilePassesAndPipelines();

/// Registers the translations `tile-to-llvmir`, `tile-to-ptx` and
/// `tile-to-cubin` (tile IR to LLVM IR, PTX, cubin) for mlir-translate-style
/// tools built on mlirTranslateMain, with the options `--tile-chip`,
/// `--tile-num-warps` and `--tile-cuda-path`. Safe to call more than once.
void registerTileTranslations();

} // namespace mlir::tile

#endif // TILE_INITTILE_H
