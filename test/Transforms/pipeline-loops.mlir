// RUN: tile-opt %s -tile-pipeline-loops=num-stages=3 -split-input-file | FileCheck %s
// RUN: tile-opt %s -tile-pipeline-loops=num-stages=1 -split-input-file | FileCheck %s --check-prefix=OFF

// A K loop of dots: with 3 stages, the prologue loads iterations 0 and 1
// (predicated on there being such iterations), and each iteration computes
// its dot, then loads iteration k + 2's operands, masked off past the end.
// CHECK-LABEL: func.func @k_loop
// CHECK: %[[P0:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[M0:.*]] = tile.splat %[[P0]] : i1 -> !tile.block<16x16xi1>
// CHECK: tile.load %{{.*}} mask %[[M0]]
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: scf.for {{.*}} iter_args(
// CHECK: tile.dot
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: scf.yield
// OFF-LABEL: func.func @k_loop
// OFF: scf.for
// OFF-NEXT: arith.extsi
// OFF: tile.load %{{.*}} : !tile.block<16x16x!tile.ptr<f16>>
func.func @k_loop(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i64
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<16x16xf32>) : i32 {
    %k64 = arith.extsi %k : i32 to i64
    %off = arith.muli %k64, %c256 : i64
    %s = tile.splat %off : i64 -> !tile.block<16x16xi64>
    %pa = tile.addptr %ap, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %pb = tile.addptr %bp, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %va = tile.load %pa : !tile.block<16x16x!tile.ptr<f16>>
    %vb = tile.load %pb : !tile.block<16x16x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
    scf.yield %d : !tile.block<16x16xf32>
  }
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<16x16x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %i : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
  tile.store %cp, %res : !tile.block<16x16x!tile.ptr<f32>>
  return
}

// -----

// Addresses computed from the accumulator cannot be loaded ahead: the loop
// stays as it is.
// CHECK-LABEL: func.func @address_from_product
// CHECK: scf.for
// CHECK: tile.load %{{.*}} : !tile.block<16x16x!tile.ptr<f16>>
// CHECK: tile.dot
func.func @address_from_product(%a: !tile.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<16x16xf32>) : i32 {
    %j = tile.cast %acc : !tile.block<16x16xf32> to !tile.block<16x16xi32>
    %pa = tile.addptr %ap, %j : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
    %va = tile.load %pa : !tile.block<16x16x!tile.ptr<f16>>
    %d = tile.dot %va, %va, %acc : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
    scf.yield %d : !tile.block<16x16xf32>
  }
  return
}

// -----

// A loop's own tile.num_stages (tl.range(..., num_stages=1)) overrides the
// option: this loop is not pipelined even with 3 stages asked for.
// CHECK-LABEL: func.func @loop_stages_one
// CHECK-NOT: tile.load
// CHECK: scf.for
// CHECK: tile.load %{{.*}} : !tile.block<16x16x!tile.ptr<f16>>
// CHECK: tile.dot
func.func @loop_stages_one(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i64
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<16x16xf32>) : i32 {
    %k64 = arith.extsi %k : i32 to i64
    %off = arith.muli %k64, %c256 : i64
    %s = tile.splat %off : i64 -> !tile.block<16x16xi64>
    %pa = tile.addptr %ap, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %pb = tile.addptr %bp, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %va = tile.load %pa : !tile.block<16x16x!tile.ptr<f16>>
    %vb = tile.load %pb : !tile.block<16x16x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
    scf.yield %d : !tile.block<16x16xf32>
  } {tile.num_stages = 1 : i32}
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<16x16x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %i : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
  tile.store %cp, %res : !tile.block<16x16x!tile.ptr<f32>>
  return
}

// -----

// tl.range(..., num_stages=2), even where the kernel's num_stages is 1: the
// prologue loads iteration 0 alone, and each iteration loads the next.
// CHECK-LABEL: func.func @loop_stages_two
// CHECK-COUNT-2: tile.load %{{.*}} mask
// CHECK-NOT: tile.load
// CHECK: scf.for
// CHECK: tile.dot
// CHECK-COUNT-2: tile.load %{{.*}} mask
// CHECK: scf.yield
// OFF-LABEL: func.func @loop_stages_two
// OFF-COUNT-2: tile.load %{{.*}} mask
// OFF: scf.for
// OFF: tile.dot
func.func @loop_stages_two(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i64
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<16x16xf32>) : i32 {
    %k64 = arith.extsi %k : i32 to i64
    %off = arith.muli %k64, %c256 : i64
    %s = tile.splat %off : i64 -> !tile.block<16x16xi64>
    %pa = tile.addptr %ap, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %pb = tile.addptr %bp, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %va = tile.load %pa : !tile.block<16x16x!tile.ptr<f16>>
    %vb = tile.load %pb : !tile.block<16x16x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
    scf.yield %d : !tile.block<16x16xf32>
  } {tile.num_stages = 2 : i32}
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<16x16x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %i : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
  tile.store %cp, %res : !tile.block<16x16x!tile.ptr<f32>>
  return
}
