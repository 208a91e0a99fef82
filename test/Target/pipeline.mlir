// The registered pipeline takes tile IR to the NVVM and LLVM dialects with
// an NVVM target attached.
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_90 num-warps=2" | FileCheck %s
// CHECK: gpu.module @tile_kernels [#nvvm.target<O = 3, chip = "sm_90">]
// CHECK: llvm.func @copy(
// CHECK-SAME: gpu.kernel
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK-NOT: tile.
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
