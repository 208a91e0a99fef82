// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// Broadcasting computed data goes through shared memory.
// CHECK-LABEL: gpu.func @broadcast_data
// CHECK-SAME: tile.shared_bytes = 64
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
func.func @broadcast_data(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.arange 0, 16 : !tile.block<16xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
  %l = tile.load %p : !tile.block<16x!tile.ptr<f32>>
  %v = tile.exp %l : !tile.block<16xf32>
  %e = tile.expand_dims %v {axis = 1 : i32} : !tile.block<16xf32> -> !tile.block<16x1xf32>
  %b = tile.broadcast %e : !tile.block<16x1xf32> -> !tile.block<16x8xf32>
  %rows = tile.expand_dims %r {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  %c8 = tile.constant dense<8> : !tile.block<16x1xi32>
  %ro = tile.muli %rows, %c8 : !tile.block<16x1xi32>
  %rb = tile.broadcast %ro : !tile.block<16x1xi32> -> !tile.block<16x8xi32>
  %cols = tile.arange 0, 8 : !tile.block<8xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<8xi32> -> !tile.block<1x8xi32>
  %cb = tile.broadcast %c2 : !tile.block<1x8xi32> -> !tile.block<16x8xi32>
  %offs = tile.addi %rb, %cb : !tile.block<16x8xi32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<16x8x!tile.ptr<f32>>
  %q = tile.addptr %ob, %offs : !tile.block<16x8x!tile.ptr<f32>>, !tile.block<16x8xi32>
  tile.store %q, %b : !tile.block<16x8x!tile.ptr<f32>>
  return
}

// -----

// Broadcasting loaded data whose address is a function of the index loads
// it again where it is needed (from L1) instead of exchanging it: no
// shared memory, and the original load is not emitted on its own.
// CHECK-LABEL: gpu.func @broadcast_reload
// CHECK-SAME: tile.shared_bytes = 0
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// CHECK-NOT: llvm.load
// CHECK: gpu.return
func.func @broadcast_reload(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.arange 0, 2 : !tile.block<2xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<2x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<2x!tile.ptr<f32>>, !tile.block<2xi32>
  %v = tile.load %p : !tile.block<2x!tile.ptr<f32>>
  %e = tile.expand_dims %v {axis = 1 : i32} : !tile.block<2xf32> -> !tile.block<2x1xf32>
  %b = tile.broadcast %e : !tile.block<2x1xf32> -> !tile.block<2x64xf32>
  %i = tile.arange 0, 128 : !tile.block<128xi32>
  %offs = tile.reshape %i : !tile.block<128xi32> -> !tile.block<2x64xi32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<2x64x!tile.ptr<f32>>
  %q = tile.addptr %ob, %offs : !tile.block<2x64x!tile.ptr<f32>>, !tile.block<2x64xi32>
  tile.store %q, %b : !tile.block<2x64x!tile.ptr<f32>>
  return
}
