// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// A whole-block sum: registers, then butterfly shuffles across the warp,
// then one value per warp through shared memory.
// CHECK: llvm.mlir.global internal @tile_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x i8>
// CHECK-LABEL: gpu.func @block_sum
// CHECK-SAME: tile.shared_bytes = 32
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
func.func @block_sum(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.arange 0, 1000 : !tile.block<1000xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1000x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<1000x!tile.ptr<f32>>, !tile.block<1000xi32>
  %v = tile.load %p : !tile.block<1000x!tile.ptr<f32>>
  %s = tile.reduce sum %v {axis = 0 : i32} : !tile.block<1000xf32> -> f32
  tile.store %out, %s : !tile.ptr<f32>
  return
}
