// RUN: tile-opt %s -tile-assign-layouts -split-input-file | FileCheck %s
// RUN: tile-opt %s -tile-assign-layouts=num-warps=8 -split-input-file | FileCheck %s --check-prefix=WARPS8
// RUN: tile-opt %s -tile-assign-layouts -split-input-file | tile-opt -tile-assign-layouts -split-input-file | FileCheck %s
// RUN: tile-opt %s -tile-assign-layouts="chip=sm_90a num-warps=8" -split-input-file | FileCheck %s --check-prefix=WGMMA
// RUN: not tile-opt %s -tile-assign-layouts=num-warps=3 -split-input-file 2>&1 | FileCheck %s --check-prefix=WARPS3

// One rule per case. The third RUN line checks that the pass is idempotent.
// WARPS3: error: num-warps must be a power of two from 1 to 32, not 3

// Anchor: aligned pointers and a length divisible by 16 allow four f32 per
// thread, so accesses can be 128-bit.
// CHECK: #[[V4:.*]] = #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [4], order = [0]>
// CHECK-LABEL: func.func @aligned
// CHECK-SAME: tile.num_warps = 4
// CHECK: tile.load {{.*}} : !tile.block<1024x!tile.ptr<f32>, #[[V4]]>
// WARPS8: #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [8], order = [0]>
// WARPS8-LABEL: func.func @aligned
func.func @aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %nb = tile.splat %n : i32 -> !tile.block<1024xi32>
  %m = tile.cmpi slt, %r, %nb : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p mask %m : !tile.block<1024x!tile.ptr<f32>>
  tile.store %p, %v mask %m : !tile.block<1024x!tile.ptr<f32>>
  return
}

// -----

// Anchor: nothing is known about the pointer's alignment: one element per
// thread.
// CHECK: #[[V1:.*]] = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>
// CHECK-LABEL: func.func @unaligned
// CHECK: tile.load {{.*}} : !tile.block<1024x!tile.ptr<f32>, #[[V1]]>
func.func @unaligned(%x: !tile.ptr<f32>) {
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p : !tile.block<1024x!tile.ptr<f32>>
  tile.store %p, %v : !tile.block<1024x!tile.ptr<f32>>
  return
}

// -----

// Anchor: a mask that is not constant over groups of four (n has no
// divisibility) keeps accesses scalar.
// CHECK: #[[M1:.*]] = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>
// CHECK-LABEL: func.func @mask_limits_width
// CHECK: tile.load {{.*}} : !tile.block<256x!tile.ptr<f32>, #[[M1]]>
func.func @mask_limits_width(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %nb = tile.splat %n : i32 -> !tile.block<256xi32>
  %m = tile.cmpi slt, %r, %nb : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %v = tile.load %p mask %m : !tile.block<256x!tile.ptr<f32>>
  tile.store %p, %v mask %m : !tile.block<256x!tile.ptr<f32>>
  return
}

// -----

// Anchor: a block smaller than four elements per thread gets narrower
// chunks, so that every thread has work: 256 elements over 128 threads.
// CHECK: #[[V2:.*]] = #tile.blocked<size_per_thread = [2], threads_per_warp = [32], warps = [4], order = [0]>
// CHECK-LABEL: func.func @small_block
// CHECK: tile.load {{.*}} : !tile.block<256x!tile.ptr<f32>, #[[V2]]>
func.func @small_block(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %v = tile.load %p : !tile.block<256x!tile.ptr<f32>>
  tile.store %p, %v : !tile.block<256x!tile.ptr<f32>>
  return
}

// -----

// Anchor: f16 rows contiguous when the row stride is divisible by 16:
// eight halves per thread along the rows; lanes fill a row first. A
// reduction along the rows gives the slice of that layout, and the row
// offsets (an index function) are cloned into the slice the expand_dims
// needs.
// CHECK: #[[F16:.*]] = #tile.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps = [4, 1], order = [1, 0]>
// CHECK: #[[ROWS:.*]] = #tile.slice<dim = 1, parent = #[[F16]]>
// CHECK-LABEL: func.func @tile_2d_f16
// CHECK: tile.expand_dims {{.*}} : !tile.block<16xi32, #[[ROWS]]> -> !tile.block<16x1xi32, #[[F16]]>
// CHECK: tile.load {{.*}} : !tile.block<16x64x!tile.ptr<f16>, #[[F16]]>
// CHECK: tile.reduce sum {{.*}} : !tile.block<16x64xf32, #[[F16]]> -> !tile.block<16xf32, #[[ROWS]]>
// CHECK-NOT: tile.convert_layout
// CHECK: return
func.func @tile_2d_f16(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32>) {
  %rows = tile.arange 0, 16 : !tile.block<16xi32>
  %cols = tile.arange 0, 64 : !tile.block<64xi32>
  %s = tile.splat %stride : i32 -> !tile.block<16xi32>
  %ro = tile.muli %rows, %s : !tile.block<16xi32>
  %r2 = tile.expand_dims %ro {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  %rb = tile.broadcast %r2 : !tile.block<16x1xi32> -> !tile.block<16x64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %cb = tile.broadcast %c2 : !tile.block<1x64xi32> -> !tile.block<16x64xi32>
  %offs = tile.addi %rb, %cb : !tile.block<16x64xi32>
  %xb = tile.splat %x : !tile.ptr<f16> -> !tile.block<16x64x!tile.ptr<f16>>
  %p = tile.addptr %xb, %offs : !tile.block<16x64x!tile.ptr<f16>>, !tile.block<16x64xi32>
  %v = tile.load %p : !tile.block<16x64x!tile.ptr<f16>>
  %w = tile.cast %v : !tile.block<16x64xf16> to !tile.block<16x64xf32>
  %sum = tile.reduce sum %w {axis = 1 : i32} : !tile.block<16x64xf32> -> !tile.block<16xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  %op = tile.addptr %ob, %rows : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
  tile.store %op, %sum : !tile.block<16x!tile.ptr<f32>>
  return
}

// -----

// Propagation: the expand_dims of a reduction's slice is its parent again,
// so x - max(x)[:, None] moves nothing.
// CHECK: #[[P:.*]] = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [1, 32], warps = [4, 1], order = [1, 0]>
// CHECK: #[[S:.*]] = #tile.slice<dim = 1, parent = #[[P]]>
// CHECK-LABEL: func.func @slice_roundtrip
// CHECK: tile.reduce max {{.*}} : !tile.block<32x128xf32, #[[P]]> -> !tile.block<32xf32, #[[S]]>
// CHECK: tile.expand_dims {{.*}} : !tile.block<32xf32, #[[S]]> -> !tile.block<32x1xf32, #[[P]]>
// CHECK: tile.broadcast {{.*}} : !tile.block<32x1xf32, #[[P]]> -> !tile.block<32x128xf32, #[[P]]>
// CHECK-NOT: tile.convert_layout
// CHECK: return
func.func @slice_roundtrip(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rows = tile.arange 0, 32 : !tile.block<32xi32>
  %cols = tile.arange 0, 128 : !tile.block<128xi32>
  %c128 = tile.constant dense<128> : !tile.block<32x1xi32>
  %r2 = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %r3 = tile.muli %r2, %c128 : !tile.block<32x1xi32>
  %r4 = tile.broadcast %r3 : !tile.block<32x1xi32> -> !tile.block<32x128xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<128xi32> -> !tile.block<1x128xi32>
  %c3 = tile.broadcast %c2 : !tile.block<1x128xi32> -> !tile.block<32x128xi32>
  %i = tile.addi %r4, %c3 : !tile.block<32x128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<32x128x!tile.ptr<f32>>
  %p = tile.addptr %xb, %i : !tile.block<32x128x!tile.ptr<f32>>, !tile.block<32x128xi32>
  %v = tile.load %p : !tile.block<32x128x!tile.ptr<f32>>
  %m = tile.reduce max %v {axis = 1 : i32} : !tile.block<32x128xf32> -> !tile.block<32xf32>
  %e = tile.expand_dims %m {axis = 1 : i32} : !tile.block<32xf32> -> !tile.block<32x1xf32>
  %b = tile.broadcast %e : !tile.block<32x1xf32> -> !tile.block<32x128xf32>
  %d = tile.subf %v, %b : !tile.block<32x128xf32>
  tile.store %p, %d : !tile.block<32x128x!tile.ptr<f32>>
  return
}

// -----

// Demand: a[:, None] * b[None, :] stored row-major. The loads take the
// slices of the store's layout, as they lose no vector width by it (b's
// slice even gains: 4 columns per thread), and nothing is converted.
// CHECK: #[[O:.*]] = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[OR:.*]] = #tile.slice<dim = 1, parent = #[[O]]>
// CHECK-DAG: #[[OC:.*]] = #tile.slice<dim = 0, parent = #[[O]]>
// CHECK-LABEL: func.func @outer_product
// CHECK: tile.load {{.*}} : !tile.block<32x!tile.ptr<f32>, #[[OR]]>
// CHECK: tile.load {{.*}} : !tile.block<64x!tile.ptr<f32>, #[[OC]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store {{.*}} : !tile.block<32x64x!tile.ptr<f32>, #[[O]]>
func.func @outer_product(%a: !tile.ptr<f32>, %b: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32) {
  %rows = tile.arange 0, 32 : !tile.block<32xi32>
  %cols = tile.arange 0, 64 : !tile.block<64xi32>
  %sb = tile.splat %stride : i32 -> !tile.block<32xi32>
  %ro = tile.muli %rows, %sb : !tile.block<32xi32>
  %ab = tile.splat %a : !tile.ptr<f32> -> !tile.block<32x!tile.ptr<f32>>
  %ap = tile.addptr %ab, %ro : !tile.block<32x!tile.ptr<f32>>, !tile.block<32xi32>
  %av = tile.load %ap : !tile.block<32x!tile.ptr<f32>>
  %bb = tile.splat %b : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %bp = tile.addptr %bb, %cols : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  %bv = tile.load %bp : !tile.block<64x!tile.ptr<f32>>
  %a2 = tile.expand_dims %av {axis = 1 : i32} : !tile.block<32xf32> -> !tile.block<32x1xf32>
  %a3 = tile.broadcast %a2 : !tile.block<32x1xf32> -> !tile.block<32x64xf32>
  %b2 = tile.expand_dims %bv {axis = 0 : i32} : !tile.block<64xf32> -> !tile.block<1x64xf32>
  %b3 = tile.broadcast %b2 : !tile.block<1x64xf32> -> !tile.block<32x64xf32>
  %o = tile.mulf %a3, %b3 : !tile.block<32x64xf32>
  %r2 = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %c64 = tile.constant dense<64> : !tile.block<32x1xi32>
  %r3 = tile.muli %r2, %c64 : !tile.block<32x1xi32>
  %r4 = tile.broadcast %r3 : !tile.block<32x1xi32> -> !tile.block<32x64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %c3 = tile.broadcast %c2 : !tile.block<1x64xi32> -> !tile.block<32x64xi32>
  %offs = tile.addi %r4, %c3 : !tile.block<32x64xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<32x64x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %offs : !tile.block<32x64x!tile.ptr<f32>>, !tile.block<32x64xi32>
  tile.store %cp, %o : !tile.block<32x64x!tile.ptr<f32>>
  return
}

// -----

// Loops: a carried value takes the layout its body produces. A column sum's
// accumulator stays in the slice of the load's layout (no conversion in the
// loop), and the store after the loop keeps it (4 columns per thread, as
// wide as its own layout allows).
// CHECK: #[[L:.*]] = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>
// CHECK: #[[C:.*]] = #tile.slice<dim = 0, parent = #[[L]]>
// CHECK-LABEL: func.func @column_sum
// CHECK: scf.for {{.*}} -> (!tile.block<64xf32, #[[C]]>)
// CHECK-NOT: tile.convert_layout
// CHECK: tile.reduce sum {{.*}} -> !tile.block<64xf32, #[[C]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store {{.*}} : !tile.block<64x!tile.ptr<f32>, #[[C]]>
func.func @column_sum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32, %stride: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = tile.constant dense<0.0> : !tile.block<64xf32>
  %cols = tile.arange 0, 64 : !tile.block<64xi32>
  %rows = tile.arange 0, 64 : !tile.block<64xi32>
  %ss = tile.splat %stride : i32 -> !tile.block<64xi32>
  %ro = tile.muli %rows, %ss : !tile.block<64xi32>
  %r2 = tile.expand_dims %ro {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %r3 = tile.broadcast %r2 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %c3 = tile.broadcast %c2 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %offs = tile.addi %r3, %c3 : !tile.block<64x64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %p0 = tile.addptr %xb, %offs : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %acc = scf.for %i = %c0 to %m step %c64 iter_args(%a = %zero) -> (!tile.block<64xf32>) : i32 {
    %v = tile.load %p0 : !tile.block<64x64x!tile.ptr<f32>>
    %s = tile.reduce sum %v {axis = 0 : i32} : !tile.block<64x64xf32> -> !tile.block<64xf32>
    %n = tile.addf %a, %s : !tile.block<64xf32>
    scf.yield %n : !tile.block<64xf32>
  }
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %op = tile.addptr %ob, %cols : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  tile.store %op, %acc : !tile.block<64x!tile.ptr<f32>>
  return
}

// -----

// Conversion: a transpose written as a strided store. The load is coalesced
// along rows, the store along columns; the value is converted once, right
// after the load.
// CHECK-DAG: #[[ROWMAJOR:.*]] = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[COLMAJOR:.*]] = #tile.blocked<size_per_thread = [4, 1], threads_per_warp = [16, 2], warps = [1, 4], order = [0, 1]>
// CHECK-LABEL: func.func @strided_store
// CHECK: %[[V:.*]] = tile.load {{.*}} : !tile.block<64x64x!tile.ptr<f32>, #[[ROWMAJOR]]>
// CHECK-NEXT: %[[T:.*]] = tile.convert_layout %[[V]] : !tile.block<64x64xf32, #[[ROWMAJOR]]> -> !tile.block<64x64xf32, #[[COLMAJOR]]>
// CHECK: tile.store %{{.*}}, %[[T]] : !tile.block<64x64x!tile.ptr<f32>, #[[COLMAJOR]]>
func.func @strided_store(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %rows = tile.arange 0, 64 : !tile.block<64xi32>
  %cols = tile.arange 0, 64 : !tile.block<64xi32>
  %nr = tile.splat %n : i32 -> !tile.block<64xi32>
  %ro = tile.muli %rows, %nr : !tile.block<64xi32>
  %r2 = tile.expand_dims %ro {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %rb = tile.broadcast %r2 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %cb = tile.broadcast %c2 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %in = tile.addi %rb, %cb : !tile.block<64x64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %p = tile.addptr %xb, %in : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %v = tile.load %p : !tile.block<64x64x!tile.ptr<f32>>
  %co = tile.muli %cols, %nr : !tile.block<64xi32>
  %c3 = tile.expand_dims %co {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %cb3 = tile.broadcast %c3 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %r3 = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %rb3 = tile.broadcast %r3 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
  %out = tile.addi %cb3, %rb3 : !tile.block<64x64xi32>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %q = tile.addptr %yb, %out : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  tile.store %q, %v : !tile.block<64x64x!tile.ptr<f32>>
  return
}

// -----

// Trans is a layout change: the transposed block takes the permuted layout
// for free; the row-major store then converts it.
// CHECK-DAG: #[[RM:.*]] = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[PERM:.*]] = #tile.blocked<size_per_thread = [4, 1], threads_per_warp = [16, 2], warps = [1, 4], order = [0, 1]>
// CHECK-LABEL: func.func @trans
// CHECK: tile.load {{.*}} : !tile.block<64x64x!tile.ptr<f32>, #[[RM]]>
// CHECK: %[[T:.*]] = tile.trans %{{.*}} : !tile.block<64x64xf32, #[[RM]]> -> !tile.block<64x64xf32, #[[PERM]]>
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[T]] : !tile.block<64x64xf32, #[[PERM]]> -> !tile.block<64x64xf32, #[[RM]]>
// CHECK: tile.store %{{.*}}, %[[C]] : !tile.block<64x64x!tile.ptr<f32>, #[[RM]]>
func.func @trans(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rows = tile.arange 0, 64 : !tile.block<64xi32>
  %cols = tile.arange 0, 64 : !tile.block<64xi32>
  %c64 = tile.constant dense<64> : !tile.block<64x1xi32>
  %r2 = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %r3 = tile.muli %r2, %c64 : !tile.block<64x1xi32>
  %r4 = tile.broadcast %r3 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %c3 = tile.broadcast %c2 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %i = tile.addi %r4, %c3 : !tile.block<64x64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %p = tile.addptr %xb, %i : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %v = tile.load %p : !tile.block<64x64x!tile.ptr<f32>>
  %t = tile.trans %v : !tile.block<64x64xf32> -> !tile.block<64x64xf32>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %q = tile.addptr %yb, %i : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  tile.store %q, %t : !tile.block<64x64x!tile.ptr<f32>>
  return
}

// -----

// Hoisting: a value loaded before a loop and needed in another layout
// inside it is converted once, before the loop.
// CHECK-LABEL: func.func @hoisted
// CHECK: tile.convert_layout
// CHECK: scf.for
// CHECK-NOT: tile.convert_layout
// CHECK: tile.addf
func.func @hoisted(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %s: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rows = tile.arange 0, 64 : !tile.block<64xi32>
  %cols = tile.arange 0, 64 : !tile.block<64xi32>
  %ss = tile.splat %s : i32 -> !tile.block<64xi32>
  %rs = tile.muli %rows, %ss : !tile.block<64xi32>
  %r2 = tile.expand_dims %rs {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %r3 = tile.broadcast %r2 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %c3 = tile.broadcast %c2 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %row_major = tile.addi %r3, %c3 : !tile.block<64x64xi32>
  %cs = tile.muli %cols, %ss : !tile.block<64xi32>
  %c4 = tile.expand_dims %cs {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %c5 = tile.broadcast %c4 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %r4 = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %r5 = tile.broadcast %r4 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
  %col_major = tile.addi %c5, %r5 : !tile.block<64x64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %p = tile.addptr %xb, %row_major : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %q = tile.addptr %xb, %col_major : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %bias = tile.load %p : !tile.block<64x64x!tile.ptr<f32>>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %v = tile.load %q : !tile.block<64x64x!tile.ptr<f32>>
    %w = tile.addf %v, %bias : !tile.block<64x64xf32>
    tile.store %q, %w : !tile.block<64x64x!tile.ptr<f32>>
  }
  return
}

// -----

// Index functions take any layout for free: the same offsets feed a
// row-major load and, cloned, a store in another layout; no conversion of
// the offsets.
// CHECK-LABEL: func.func @cloned_index
// CHECK-COUNT-2: tile.arange 0, 64
// CHECK-NOT: tile.convert_layout {{.*}}xi32
// CHECK: return
func.func @cloned_index(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32 {tile.divisibility = 16 : i32}) {
  %rows = tile.arange 0, 64 : !tile.block<64xi32>
  %ss = tile.splat %s : i32 -> !tile.block<64xi32>
  %rs = tile.muli %rows, %ss : !tile.block<64xi32>
  %r2 = tile.expand_dims %rs {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %r3 = tile.broadcast %r2 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
  %c2 = tile.expand_dims %rows {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %c3 = tile.broadcast %c2 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %row_major = tile.addi %r3, %c3 : !tile.block<64x64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %p = tile.addptr %xb, %row_major : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %v = tile.load %p : !tile.block<64x64x!tile.ptr<f32>>
  %t = tile.trans %v : !tile.block<64x64xf32> -> !tile.block<64x64xf32>
  %w = tile.exp %t : !tile.block<64x64xf32>
  %q = tile.trans %p : !tile.block<64x64x!tile.ptr<f32>> -> !tile.block<64x64x!tile.ptr<f32>>
  tile.store %q, %w : !tile.block<64x64x!tile.ptr<f32>>
  return
}

// -----

// A reduction kept as a dimension of extent 1 (tl.xor_sum(y, 0, True), as
// tl.flip does) and broadcast back: the reshape gives a #tile.linear layout
// whose second warp runs along dimension 0; on the 1x64 expand_dims result
// that warp replicates (its basis wraps to 0), as the parser requires (the
// third RUN line reparses it).
// CHECK: #[[PAIRS:.*]] = #tile.linear<register = [], lane = {{.*}}, warp = {{\[\[}}0, 32], [1, 0]]>
// CHECK: #[[KEPT:.*]] = #tile.linear<register = [], lane = {{.*}}, warp = {{\[\[}}0, 32], [0, 0]]>
// CHECK-LABEL: func.func @kept_dimension
// CHECK: tile.expand_dims {{.*}} -> !tile.block<1x64xi32, #[[KEPT]]>
// CHECK: tile.broadcast {{.*}} : !tile.block<1x64xi32, #[[KEPT]]> -> !tile.block<2x64xi32, #[[PAIRS]]>
// CHECK-NOT: tile.convert_layout
// CHECK: return
func.func @kept_dimension(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %p0 = tile.splat %x : !tile.ptr<i32> -> !tile.block<128x!tile.ptr<i32>>
  %p = tile.addptr %p0, %r : !tile.block<128x!tile.ptr<i32>>, !tile.block<128xi32>
  %v = tile.load %p : !tile.block<128x!tile.ptr<i32>>
  %y = tile.reshape %v : !tile.block<128xi32> -> !tile.block<2x64xi32>
  %s = tile.reduce sum %y {axis = 0 : i32} : !tile.block<2x64xi32> -> !tile.block<64xi32>
  %k = tile.expand_dims %s {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %b = tile.broadcast %k : !tile.block<1x64xi32> -> !tile.block<2x64xi32>
  %z = tile.xori %y, %b : !tile.block<2x64xi32>
  %w = tile.reshape %z : !tile.block<2x64xi32> -> !tile.block<128xi32>
  tile.store %p, %w : !tile.block<128x!tile.ptr<i32>>
  return
}

// -----

// Attention's inner loop on wgmma: q, loaded before the loop, is converted
// once to the accumulator layout of the dot's warps (wgmma then reads it
// from registers every iteration); the row maximum broadcast back over the
// scores keeps the scores' #mma layout; the causal mask, from row indices
// and carried column indices, is recomputed in #mma (only the 64 column
// indices move); no block of the loop converts (p feeds the second dot
// from registers too).
// WGMMA-LABEL: func.func @loop_invariant_a
// WGMMA: %[[Q:.*]] = tile.convert_layout %{{.*}} -> !tile.block<128x64xf16, #[[MMA:mma[0-9]*]]>
// WGMMA: scf.for
// WGMMA-NOT: tile.convert_layout {{.*}}128x64
// WGMMA: tile.dot %[[Q]], {{.*}} : !tile.block<128x64xf16, #[[MMA]]>, {{.*}} -> !tile.block<128x64xf32, #[[MMA]]>
// WGMMA-NOT: tile.convert_layout {{.*}}128x64
// WGMMA: tile.cmpi sge, {{.*}} : !tile.block<128x64xi32, #[[MMA]]>
// WGMMA-NEXT: tile.select {{.*}} : !tile.block<128x64xf32, #[[MMA]]>
// WGMMA-NOT: tile.convert_layout {{.*}}128x64
// WGMMA: tile.broadcast {{.*}} : !tile.block<128x1xf32, #[[MMA]]> -> !tile.block<128x64xf32, #[[MMA]]>
// WGMMA-NOT: tile.convert_layout {{.*}}128x64
// WGMMA: scf.yield
func.func @loop_invariant_a(%q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 8192 : !tile.block<8192xi32>
  %iq = tile.reshape %r : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %qb = tile.splat %q : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %qp = tile.addptr %qb, %iq : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %qv = tile.load %qp : !tile.block<128x64x!tile.ptr<f16>>
  %kb = tile.splat %k : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %zero = tile.constant dense<0.0> : !tile.block<128x64xf32>
  %ri = tile.arange 0, 4096 : !tile.block<4096xi32>
  %ikk = tile.reshape %ri : !tile.block<4096xi32> -> !tile.block<64x64xi32>
  %kp = tile.addptr %kb, %ikk : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
  %rows = tile.arange 0, 128 : !tile.block<128xi32>
  %rows2 = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<128xi32> -> !tile.block<128x1xi32>
  %rows3 = tile.broadcast %rows2 : !tile.block<128x1xi32> -> !tile.block<128x64xi32>
  %cols0 = tile.arange 0, 64 : !tile.block<64xi32>
  %c64 = arith.constant 64 : i32
  %step = tile.splat %c64 : i32 -> !tile.block<64xi32>
  %ninf = tile.constant dense<0xFF800000> : !tile.block<128x64xf32>
  %acc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero, %cols = %cols0) -> (!tile.block<128x64xf32>, !tile.block<64xi32>) : i32 {
    %kv = tile.load %kp : !tile.block<64x64x!tile.ptr<f16>>
    %s0 = tile.dot %qv, %kv, %zero : !tile.block<128x64xf16>, !tile.block<64x64xf16> -> !tile.block<128x64xf32>
    %cols2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
    %cols3 = tile.broadcast %cols2 : !tile.block<1x64xi32> -> !tile.block<128x64xi32>
    %causal = tile.cmpi sge, %rows3, %cols3 : !tile.block<128x64xi32>
    %s = tile.select %causal, %s0, %ninf : !tile.block<128x64xf32>
    %m = tile.reduce max %s {axis = 1 : i32} : !tile.block<128x64xf32> -> !tile.block<128xf32>
    %m2 = tile.expand_dims %m {axis = 1 : i32} : !tile.block<128xf32> -> !tile.block<128x1xf32>
    %m3 = tile.broadcast %m2 : !tile.block<128x1xf32> -> !tile.block<128x64xf32>
    %d = tile.subf %s, %m3 : !tile.block<128x64xf32>
    %e = tile.exp2 %d : !tile.block<128x64xf32>
    %p = tile.cast %e : !tile.block<128x64xf32> to !tile.block<128x64xf16>
    %next = tile.dot %p, %kv, %sum : !tile.block<128x64xf16>, !tile.block<64x64xf16> -> !tile.block<128x64xf32>
    %cols4 = tile.addi %cols, %step : !tile.block<64xi32>
    scf.yield %next, %cols4 : !tile.block<128x64xf32>, !tile.block<64xi32>
  }
  %ob = tile.splat %o : !tile.ptr<f32> -> !tile.block<128x64x!tile.ptr<f32>>
  %op = tile.addptr %ob, %iq : !tile.block<128x64x!tile.ptr<f32>>, !tile.block<128x64xi32>
  tile.store %op, %acc#0 : !tile.block<128x64x!tile.ptr<f32>>
  return
}

// -----

// A mapped function on pack 4: each instance takes four registers of one
// thread, so the operands and the result get four consecutive elements per
// thread, whatever the load alone would have had.
// CHECK: #[[P4:.*]] = #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [4], order = [0]>
// CHECK-LABEL: func.func @map_pack
// CHECK: tile.map_elementwise {{.*}} -> !tile.block<256xi32, #[[P4]]>
func.func @map_pack(%x: !tile.ptr<i32>) {
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<i32> -> !tile.block<256x!tile.ptr<i32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<i32>>, !tile.block<256xi32>
  %a = tile.load %p : !tile.block<256x!tile.ptr<i32>>
  %y = tile.map_elementwise %a {pack = 4 : i32} : (!tile.block<256xi32>) -> (!tile.block<256xi32>) {
  ^bb0(%a0: i32, %a1: i32, %a2: i32, %a3: i32):
    tile.yield %a3, %a2, %a1, %a0 : i32, i32, i32, i32
  }
  tile.store %p, %y : !tile.block<256x!tile.ptr<i32>>
  return
}

// -----

// A vector loaded in a loop and combined with a dot's product on tensor cores
// (backward attention's `qk - m[None, :]`) is loaded in the slice of the
// accumulator's layout: no conversion in the loop. One carried through the
// loop (a load the pipeliner moved to an earlier iteration) keeps the
// load's own layout, one element per thread for each stage in flight, and
// is converted where it is used.
// WGMMA-LABEL: func.func @vector_beside_product
// WGMMA: scf.for
// WGMMA: %[[M:.*]] = tile.load %{{.*}} : !tile.block<64x!tile.ptr<f32>, #[[SLICE:slice[0-9]*]]>
// WGMMA-NOT: tile.convert_layout
// WGMMA: tile.dot {{.*}} -> !tile.block<128x64xf32, #[[ACC:mma[0-9]*]]>
// WGMMA-NEXT: tile.expand_dims %[[M]] {{.*}} : !tile.block<64xf32, #[[SLICE]]> -> !tile.block<1x64xf32, #[[ACC]]>
// WGMMA-NOT: tile.convert_layout
// WGMMA: tile.subf
// WGMMA: tile.expand_dims %{{.*}} : !tile.block<64xf32, #[[OWN:blocked[0-9]*]]>
// WGMMA: tile.convert_layout
// WGMMA: tile.subf
// WGMMA: tile.load %{{.*}} : !tile.block<64x!tile.ptr<f32>, #[[OWN]]>
// WGMMA: scf.yield
func.func @vector_beside_product(%k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rk = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ik = tile.reshape %rk : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %kb = tile.splat %k : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %kp = tile.addptr %kb, %ik : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %kk = tile.load %kp : !tile.block<128x64x!tile.ptr<f16>>
  %rq = tile.arange 0, 4096 : !tile.block<4096xi32>
  %iq = tile.reshape %rq : !tile.block<4096xi32> -> !tile.block<64x64xi32>
  %qb = tile.splat %q : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %qp = tile.addptr %qb, %iq : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
  %rm = tile.arange 0, 64 : !tile.block<64xi32>
  %mb = tile.splat %m : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %mp = tile.addptr %mb, %rm : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  %m0 = tile.load %mp : !tile.block<64x!tile.ptr<f32>>
  %zero = tile.constant dense<0.0> : !tile.block<128x64xf32>
  %acc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero, %carried = %m0) -> (!tile.block<128x64xf32>, !tile.block<64xf32>) : i32 {
    %qt = tile.load %qp : !tile.block<64x64x!tile.ptr<f16>>
    %mi = tile.load %mp : !tile.block<64x!tile.ptr<f32>>
    %s = tile.dot %kk, %qt, %zero : !tile.block<128x64xf16>, !tile.block<64x64xf16> -> !tile.block<128x64xf32>
    %m2 = tile.expand_dims %mi {axis = 0 : i32} : !tile.block<64xf32> -> !tile.block<1x64xf32>
    %m3 = tile.broadcast %m2 : !tile.block<1x64xf32> -> !tile.block<128x64xf32>
    %d = tile.subf %s, %m3 : !tile.block<128x64xf32>
    %c2 = tile.expand_dims %carried {axis = 0 : i32} : !tile.block<64xf32> -> !tile.block<1x64xf32>
    %c3 = tile.broadcast %c2 : !tile.block<1x64xf32> -> !tile.block<128x64xf32>
    %e = tile.subf %d, %c3 : !tile.block<128x64xf32>
    %eh = tile.cast %e : !tile.block<128x64xf32> to !tile.block<128x64xf16>
    %next = tile.dot %eh, %qt, %sum : !tile.block<128x64xf16>, !tile.block<64x64xf16> -> !tile.block<128x64xf32>
    %mn = tile.load %mp : !tile.block<64x!tile.ptr<f32>>
    scf.yield %next, %mn : !tile.block<128x64xf32>, !tile.block<64xf32>
  }
  %ob = tile.splat %o : !tile.ptr<f32> -> !tile.block<128x64x!tile.ptr<f32>>
  %op = tile.addptr %ob, %ik : !tile.block<128x64x!tile.ptr<f32>>, !tile.block<128x64xi32>
  tile.store %op, %acc#0 : !tile.block<128x64x!tile.ptr<f32>>
  return
}
