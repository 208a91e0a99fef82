// RUN: tile-opt %s -convert-tile-to-gpu -split-input-file | FileCheck %s

// tile.print: a block's element is printed by the thread that owns it (8
// elements over 32 lanes: lanes 8..31 hold copies and print nothing), with its
// index; a scalar by thread 0; '%' in the prefix is escaped.
#v = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [1], order = [0]>

// CHECK-LABEL: gpu.func @print_block
// CHECK: scf.if
// CHECK: gpu.printf "pid (%u, %u, %u) idx (%u) x: %f\0A"
// CHECK: arith.cmpi eq
// CHECK: scf.if
// CHECK: gpu.printf "pid (%u, %u, %u) 100%% n: %lld\0A"
// CHECK: gpu.printf "pid (%u, %u, %u) idx (%u) h: (operand 0) 0x%08x\0A"
// CHECK: gpu.printf "pid (%u, %u, %u) idx (%u) h: (operand 1) 0x%08x\0A"
func.func @print_block(%x: !tile.ptr<f32>, %n: i64) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 8 : !tile.block<8xi32, #v>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<8x!tile.ptr<f32>, #v>
  %p = tile.addptr %xb, %r : !tile.block<8x!tile.ptr<f32>, #v>, !tile.block<8xi32, #v>
  %v = tile.load %p : !tile.block<8x!tile.ptr<f32>, #v>
  tile.print " x: " %v {is_signed = array<i1: true>} : !tile.block<8xf32, #v>
  tile.print " 100% n: " %n {is_signed = array<i1: true>} : i64
  tile.print " h: " hex %v, %r {is_signed = array<i1: true, false>} : !tile.block<8xf32, #v>, !tile.block<8xi32, #v>
  return
}

// -----

#v = #tile.blocked<size_per_thread = [2], threads_per_warp = [32], warps = [1], order = [0]>

// tile.assert: one check per thread over the elements it holds (the padding
// of 50 to 64 passes), a cf.assert that the NVVM lowering makes a call of
// __assertfail.
// CHECK-LABEL: gpu.func @check_block
// CHECK: arith.andi
// CHECK: cf.assert %{{.*}}, "x is too big"
// CHECK: gpu.barrier
func.func @check_block(%x: !tile.ptr<f32>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 50 : !tile.block<50xi32, #v>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<50x!tile.ptr<f32>, #v>
  %p = tile.addptr %xb, %r : !tile.block<50x!tile.ptr<f32>, #v>, !tile.block<50xi32, #v>
  %v = tile.load %p : !tile.block<50x!tile.ptr<f32>, #v>
  %limit = tile.constant dense<100.0> : !tile.block<50xf32, #v>
  %ok = tile.cmpf olt, %v, %limit : !tile.block<50xf32, #v>
  tile.assert %ok, "x is too big" : !tile.block<50xi1, #v>
  tile.barrier
  return
}
