// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// Loop-carried blocks become one iter_arg per register.
// CHECK-LABEL: gpu.func @loop
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32) : i32
func.func @loop(%x: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.constant dense<0.0> : !tile.block<256xf32>
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (!tile.block<256xf32>) : i32 {
    %v = tile.load %p : !tile.block<256x!tile.ptr<f32>>
    %s = tile.addf %a, %v : !tile.block<256xf32>
    scf.yield %s : !tile.block<256xf32>
  }
  tile.store %p, %acc : !tile.block<256x!tile.ptr<f32>>
  return
}

// -----

func.func private @helper(%x: i32) -> i32

func.func @calls_device_function(%x: i32) {
  // expected-error @below {{'func.call' op calls a device function; run the inliner before lowering}}
  %y = func.call @helper(%x) : (i32) -> i32
  return
}

// -----

// expected-error @below {{kernel 'returns_value' must not return values; store results through pointers}}
func.func @returns_value(%x: i32) -> i32 {
  return %x : i32
}

// -----

// A select between two blocks on a scalar condition (what canonicalization
// makes of an scf.if that only picks one) selects each register: 2 per
// thread for 256 elements over 128 threads.
// CHECK-LABEL: gpu.func @select_blocks
// CHECK: %[[C:.*]] = arith.cmpi sgt
// CHECK-COUNT-2: arith.select %[[C]], %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.select
// CHECK: gpu.return
func.func @select_blocks(%x: !tile.ptr<f32>, %n: i32) {
  %c38 = arith.constant 38 : i32
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %v = tile.load %p : !tile.block<256x!tile.ptr<f32>>
  %w = tile.addf %v, %v : !tile.block<256xf32>
  %c = arith.cmpi sgt, %n, %c38 : i32
  %s = arith.select %c, %v, %w : !tile.block<256xf32>
  tile.store %p, %s : !tile.block<256x!tile.ptr<f32>>
  return
}
