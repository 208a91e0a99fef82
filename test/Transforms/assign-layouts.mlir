// RUN: tile-opt %s -tile-assign-layouts -split-input-file | FileCheck %s
// RUN: tile-opt %s -tile-assign-layouts=num-warps=8 -split-input-file | FileCheck %s --check-prefix=WARPS8

// Aligned pointers and a length divisible by 16: four f32 per thread, so
// accesses can be 128-bit.
// CHECK-LABEL: func.func @aligned
// CHECK-SAME: tile.num_warps = 4
// CHECK: tile.arange 0, 1024 : !tile.block<1024xi32, #tile.blocked<vector = 4, warps = 4>>
// CHECK: tile.load {{.*}} : !tile.block<1024x!tile.ptr<f32>, #tile.blocked<vector = 4, warps = 4>>
// WARPS8-LABEL: func.func @aligned
// WARPS8: #tile.blocked<vector = 4, warps = 8>
func.func @aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %nb = tile.splat %n : i32 -> !tile.block<1024xi32>
  %m = tile.cmpi slt, %r, %nb : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p mask %m : !tile.block<1024x!tile.ptr<f32>>
  tile.store %p, %v mask %m : !tile.block<1024x!tile.ptr<f32>>
  return
}

// -----

// Nothing is known about the pointer's alignment: one element per thread.
// CHECK-LABEL: func.func @unaligned
// CHECK: tile.load {{.*}} : !tile.block<1024x!tile.ptr<f32>, #tile.blocked<vector = 1, warps = 4>>
func.func @unaligned(%x: !tile.ptr<f32>) {
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p : !tile.block<1024x!tile.ptr<f32>>
  tile.store %p, %v : !tile.block<1024x!tile.ptr<f32>>
  return
}

// -----

// A mask that is not constant over groups of four (n has no divisibility)
// keeps accesses scalar.
// CHECK-LABEL: func.func @mask_limits_width
// CHECK: tile.load {{.*}} : !tile.block<256x!tile.ptr<f32>, #tile.blocked<vector = 1, warps = 4>>
func.func @mask_limits_width(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %nb = tile.splat %n : i32 -> !tile.block<256xi32>
  %m = tile.cmpi slt, %r, %nb : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %v = tile.load %p mask %m : !tile.block<256x!tile.ptr<f32>>
  tile.store %p, %v mask %m : !tile.block<256x!tile.ptr<f32>>
  return
}

// -----

// f16 allows eight elements per thread (16 bytes); the 2-D tile's rows are
// contiguous when the row stride is divisible by 16. The row offsets, a
// [16] block expanded to [16x1], share the layout group of what they feed.
// CHECK-LABEL: func.func @tile_2d_f16
// CHECK: tile.load {{.*}} : !tile.block<16x64x!tile.ptr<f16>, #tile.blocked<vector = 8, warps = 4>>
// A reduction's result is a new group without memory accesses: vector 1.
// CHECK: tile.reduce sum {{.*}} -> !tile.block<16xf32, #tile.blocked<vector = 1, warps = 4>>
func.func @tile_2d_f16(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32>) {
  %rows = tile.arange 0, 16 : !tile.block<16xi32>
  %cols = tile.arange 0, 64 : !tile.block<64xi32>
  %s = tile.splat %stride : i32 -> !tile.block<16xi32>
  %ro = tile.muli %rows, %s : !tile.block<16xi32>
  %r2 = tile.expand_dims %ro {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  %rb = tile.broadcast %r2 : !tile.block<16x1xi32> -> !tile.block<16x64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %cb = tile.broadcast %c2 : !tile.block<1x64xi32> -> !tile.block<16x64xi32>
  %offs = tile.addi %rb, %cb : !tile.block<16x64xi32>
  %xb = tile.splat %x : !tile.ptr<f16> -> !tile.block<16x64x!tile.ptr<f16>>
  %p = tile.addptr %xb, %offs : !tile.block<16x64x!tile.ptr<f16>>, !tile.block<16x64xi32>
  %v = tile.load %p : !tile.block<16x64x!tile.ptr<f16>>
  %w = tile.cast %v : !tile.block<16x64xf16> to !tile.block<16x64xf32>
  %sum = tile.reduce sum %w {axis = 1 : i32} : !tile.block<16x64xf32> -> !tile.block<16xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  %op = tile.addptr %ob, %rows : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
  tile.store %op, %sum : !tile.block<16x!tile.ptr<f32>>
  return
}

// -----

// Values carried by a loop share one layout with their initial value, the
// yielded value and the loop's result.
// CHECK-LABEL: func.func @loop_carried
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!tile.block<512xf32, #tile.blocked<vector = 4, warps = 4>>)
func.func @loop_carried(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.constant dense<0.0> : !tile.block<512xf32>
  %r = tile.arange 0, 512 : !tile.block<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (!tile.block<512xf32>) : i32 {
    %v = tile.load %p : !tile.block<512x!tile.ptr<f32>>
    %s = tile.addf %a, %v : !tile.block<512xf32>
    scf.yield %s : !tile.block<512xf32>
  }
  tile.store %p, %acc : !tile.block<512x!tile.ptr<f32>>
  return
}

// -----

// A block smaller than four elements per thread gets narrower chunks, so
// that every thread has work: 256 elements over 128 threads, two each.
// CHECK-LABEL: func.func @small_block
// CHECK: tile.load {{.*}} : !tile.block<256x!tile.ptr<f32>, #tile.blocked<vector = 2, warps = 4>>
func.func @small_block(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %v = tile.load %p : !tile.block<256x!tile.ptr<f32>>
  tile.store %p, %v : !tile.block<256x!tile.ptr<f32>>
  return
}
