// RUN: tile-opt %s -tile-pipeline-loops=num-stages=3 -tile-assign-layouts="chip=sm_90a num-warps=4" -tile-async-dot-operands | FileCheck %s --check-prefix=RING
// RUN: tile-translate --tile-to-ptx --chip=sm_90a --num-warps=4 --num-stages=3 %s | FileCheck %s --check-prefix=PTX
// RUN: tile-translate --tile-to-ptx --chip=sm_90 --num-warps=4 %s | FileCheck %s --check-prefix=MMASYNC
// RUN: %if ptxas %{ tile-translate --tile-to-ptx --chip=sm_90a --num-warps=4 --num-stages=3 %s -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.o %}

// The wgmma forms that read their operands K-major only, without the
// transpose immediates of the 16-bit forms: 8-bit floats (m64nNk32, each
// operand its own type, e4m3 times e5m2 here) and f32 read as tf32
// (m64nNk8, where the dot says `tf32`), and i8 (m64nNk32 in s32, without
// the float forms' scale immediates). @fp8_ring's and @tf32_ring's operands
// come K-major from global memory (A and B with K contiguous): the pipelined
// loop copies them into rings with 16-byte cp.async. @fp8_regs' B has its
// addresses contiguous along N: it is loaded a byte at a time (still
// coalesced: the lanes run along N) into the K-run layout, 16 elements of K
// per thread, which the dot stores K-major with one 16-byte store per run;
// @int8_ring and @int8_regs are the same kernels in i8. Without
// wgmma (sm_90) they run on mma.sync: 8-bit floats widened to f16 exactly
// (m16n8k16), tf32 on m16n8k8, i8 on m16n8k32; @ieee's f32 dot (no `tf32`)
// stays exact FMA on every chip.

// RING: #[[KMAJOR:.*]] = #tile.linear<register = {{\[\[1, 0\], \[2, 0\], \[4, 0\], \[8, 0\], \[0, 32\]\]}}, lane = {{\[\[0, 1\], \[0, 2\], \[0, 4\], \[0, 8\], \[0, 16\]\]}}, warp = {{\[\[16, 0\], \[32, 0\]\]}}>
// RING: #[[MMA:.*]] = #tile.mma<version = 3, warps = [4, 1], instr = [16, 64, 32]>
// RING-LABEL: func.func @fp8_ring
// RING-DAG: tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf8E4M3FN>>
// RING-DAG: tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf8E5M2>>
// RING: tile.ring_dot {{.*}}!tile.ring<3, !tile.block<64x64xf8E4M3FN>>{{.*}}!tile.ring<3, !tile.block<64x64xf8E5M2>>
// RING-LABEL: func.func @fp8_regs
// RING: tile.dot {{.*}} : !tile.block<64x64xf8E5M2, {{.*}}>, !tile.block<64x64xf8E5M2, #[[KMAJOR]]> -> !tile.block<64x64xf32, #[[MMA]]>
// RING-LABEL: func.func @tf32_ring
// RING-DAG: tile.ring_alloc : !tile.ring<3, !tile.block<64x32xf32>>
// RING-DAG: tile.ring_alloc : !tile.ring<3, !tile.block<32x64xf32>>
// RING: tile.ring_dot {{.*}} -> !tile.block<64x64xf32, #[[TF32:.*]]>
// RING-LABEL: func.func @ieee
// RING: tile.dot {{.*}} -> !tile.block<64x64xf32, #{{blocked|linear}}
// RING-LABEL: func.func @int8_ring
// RING-DAG: tile.ring_alloc : !tile.ring<3, !tile.block<64x64xi8>>
// RING: tile.ring_dot {{.*}}!tile.ring<3, !tile.block<64x64xi8>>{{.*}}!tile.ring<3, !tile.block<64x64xi8>>{{.*}} -> !tile.block<64x64xi32, #[[MMA]]>
// RING-LABEL: func.func @int8_regs
// RING: tile.dot {{.*}} : !tile.block<64x64xi8, {{.*}}>, !tile.block<64x64xi8, #[[KMAJOR]]> -> !tile.block<64x64xi32, #[[MMA]]>

// PTX-LABEL: .entry fp8_ring(
// One warpgroup holds the whole block: no warp index in its descriptors
// (ptxas cannot tell that a shuffled warp index is below 4, and a
// descriptor made from it leaves the uniform registers).
// PTX-NOT: shfl.sync.idx
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// PTX: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 {{.*}}, p, 1, 1;
// PTX-LABEL: .entry fp8_regs(
// PTX: ld.global.b8
// PTX-NOT: st.shared.b8
// PTX: st.shared.v4.b32
// PTX: wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2 {{.*}}, p, 1, 1;
// PTX-LABEL: .entry tf32_ring(
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1;
// PTX-LABEL: .entry ieee(
// PTX-NOT: wgmma
// PTX: fma.rn.f32
// PTX-LABEL: .entry int8_ring(
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// PTX: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {{.*}}, p;
// PTX-LABEL: .entry int8_regs(
// PTX: ld.global.b8
// PTX-NOT: st.shared.b8
// PTX: st.shared.v4.b32
// PTX: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {{.*}}, p;

// MMASYNC-NOT: wgmma
// MMASYNC-LABEL: .entry fp8_ring(
// MMASYNC: cvt.rn.f16x2.e4m3x2
// MMASYNC: cvt.rn.f16x2.e5m2x2
// MMASYNC: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MMASYNC-LABEL: .entry tf32_ring(
// MMASYNC: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// MMASYNC-LABEL: .entry ieee(
// MMASYNC-NOT: mma.sync
// MMASYNC: fma.rn.f32
// MMASYNC-LABEL: .entry int8_ring(
// MMASYNC: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32

func.func @fp8_ring(%arg0: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32 {tile.divisibility = 16 : i32}) {
  %0 = tile.arange 0, 64 : !tile.block<64xi32>
  %1 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %2 = tile.splat %arg3 : i32 -> !tile.block<64x1xi32>
  %3 = tile.muli %1, %2 : !tile.block<64x1xi32>
  %4 = tile.splat %arg0 : !tile.ptr<f8E4M3FN> -> !tile.block<64x1x!tile.ptr<f8E4M3FN>>
  %5 = tile.addptr %4, %3 : !tile.block<64x1x!tile.ptr<f8E4M3FN>>, !tile.block<64x1xi32>
  %6 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %7 = tile.broadcast %5 : !tile.block<64x1x!tile.ptr<f8E4M3FN>> -> !tile.block<64x64x!tile.ptr<f8E4M3FN>>
  %8 = tile.broadcast %6 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %9 = tile.addptr %7, %8 : !tile.block<64x64x!tile.ptr<f8E4M3FN>>, !tile.block<64x64xi32>
  %10 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %11 = tile.splat %arg1 : !tile.ptr<f8E5M2> -> !tile.block<64x1x!tile.ptr<f8E5M2>>
  %12 = tile.addptr %11, %10 : !tile.block<64x1x!tile.ptr<f8E5M2>>, !tile.block<64x1xi32>
  %13 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %14 = tile.splat %arg3 : i32 -> !tile.block<1x64xi32>
  %15 = tile.muli %13, %14 : !tile.block<1x64xi32>
  %16 = tile.broadcast %12 : !tile.block<64x1x!tile.ptr<f8E5M2>> -> !tile.block<64x64x!tile.ptr<f8E5M2>>
  %17 = tile.broadcast %15 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %18 = tile.addptr %16, %17 : !tile.block<64x64x!tile.ptr<f8E5M2>>, !tile.block<64x64xi32>
  %19 = tile.constant dense<0.0> : !tile.block<64x64xf32>
  %20 = arith.constant 0 : i32
  %21 = arith.constant 64 : i32
  %35:3 = scf.for %22 = %20 to %arg3 step %21 iter_args(%23 = %9, %24 = %18, %25 = %19) -> (!tile.block<64x64x!tile.ptr<f8E4M3FN>>, !tile.block<64x64x!tile.ptr<f8E5M2>>, !tile.block<64x64xf32>) : i32 {
    %26 = tile.load %23 : !tile.block<64x64x!tile.ptr<f8E4M3FN>>
    %27 = tile.load %24 : !tile.block<64x64x!tile.ptr<f8E5M2>>
    %28 = tile.dot %26, %27, %25 : !tile.block<64x64xf8E4M3FN>, !tile.block<64x64xf8E5M2> -> !tile.block<64x64xf32>
    %29 = arith.constant 64 : i32
    %30 = tile.splat %29 : i32 -> !tile.block<64x64xi32>
    %31 = tile.addptr %23, %30 : !tile.block<64x64x!tile.ptr<f8E4M3FN>>, !tile.block<64x64xi32>
    %32 = arith.constant 64 : i32
    %33 = tile.splat %32 : i32 -> !tile.block<64x64xi32>
    %34 = tile.addptr %24, %33 : !tile.block<64x64x!tile.ptr<f8E5M2>>, !tile.block<64x64xi32>
    scf.yield %31, %34, %28 : !tile.block<64x64x!tile.ptr<f8E4M3FN>>, !tile.block<64x64x!tile.ptr<f8E5M2>>, !tile.block<64x64xf32>
  }
  %36 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %37 = arith.constant 64 : i32
  %38 = tile.splat %37 : i32 -> !tile.block<64x1xi32>
  %39 = tile.muli %36, %38 : !tile.block<64x1xi32>
  %40 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<64x1x!tile.ptr<f32>>
  %41 = tile.addptr %40, %39 : !tile.block<64x1x!tile.ptr<f32>>, !tile.block<64x1xi32>
  %42 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %43 = tile.broadcast %41 : !tile.block<64x1x!tile.ptr<f32>> -> !tile.block<64x64x!tile.ptr<f32>>
  %44 = tile.broadcast %42 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %45 = tile.addptr %43, %44 : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  tile.store %45, %35#2 : !tile.block<64x64x!tile.ptr<f32>>
  return
}

func.func @fp8_regs(%arg0: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.arange 0, 64 : !tile.block<64xi32>
  %1 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %2 = arith.constant 64 : i32
  %3 = tile.splat %2 : i32 -> !tile.block<64x1xi32>
  %4 = tile.muli %1, %3 : !tile.block<64x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<f8E5M2> -> !tile.block<64x1x!tile.ptr<f8E5M2>>
  %6 = tile.addptr %5, %4 : !tile.block<64x1x!tile.ptr<f8E5M2>>, !tile.block<64x1xi32>
  %7 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %8 = tile.broadcast %6 : !tile.block<64x1x!tile.ptr<f8E5M2>> -> !tile.block<64x64x!tile.ptr<f8E5M2>>
  %9 = tile.broadcast %7 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %10 = tile.addptr %8, %9 : !tile.block<64x64x!tile.ptr<f8E5M2>>, !tile.block<64x64xi32>
  %11 = tile.load %10 : !tile.block<64x64x!tile.ptr<f8E5M2>>
  %12 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %13 = arith.constant 64 : i32
  %14 = tile.splat %13 : i32 -> !tile.block<64x1xi32>
  %15 = tile.muli %12, %14 : !tile.block<64x1xi32>
  %16 = tile.splat %arg1 : !tile.ptr<f8E5M2> -> !tile.block<64x1x!tile.ptr<f8E5M2>>
  %17 = tile.addptr %16, %15 : !tile.block<64x1x!tile.ptr<f8E5M2>>, !tile.block<64x1xi32>
  %18 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %19 = tile.broadcast %17 : !tile.block<64x1x!tile.ptr<f8E5M2>> -> !tile.block<64x64x!tile.ptr<f8E5M2>>
  %20 = tile.broadcast %18 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %21 = tile.addptr %19, %20 : !tile.block<64x64x!tile.ptr<f8E5M2>>, !tile.block<64x64xi32>
  %22 = tile.load %21 : !tile.block<64x64x!tile.ptr<f8E5M2>>
  %23 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %24 = arith.constant 64 : i32
  %25 = tile.splat %24 : i32 -> !tile.block<64x1xi32>
  %26 = tile.muli %23, %25 : !tile.block<64x1xi32>
  %27 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<64x1x!tile.ptr<f32>>
  %28 = tile.addptr %27, %26 : !tile.block<64x1x!tile.ptr<f32>>, !tile.block<64x1xi32>
  %29 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %30 = tile.broadcast %28 : !tile.block<64x1x!tile.ptr<f32>> -> !tile.block<64x64x!tile.ptr<f32>>
  %31 = tile.broadcast %29 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %32 = tile.addptr %30, %31 : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %33 = tile.constant dense<0.0> : !tile.block<64x64xf32>
  %34 = tile.dot %11, %22, %33 : !tile.block<64x64xf8E5M2>, !tile.block<64x64xf8E5M2> -> !tile.block<64x64xf32>
  tile.store %32, %34 : !tile.block<64x64x!tile.ptr<f32>>
  return
}

func.func @tf32_ring(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32 {tile.divisibility = 16 : i32}) {
  %0 = tile.arange 0, 64 : !tile.block<64xi32>
  %1 = tile.arange 0, 32 : !tile.block<32xi32>
  %2 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %3 = tile.splat %arg3 : i32 -> !tile.block<64x1xi32>
  %4 = tile.muli %2, %3 : !tile.block<64x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<f32> -> !tile.block<64x1x!tile.ptr<f32>>
  %6 = tile.addptr %5, %4 : !tile.block<64x1x!tile.ptr<f32>>, !tile.block<64x1xi32>
  %7 = tile.expand_dims %1 {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
  %8 = tile.broadcast %6 : !tile.block<64x1x!tile.ptr<f32>> -> !tile.block<64x32x!tile.ptr<f32>>
  %9 = tile.broadcast %7 : !tile.block<1x32xi32> -> !tile.block<64x32xi32>
  %10 = tile.addptr %8, %9 : !tile.block<64x32x!tile.ptr<f32>>, !tile.block<64x32xi32>
  %11 = tile.expand_dims %1 {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %12 = tile.splat %arg1 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %13 = tile.addptr %12, %11 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %14 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %15 = tile.splat %arg3 : i32 -> !tile.block<1x64xi32>
  %16 = tile.muli %14, %15 : !tile.block<1x64xi32>
  %17 = tile.broadcast %13 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x64x!tile.ptr<f32>>
  %18 = tile.broadcast %16 : !tile.block<1x64xi32> -> !tile.block<32x64xi32>
  %19 = tile.addptr %17, %18 : !tile.block<32x64x!tile.ptr<f32>>, !tile.block<32x64xi32>
  %20 = tile.constant dense<0.0> : !tile.block<64x64xf32>
  %21 = arith.constant 0 : i32
  %22 = arith.constant 32 : i32
  %36:3 = scf.for %23 = %21 to %arg3 step %22 iter_args(%24 = %10, %25 = %19, %26 = %20) -> (!tile.block<64x32x!tile.ptr<f32>>, !tile.block<32x64x!tile.ptr<f32>>, !tile.block<64x64xf32>) : i32 {
    %27 = tile.load %24 : !tile.block<64x32x!tile.ptr<f32>>
    %28 = tile.load %25 : !tile.block<32x64x!tile.ptr<f32>>
    %29 = tile.dot %27, %28, %26 {tf32} : !tile.block<64x32xf32>, !tile.block<32x64xf32> -> !tile.block<64x64xf32>
    %30 = arith.constant 32 : i32
    %31 = tile.splat %30 : i32 -> !tile.block<64x32xi32>
    %32 = tile.addptr %24, %31 : !tile.block<64x32x!tile.ptr<f32>>, !tile.block<64x32xi32>
    %33 = arith.constant 32 : i32
    %34 = tile.splat %33 : i32 -> !tile.block<32x64xi32>
    %35 = tile.addptr %25, %34 : !tile.block<32x64x!tile.ptr<f32>>, !tile.block<32x64xi32>
    scf.yield %32, %35, %29 : !tile.block<64x32x!tile.ptr<f32>>, !tile.block<32x64x!tile.ptr<f32>>, !tile.block<64x64xf32>
  }
  %37 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %38 = arith.constant 64 : i32
  %39 = tile.splat %38 : i32 -> !tile.block<64x1xi32>
  %40 = tile.muli %37, %39 : !tile.block<64x1xi32>
  %41 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<64x1x!tile.ptr<f32>>
  %42 = tile.addptr %41, %40 : !tile.block<64x1x!tile.ptr<f32>>, !tile.block<64x1xi32>
  %43 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %44 = tile.broadcast %42 : !tile.block<64x1x!tile.ptr<f32>> -> !tile.block<64x64x!tile.ptr<f32>>
  %45 = tile.broadcast %43 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %46 = tile.addptr %44, %45 : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  tile.store %46, %36#2 : !tile.block<64x64x!tile.ptr<f32>>
  return
}

func.func @ieee(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.arange 0, 64 : !tile.block<64xi32>
  %1 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %2 = arith.constant 64 : i32
  %3 = tile.splat %2 : i32 -> !tile.block<64x1xi32>
  %4 = tile.muli %1, %3 : !tile.block<64x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<f32> -> !tile.block<64x1x!tile.ptr<f32>>
  %6 = tile.addptr %5, %4 : !tile.block<64x1x!tile.ptr<f32>>, !tile.block<64x1xi32>
  %7 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %8 = tile.broadcast %6 : !tile.block<64x1x!tile.ptr<f32>> -> !tile.block<64x64x!tile.ptr<f32>>
  %9 = tile.broadcast %7 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %10 = tile.addptr %8, %9 : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %11 = tile.load %10 : !tile.block<64x64x!tile.ptr<f32>>
  %12 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %13 = arith.constant 64 : i32
  %14 = tile.splat %13 : i32 -> !tile.block<64x1xi32>
  %15 = tile.muli %12, %14 : !tile.block<64x1xi32>
  %16 = tile.splat %arg1 : !tile.ptr<f32> -> !tile.block<64x1x!tile.ptr<f32>>
  %17 = tile.addptr %16, %15 : !tile.block<64x1x!tile.ptr<f32>>, !tile.block<64x1xi32>
  %18 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %19 = tile.broadcast %17 : !tile.block<64x1x!tile.ptr<f32>> -> !tile.block<64x64x!tile.ptr<f32>>
  %20 = tile.broadcast %18 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %21 = tile.addptr %19, %20 : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %22 = tile.load %21 : !tile.block<64x64x!tile.ptr<f32>>
  %23 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %24 = arith.constant 64 : i32
  %25 = tile.splat %24 : i32 -> !tile.block<64x1xi32>
  %26 = tile.muli %23, %25 : !tile.block<64x1xi32>
  %27 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<64x1x!tile.ptr<f32>>
  %28 = tile.addptr %27, %26 : !tile.block<64x1x!tile.ptr<f32>>, !tile.block<64x1xi32>
  %29 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %30 = tile.broadcast %28 : !tile.block<64x1x!tile.ptr<f32>> -> !tile.block<64x64x!tile.ptr<f32>>
  %31 = tile.broadcast %29 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %32 = tile.addptr %30, %31 : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  %33 = tile.constant dense<0.0> : !tile.block<64x64xf32>
  %34 = tile.dot %11, %22, %33 : !tile.block<64x64xf32>, !tile.block<64x64xf32> -> !tile.block<64x64xf32>
  tile.store %32, %34 : !tile.block<64x64x!tile.ptr<f32>>
  return
}


func.func @int8_ring(%arg0: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %arg3: i32 {tile.divisibility = 16 : i32}) {
  %0 = tile.arange 0, 64 : !tile.block<64xi32>
  %1 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %2 = tile.splat %arg3 : i32 -> !tile.block<64x1xi32>
  %3 = tile.muli %1, %2 : !tile.block<64x1xi32>
  %4 = tile.splat %arg0 : !tile.ptr<i8> -> !tile.block<64x1x!tile.ptr<i8>>
  %5 = tile.addptr %4, %3 : !tile.block<64x1x!tile.ptr<i8>>, !tile.block<64x1xi32>
  %6 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %7 = tile.broadcast %5 : !tile.block<64x1x!tile.ptr<i8>> -> !tile.block<64x64x!tile.ptr<i8>>
  %8 = tile.broadcast %6 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %9 = tile.addptr %7, %8 : !tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64xi32>
  %10 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %11 = tile.splat %arg1 : !tile.ptr<i8> -> !tile.block<64x1x!tile.ptr<i8>>
  %12 = tile.addptr %11, %10 : !tile.block<64x1x!tile.ptr<i8>>, !tile.block<64x1xi32>
  %13 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %14 = tile.splat %arg3 : i32 -> !tile.block<1x64xi32>
  %15 = tile.muli %13, %14 : !tile.block<1x64xi32>
  %16 = tile.broadcast %12 : !tile.block<64x1x!tile.ptr<i8>> -> !tile.block<64x64x!tile.ptr<i8>>
  %17 = tile.broadcast %15 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %18 = tile.addptr %16, %17 : !tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64xi32>
  %19 = tile.constant dense<0> : !tile.block<64x64xi32>
  %20 = arith.constant 0 : i32
  %21 = arith.constant 64 : i32
  %35:3 = scf.for %22 = %20 to %arg3 step %21 iter_args(%23 = %9, %24 = %18, %25 = %19) -> (!tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64xi32>) : i32 {
    %26 = tile.load %23 : !tile.block<64x64x!tile.ptr<i8>>
    %27 = tile.load %24 : !tile.block<64x64x!tile.ptr<i8>>
    %28 = tile.dot %26, %27, %25 : !tile.block<64x64xi8>, !tile.block<64x64xi8> -> !tile.block<64x64xi32>
    %29 = arith.constant 64 : i32
    %30 = tile.splat %29 : i32 -> !tile.block<64x64xi32>
    %31 = tile.addptr %23, %30 : !tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64xi32>
    %32 = arith.constant 64 : i32
    %33 = tile.splat %32 : i32 -> !tile.block<64x64xi32>
    %34 = tile.addptr %24, %33 : !tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64xi32>
    scf.yield %31, %34, %28 : !tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64xi32>
  }
  %36 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %37 = arith.constant 64 : i32
  %38 = tile.splat %37 : i32 -> !tile.block<64x1xi32>
  %39 = tile.muli %36, %38 : !tile.block<64x1xi32>
  %40 = tile.splat %arg2 : !tile.ptr<i32> -> !tile.block<64x1x!tile.ptr<i32>>
  %41 = tile.addptr %40, %39 : !tile.block<64x1x!tile.ptr<i32>>, !tile.block<64x1xi32>
  %42 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %43 = tile.broadcast %41 : !tile.block<64x1x!tile.ptr<i32>> -> !tile.block<64x64x!tile.ptr<i32>>
  %44 = tile.broadcast %42 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %45 = tile.addptr %43, %44 : !tile.block<64x64x!tile.ptr<i32>>, !tile.block<64x64xi32>
  tile.store %45, %35#2 : !tile.block<64x64x!tile.ptr<i32>>
  return
}

func.func @int8_regs(%arg0: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %0 = tile.arange 0, 64 : !tile.block<64xi32>
  %1 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %2 = arith.constant 64 : i32
  %3 = tile.splat %2 : i32 -> !tile.block<64x1xi32>
  %4 = tile.muli %1, %3 : !tile.block<64x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<i8> -> !tile.block<64x1x!tile.ptr<i8>>
  %6 = tile.addptr %5, %4 : !tile.block<64x1x!tile.ptr<i8>>, !tile.block<64x1xi32>
  %7 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %8 = tile.broadcast %6 : !tile.block<64x1x!tile.ptr<i8>> -> !tile.block<64x64x!tile.ptr<i8>>
  %9 = tile.broadcast %7 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %10 = tile.addptr %8, %9 : !tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64xi32>
  %11 = tile.load %10 : !tile.block<64x64x!tile.ptr<i8>>
  %12 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %13 = arith.constant 64 : i32
  %14 = tile.splat %13 : i32 -> !tile.block<64x1xi32>
  %15 = tile.muli %12, %14 : !tile.block<64x1xi32>
  %16 = tile.splat %arg1 : !tile.ptr<i8> -> !tile.block<64x1x!tile.ptr<i8>>
  %17 = tile.addptr %16, %15 : !tile.block<64x1x!tile.ptr<i8>>, !tile.block<64x1xi32>
  %18 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %19 = tile.broadcast %17 : !tile.block<64x1x!tile.ptr<i8>> -> !tile.block<64x64x!tile.ptr<i8>>
  %20 = tile.broadcast %18 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %21 = tile.addptr %19, %20 : !tile.block<64x64x!tile.ptr<i8>>, !tile.block<64x64xi32>
  %22 = tile.load %21 : !tile.block<64x64x!tile.ptr<i8>>
  %23 = tile.expand_dims %0 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %24 = arith.constant 64 : i32
  %25 = tile.splat %24 : i32 -> !tile.block<64x1xi32>
  %26 = tile.muli %23, %25 : !tile.block<64x1xi32>
  %27 = tile.splat %arg2 : !tile.ptr<i32> -> !tile.block<64x1x!tile.ptr<i32>>
  %28 = tile.addptr %27, %26 : !tile.block<64x1x!tile.ptr<i32>>, !tile.block<64x1xi32>
  %29 = tile.expand_dims %0 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %30 = tile.broadcast %28 : !tile.block<64x1x!tile.ptr<i32>> -> !tile.block<64x64x!tile.ptr<i32>>
  %31 = tile.broadcast %29 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
  %32 = tile.addptr %30, %31 : !tile.block<64x64x!tile.ptr<i32>>, !tile.block<64x64xi32>
  %33 = tile.constant dense<0> : !tile.block<64x64xi32>
  %34 = tile.dot %11, %22, %33 : !tile.block<64x64xi8>, !tile.block<64x64xi8> -> !tile.block<64x64xi32>
  tile.store %32, %34 : !tile.block<64x64x!tile.ptr<i32>>
  return
}
