// RUN: tile-opt %s -convert-tile-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// tile.map_elementwise emits its region once per register of the thread
// (pack 1): two registers, so two scf.if, each on that register's element,
// and only the branch an element takes divides.
#v = #tile.blocked<size_per_thread = [2], threads_per_warp = [32], warps = [1], order = [0]>

// CHECK-LABEL: gpu.func @branch_per_element
// CHECK-COUNT-2: scf.if %{{.*}} -> (i32) {
// CHECK-NOT: scf.if
// CHECK: llvm.store
func.func @branch_per_element(%x: !tile.ptr<i32>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 64 : !tile.block<64xi32, #v>
  %xb = tile.splat %x : !tile.ptr<i32> -> !tile.block<64x!tile.ptr<i32>, #v>
  %p = tile.addptr %xb, %r : !tile.block<64x!tile.ptr<i32>, #v>, !tile.block<64xi32, #v>
  %a = tile.load %p : !tile.block<64x!tile.ptr<i32>, #v>
  %y = tile.map_elementwise %a, %r {pack = 1 : i32} : (!tile.block<64xi32, #v>, !tile.block<64xi32, #v>) -> (!tile.block<64xi32, #v>) {
  ^bb0(%e: i32, %i: i32):
    %zero = arith.constant 0 : i32
    %ne = arith.cmpi ne, %e, %zero : i32
    %q = scf.if %ne -> (i32) {
      %d = arith.divsi %i, %e : i32
      scf.yield %d : i32
    } else {
      scf.yield %zero : i32
    }
    tile.yield %q : i32
  }
  tile.store %p, %y : !tile.block<64x!tile.ptr<i32>, #v>
  return
}

// -----

// pack 2: one instance of the region takes both registers of the thread
// (one division per instance here, so two in all, each of the instance's
// two elements), and its four results go back to the two result blocks.
#v = #tile.blocked<size_per_thread = [2], threads_per_warp = [32], warps = [1], order = [0]>

// CHECK-LABEL: gpu.func @packed
// CHECK-COUNT-2: arith.divui
// CHECK-NOT: arith.divui
// CHECK-COUNT-2: arith.remui
// CHECK-NOT: arith.remui
func.func @packed(%x: !tile.ptr<i32>, %q: !tile.ptr<i32>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 1, 65 : !tile.block<64xi32, #v>
  %xb = tile.splat %x : !tile.ptr<i32> -> !tile.block<64x!tile.ptr<i32>, #v>
  %p = tile.addptr %xb, %r : !tile.block<64x!tile.ptr<i32>, #v>, !tile.block<64xi32, #v>
  %a = tile.load %p : !tile.block<64x!tile.ptr<i32>, #v>
  %d, %m = tile.map_elementwise %a, %r {pack = 2 : i32} : (!tile.block<64xi32, #v>, !tile.block<64xi32, #v>) -> (!tile.block<64xi32, #v>, !tile.block<64xi32, #v>) {
  ^bb0(%a0: i32, %a1: i32, %b0: i32, %b1: i32):
    %d0 = arith.divui %a0, %b0 : i32
    %d1 = arith.divui %a1, %b1 : i32
    %m0 = arith.remui %a0, %b0 : i32
    %m1 = arith.remui %a1, %b1 : i32
    tile.yield %d0, %d1, %m0, %m1 : i32, i32, i32, i32
  }
  tile.store %p, %d : !tile.block<64x!tile.ptr<i32>, #v>
  %qb = tile.splat %q : !tile.ptr<i32> -> !tile.block<64x!tile.ptr<i32>, #v>
  %qp = tile.addptr %qb, %r : !tile.block<64x!tile.ptr<i32>, #v>, !tile.block<64xi32, #v>
  tile.store %qp, %m : !tile.block<64x!tile.ptr<i32>, #v>
  return
}

// -----

#w = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [1], order = [0]>

// A thread holds one element here, so pack 2 cannot be honoured (the layout
// pass chooses layouts that can).
func.func @pack_too_wide(%x: !tile.ptr<i32>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 32 : !tile.block<32xi32, #w>
  %xb = tile.splat %x : !tile.ptr<i32> -> !tile.block<32x!tile.ptr<i32>, #w>
  %p = tile.addptr %xb, %r : !tile.block<32x!tile.ptr<i32>, #w>, !tile.block<32xi32, #w>
  %a = tile.load %p : !tile.block<32x!tile.ptr<i32>, #w>
  // expected-error @+1 {{'tile.map_elementwise' op pack 2 does not divide the 1 elements a thread holds}}
  %y = tile.map_elementwise %a {pack = 2 : i32} : (!tile.block<32xi32, #w>) -> (!tile.block<32xi32, #w>) {
  ^bb0(%a0: i32, %a1: i32):
    tile.yield %a1, %a0 : i32, i32
  }
  tile.store %p, %y : !tile.block<32x!tile.ptr<i32>, #w>
  return
}
