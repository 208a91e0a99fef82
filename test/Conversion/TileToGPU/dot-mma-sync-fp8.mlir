// RUN: tile-opt %s -tile-assign-layouts="chip=sm_89 num-warps=4" | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-translate --tile-to-ptx --chip=sm_89 --num-warps=4 %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx --chip=sm_90a --num-warps=4 %s | FileCheck %s
// RUN: %if ptxas %{ tile-translate --tile-to-ptx --chip=sm_89 --num-warps=4 %s -o %t89.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t89.ptx -o %t89.o %}
// RUN: %if ptxas %{ tile-translate --tile-to-ptx --chip=sm_90a --num-warps=4 %s -o %t90.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t90.ptx -o %t90.o %}

// 8-bit float dots (e4m3 and e5m2, mixed here) on tiles wgmma does not take
// run on mma.sync m16n8k16: each operand is widened to f16 (exactly) before
// it is staged, so the products are exact and sum in f32, as wgmma's fp8
// forms compute them. mma.sync's own fp8 forms need PTX 8.4 (LLVM writes
// 7.8 for sm_89). Widening 8-bit floats needs sm_89 (cvt e4m3x2/e5m2x2).
// LAYOUT: #[[MMA:mma[0-9]*]] = #tile.mma<version = 2, warps = [2, 2], instr = [16, 8, 16]>
// LAYOUT: tile.dot {{.*}} -> !tile.block<32x32xf32, #[[MMA]]>

// CHECK-LABEL: .entry mma_fp8_mixed(
// CHECK-NOT: wgmma
// CHECK: cvt.rn.f16x2.e4m3x2
// CHECK: cvt.rn.f16x2.e5m2x2
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

func.func @mma_fp8_mixed(%arg0: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %0 = tile.constant dense<32> : !tile.block<32x1xi32>
  %1 = tile.constant dense<0.000000e+00> : !tile.block<32x32xf32>
  %2 = tile.arange 0, 32 : !tile.block<32xi32>
  %3 = tile.expand_dims %2 {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %4 = tile.muli %3, %0 : !tile.block<32x1xi32>
  %5 = tile.splat %arg0 : !tile.ptr<f8E4M3FN> -> !tile.block<32x1x!tile.ptr<f8E4M3FN>>
  %6 = tile.addptr %5, %4 : !tile.block<32x1x!tile.ptr<f8E4M3FN>>, !tile.block<32x1xi32>
  %7 = tile.expand_dims %2 {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
  %8 = tile.broadcast %6 : !tile.block<32x1x!tile.ptr<f8E4M3FN>> -> !tile.block<32x32x!tile.ptr<f8E4M3FN>>
  %9 = tile.broadcast %7 : !tile.block<1x32xi32> -> !tile.block<32x32xi32>
  %10 = tile.addptr %8, %9 : !tile.block<32x32x!tile.ptr<f8E4M3FN>>, !tile.block<32x32xi32>
  %11 = tile.load %10 : !tile.block<32x32x!tile.ptr<f8E4M3FN>>
  %12 = tile.splat %arg1 : !tile.ptr<f8E5M2> -> !tile.block<32x1x!tile.ptr<f8E5M2>>
  %13 = tile.addptr %12, %4 : !tile.block<32x1x!tile.ptr<f8E5M2>>, !tile.block<32x1xi32>
  %14 = tile.broadcast %13 : !tile.block<32x1x!tile.ptr<f8E5M2>> -> !tile.block<32x32x!tile.ptr<f8E5M2>>
  %15 = tile.addptr %14, %9 : !tile.block<32x32x!tile.ptr<f8E5M2>>, !tile.block<32x32xi32>
  %16 = tile.load %15 : !tile.block<32x32x!tile.ptr<f8E5M2>>
  %17 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<32x1x!tile.ptr<f32>>
  %18 = tile.addptr %17, %4 : !tile.block<32x1x!tile.ptr<f32>>, !tile.block<32x1xi32>
  %19 = tile.broadcast %18 : !tile.block<32x1x!tile.ptr<f32>> -> !tile.block<32x32x!tile.ptr<f32>>
  %20 = tile.addptr %19, %9 : !tile.block<32x32x!tile.ptr<f32>>, !tile.block<32x32xi32>
  %21 = tile.dot %11, %16, %1 : !tile.block<32x32xf8E4M3FN>, !tile.block<32x32xf8E5M2> -> !tile.block<32x32xf32>
  tile.store %20, %21 : !tile.block<32x32x!tile.ptr<f32>>
  return
}
