// RUN: tile-opt %s -tile-unroll-loops -split-input-file | FileCheck %s

// A runtime trip count: the main loop runs two copies of the body per
// iteration (the second at %i + 1), a remainder loop the last odd trip, not
// pipelined; neither keeps the factor. The upper bound is clamped to the
// lower one first: the unroller's unsigned trip count would make an empty
// loop (%n < 0) run its remainder.
// CHECK-LABEL: func.func @runtime_trips
// CHECK: %[[UB:.*]] = arith.maxsi %arg1, %{{.*}} : i32
// CHECK: %[[S:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[STEP:.*]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (!tile.block<128xf32>) : i32 {
// CHECK: %[[A:.*]] = tile.load
// CHECK: %[[ACC1:.*]] = tile.addf %[[ACC]], %[[A]]
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK: tile.load
// CHECK: %[[ACC2:.*]] = tile.addf %[[ACC1]], %{{.*}}
// CHECK: scf.yield %[[ACC2]]
// CHECK-NEXT: }
// CHECK-NOT: tile.loop_unroll_factor
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step %{{.*}} iter_args(%{{.*}} = %[[S]])
// CHECK: tile.load
// CHECK: tile.addf
// CHECK-NOT: tile.load
// CHECK: } {tile.num_stages = 1 : i32}
func.func @runtime_trips(%x: !tile.ptr<f32>, %n: i32) -> !tile.block<128xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.constant dense<0.0> : !tile.block<128xf32>
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %base = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<128xf32>) : i32 {
    %off = tile.splat %i : i32 -> !tile.block<128xi32>
    %o = tile.addi %r, %off : !tile.block<128xi32>
    %p = tile.addptr %base, %o : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
    %a = tile.load %p : !tile.block<128x!tile.ptr<f32>>
    %next = tile.addf %acc, %a : !tile.block<128xf32>
    scf.yield %next : !tile.block<128xf32>
  } {tile.loop_unroll_factor = 2 : i32}
  return %sum : !tile.block<128xf32>
}

// -----

// A constant trip count the factor divides (12 by 4): one loop of step 4, no
// remainder loop. A loop without the attribute, or with factor 1, stays.
// CHECK-LABEL: func.func @constant_trips
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C4:.*]] iter_args
// CHECK-COUNT-4: tile.load
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: return
// CHECK-LABEL: func.func @no_factor
// CHECK-COUNT-1: tile.load
// CHECK-NOT: tile.load
// CHECK-NOT: tile.loop_unroll_factor
func.func @constant_trips(%x: !tile.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c12 = arith.constant 12 : i32
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c12 step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %p = tile.addptr %x, %i : !tile.ptr<f32>, i32
    %a = tile.load %p : !tile.ptr<f32>
    %next = arith.addf %acc, %a : f32
    scf.yield %next : f32
  } {tile.loop_unroll_factor = 4 : i32}
  return %sum : f32
}
func.func @no_factor(%x: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %p = tile.addptr %x, %i : !tile.ptr<f32>, i32
    %a = tile.load %p : !tile.ptr<f32>
    tile.store %p, %a : !tile.ptr<f32>
  } {tile.loop_unroll_factor = 1 : i32}
  return
}
