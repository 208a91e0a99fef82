// Registers for grids that fit at once: the kernel is assembled once more for
// one block per SM (`.minnctapersm 1`), and that cubin goes beside the main
// one when it takes more registers and spills nothing (chooseRegisters in
// lib/Target/Compile.cpp). ptxas 13.0's own choice gives this column sum
// 56 registers and overlaps two of each iteration's eight 16-byte loads; for
// one block per SM it takes 93 (5 blocks per SM) and issues all eight
// before the sums. So it has loads to overlap, and its 56 registers keep
// warps off the SM (9 blocks of 4 warps) within the budget of half the SM's
// warps: the main cubin is assembled again under that budget
// (getLatencyRegisterBudget: `.maxnreg 64`, 8 blocks) and takes all 64
// (cubin-occupancy.mlir).
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-translate --tile-to-cubin --chip=sm_90a --num-warps=4 %s -o %t/k.cubin
// RUN: FileCheck %s < %t/k.json
// RUN: test -s %t/k.without-limit.cubin
// RUN: tile-translate --tile-to-cubin --chip=sm_90a --num-warps=4 --raise-occupancy=false %s -o %t/off.cubin
// RUN: FileCheck %s --check-prefix=OFF < %t/off.json
// RUN: test ! -e %t/off.without-limit.cubin

// CHECK: "occupancy_maxnreg": 64,
// CHECK: "registers": 64,
// CHECK-NEXT: "registers_without_limit": 93,
// CHECK-NEXT: "resident_blocks_without_limit": 5,
// CHECK-NEXT: "shared_bytes"
// CHECK-NEXT: "stack_frame_bytes": 0,
// OFF-NOT: occupancy_maxnreg
// OFF: "registers": 56,
// OFF-NOT: without_limit

func.func @column_sum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %m: i32 {tile.divisibility = 16 : i32},
                      %n: i32 {tile.divisibility = 16 : i32},
                      %stride: i32 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id 0 : i32
  %c64 = arith.constant 64 : i32
  %first = arith.muli %pid, %c64 : i32
  %range = tile.arange 0, 64 : !tile.block<64xi32>
  %firsts = tile.splat %first : i32 -> !tile.block<64xi32>
  %cols = tile.addi %firsts, %range : !tile.block<64xi32>
  %zero = tile.constant dense<0.0> : !tile.block<64xf32>
  %c0 = arith.constant 0 : i32
  %sums = scf.for %row = %c0 to %m step %c64 iter_args(%acc = %zero) -> (!tile.block<64xf32>) : i32 {
    %rows0 = tile.splat %row : i32 -> !tile.block<64xi32>
    %rows = tile.addi %rows0, %range : !tile.block<64xi32>
    %rowcol = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
    %ms = tile.splat %m : i32 -> !tile.block<64x1xi32>
    %rowok = tile.cmpi slt, %rowcol, %ms : !tile.block<64x1xi32>
    %colrow = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
    %ns = tile.splat %n : i32 -> !tile.block<1x64xi32>
    %colok = tile.cmpi slt, %colrow, %ns : !tile.block<1x64xi32>
    %rowok2 = tile.broadcast %rowok : !tile.block<64x1xi1> -> !tile.block<64x64xi1>
    %colok2 = tile.broadcast %colok : !tile.block<1x64xi1> -> !tile.block<64x64xi1>
    %mask = tile.andi %rowok2, %colok2 : !tile.block<64x64xi1>
    %strides = tile.splat %stride : i32 -> !tile.block<64x1xi32>
    %offsets = tile.muli %rowcol, %strides : !tile.block<64x1xi32>
    %base = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x1x!tile.ptr<f32>>
    %rowptrs = tile.addptr %base, %offsets : !tile.block<64x1x!tile.ptr<f32>>, !tile.block<64x1xi32>
    %rowptrs2 = tile.broadcast %rowptrs : !tile.block<64x1x!tile.ptr<f32>> -> !tile.block<64x64x!tile.ptr<f32>>
    %cols2 = tile.broadcast %colrow : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
    %ptrs = tile.addptr %rowptrs2, %cols2 : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
    %fzero = arith.constant 0.0 : f32
    %other = tile.splat %fzero : f32 -> !tile.block<64x64xf32>
    %tile = tile.load %ptrs mask %mask other %other : !tile.block<64x64x!tile.ptr<f32>>
    %sum = tile.reduce sum %tile {axis = 0 : i32} : !tile.block<64x64xf32> -> !tile.block<64xf32>
    %next = tile.addf %acc, %sum : !tile.block<64xf32>
    scf.yield %next : !tile.block<64xf32>
  }
  %outs = tile.splat %out : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %outptrs = tile.addptr %outs, %cols : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  %nn = tile.splat %n : i32 -> !tile.block<64xi32>
  %ok = tile.cmpi slt, %cols, %nn : !tile.block<64xi32>
  tile.store %outptrs, %sums mask %ok : !tile.block<64x!tile.ptr<f32>>
  return
}
