// Triton's maxnreg: the kernel's entry carries `.maxnreg N`, the device
// functions it calls do not (the attribute goes on kernels only); without the
// option there is none. Out of range, it is an error naming the range.
// RUN: tile-translate --tile-to-ptx --maxnreg=42 %s | FileCheck %s --check-prefix=PTX
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s --check-prefix=NONE
// RUN: tile-opt %s --tile-to-nvvm="maxnreg=40" | FileCheck %s --check-prefix=OP
// RUN: not tile-translate --tile-to-ptx --maxnreg=256 %s 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tile-opt %s --tile-to-nvvm="maxnreg=300" 2>&1 | FileCheck %s --check-prefix=PIPELINE

// PTX: .entry limited(
// PTX: .maxnreg 42
// PTX-NOT: .maxnreg
// NONE-NOT: .maxnreg
// OP: llvm.func @limited({{.*}} nvvm.kernel, nvvm.maxnreg = 40 : i32
// RANGE: error: maxnreg must be from 1 to 255 registers per thread (0: no limit), not 256
// PIPELINE: tile-to-nvvm: maxnreg must be from 1 to 255 registers per thread (0: no limit), not 300

func.func @limited(%x: !tile.ptr<f32>) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %p : !tile.block<128x!tile.ptr<f32>>
  %s = tile.sin %v : !tile.block<128xf32>
  tile.store %p, %s : !tile.block<128x!tile.ptr<f32>>
  return
}
