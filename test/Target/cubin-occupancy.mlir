// Registers for grids larger than the device holds at once (chooseRegisters
// in lib/Target/Compile.cpp). ptxas 13.0 gives this 4-warp row scan 64
// registers (8 blocks of 128 threads per SM: registers keep warps off it),
// and 72 when asked for one block per SM (.minnctapersm 1): it has loads to
// overlap, and its own 64 are within the budget of half the SM's warps
// (getLatencyRegisterBudget: 64 for 4-warp blocks), so the main cubin is the
// kernel assembled under `.maxnreg 64`, not the search for occupancy (which
// would cut it to 56 for 9 blocks; TritonC/transpose.tc has a kernel over the
// budget, where the search runs). It spills nothing (no stack frame).
// The launch facts say what was chosen, and the registers and blocks per SM
// of the cubin for grids that fit at once (python/tile/driver/modules.py):
// here the one for one block per SM, 72 registers (cubin-one-block.mlir).
// --maxnreg (the user's limit) and --raise-occupancy=false keep the
// assembler's own choice.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-translate --tile-to-cubin --chip=sm_90a --num-warps=4 %s -o %t/raised.cubin
// RUN: FileCheck %s --check-prefix=RAISED < %t/raised.json
// RUN: tile-translate --tile-to-cubin --chip=sm_90a --num-warps=4 --raise-occupancy=false %s -o %t/off.cubin
// RUN: FileCheck %s --check-prefix=OFF < %t/off.json
// RUN: tile-translate --tile-to-cubin --chip=sm_90a --num-warps=4 --maxnreg=80 %s -o %t/user.cubin
// RUN: FileCheck %s --check-prefix=USER < %t/user.json
// That cubin goes beside the raised one (tile.driver.load_module launches it
// for grids that fit at once); the others have none:
// RUN: test -s %t/raised.without-limit.cubin
// RUN: test ! -e %t/off.without-limit.cubin
// RUN: test ! -e %t/user.without-limit.cubin
// The figures come from the cubin's .nv.info (nvJitLink gives no log when it
// serves a PTX from the CUDA compute cache); they agree with ptxas -v:
// RUN: tile-translate --tile-to-cubin --chip=sm_90a --num-warps=4 --maxnreg=24 %s -o %t/spill.cubin
// RUN: tile-translate --tile-to-ptx --chip=sm_90a --num-warps=4 --maxnreg=24 %s -o %t/spill-ptx.ptx
// RUN: %ptxas -arch=sm_90a -v %t/spill-ptx.ptx -o %t/spill-ptxas.cubin > %t/ptxas.log 2>&1
// RUN: cat %t/spill.json %t/ptxas.log | FileCheck %s --check-prefix=SPILL

// RAISED: "occupancy_maxnreg": 64,
// RAISED: "registers": 64,
// RAISED-NEXT: "registers_without_limit": 72,
// RAISED-NEXT: "resident_blocks_without_limit": 7,
// RAISED-NEXT: "shared_bytes"
// RAISED-NEXT: "stack_frame_bytes": 0,

// OFF-NOT: occupancy_maxnreg
// OFF: "registers": 64,
// OFF-NOT: occupancy_maxnreg

// USER-NOT: occupancy_maxnreg
// USER: "registers":
// USER-NOT: occupancy_maxnreg

// SPILL: "registers": 24,
// SPILL: "stack_frame_bytes": [[FRAME:[1-9][0-9]*]],
// SPILL: [[FRAME]] bytes stack frame
// SPILL: Used 24 registers

func.func @row_cumsum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %stride: i32 {tile.divisibility = 16 : i32},
                      %n: i32 {tile.divisibility = 16 : i32}) {
  %0 = tile.program_id 0 : i32
  %1 = tile.arange 0, 4096 : !tile.block<4096xi32>
  %2 = tile.splat %n : i32 -> !tile.block<4096xi32>
  %3 = tile.cmpi slt, %1, %2 : !tile.block<4096xi32>
  %4 = arith.muli %0, %stride : i32
  %5 = tile.addptr %x, %4 : !tile.ptr<f32>, i32
  %6 = tile.splat %5 : !tile.ptr<f32> -> !tile.block<4096x!tile.ptr<f32>>
  %7 = tile.addptr %6, %1 : !tile.block<4096x!tile.ptr<f32>>, !tile.block<4096xi32>
  %8 = arith.constant 0.0 : f32
  %9 = tile.splat %8 : f32 -> !tile.block<4096xf32>
  %10 = tile.load %7 mask %3 other %9 : !tile.block<4096x!tile.ptr<f32>>
  %11 = arith.muli %0, %stride : i32
  %12 = tile.addptr %out, %11 : !tile.ptr<f32>, i32
  %13 = tile.splat %12 : !tile.ptr<f32> -> !tile.block<4096x!tile.ptr<f32>>
  %14 = tile.addptr %13, %1 : !tile.block<4096x!tile.ptr<f32>>, !tile.block<4096xi32>
  %15 = tile.scan sum %10 {axis = 0 : i32} : !tile.block<4096xf32>
  tile.store %14, %15 mask %3 : !tile.block<4096x!tile.ptr<f32>>
  return
}
