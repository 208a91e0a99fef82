// RUN: tile-opt %s -tile-hoist-loop-reductions -split-input-file | FileCheck %s

// acc += sum(x, axis 0) in a loop: the loop accumulates x itself (from the
// identity, -0.0 for a float sum) and reduces once after the loop.
// CHECK-LABEL: func.func @column_sum
// CHECK: %[[ZERO:.*]] = tile.constant dense<-0.000000e+00> : !tile.block<64x64xf32>
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[ZERO]]) -> (!tile.block<64x64xf32>)
// CHECK-NOT: tile.reduce
// CHECK: %[[N:.*]] = tile.addf %[[A]], %{{.*}} : !tile.block<64x64xf32>
// CHECK: scf.yield %[[N]]
// CHECK: %[[R:.*]] = tile.reduce sum %[[LOOP]] {axis = 0 : i32} : !tile.block<64x64xf32> -> !tile.block<64xf32>
// CHECK: %[[F:.*]] = tile.addf %[[R]], %{{.*}} : !tile.block<64xf32>
// CHECK: tile.store %{{.*}}, %[[F]]
func.func @column_sum(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.constant dense<0.0> : !tile.block<64xf32>
  %r = tile.arange 0, 4096 : !tile.block<4096xi32>
  %i = tile.reshape %r : !tile.block<4096xi32> -> !tile.block<64x64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %p = tile.addptr %xb, %i : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %zero) -> (!tile.block<64xf32>) : i32 {
    %v = tile.load %p : !tile.block<64x64x!tile.ptr<f32>>
    %s = tile.reduce sum %v {axis = 0 : i32} : !tile.block<64x64xf32> -> !tile.block<64xf32>
    %m = tile.addf %a, %s : !tile.block<64xf32>
    scf.yield %m : !tile.block<64xf32>
  }
  %c = tile.arange 0, 64 : !tile.block<64xi32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %op = tile.addptr %ob, %c : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  tile.store %op, %acc : !tile.block<64x!tile.ptr<f32>>
  return
}

// -----

// A whole-block max into a scalar: the loop carries the block (from -inf)
// and the scalar combine comes after the loop.
// CHECK-LABEL: func.func @running_max
// CHECK: tile.constant dense<0xFF800000> : !tile.block<256xf32>
// CHECK: scf.for {{.*}} -> (!tile.block<256xf32>)
// CHECK: tile.maximumf
// CHECK: tile.reduce max {{.*}} -> f32
// CHECK: arith.maximumf
func.func @running_max(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32, %init: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %m = scf.for %k = %c0 to %n step %c1 iter_args(%a = %init) -> (f32) : i32 {
    %v = tile.load %p : !tile.block<256x!tile.ptr<f32>>
    %s = tile.reduce max %v {axis = 0 : i32} : !tile.block<256xf32> -> f32
    %b = arith.maximumf %a, %s : f32
    scf.yield %b : f32
  }
  tile.store %out, %m : !tile.ptr<f32>
  return
}

// -----

// The NaN-ignoring max (tl.max of a float) hoists alike, from NaN; an
// unsigned min from all ones.
// CHECK-LABEL: func.func @running_maxnum_and_umin
// CHECK-DAG: tile.constant dense<0x7FC00000> : !tile.block<256xf32>
// CHECK-DAG: tile.constant dense<-1> : !tile.block<256xi32>
// CHECK: scf.for {{.*}} -> (!tile.block<256xf32>, !tile.block<256xi32>)
// CHECK-DAG: tile.maxnumf
// CHECK-DAG: tile.minui
// CHECK: tile.reduce umin {{.*}} -> i32
// CHECK: arith.minui
// CHECK: tile.reduce maxnum {{.*}} -> f32
// CHECK: arith.maxnumf
func.func @running_maxnum_and_umin(%x: !tile.ptr<f32>, %y: !tile.ptr<i32>, %out: !tile.ptr<f32>, %iout: !tile.ptr<i32>, %n: i32, %init: f32, %iinit: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %yb = tile.splat %y : !tile.ptr<i32> -> !tile.block<256x!tile.ptr<i32>>
  %q = tile.addptr %yb, %r : !tile.block<256x!tile.ptr<i32>>, !tile.block<256xi32>
  %m:2 = scf.for %k = %c0 to %n step %c1 iter_args(%a = %init, %ia = %iinit) -> (f32, i32) : i32 {
    %v = tile.load %p : !tile.block<256x!tile.ptr<f32>>
    %s = tile.reduce maxnum %v {axis = 0 : i32} : !tile.block<256xf32> -> f32
    %b = arith.maxnumf %a, %s : f32
    %iv = tile.load %q : !tile.block<256x!tile.ptr<i32>>
    %is = tile.reduce umin %iv {axis = 0 : i32} : !tile.block<256xi32> -> i32
    %ib = arith.minui %ia, %is : i32
    scf.yield %b, %ib : f32, i32
  }
  tile.store %out, %m#0 : !tile.ptr<f32>
  tile.store %iout, %m#1 : !tile.ptr<i32>
  return
}

// -----

// Not rewritten: the reduction's result has another use in the loop, and a
// custom combine.
// CHECK-LABEL: func.func @kept
// CHECK: scf.for
// CHECK: tile.reduce sum
// CHECK: tile.store
// CHECK: tile.reduce custom
func.func @kept(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %m:2 = scf.for %k = %c0 to %n step %c1 iter_args(%a = %zero, %b = %zero) -> (f32, f32) : i32 {
    %v = tile.load %p : !tile.block<256x!tile.ptr<f32>>
    %s = tile.reduce sum %v {axis = 0 : i32} : !tile.block<256xf32> -> f32
    tile.store %out, %s : !tile.ptr<f32>
    %a2 = arith.addf %a, %s : f32
    %t = tile.reduce custom %v {axis = 0 : i32} : !tile.block<256xf32> -> f32 {
    ^bb0(%u: f32, %w: f32):
      %q = arith.mulf %u, %w : f32
      tile.yield %q : f32
    }
    %b2 = arith.addf %b, %t : f32
    scf.yield %a2, %b2 : f32, f32
  }
  tile.store %out, %m#0 : !tile.ptr<f32>
  return
}
