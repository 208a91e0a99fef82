// The stock mlir-opt (Debian's mlir-opt-22) loads the tile dialect, passes
// and pipeline from TilePlugin.so and runs the whole pipeline to PTX.
// UNSUPPORTED: asan
//
// Parse, verify and print with the dialect plugin alone:
// RUN: %mlir_opt --load-dialect-plugin=%tile_plugin %s | FileCheck %s --check-prefix=PARSE
// PARSE: func.func @copy(%{{.*}}: !tile.ptr<f32>
// PARSE: tile.load %{{.*}} : !tile.block<64x!tile.ptr<f32>>
//
// A tile pass, named in a textual pipeline:
// RUN: %mlir_opt --load-dialect-plugin=%tile_plugin --load-pass-plugin=%tile_plugin \
// RUN:   --pass-pipeline='builtin.module(tile-assign-layouts{num-warps=2})' %s \
// RUN:   | FileCheck %s --check-prefix=LAYOUT
// LAYOUT: #blocked = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [2], order = [0]>
// LAYOUT: !tile.block<64xi32, #blocked>
//
// The registered pipeline, then upstream serialization (PTX text):
// RUN: %mlir_opt --load-dialect-plugin=%tile_plugin --load-pass-plugin=%tile_plugin \
// RUN:   --pass-pipeline='builtin.module(tile-to-nvvm{chip=sm_90 num-warps=2},gpu-module-to-binary{format=isa})' %s \
// RUN:   | FileCheck %s --check-prefix=PTX
// PTX: gpu.binary @tile_kernels
// PTX-SAME: .target sm_90
// PTX-SAME: .visible .entry copy(
//
// Bad tile IR ends in a located diagnostic from the host tool.
// RUN: not %mlir_opt --load-dialect-plugin=%tile_plugin %S/Inputs/bad-broadcast.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: bad-broadcast.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'tile.broadcast' op cannot broadcast 16x2 to 16x32

func.func @copy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  %r = tile.arange 0, 64 : !tile.block<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  %v = tile.load %p : !tile.block<64x!tile.ptr<f32>>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %q = tile.addptr %yb, %r : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  tile.store %q, %v : !tile.block<64x!tile.ptr<f32>>
  return
}
