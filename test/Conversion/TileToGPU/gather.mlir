// RUN: tile-opt %s -convert-tile-to-gpu -split-input-file | FileCheck %s

// tile.gather and tile.histogram go through shared memory. Layouts are given.

#s = #tile.blocked<size_per_thread = [1, 1], threads_per_warp = [4, 8], warps = [2, 2], order = [1, 0]>

// The 16x32 source is staged at its row-major indices; each of the 16x8
// result's registers reads the element its index picks along axis 1, the
// index taken modulo 32 (no read leaves the staged block).
// CHECK-LABEL: gpu.func @gather_columns
// CHECK-SAME: tile.shared_bytes = 2048
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: arith.andi {{.*}}, %c31_i32
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
func.func @gather_columns(%src: !tile.ptr<f32>, %idx: !tile.ptr<i32>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 16 : !tile.block<16xi32, #tile.slice<dim = 1, parent = #s>>
  %c = tile.arange 0, 32 : !tile.block<32xi32, #tile.slice<dim = 0, parent = #s>>
  %r2 = tile.expand_dims %r {axis = 1 : i32} : !tile.block<16xi32, #tile.slice<dim = 1, parent = #s>> -> !tile.block<16x1xi32, #s>
  %c2 = tile.expand_dims %c {axis = 0 : i32} : !tile.block<32xi32, #tile.slice<dim = 0, parent = #s>> -> !tile.block<1x32xi32, #s>
  %k32 = tile.constant dense<32> : !tile.block<16x1xi32, #s>
  %rows = tile.muli %r2, %k32 : !tile.block<16x1xi32, #s>
  %rb = tile.broadcast %rows : !tile.block<16x1xi32, #s> -> !tile.block<16x32xi32, #s>
  %cb = tile.broadcast %c2 : !tile.block<1x32xi32, #s> -> !tile.block<16x32xi32, #s>
  %offs = tile.addi %rb, %cb : !tile.block<16x32xi32, #s>
  %sp = tile.splat %src : !tile.ptr<f32> -> !tile.block<16x32x!tile.ptr<f32>, #s>
  %p = tile.addptr %sp, %offs : !tile.block<16x32x!tile.ptr<f32>, #s>, !tile.block<16x32xi32, #s>
  %v = tile.load %p : !tile.block<16x32x!tile.ptr<f32>, #s>
  %ic = tile.arange 0, 8 : !tile.block<8xi32, #tile.slice<dim = 0, parent = #s>>
  %ic2 = tile.expand_dims %ic {axis = 0 : i32} : !tile.block<8xi32, #tile.slice<dim = 0, parent = #s>> -> !tile.block<1x8xi32, #s>
  %k8 = tile.constant dense<8> : !tile.block<16x1xi32, #s>
  %irows = tile.muli %r2, %k8 : !tile.block<16x1xi32, #s>
  %irb = tile.broadcast %irows : !tile.block<16x1xi32, #s> -> !tile.block<16x8xi32, #s>
  %icb = tile.broadcast %ic2 : !tile.block<1x8xi32, #s> -> !tile.block<16x8xi32, #s>
  %ioffs = tile.addi %irb, %icb : !tile.block<16x8xi32, #s>
  %ip = tile.splat %idx : !tile.ptr<i32> -> !tile.block<16x8x!tile.ptr<i32>, #s>
  %ipp = tile.addptr %ip, %ioffs : !tile.block<16x8x!tile.ptr<i32>, #s>, !tile.block<16x8xi32, #s>
  %index = tile.load %ipp : !tile.block<16x8x!tile.ptr<i32>, #s>
  %g = tile.gather %v[%index] {axis = 1 : i32} : !tile.block<16x32xf32, #s>, !tile.block<16x8xi32, #s> -> !tile.block<16x8xf32, #s>
  %op = tile.splat %out : !tile.ptr<f32> -> !tile.block<16x8x!tile.ptr<f32>, #s>
  %opp = tile.addptr %op, %ioffs : !tile.block<16x8x!tile.ptr<f32>, #s>, !tile.block<16x8xi32, #s>
  tile.store %opp, %g : !tile.block<16x8x!tile.ptr<f32>, #s>
  return
}

// -----

#v = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [2], order = [0]>

// 64 counters cleared by the 64 threads, one shared-memory atomic add per
// element in range and under the mask, then the counters read.
// CHECK-LABEL: gpu.func @histogram
// CHECK-SAME: tile.shared_bytes = 256
// CHECK: gpu.barrier
// CHECK: llvm.store %c0_i32{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, {{.*}}, %c64_i32
// CHECK: scf.if
// CHECK: llvm.atomicrmw add {{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
func.func @histogram(%x: !tile.ptr<i32>, %out: !tile.ptr<i32>, %n: i32) attributes {tile.num_warps = 2 : i32} {
  %r = tile.arange 0, 1000 : !tile.block<1000xi32, #v>
  %xb = tile.splat %x : !tile.ptr<i32> -> !tile.block<1000x!tile.ptr<i32>, #v>
  %p = tile.addptr %xb, %r : !tile.block<1000x!tile.ptr<i32>, #v>, !tile.block<1000xi32, #v>
  %v = tile.load %p : !tile.block<1000x!tile.ptr<i32>, #v>
  %nb = tile.splat %n : i32 -> !tile.block<1000xi32, #v>
  %m = tile.cmpi slt, %r, %nb : !tile.block<1000xi32, #v>
  %h = tile.histogram %v mask %m : !tile.block<1000xi32, #v>, !tile.block<1000xi1, #v> -> !tile.block<64xi32, #v>
  %o = tile.arange 0, 64 : !tile.block<64xi32, #v>
  %ob = tile.splat %out : !tile.ptr<i32> -> !tile.block<64x!tile.ptr<i32>, #v>
  %op = tile.addptr %ob, %o : !tile.block<64x!tile.ptr<i32>, #v>, !tile.block<64xi32, #v>
  tile.store %op, %h : !tile.block<64x!tile.ptr<i32>, #v>
  return
}
