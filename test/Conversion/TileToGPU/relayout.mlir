// RUN: tile-opt %s -convert-tile-to-gpu -split-input-file | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: tile-opt %s -convert-tile-to-gpu=chip=sm_80 -split-input-file | FileCheck %s --check-prefixes=CHECK,SM80

// Each test gives its layouts explicitly: the lowering picks the cheapest
// correct path for a conversion or a shape op from the two layouts alone.

#rows = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>
#cols = #tile.blocked<size_per_thread = [4, 1], threads_per_warp = [16, 2], warps = [1, 4], order = [0, 1]>

// Shared memory: a transpose of layouts. Rows are written as 128-bit
// vectors; columns are read back one element at a time, through a swizzle
// (xor of column bits with row bits) that spreads a warp's reads over the
// banks.
// CHECK: llvm.mlir.global external @tile_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: gpu.func @transpose
// CHECK-SAME: tile.shared_bytes = 16384
// CHECK: gpu.barrier
// CHECK-COUNT-8: llvm.store {{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: arith.xori
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
func.func @transpose(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 4 : i32} {
  %i = tile.arange 0, 4096 : !tile.block<4096xi32, #tile.linear<register = [[1], [2], [512], [1024], [2048]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]]>>
  %j = tile.reshape %i : !tile.block<4096xi32, #tile.linear<register = [[1], [2], [512], [1024], [2048]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]]>> -> !tile.block<64x64xi32, #rows>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>, #rows>
  %p = tile.addptr %xb, %j : !tile.block<64x64x!tile.ptr<f32>, #rows>, !tile.block<64x64xi32, #rows>
  %v = tile.load %p : !tile.block<64x64x!tile.ptr<f32>, #rows>
  %t = tile.convert_layout %v : !tile.block<64x64xf32, #rows> -> !tile.block<64x64xf32, #cols>
  %q = tile.convert_layout %p : !tile.block<64x64x!tile.ptr<f32>, #rows> -> !tile.block<64x64x!tile.ptr<f32>, #cols>
  tile.store %q, %t : !tile.block<64x64x!tile.ptr<f32>, #cols>
  return
}

// -----

#pairs = #tile.blocked<size_per_thread = [1, 2], threads_per_warp = [8, 4], warps = [4, 1], order = [1, 0]>
#wide = #tile.blocked<size_per_thread = [1, 8], threads_per_warp = [1, 32], warps = [4, 1], order = [1, 0]>

// Narrow writers, wide readers (an accumulator's pairs read back as
// 16-byte rows for the stores): a warp's pairs lie in 8 rows 512 bytes
// apart, which would share their banks, so the staging is swizzled for the
// writers (column bits from the 16-byte chunk up xored with row bits),
// keeping each reader's 8 elements contiguous. The pairs are stmatrix's
// fragments (lanes 0 and 1 along a 16-byte row, lanes 2..4 its rows,
// registers 1 and 2 four 8x8 matrices): from sm_90 one stmatrix writes
// four words of each lane where sm_80 stores each word; each lane's
// addresses are one per thread and constants (registerOffsets).
// CHECK-LABEL: gpu.func @pairs_to_rows
// CHECK: gpu.barrier
// SM80-COUNT-3: arith.xori
// SM80: llvm.store {{.*}} : vector<2xf16>, !llvm.ptr<3>
// SM90: llvm.bitcast {{.*}} : vector<2xf16> to i32
// SM90: llvm.inline_asm has_side_effects asm_dialect = att "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "r,r,r,r,r"
// SM90-NOT: llvm.store
// CHECK: gpu.barrier
// CHECK: arith.xori
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xf16>
func.func @pairs_to_rows(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 4 : i32} {
  %r_x = tile.arange 0, 64 : !tile.block<64xi32, #tile.slice<dim = 1, parent = #pairs>>
  %c_x = tile.arange 0, 256 : !tile.block<256xi32, #tile.slice<dim = 0, parent = #pairs>>
  %r1_x = tile.expand_dims %r_x {axis = 1 : i32} : !tile.block<64xi32, #tile.slice<dim = 1, parent = #pairs>> -> !tile.block<64x1xi32, #pairs>
  %c1_x = tile.expand_dims %c_x {axis = 0 : i32} : !tile.block<256xi32, #tile.slice<dim = 0, parent = #pairs>> -> !tile.block<1x256xi32, #pairs>
  %k_x = tile.constant dense<256> : !tile.block<64x1xi32, #pairs>
  %rs_x = tile.muli %r1_x, %k_x : !tile.block<64x1xi32, #pairs>
  %rb_x = tile.broadcast %rs_x : !tile.block<64x1xi32, #pairs> -> !tile.block<64x256xi32, #pairs>
  %cb_x = tile.broadcast %c1_x : !tile.block<1x256xi32, #pairs> -> !tile.block<64x256xi32, #pairs>
  %i_x = tile.addi %rb_x, %cb_x : !tile.block<64x256xi32, #pairs>
  %b_x = tile.splat %x : !tile.ptr<f16> -> !tile.block<64x256x!tile.ptr<f16>, #pairs>
  %p_x = tile.addptr %b_x, %i_x : !tile.block<64x256x!tile.ptr<f16>, #pairs>, !tile.block<64x256xi32, #pairs>
  %r_y = tile.arange 0, 64 : !tile.block<64xi32, #tile.slice<dim = 1, parent = #wide>>
  %c_y = tile.arange 0, 256 : !tile.block<256xi32, #tile.slice<dim = 0, parent = #wide>>
  %r1_y = tile.expand_dims %r_y {axis = 1 : i32} : !tile.block<64xi32, #tile.slice<dim = 1, parent = #wide>> -> !tile.block<64x1xi32, #wide>
  %c1_y = tile.expand_dims %c_y {axis = 0 : i32} : !tile.block<256xi32, #tile.slice<dim = 0, parent = #wide>> -> !tile.block<1x256xi32, #wide>
  %k_y = tile.constant dense<256> : !tile.block<64x1xi32, #wide>
  %rs_y = tile.muli %r1_y, %k_y : !tile.block<64x1xi32, #wide>
  %rb_y = tile.broadcast %rs_y : !tile.block<64x1xi32, #wide> -> !tile.block<64x256xi32, #wide>
  %cb_y = tile.broadcast %c1_y : !tile.block<1x256xi32, #wide> -> !tile.block<64x256xi32, #wide>
  %i_y = tile.addi %rb_y, %cb_y : !tile.block<64x256xi32, #wide>
  %b_y = tile.splat %y : !tile.ptr<f16> -> !tile.block<64x256x!tile.ptr<f16>, #wide>
  %p_y = tile.addptr %b_y, %i_y : !tile.block<64x256x!tile.ptr<f16>, #wide>, !tile.block<64x256xi32, #wide>
  %v = tile.load %p_x : !tile.block<64x256x!tile.ptr<f16>, #pairs>
  %w = tile.convert_layout %v : !tile.block<64x256xf16, #pairs> -> !tile.block<64x256xf16, #wide>
  tile.store %p_y, %w : !tile.block<64x256x!tile.ptr<f16>, #wide>
  return
}

// -----

#a = #tile.blocked<size_per_thread = [1, 1], threads_per_warp = [4, 8], warps = [1, 1], order = [1, 0]>
#b = #tile.blocked<size_per_thread = [1, 1], threads_per_warp = [4, 8], warps = [1, 1], order = [0, 1]>

// Warp shuffles: the two layouts place the elements of a 4x8 block on the
// lanes of one warp in different orders; each lane reads its element from
// another lane, no shared memory.
// CHECK-LABEL: gpu.func @lane_permutation
// CHECK-SAME: tile.shared_bytes = 0
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle idx
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @lane_permutation(%x: !tile.ptr<f32>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 4 : !tile.block<4xi32, #tile.slice<dim = 1, parent = #a>>
  %c = tile.arange 0, 8 : !tile.block<8xi32, #tile.slice<dim = 0, parent = #a>>
  %c8 = tile.constant dense<8> : !tile.block<4x1xi32, #a>
  %r2 = tile.expand_dims %r {axis = 1 : i32} : !tile.block<4xi32, #tile.slice<dim = 1, parent = #a>> -> !tile.block<4x1xi32, #a>
  %r3 = tile.muli %r2, %c8 : !tile.block<4x1xi32, #a>
  %r4 = tile.broadcast %r3 : !tile.block<4x1xi32, #a> -> !tile.block<4x8xi32, #a>
  %c2 = tile.expand_dims %c {axis = 0 : i32} : !tile.block<8xi32, #tile.slice<dim = 0, parent = #a>> -> !tile.block<1x8xi32, #a>
  %c3 = tile.broadcast %c2 : !tile.block<1x8xi32, #a> -> !tile.block<4x8xi32, #a>
  %offs = tile.addi %r4, %c3 : !tile.block<4x8xi32, #a>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<4x8x!tile.ptr<f32>, #a>
  %p = tile.addptr %xb, %offs : !tile.block<4x8x!tile.ptr<f32>, #a>, !tile.block<4x8xi32, #a>
  %v = tile.load %p : !tile.block<4x8x!tile.ptr<f32>, #a>
  %w = tile.convert_layout %v : !tile.block<4x8xf32, #a> -> !tile.block<4x8xf32, #b>
  %q = tile.convert_layout %p : !tile.block<4x8x!tile.ptr<f32>, #a> -> !tile.block<4x8x!tile.ptr<f32>, #b>
  tile.store %q, %w : !tile.block<4x8x!tile.ptr<f32>, #b>
  return
}

// -----

#p = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>
#pt = #tile.blocked<size_per_thread = [4, 1], threads_per_warp = [16, 2], warps = [1, 4], order = [0, 1]>

// Renaming registers: expand_dims of a slice gives its parent, broadcast
// keeps the layout, trans permutes it: no element changes threads, so
// nothing is emitted for them.
// CHECK-LABEL: gpu.func @free_shape_ops
// CHECK-SAME: tile.shared_bytes = 0
// CHECK-NOT: gpu.barrier
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
func.func @free_shape_ops(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 64 : !tile.block<64xi32, #tile.slice<dim = 1, parent = #p>>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #p>>
  %xp = tile.addptr %xb, %r : !tile.block<64x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #p>>, !tile.block<64xi32, #tile.slice<dim = 1, parent = #p>>
  %v = tile.load %xp : !tile.block<64x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #p>>
  %e = tile.expand_dims %v {axis = 1 : i32} : !tile.block<64xf32, #tile.slice<dim = 1, parent = #p>> -> !tile.block<64x1xf32, #p>
  %b = tile.broadcast %e : !tile.block<64x1xf32, #p> -> !tile.block<64x64xf32, #p>
  %t = tile.trans %b : !tile.block<64x64xf32, #p> -> !tile.block<64x64xf32, #pt>
  %i = tile.arange 0, 64 : !tile.block<64xi32, #tile.slice<dim = 1, parent = #pt>>
  %i2 = tile.expand_dims %i {axis = 1 : i32} : !tile.block<64xi32, #tile.slice<dim = 1, parent = #pt>> -> !tile.block<64x1xi32, #pt>
  %i3 = tile.broadcast %i2 : !tile.block<64x1xi32, #pt> -> !tile.block<64x64xi32, #pt>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>, #pt>
  %yp = tile.addptr %yb, %i3 : !tile.block<64x64x!tile.ptr<f32>, #pt>, !tile.block<64x64xi32, #pt>
  tile.store %yp, %t : !tile.block<64x64x!tile.ptr<f32>, #pt>
  return
}

// -----

#q = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>
#flat = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>

// A shape op whose result layout does not line up with its operand's moves
// the data through shared memory: here a broadcast of loaded data from a
// 1-D layout that is not the slice of the result's.
// CHECK-LABEL: gpu.func @broadcast_data
// CHECK-SAME: tile.shared_bytes = 256
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
func.func @broadcast_data(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 64 : !tile.block<64xi32, #flat>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>, #flat>
  %xp = tile.addptr %xb, %r : !tile.block<64x!tile.ptr<f32>, #flat>, !tile.block<64xi32, #flat>
  %v = tile.load %xp : !tile.block<64x!tile.ptr<f32>, #flat>
  %e = tile.reshape %v : !tile.block<64xf32, #flat> -> !tile.block<64x1xf32, #q>
  %b = tile.broadcast %e : !tile.block<64x1xf32, #q> -> !tile.block<64x64xf32, #q>
  %i = tile.arange 0, 4096 : !tile.block<4096xi32, #tile.linear<register = [[1], [2], [512], [1024], [2048]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]]>>
  %j = tile.reshape %i : !tile.block<4096xi32, #tile.linear<register = [[1], [2], [512], [1024], [2048]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]]>> -> !tile.block<64x64xi32, #q>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>, #q>
  %yp = tile.addptr %yb, %j : !tile.block<64x64x!tile.ptr<f32>, #q>, !tile.block<64x64xi32, #q>
  tile.store %yp, %b : !tile.block<64x64x!tile.ptr<f32>, #q>
  return
}
