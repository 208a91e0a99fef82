// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu | FileCheck %s

// FMA dot: both operands staged in shared memory in their own type, then a
// loop over k of f32 fma per accumulator register. (An f16 dot whose
// extents are powers of two from 16 runs on mma.sync instead:
// dot-mma-sync.mlir; this one is 8 columns wide.)
// CHECK-LABEL: gpu.func @dot_fma
// CHECK-SAME: tile.shared_bytes = 768 : i32, tile.threads
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f16, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f16
// CHECK: llvm.intr.fma({{.*}}) : (f32, f32, f32) -> f32
func.func @dot_fma(%a: !tile.ptr<f16>, %c: !tile.ptr<f32>) {
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<256x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %r : !tile.block<256x!tile.ptr<f16>>, !tile.block<256xi32>
  %av = tile.load %ap : !tile.block<256x!tile.ptr<f16>>
  %m = tile.reshape %av : !tile.block<256xf16> -> !tile.block<16x16xf16>
  %r8 = tile.arange 0, 128 : !tile.block<128xi32>
  %bb = tile.splat %a : !tile.ptr<f16> -> !tile.block<128x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %r8 : !tile.block<128x!tile.ptr<f16>>, !tile.block<128xi32>
  %bv = tile.load %bp : !tile.block<128x!tile.ptr<f16>>
  %n = tile.reshape %bv : !tile.block<128xf16> -> !tile.block<16x8xf16>
  %zero = tile.constant dense<0.0> : !tile.block<16x8xf32>
  %d = tile.dot %m, %n, %zero : !tile.block<16x16xf16>, !tile.block<16x8xf16> -> !tile.block<16x8xf32>
  %f = tile.reshape %d : !tile.block<16x8xf32> -> !tile.block<128xf32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %r8 : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  tile.store %cp, %f : !tile.block<128x!tile.ptr<f32>>
  return
}

// int8 dot: the same loop in i32, each i8 sign-extended; no float anywhere.
// CHECK-LABEL: gpu.func @dot_int8
// CHECK: llvm.store {{.*}} : i8, !llvm.ptr<3>
// CHECK: scf.for
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i8
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: arith.muli {{.*}} : i32
// CHECK: arith.addi {{.*}} : i32
// CHECK-NOT: math.fma
// CHECK: gpu.return
func.func @dot_int8(%a: !tile.ptr<i8>, %c: !tile.ptr<i32>) {
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %ab = tile.splat %a : !tile.ptr<i8> -> !tile.block<256x!tile.ptr<i8>>
  %ap = tile.addptr %ab, %r : !tile.block<256x!tile.ptr<i8>>, !tile.block<256xi32>
  %av = tile.load %ap : !tile.block<256x!tile.ptr<i8>>
  %m = tile.reshape %av : !tile.block<256xi8> -> !tile.block<16x16xi8>
  %zero = tile.constant dense<0> : !tile.block<16x16xi32>
  %d = tile.dot %m, %m, %zero : !tile.block<16x16xi8>, !tile.block<16x16xi8> -> !tile.block<16x16xi32>
  %f = tile.reshape %d : !tile.block<16x16xi32> -> !tile.block<256xi32>
  %cb = tile.splat %c : !tile.ptr<i32> -> !tile.block<256x!tile.ptr<i32>>
  %cp = tile.addptr %cb, %r : !tile.block<256x!tile.ptr<i32>>, !tile.block<256xi32>
  tile.store %cp, %f : !tile.block<256x!tile.ptr<i32>>
  return
}

// A batched (rank-3) dot: the batch coordinate of each result register
// offsets its row of a and column of b; f64 inputs accumulate in f64.
// CHECK-LABEL: gpu.func @dot_batched_f64
// CHECK-SAME: tile.shared_bytes = 2048
// CHECK: scf.for
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f64
// CHECK: llvm.intr.fma({{.*}}) : (f64, f64, f64) -> f64
// CHECK-NOT: arith.extf
// CHECK: gpu.return
func.func @dot_batched_f64(%a: !tile.ptr<f64>, %c: !tile.ptr<f64>) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %ab = tile.splat %a : !tile.ptr<f64> -> !tile.block<128x!tile.ptr<f64>>
  %ap = tile.addptr %ab, %r : !tile.block<128x!tile.ptr<f64>>, !tile.block<128xi32>
  %av = tile.load %ap : !tile.block<128x!tile.ptr<f64>>
  %m = tile.reshape %av : !tile.block<128xf64> -> !tile.block<2x8x8xf64>
  %zero = tile.constant dense<0.0> : !tile.block<2x8x8xf64>
  %d = tile.dot %m, %m, %zero : !tile.block<2x8x8xf64>, !tile.block<2x8x8xf64> -> !tile.block<2x8x8xf64>
  %f = tile.reshape %d : !tile.block<2x8x8xf64> -> !tile.block<128xf64>
  %cb = tile.splat %c : !tile.ptr<f64> -> !tile.block<128x!tile.ptr<f64>>
  %cp = tile.addptr %cb, %r : !tile.block<128x!tile.ptr<f64>>, !tile.block<128xi32>
  tile.store %cp, %f : !tile.block<128x!tile.ptr<f64>>
  return
}
