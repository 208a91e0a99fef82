// RUN: tile-opt %s -tile-assign-layouts="chip=sm_80 num-warps=4" | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-translate --tile-to-ptx --chip=sm_80 --num-warps=4 %s | FileCheck %s --check-prefix=PTX
// RUN: tile-translate --tile-to-ptx --chip=sm_90a --num-warps=4 %s | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ tile-translate --tile-to-ptx --chip=sm_80 --num-warps=4 %s -o %t80.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t80.ptx -o %t80.o %}
// RUN: %if ptxas %{ tile-translate --tile-to-ptx --chip=sm_90a --num-warps=4 %s -o %t90.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t90.ptx -o %t90.o %}

// f16 and bf16 dots on mma.sync (m16n8k16, f32 sums): on every chip for
// tiles wgmma does not take (below 64 rows here, so on sm_90a too). The
// accumulator layout is #tile.mma version 2, the warps over the 16 x 8
// tiles (rows first). Both operands are staged in shared memory in the
// tensor cores' swizzled form; each warp reads its A fragments with one
// ldmatrix.x4 per 16 x 16 tile and its B fragments with an ldmatrix.x2 per
// 16 x 8 tile, transposed (.trans) where the stored matrix does not run
// along K: @mma_f16's B is row-major (N contiguous), @mma_bf16_kmajor's A
// runs along M and its B along K.
// LAYOUT-DAG: #[[MMA:mma[0-9]*]] = #tile.mma<version = 2, warps = [2, 2], instr = [16, 8, 16]>
// LAYOUT-DAG: #[[MMA_TF32:mma[0-9]*]] = #tile.mma<version = 2, warps = [2, 2], instr = [16, 8, 8]>
// LAYOUT-DAG: #[[MMA_INT8:mma[0-9]*]] = #tile.mma<version = 2, warps = [2, 2], instr = [16, 8, 32]>
// LAYOUT-LABEL: func.func @mma_f16
// LAYOUT: tile.dot {{.*}} -> !tile.block<32x32xf32, #[[MMA]]>
// LAYOUT-LABEL: func.func @mma_bf16_kmajor
// LAYOUT: tile.dot {{.*}} -> !tile.block<32x64xf32, #[[MMA]]>

// f32 operands read as tf32 run on m16n8k8 and int8 ones on m16n8k32 (s32
// sums): ldmatrix moves 16-bit elements only, so both operands are stored
// K-major (A row-major, B transposed) and read without .trans, each 32-bit
// word one tf32 element or four int8 ones along K. An f32 dot without
// {tf32} (input_precision="ieee") keeps the exact FMA dot.
// LAYOUT-LABEL: func.func @mma_tf32
// LAYOUT: tile.dot {{.*}} {tf32} {{.*}} -> !tile.block<32x32xf32, #[[MMA_TF32]]>
// LAYOUT-LABEL: func.func @fma_f32_ieee
// LAYOUT: tile.dot {{.*}} -> !tile.block<32x32xf32, #blocked{{[0-9]*}}>
// LAYOUT-LABEL: func.func @mma_int8
// LAYOUT: tile.dot {{.*}} -> !tile.block<32x32xi32, #[[MMA_INT8]]>

// B's fragments of two 8-column tiles side by side come from one ldmatrix
// x4; a last odd tile (mma_f16_narrow) from an x2.
// PTX-LABEL: .entry mma_f16(
// PTX-NOT: wgmma
// PTX: bar.sync
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: .entry mma_f16_narrow(
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: .entry mma_bf16_kmajor(
// PTX-NOT: wgmma
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: .entry mma_tf32(
// PTX-NOT: .trans
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX-LABEL: .entry fma_f32_ieee(
// PTX-NOT: mma.sync
// PTX: fma.rn.f32
// PTX-LABEL: .entry mma_int8(
// PTX-NOT: .trans
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32

func.func @mma_f16(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.constant dense<32> : !tile.block<32x1xi32>
  %1 = tile.constant dense<0.000000e+00> : !tile.block<32x32xf32>
  %2 = tile.arange 0, 32 : !tile.block<32xi32>
  %3 = tile.expand_dims %2 {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %4 = tile.muli %3, %0 : !tile.block<32x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<f16> -> !tile.block<32x1x!tile.ptr<f16>>
  %6 = tile.addptr %5, %4 : !tile.block<32x1x!tile.ptr<f16>>, !tile.block<32x1xi32>
  %7 = tile.expand_dims %2 {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
  %8 = tile.broadcast %6 : !tile.block<32x1x!tile.ptr<f16>> -> !tile.block<32x32x!tile.ptr<f16>>
  %9 = tile.broadcast %7 : !tile.block<1x32xi32> -> !tile.block<32x32xi32>
  %10 = tile.addptr %8, %9 : !tile.block<32x32x!tile.ptr<f16>>, !tile.block<32x32xi32>
  %11 = tile.load %10 : !tile.block<32x32x!tile.ptr<f16>>
  %12 = tile.splat %arg1 : !tile.ptr<f16> -> !tile.block<32x1x!tile.ptr<f16>>
  %13 = tile.addptr %12, %4 : !tile.block<32x1x!tile.ptr<f16>>, !tile.block<32x1xi32>
  %14 = tile.broadcast %13 : !tile.block<32x1x!tile.ptr<f16>> -> !tile.block<32x32x!tile.ptr<f16>>
  %15 = tile.addptr %14, %9 : !tile.block<32x32x!tile.ptr<f16>>, !tile.block<32x32xi32>
  %16 = tile.load %15 : !tile.block<32x32x!tile.ptr<f16>>
  %17 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %18 = tile.addptr %17, %4 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %19 = tile.broadcast %18 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x32x!tile.ptr<f32>>
  %20 = tile.addptr %19, %9 : !tile.block<32x32x!tile.ptr<f32>>, !tile.block<32x32xi32>
  %21 = tile.dot %11, %16, %1 : !tile.block<32x32xf16>, !tile.block<32x32xf16> -> !tile.block<32x32xf32>
  tile.store %20, %21 : !tile.block<32x32x!tile.ptr<f32>>
  return
}

func.func @mma_f16_narrow(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %i = tile.arange 0, 1024 : !tile.block<1024xi32>
  %ia = tile.reshape %i : !tile.block<1024xi32> -> !tile.block<32x32xi32>
  %sa = tile.splat %a : !tile.ptr<f16> -> !tile.block<32x32x!tile.ptr<f16>>
  %pa = tile.addptr %sa, %ia : !tile.block<32x32x!tile.ptr<f16>>, !tile.block<32x32xi32>
  %va = tile.load %pa : !tile.block<32x32x!tile.ptr<f16>>
  %j = tile.arange 0, 512 : !tile.block<512xi32>
  %jb = tile.reshape %j : !tile.block<512xi32> -> !tile.block<32x16xi32>
  %sb = tile.splat %b : !tile.ptr<f16> -> !tile.block<32x16x!tile.ptr<f16>>
  %pb = tile.addptr %sb, %jb : !tile.block<32x16x!tile.ptr<f16>>, !tile.block<32x16xi32>
  %vb = tile.load %pb : !tile.block<32x16x!tile.ptr<f16>>
  %zero = tile.constant dense<0.000000e+00> : !tile.block<32x16xf32>
  %d = tile.dot %va, %vb, %zero : !tile.block<32x32xf16>, !tile.block<32x16xf16> -> !tile.block<32x16xf32>
  %sc = tile.splat %c : !tile.ptr<f32> -> !tile.block<32x16x!tile.ptr<f32>>
  %pc = tile.addptr %sc, %jb : !tile.block<32x16x!tile.ptr<f32>>, !tile.block<32x16xi32>
  tile.store %pc, %d : !tile.block<32x16x!tile.ptr<f32>>
  return
}

func.func @mma_bf16_kmajor(%arg0: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.constant dense<64> : !tile.block<32x1xi32>
  %1 = tile.constant dense<32> : !tile.block<1x64xi32>
  %2 = tile.constant dense<32> : !tile.block<1x32xi32>
  %3 = tile.constant dense<1.000000e+00> : !tile.block<32x64xf32>
  %4 = tile.arange 0, 32 : !tile.block<32xi32>
  %5 = tile.arange 0, 64 : !tile.block<64xi32>
  %6 = tile.expand_dims %4 {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %7 = tile.splat %arg0 : !tile.ptr<bf16> -> !tile.block<32x1x!tile.ptr<bf16>>
  %8 = tile.addptr %7, %6 : !tile.block<32x1x!tile.ptr<bf16>>, !tile.block<32x1xi32>
  %9 = tile.expand_dims %4 {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
  %10 = tile.muli %9, %2 : !tile.block<1x32xi32>
  %11 = tile.broadcast %8 : !tile.block<32x1x!tile.ptr<bf16>> -> !tile.block<32x32x!tile.ptr<bf16>>
  %12 = tile.broadcast %10 : !tile.block<1x32xi32> -> !tile.block<32x32xi32>
  %13 = tile.addptr %11, %12 : !tile.block<32x32x!tile.ptr<bf16>>, !tile.block<32x32xi32>
  %14 = tile.load %13 : !tile.block<32x32x!tile.ptr<bf16>>
  %15 = tile.splat %arg1 : !tile.ptr<bf16> -> !tile.block<32x1x!tile.ptr<bf16>>
  %16 = tile.addptr %15, %6 : !tile.block<32x1x!tile.ptr<bf16>>, !tile.block<32x1xi32>
  %17 = tile.expand_dims %5 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %18 = tile.muli %17, %1 : !tile.block<1x64xi32>
  %19 = tile.broadcast %16 : !tile.block<32x1x!tile.ptr<bf16>> -> !tile.block<32x64x!tile.ptr<bf16>>
  %20 = tile.broadcast %18 : !tile.block<1x64xi32> -> !tile.block<32x64xi32>
  %21 = tile.addptr %19, %20 : !tile.block<32x64x!tile.ptr<bf16>>, !tile.block<32x64xi32>
  %22 = tile.load %21 : !tile.block<32x64x!tile.ptr<bf16>>
  %23 = tile.muli %6, %0 : !tile.block<32x1xi32>
  %24 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %25 = tile.addptr %24, %23 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %26 = tile.broadcast %25 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x64x!tile.ptr<f32>>
  %27 = tile.broadcast %17 : !tile.block<1x64xi32> -> !tile.block<32x64xi32>
  %28 = tile.addptr %26, %27 : !tile.block<32x64x!tile.ptr<f32>>, !tile.block<32x64xi32>
  %29 = tile.dot %14, %22, %3 : !tile.block<32x32xbf16>, !tile.block<32x64xbf16> -> !tile.block<32x64xf32>
  tile.store %28, %29 : !tile.block<32x64x!tile.ptr<f32>>
  return
}

func.func @mma_tf32(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.constant dense<32> : !tile.block<32x1xi32>
  %1 = tile.constant dense<0.000000e+00> : !tile.block<32x32xf32>
  %2 = tile.arange 0, 32 : !tile.block<32xi32>
  %3 = tile.expand_dims %2 {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %4 = tile.muli %3, %0 : !tile.block<32x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %6 = tile.addptr %5, %4 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %7 = tile.expand_dims %2 {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
  %8 = tile.broadcast %6 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x32x!tile.ptr<f32>>
  %9 = tile.broadcast %7 : !tile.block<1x32xi32> -> !tile.block<32x32xi32>
  %10 = tile.addptr %8, %9 : !tile.block<32x32x!tile.ptr<f32>>, !tile.block<32x32xi32>
  %11 = tile.load %10 : !tile.block<32x32x!tile.ptr<f32>>
  %12 = tile.splat %arg1 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %13 = tile.addptr %12, %4 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %14 = tile.broadcast %13 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x32x!tile.ptr<f32>>
  %15 = tile.addptr %14, %9 : !tile.block<32x32x!tile.ptr<f32>>, !tile.block<32x32xi32>
  %16 = tile.load %15 : !tile.block<32x32x!tile.ptr<f32>>
  %17 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %18 = tile.addptr %17, %4 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %19 = tile.broadcast %18 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x32x!tile.ptr<f32>>
  %20 = tile.addptr %19, %9 : !tile.block<32x32x!tile.ptr<f32>>, !tile.block<32x32xi32>
  %21 = tile.dot %11, %16, %1 {tf32} : !tile.block<32x32xf32>, !tile.block<32x32xf32> -> !tile.block<32x32xf32>
  tile.store %20, %21 : !tile.block<32x32x!tile.ptr<f32>>
  return
}

func.func @fma_f32_ieee(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.constant dense<32> : !tile.block<32x1xi32>
  %1 = tile.constant dense<0.000000e+00> : !tile.block<32x32xf32>
  %2 = tile.arange 0, 32 : !tile.block<32xi32>
  %3 = tile.expand_dims %2 {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %4 = tile.muli %3, %0 : !tile.block<32x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %6 = tile.addptr %5, %4 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %7 = tile.expand_dims %2 {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
  %8 = tile.broadcast %6 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x32x!tile.ptr<f32>>
  %9 = tile.broadcast %7 : !tile.block<1x32xi32> -> !tile.block<32x32xi32>
  %10 = tile.addptr %8, %9 : !tile.block<32x32x!tile.ptr<f32>>, !tile.block<32x32xi32>
  %11 = tile.load %10 : !tile.block<32x32x!tile.ptr<f32>>
  %12 = tile.splat %arg1 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %13 = tile.addptr %12, %4 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %14 = tile.broadcast %13 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x32x!tile.ptr<f32>>
  %15 = tile.addptr %14, %9 : !tile.block<32x32x!tile.ptr<f32>>, !tile.block<32x32xi32>
  %16 = tile.load %15 : !tile.block<32x32x!tile.ptr<f32>>
  %17 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %18 = tile.addptr %17, %4 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %19 = tile.broadcast %18 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x32x!tile.ptr<f32>>
  %20 = tile.addptr %19, %9 : !tile.block<32x32x!tile.ptr<f32>>, !tile.block<32x32xi32>
  %21 = tile.dot %11, %16, %1 : !tile.block<32x32xf32>, !tile.block<32x32xf32> -> !tile.block<32x32xf32>
  tile.store %20, %21 : !tile.block<32x32x!tile.ptr<f32>>
  return
}

func.func @mma_int8(%arg0: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %0 = tile.constant dense<32> : !tile.block<32x1xi32>
  %1 = tile.constant dense<0> : !tile.block<32x32xi32>
  %2 = tile.arange 0, 32 : !tile.block<32xi32>
  %3 = tile.expand_dims %2 {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %4 = tile.muli %3, %0 : !tile.block<32x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<i8> -> !tile.block<32x1x!tile.ptr<i8>>
  %6 = tile.addptr %5, %4 : !tile.block<32x1x!tile.ptr<i8>>, !tile.block<32x1xi32>
  %7 = tile.expand_dims %2 {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
  %8 = tile.broadcast %6 : !tile.block<32x1x!tile.ptr<i8>> -> !tile.block<32x32x!tile.ptr<i8>>
  %9 = tile.broadcast %7 : !tile.block<1x32xi32> -> !tile.block<32x32xi32>
  %10 = tile.addptr %8, %9 : !tile.block<32x32x!tile.ptr<i8>>, !tile.block<32x32xi32>
  %11 = tile.load %10 : !tile.block<32x32x!tile.ptr<i8>>
  %12 = tile.splat %arg1 : !tile.ptr<i8> -> !tile.block<32x1x!tile.ptr<i8>>
  %13 = tile.addptr %12, %4 : !tile.block<32x1x!tile.ptr<i8>>, !tile.block<32x1xi32>
  %14 = tile.broadcast %13 : !tile.block<32x1x!tile.ptr<i8>> -> !tile.block<32x32x!tile.ptr<i8>>
  %15 = tile.addptr %14, %9 : !tile.block<32x32x!tile.ptr<i8>>, !tile.block<32x32xi32>
  %16 = tile.load %15 : !tile.block<32x32x!tile.ptr<i8>>
  %17 = tile.splat %arg2 : !tile.ptr<i32> -> !tile.block<32x1x!tile.ptr<i32>>
  %18 = tile.addptr %17, %4 : !tile.block<32x1x!tile.ptr<i32>>, !tile.block<32x1xi32>
  %19 = tile.broadcast %18 : !tile.block<32x1x!tile.ptr<i32>> -> !tile.block<32x32x!tile.ptr<i32>>
  %20 = tile.addptr %19, %9 : !tile.block<32x32x!tile.ptr<i32>>, !tile.block<32x32xi32>
  %21 = tile.dot %11, %16, %1 : !tile.block<32x32xi8>, !tile.block<32x32xi8> -> !tile.block<32x32xi32>
  tile.store %20, %21 : !tile.block<32x32x!tile.ptr<i32>>
  return
}
