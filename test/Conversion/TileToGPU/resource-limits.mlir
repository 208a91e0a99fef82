// Resource limits end in located diagnostics, not in crashes or in minutes
// of ptxas: more than 1024 threads (or no threads) and blocks with more
// elements per thread than a thread has registers (255).
// RUN: not tile-opt %s -split-input-file -convert-tile-to-gpu 2>&1 | FileCheck %s
// RUN: not tile-opt %s -split-input-file -tile-assign-layouts=num-warps=4 -convert-tile-to-gpu 2>&1 | FileCheck %s --check-prefix=WARPS4
// RUN: not tile-opt %s -split-input-file -tile-assign-layouts=num-warps=32 -convert-tile-to-gpu 2>&1 | FileCheck %s --check-prefix=WARPS32
// RUN: not tile-opt %s -split-input-file -tile-assign-layouts=num-warps=33 2>&1 | FileCheck %s --check-prefix=WARPS33

// WARPS33: error: num-warps must be a power of two from 1 to 32, not 33

// tile.num_warps set by hand: 0 was a division by zero (SIGFPE), -1 a fatal
// error, 64 a kernel of 2048 threads that cannot launch. The dialect rejects
// them where they are parsed.
// CHECK: resource-limits.mlir:[[@LINE+1]]:1: error: 'tile.num_warps' must be an i32 power of two from 1 to 32, not 0
func.func @zero_warps(%x: !tile.ptr<f32>) attributes {tile.num_warps = 0 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %xp : !tile.block<128x!tile.ptr<f32>>
  tile.store %xp, %v : !tile.block<128x!tile.ptr<f32>>
  return
}

// -----

// CHECK: resource-limits.mlir:[[@LINE+1]]:1: error: 'tile.num_warps' must be an i32 power of two from 1 to 32, not -1
func.func @negative_warps(%x: !tile.ptr<f32>) attributes {tile.num_warps = -1 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %xp : !tile.block<128x!tile.ptr<f32>>
  tile.store %xp, %v : !tile.block<128x!tile.ptr<f32>>
  return
}

// -----

// CHECK: resource-limits.mlir:[[@LINE+1]]:1: error: 'tile.num_warps' must be an i32 power of two from 1 to 32, not 64
func.func @too_many_threads(%x: !tile.ptr<f32>) attributes {tile.num_warps = 64 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %xp : !tile.block<128x!tile.ptr<f32>>
  tile.store %xp, %v : !tile.block<128x!tile.ptr<f32>>
  return
}

// -----

// 2^20 elements: 8192 per thread at 4 warps, 1024 at 32 warps. Before the
// check, the 4-warp softmax-like kernel took 41 s and 2 GB (ptxas) and
// spilled 37 KB per thread.
// WARPS4: resource-limits.mlir:[[@LINE+3]]:8: error: block of 1048576 elements needs 8192 registers per thread at 128 threads, more than 255; use smaller blocks or more warps
// WARPS32: resource-limits.mlir:[[@LINE+2]]:8: error: block of 1048576 elements needs 1024 registers per thread at 1024 threads, more than 255; use smaller blocks or more warps
func.func @huge_block(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.arange 0, 1048576 : !tile.block<1048576xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1048576x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<1048576x!tile.ptr<f32>>, !tile.block<1048576xi32>
  %v = tile.load %xp : !tile.block<1048576x!tile.ptr<f32>>
  %m = tile.reduce max %v {axis = 0 : i32} : !tile.block<1048576xf32> -> f32
  %mb = tile.splat %m : f32 -> !tile.block<1048576xf32>
  %w = tile.subf %v, %mb : !tile.block<1048576xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<1048576x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r : !tile.block<1048576x!tile.ptr<f32>>, !tile.block<1048576xi32>
  tile.store %op, %w : !tile.block<1048576x!tile.ptr<f32>>
  return
}

// -----

// 32768 elements at 4 warps is 256 per thread: one too many. At 32 warps
// (32 per thread) the same kernel lowers.
// WARPS4: resource-limits.mlir:[[@LINE+3]]:8: error: block of 32768 elements needs 256 registers per thread at 128 threads, more than 255; use smaller blocks or more warps
// WARPS32-NOT: 32768 elements
func.func @just_too_big(%x: !tile.ptr<f32>) {
  %r = tile.arange 0, 32768 : !tile.block<32768xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<32768x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<32768x!tile.ptr<f32>>, !tile.block<32768xi32>
  %v = tile.load %xp : !tile.block<32768x!tile.ptr<f32>>
  tile.store %xp, %v : !tile.block<32768x!tile.ptr<f32>>
  return
}

// -----

// Blocks are padded to powers of two: 16384 elements (128 per thread at 4
// warps) is the largest that lowers, and 16385 pads to 32768 (256 per
// thread).
// WARPS4-NOT: 16384 elements
// WARPS4: resource-limits.mlir:[[@LINE+13]]:8: error: block of 16385 elements needs 256 registers per thread at 128 threads, more than 255; use smaller blocks or more warps
func.func @largest(%x: !tile.ptr<f32>) {
  %r = tile.arange 0, 16384 : !tile.block<16384xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16384x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<16384x!tile.ptr<f32>>, !tile.block<16384xi32>
  %v = tile.load %xp : !tile.block<16384x!tile.ptr<f32>>
  tile.store %xp, %v : !tile.block<16384x!tile.ptr<f32>>
  return
}

// -----

func.func @padded_too_big(%x: !tile.ptr<f32>) {
  %r = tile.arange 0, 16385 : !tile.block<16385xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16385x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<16385x!tile.ptr<f32>>, !tile.block<16385xi32>
  %v = tile.load %xp : !tile.block<16385x!tile.ptr<f32>>
  tile.store %xp, %v : !tile.block<16385x!tile.ptr<f32>>
  return
}
