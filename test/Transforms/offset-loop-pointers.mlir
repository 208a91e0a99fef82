// RUN: tile-opt %s -tile-offset-loop-pointers -split-input-file | FileCheck %s

// Tutorial 03's K loop: the block of pointers moves by one scalar each
// iteration. The loop carries an i64 offset instead; the pointers in the
// body and after the loop are the initial block moved by it.
// CHECK-LABEL: func.func @advance
// CHECK: %[[STEP:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[OFF:.*]] = %c0_i64) -> (!tile.block<16x16xf32>, i64)
// CHECK: %[[S:.*]] = tile.splat %[[OFF]] : i64 -> !tile.block<16x16xi64>
// CHECK: %[[P:.*]] = tile.addptr %[[INIT:.*]], %[[S]]
// CHECK: tile.load %[[P]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[OFF]], %[[STEP]] : i64
// CHECK: scf.yield %{{.*}}, %[[NEXT]] : !tile.block<16x16xf32>, i64
// CHECK: %[[S2:.*]] = tile.splat %[[LOOP]]#1 : i64 -> !tile.block<16x16xi64>
// CHECK: %[[END:.*]] = tile.addptr %[[INIT]], %[[S2]]
// CHECK: tile.store %[[END]]
func.func @advance(%x: !tile.ptr<f32>, %n: i32, %stride: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16x16x!tile.ptr<f32>>
  %p0 = tile.addptr %xb, %i : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %p0) -> (!tile.block<16x16xf32>, !tile.block<16x16x!tile.ptr<f32>>) : i32 {
    %v = tile.load %p : !tile.block<16x16x!tile.ptr<f32>>
    %a = tile.addf %acc, %v : !tile.block<16x16xf32>
    %s = tile.splat %stride : i32 -> !tile.block<16x16xi32>
    %q = tile.addptr %p, %s : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
    scf.yield %a, %q : !tile.block<16x16xf32>, !tile.block<16x16x!tile.ptr<f32>>
  }
  tile.store %res#1, %res#0 : !tile.block<16x16x!tile.ptr<f32>>
  return
}

// -----

// Pointers computed from loaded indices are not an index function: they stay
// carried.
// CHECK-LABEL: func.func @gathered_pointers
// CHECK: scf.for {{.*}} -> (!tile.block<16x!tile.ptr<f32>>)
func.func @gathered_pointers(%idx: !tile.ptr<i32>, %x: !tile.ptr<f32>, %n: i32, %stride: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 16 : !tile.block<16xi32>
  %ib = tile.splat %idx : !tile.ptr<i32> -> !tile.block<16x!tile.ptr<i32>>
  %ip = tile.addptr %ib, %r : !tile.block<16x!tile.ptr<i32>>, !tile.block<16xi32>
  %i = tile.load %ip : !tile.block<16x!tile.ptr<i32>>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  %p0 = tile.addptr %xb, %i : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%p = %p0) -> (!tile.block<16x!tile.ptr<f32>>) : i32 {
    %s = tile.splat %stride : i32 -> !tile.block<16xi32>
    %q = tile.addptr %p, %s : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
    scf.yield %q : !tile.block<16x!tile.ptr<f32>>
  }
  %z = tile.constant dense<0.0> : !tile.block<16xf32>
  tile.store %res, %z : !tile.block<16x!tile.ptr<f32>>
  return
}

// -----

// A step that differs between elements is not one offset.
// CHECK-LABEL: func.func @per_element_step
// CHECK: scf.for {{.*}} -> (!tile.block<16x!tile.ptr<f32>>)
func.func @per_element_step(%x: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 16 : !tile.block<16xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  %p0 = tile.addptr %xb, %r : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%p = %p0) -> (!tile.block<16x!tile.ptr<f32>>) : i32 {
    %q = tile.addptr %p, %r : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
    scf.yield %q : !tile.block<16x!tile.ptr<f32>>
  }
  %z = tile.constant dense<0.0> : !tile.block<16xf32>
  tile.store %res, %z : !tile.block<16x!tile.ptr<f32>>
  return
}

// -----

// A compile-time step (`p += 16`: canonicalization makes the splat a dense
// constant) and two steps in a row (an unrolled loop's copies, the second
// loading through the first step's pointers): the offset advances by their
// sum (folded: 32), and the middle pointers are the body's moved block plus the first step.
// CHECK-LABEL: func.func @constant_steps
// CHECK: %[[SUM:.*]] = arith.constant 32 : i64
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[OFF:.*]] = %c0_i64) -> (!tile.block<16x16xf32>, i64)
// CHECK: %[[P:.*]] = tile.addptr %[[INIT:.*]], %{{.*}} : {{.*}}, !tile.block<16x16xi64>
// CHECK: tile.load %[[P]]
// CHECK: %[[MID:.*]] = tile.addptr %[[P]], %{{.*}} : {{.*}}, !tile.block<16x16xi32>
// CHECK: tile.load %[[MID]]
// CHECK-NOT: tile.addptr
// CHECK: %[[NEXT:.*]] = arith.addi %[[OFF]], %[[SUM]] : i64
// CHECK: scf.yield %{{.*}}, %[[NEXT]] : !tile.block<16x16xf32>, i64
func.func @constant_steps(%x: !tile.ptr<f32>, %n: i32) -> !tile.block<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16x16x!tile.ptr<f32>>
  %p0 = tile.addptr %xb, %i : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %c16 = tile.constant dense<16> : !tile.block<16x16xi32>
  %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %p0) -> (!tile.block<16x16xf32>, !tile.block<16x16x!tile.ptr<f32>>) : i32 {
    %v = tile.load %p : !tile.block<16x16x!tile.ptr<f32>>
    %a = tile.addf %acc, %v : !tile.block<16x16xf32>
    %q = tile.addptr %p, %c16 : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
    %w = tile.load %q : !tile.block<16x16x!tile.ptr<f32>>
    %b = tile.addf %a, %w : !tile.block<16x16xf32>
    %q2 = tile.addptr %q, %c16 : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
    scf.yield %b, %q2 : !tile.block<16x16xf32>, !tile.block<16x16x!tile.ptr<f32>>
  }
  return %res#0 : !tile.block<16x16xf32>
}
