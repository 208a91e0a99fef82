// The compile adds its GPU module beside the kernels and reads back the one
// it made; a gpu.module of the input's own was found instead or clashed
// with it by name. Tile IR holds func.func at the top level.
// RUN: not tile-translate --tile-to-ptx %s 2>&1 | FileCheck %s
// CHECK: top-level.mlir:[[@LINE+5]]:1: error: tile IR holds func.func kernels and device functions at the top level, not 'gpu.module'
func.func @k(%p: !tile.ptr<f32>) {
  return
}

gpu.module @tile_kernels {
}
