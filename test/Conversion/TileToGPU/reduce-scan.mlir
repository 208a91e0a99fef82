// RUN: tile-opt %s -convert-tile-to-gpu -split-input-file | FileCheck %s

// Reductions and scans follow the operand's layout: registers of a thread
// first, then the lanes along the axis (shuffles), then the warps along it
// (shared memory). Layouts are given explicitly.

#v = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>

// A whole-block sum of 1000 elements (padded to 1024, the padding masked to
// 0): 8 registers per thread, 5 xor shuffles, one partial per warp through
// shared memory.
// CHECK: llvm.mlir.global external @tile_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: gpu.func @block_sum
// CHECK-SAME: tile.shared_bytes = 16
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> f32
func.func @block_sum(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 1000 : !tile.block<1000xi32, #v>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1000x!tile.ptr<f32>, #v>
  %p = tile.addptr %xb, %r : !tile.block<1000x!tile.ptr<f32>, #v>, !tile.block<1000xi32, #v>
  %v = tile.load %p : !tile.block<1000x!tile.ptr<f32>, #v>
  %s = tile.reduce sum %v {axis = 0 : i32} : !tile.block<1000xf32, #v> -> f32
  tile.store %out, %s : !tile.ptr<f32>
  return
}

// -----

#v = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>

// The NaN-ignoring max starts from NaN, so padding never wins and a block of
// NaNs still gives NaN; unsigned kinds combine with maxui/minui from 0 and
// all ones.
// CHECK-LABEL: gpu.func @nan_ignoring_and_unsigned
// CHECK: arith.maxnumf
// CHECK: arith.constant 0x7FC00000 : f32
// CHECK-NOT: arith.maximumf
// CHECK: arith.maxui
// CHECK: arith.constant -1 : i32
// CHECK: arith.minui
func.func @nan_ignoring_and_unsigned(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %iout: !tile.ptr<i32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 1000 : !tile.block<1000xi32, #v>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1000x!tile.ptr<f32>, #v>
  %p = tile.addptr %xb, %r : !tile.block<1000x!tile.ptr<f32>, #v>, !tile.block<1000xi32, #v>
  %v = tile.load %p : !tile.block<1000x!tile.ptr<f32>, #v>
  %m = tile.reduce maxnum %v {axis = 0 : i32} : !tile.block<1000xf32, #v> -> f32
  tile.store %out, %m : !tile.ptr<f32>
  %u = tile.reduce umax %r {axis = 0 : i32} : !tile.block<1000xi32, #v> -> i32
  %n = tile.reduce umin %r {axis = 0 : i32} : !tile.block<1000xi32, #v> -> i32
  %s = arith.addi %u, %n : i32
  tile.store %iout, %s : !tile.ptr<i32>
  return
}

// -----

#rows = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [1, 32], warps = [4, 1], order = [1, 0]>

// Along the rows, with lanes along the rows and warps across them: each
// thread combines its 4 columns, then 5 shuffles finish each row; no shared
// memory.
// CHECK-LABEL: gpu.func @row_max
// CHECK-SAME: tile.shared_bytes = 0
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-40: gpu.shuffle  xor
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @row_max(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %i = tile.arange 0, 4096 : !tile.block<4096xi32, #tile.linear<register = [[1], [2], [512], [1024], [2048]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]]>>
  %j = tile.reshape %i : !tile.block<4096xi32, #tile.linear<register = [[1], [2], [512], [1024], [2048]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]]>> -> !tile.block<32x128xi32, #rows>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<32x128x!tile.ptr<f32>, #rows>
  %p = tile.addptr %xb, %j : !tile.block<32x128x!tile.ptr<f32>, #rows>, !tile.block<32x128xi32, #rows>
  %v = tile.load %p : !tile.block<32x128x!tile.ptr<f32>, #rows>
  %m = tile.reduce max %v {axis = 1 : i32} : !tile.block<32x128xf32, #rows> -> !tile.block<32xf32, #tile.slice<dim = 1, parent = #rows>>
  %r = tile.arange 0, 32 : !tile.block<32xi32, #tile.slice<dim = 1, parent = #rows>>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<32x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #rows>>
  %op = tile.addptr %ob, %r : !tile.block<32x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #rows>>, !tile.block<32xi32, #tile.slice<dim = 1, parent = #rows>>
  tile.store %op, %m : !tile.block<32x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #rows>>
  return
}

// -----

#cs = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>

// Down the columns: 8 rows per thread in registers, one shuffle for the 2
// lanes along the columns, then the 4 warps' partials through shared memory
// (4 warps x 64 columns x 4 bytes).
// CHECK-LABEL: gpu.func @column_sum
// CHECK-SAME: tile.shared_bytes = 1024
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-16: llvm.load {{.*}} : !llvm.ptr<3> -> f32
func.func @column_sum(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %i = tile.arange 0, 4096 : !tile.block<4096xi32, #tile.linear<register = [[1], [2], [512], [1024], [2048]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]]>>
  %j = tile.reshape %i : !tile.block<4096xi32, #tile.linear<register = [[1], [2], [512], [1024], [2048]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]]>> -> !tile.block<64x64xi32, #cs>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>, #cs>
  %p = tile.addptr %xb, %j : !tile.block<64x64x!tile.ptr<f32>, #cs>, !tile.block<64x64xi32, #cs>
  %v = tile.load %p : !tile.block<64x64x!tile.ptr<f32>, #cs>
  %s = tile.reduce sum %v {axis = 0 : i32} : !tile.block<64x64xf32, #cs> -> !tile.block<64xf32, #tile.slice<dim = 0, parent = #cs>>
  %c = tile.arange 0, 64 : !tile.block<64xi32, #tile.slice<dim = 0, parent = #cs>>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>, #tile.slice<dim = 0, parent = #cs>>
  %op = tile.addptr %ob, %c : !tile.block<64x!tile.ptr<f32>, #tile.slice<dim = 0, parent = #cs>>, !tile.block<64xi32, #tile.slice<dim = 0, parent = #cs>>
  tile.store %op, %s : !tile.block<64x!tile.ptr<f32>, #tile.slice<dim = 0, parent = #cs>>
  return
}

// -----

#v4 = #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [4], order = [0]>

// A cumulative sum of 4096 elements, 4 consecutive per thread repeated 8
// times: each thread scans its 4, the lanes scan the totals with 5 index
// shuffles (Kogge-Stone), the warps' totals go through shared memory, and
// the 8 repetitions are chained in registers.
// CHECK-LABEL: gpu.func @cumsum
// CHECK: gpu.shuffle  idx
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store {{.*}} : vector<4xf32>, !llvm.ptr<1>
func.func @cumsum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 4096 : !tile.block<4096xi32, #v4>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<4096x!tile.ptr<f32>, #v4>
  %p = tile.addptr %xb, %r : !tile.block<4096x!tile.ptr<f32>, #v4>, !tile.block<4096xi32, #v4>
  %v = tile.load %p : !tile.block<4096x!tile.ptr<f32>, #v4>
  %s = tile.scan sum %v {axis = 0 : i32} : !tile.block<4096xf32, #v4>
  tile.store %p, %s : !tile.block<4096x!tile.ptr<f32>, #v4>
  return
}

// -----

#w = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [1], order = [0]>

// A reverse scan with a custom combine over a padded extent (24 of 32
// lanes): the padding is masked to "nothing" with validity flags, which
// travel with the values through the shuffles.
// CHECK-LABEL: gpu.func @reverse_custom
// CHECK: gpu.shuffle  idx {{.*}} : f32
// CHECK: gpu.shuffle  idx {{.*}} : i32
// CHECK: arith.trunci {{.*}} : i32 to i1
// CHECK: arith.mulf
// CHECK: gpu.return
func.func @reverse_custom(%x: !tile.ptr<f32>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 24 : !tile.block<24xi32, #w>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<24x!tile.ptr<f32>, #w>
  %p = tile.addptr %xb, %r : !tile.block<24x!tile.ptr<f32>, #w>, !tile.block<24xi32, #w>
  %v = tile.load %p : !tile.block<24x!tile.ptr<f32>, #w>
  %s = tile.scan custom %v {axis = 0 : i32, reverse} : !tile.block<24xf32, #w> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    tile.yield %m : f32
  }
  tile.store %p, %s : !tile.block<24x!tile.ptr<f32>, #w>
  return
}

// -----

#v = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>

// Argmax of 1000 elements as a reduction of three blocks: each element
// triple travels as one struct, shuffled field by field (with the validity
// flag of the padding), and goes to shared memory one struct per warp, its
// fields at offsets the lowering chooses (0, 4, 8: the i1 as a byte; LLVM's
// own aggregate layout depends on a data layout not every pass sees).
// CHECK-LABEL: gpu.func @argmax_pairs
// CHECK: llvm.insertvalue {{.*}} : !llvm.struct<(f32, i32, i1)>
// CHECK: gpu.shuffle  xor {{.*}} : f32
// CHECK: gpu.shuffle  xor {{.*}} : i32
// CHECK: llvm.getelementptr %[[SLOT:.*]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: llvm.getelementptr %[[SLOT]][4] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: llvm.getelementptr %[[SLOT]][8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: llvm.store {{.*}} : i8, !llvm.ptr<3>
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.extractvalue {{.*}}[1] : !llvm.struct<(f32, i32, i1)>
func.func @argmax_pairs(%x: !tile.ptr<f32>, %out: !tile.ptr<i32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 1000 : !tile.block<1000xi32, #v>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1000x!tile.ptr<f32>, #v>
  %p = tile.addptr %xb, %r : !tile.block<1000x!tile.ptr<f32>, #v>, !tile.block<1000xi32, #v>
  %v = tile.load %p : !tile.block<1000x!tile.ptr<f32>, #v>
  %zero = tile.constant dense<0.0> : !tile.block<1000xf32, #v>
  %pos = tile.cmpf ogt, %v, %zero : !tile.block<1000xf32, #v>
  %m, %at, %all = tile.reduce custom %v, %r, %pos {axis = 0 : i32} : !tile.block<1000xf32, #v>, !tile.block<1000xi32, #v>, !tile.block<1000xi1, #v> -> f32, i32, i1 {
  ^bb0(%va: f32, %ia: i32, %pa: i1, %vb: f32, %ib: i32, %pb: i1):
    %gt = arith.cmpf ogt, %va, %vb : f32
    %mv = arith.select %gt, %va, %vb : f32
    %mi = arith.select %gt, %ia, %ib : i32
    %both = arith.andi %pa, %pb : i1
    tile.yield %mv, %mi, %both : f32, i32, i1
  }
  %sel = arith.select %all, %at, %at : i32
  tile.store %out, %sel : !tile.ptr<i32>
  return
}

// -----

#w = #tile.blocked<size_per_thread = [2], threads_per_warp = [32], warps = [2], order = [0]>

// A linear recurrence over 128 elements, two blocks: registers, lanes
// (index shuffles of each field) and warps (the struct through shared
// memory); each result is one field.
// CHECK-LABEL: gpu.func @recurrence
// CHECK: gpu.shuffle  idx {{.*}} : f32
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.extractvalue {{.*}}[1] : !llvm.struct<(f32, f32)>
func.func @recurrence(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>) attributes {tile.num_warps = 2 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32, #w>
  %ab = tile.splat %a : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>, #w>
  %ap = tile.addptr %ab, %r : !tile.block<128x!tile.ptr<f32>, #w>, !tile.block<128xi32, #w>
  %av = tile.load %ap : !tile.block<128x!tile.ptr<f32>, #w>
  %bb = tile.splat %b : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>, #w>
  %bp = tile.addptr %bb, %r : !tile.block<128x!tile.ptr<f32>, #w>, !tile.block<128xi32, #w>
  %bv = tile.load %bp : !tile.block<128x!tile.ptr<f32>, #w>
  %x, %h = tile.scan custom %av, %bv {axis = 0 : i32} : !tile.block<128xf32, #w>, !tile.block<128xf32, #w> {
  ^bb0(%a1: f32, %b1: f32, %a2: f32, %b2: f32):
    %aa = arith.mulf %a1, %a2 : f32
    %t = arith.mulf %b1, %a2 : f32
    %bn = arith.addf %t, %b2 : f32
    tile.yield %aa, %bn : f32, f32
  }
  tile.store %bp, %h : !tile.block<128x!tile.ptr<f32>, #w>
  return
}
