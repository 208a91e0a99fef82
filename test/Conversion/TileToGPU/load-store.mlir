// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @tile_kernels
// CHECK: gpu.func @masked_add(%{{.*}}: !llvm.ptr<1> {tile.divisibility = 16 : i32}, %{{.*}}: !llvm.ptr<1> {tile.divisibility = 16 : i32}, %{{.*}}: i32 {tile.divisibility = 16 : i32}) kernel
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK-SAME: tile.num_warps = 4 : i32, tile.shared_bytes = 0 : i32, tile.threads = 128 : i32
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// Masked 128-bit loads keep `other` where the mask is off.
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.b32 $0, $6;{{.*}}@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b,r,r,r,r"
// CHECK: arith.addf
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$0 st.global.v4.b32 [$1], {$2, $3, $4, $5};", "b,l,r,r,r,r"
// CHECK: gpu.return
func.func @masked_add(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id 0 : i32
  %c512 = arith.constant 512 : i32
  %start = arith.muli %pid, %c512 : i32
  %r = tile.arange 0, 512 : !tile.block<512xi32>
  %s = tile.splat %start : i32 -> !tile.block<512xi32>
  %offs = tile.addi %s, %r : !tile.block<512xi32>
  %nb = tile.splat %n : i32 -> !tile.block<512xi32>
  %m = tile.cmpi slt, %offs, %nb : !tile.block<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  %zero = tile.constant dense<0.0> : !tile.block<512xf32>
  %v = tile.load %p mask %m other %zero : !tile.block<512x!tile.ptr<f32>>
  %w = tile.addf %v, %v : !tile.block<512xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %q = tile.addptr %ob, %offs : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  tile.store %q, %w mask %m : !tile.block<512x!tile.ptr<f32>>
  return
}

// -----

// Unmasked aligned accesses are plain vector loads and stores.
// CHECK-LABEL: gpu.func @unmasked
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @unmasked(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 512 : !tile.block<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  %v = tile.load %p : !tile.block<512x!tile.ptr<f32>>
  tile.store %p, %v : !tile.block<512x!tile.ptr<f32>>
  return
}

// -----

// A block of pointers picked by a scalar condition (canonicalization's form
// of `p = p2 if n > 0 else p1`; the loop pipeliner's prologue makes the
// same) is one select per register; it used to be taken for an index
// function, which has no per-element select, and crashed the lowering.
// CHECK-LABEL: gpu.func @select_pointers
// CHECK: %[[P:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr<1>
// CHECK: llvm.inline_asm {{.*}} ld.global{{.*}} %[[P]]
func.func @select_pointers(%a: !tile.ptr<f16>, %o: !tile.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<256x!tile.ptr<f16>>
  %p1 = tile.addptr %ab, %r : !tile.block<256x!tile.ptr<f16>>, !tile.block<256xi32>
  %p2 = tile.addptr %p1, %r : !tile.block<256x!tile.ptr<f16>>, !tile.block<256xi32>
  %c = arith.cmpi sgt, %n, %c0 : i32
  %s = arith.select %c, %p2, %p1 : !tile.block<256x!tile.ptr<f16>>
  %m = tile.splat %c : i1 -> !tile.block<256xi1>
  %v = tile.load %s mask %m : !tile.block<256x!tile.ptr<f16>>
  %ob = tile.splat %o : !tile.ptr<f16> -> !tile.block<256x!tile.ptr<f16>>
  %op = tile.addptr %ob, %r : !tile.block<256x!tile.ptr<f16>>, !tile.block<256xi32>
  tile.store %op, %v : !tile.block<256x!tile.ptr<f16>>
  return
}

// -----

// A mask constant over aligned runs of 16 rows (`row < n`, n % 16 == 0) is
// computed once per run: each thread holds 8 rows, bits 3..5 of the row from
// its registers, so rows r and r + 8 share one comparison (Triton shares
// its predicates so too).
// CHECK-LABEL: gpu.func @mask_runs
// CHECK-COUNT-4: arith.cmpi slt
// CHECK-NOT: arith.cmpi slt
// CHECK: gpu.return
func.func @mask_runs(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %rows = tile.arange 0, 64 : !tile.block<64xi32>
  %r2 = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %ns = tile.splat %n : i32 -> !tile.block<64x1xi32>
  %m = tile.cmpi slt, %r2, %ns : !tile.block<64x1xi32>
  %mb = tile.broadcast %m : !tile.block<64x1xi1> -> !tile.block<64x64xi1>
  %c64 = tile.constant dense<64> : !tile.block<64x1xi32>
  %ro = tile.muli %r2, %c64 : !tile.block<64x1xi32>
  %rb = tile.broadcast %ro : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
  %cols = tile.arange 0, 64 : !tile.block<64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %cb = tile.broadcast %c2 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %off = tile.addi %rb, %cb : !tile.block<64x64xi32>
  %pb = tile.splat %p : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %pp = tile.addptr %pb, %off : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %v = tile.load %pp mask %mb : !tile.block<64x64x!tile.ptr<f32>>
  %qb = tile.splat %q : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %qp = tile.addptr %qb, %off : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  tile.store %qp, %v mask %mb : !tile.block<64x64x!tile.ptr<f32>>
  return
}
