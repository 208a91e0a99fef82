// Chips are checked against one list, in the compile library, by every
// driver. `--chip=garbage` used to write `.target garbage` in about half of
// fresh runs and fail in the rest (upstream's NVVM target verification read
// an uninitialized SM number for a chip that is not `sm_<digits>`); an empty
// chip crashed there; the C API passed any string through.
// RUN: for i in 1 2 3; do not tile-translate --tile-to-ptx --chip=garbage %s 2>&1; done | FileCheck %s --check-prefix=BAD
// RUN: not tile-translate --tile-to-ptx --chip= %s 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not tile-translate --tile-to-ptx '--chip=sm_90; rm -rf x' %s 2>&1 | FileCheck %s --check-prefix=INJECT
// RUN: not tile-translate --tile-to-ptx --chip=sm_70 %s 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not tile-opt '--tile-to-nvvm=chip=garbage' %s 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: not tile-opt '--tile-to-nvvm=chip=sm_90 num-warps=0' %s 2>&1 | FileCheck %s --check-prefix=PIPEWARPS
// RUN: not tile-cc --chip=sm_100 --emit=tile %tile_src_root/examples/triton-c/vector_add.tc 2>&1 | FileCheck %s --check-prefix=TCC
// RUN: not tile-cc --num-warps=64 --emit=tile %tile_src_root/examples/triton-c/vector_add.tc 2>&1 | FileCheck %s --check-prefix=TCCWARPS
// RUN: not tile-translate --tile-to-ptx --num-warps=33 %s 2>&1 | FileCheck %s --check-prefix=WARPS

// BAD-COUNT-3: error: unsupported chip 'garbage'; the supported chips are sm_80, sm_86, sm_89, sm_90, sm_90a (sm_90a for Hopper-only instructions)
// BAD-NOT: .target
// EMPTY: error: unsupported chip ''; the supported chips are sm_80, sm_86, sm_89, sm_90, sm_90a
// INJECT: error: unsupported chip 'sm_90; rm -rf x'; the supported chips are
// OLD: error: unsupported chip 'sm_70'
// PIPE: error: tile-to-nvvm: unsupported chip 'garbage'; the supported chips are
// PIPEWARPS: error: tile-to-nvvm: num-warps must be a power of two from 1 to 32, not 0
// TCC: error: unsupported chip 'sm_100'; the supported chips are
// TCCWARPS: error: num-warps must be a power of two from 1 to 32, not 64
// WARPS: error: num-warps must be a power of two from 1 to 32, not 33

// Every supported chip compiles, with the PTX version it needs.
// RUN: tile-translate --tile-to-ptx --chip=sm_80 %s | FileCheck %s --check-prefix=SM80
// RUN: tile-translate --tile-to-ptx --chip=sm_86 %s | FileCheck %s --check-prefix=SM86
// RUN: tile-translate --tile-to-ptx --chip=sm_89 %s | FileCheck %s --check-prefix=SM89
// RUN: tile-translate --tile-to-ptx --chip=sm_90 %s | FileCheck %s --check-prefix=SM90
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %s | FileCheck %s --check-prefix=SM90A
// RUN: tile-opt '--tile-to-nvvm=chip=sm_90a' %s | FileCheck %s --check-prefix=PIPE90A
// SM80: .target sm_80{{$}}
// SM86: .target sm_86{{$}}
// SM89: .target sm_89{{$}}
// SM90: .target sm_90{{$}}
// SM90A: .version 8.0
// SM90A: .target sm_90a{{$}}
// PIPE90A: #nvvm.target<O = 3, chip = "sm_90a">

func.func @scale(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %a: f32) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %p : !tile.block<128x!tile.ptr<f32>>
  %ab = tile.splat %a : f32 -> !tile.block<128xf32>
  %w = tile.mulf %v, %ab : !tile.block<128xf32>
  tile.store %p, %w : !tile.block<128x!tile.ptr<f32>>
  return
}
