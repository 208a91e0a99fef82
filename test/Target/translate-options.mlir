// RUN: tile-translate --tile-to-llvmir %s | FileCheck %s --check-prefix=LLVM
// RUN: tile-translate --tile-to-ptx --num-warps=8 %s | FileCheck %s --check-prefix=WARPS
// RUN: tile-translate --tile-to-ptx --chip=sm_80 %s | FileCheck %s --check-prefix=SM80
// RUN: not tile-translate --tile-to-ptx --num-warps=0 %s 2>&1 | FileCheck %s --check-prefix=BADWARPS
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx --metadata %t.meta.json
// RUN: FileCheck %s --check-prefix=META < %t.meta.json

// LLVM: define ptx_kernel void @scale(ptr addrspace(1)
// LLVM: call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// WARPS: .maxntid 256, 1, 1
// SM80: .target sm_80
// BADWARPS: error: num-warps must be a power of two from 1 to 32, not 0
// META: "threads": 128

func.func @scale(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %a: f32) {
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %v = tile.load %p : !tile.block<256x!tile.ptr<f32>>
  %ab = tile.splat %a : f32 -> !tile.block<256xf32>
  %w = tile.mulf %v, %ab : !tile.block<256xf32>
  tile.store %p, %w : !tile.block<256x!tile.ptr<f32>>
  return
}
