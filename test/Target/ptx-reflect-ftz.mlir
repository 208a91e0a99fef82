// libdevice's functions flush subnormals to zero by default, as Triton's
// enable_reflect_ftz: the GPU module carries the LLVM module flag that
// libdevice's __nvvm_reflect("__CUDA_FTZ") reads. f32 exp2 and sqrt are
// libdevice calls; exp is tile's own ex2.approx of x * log2(e), which the
// flag leaves alone, as Triton's does.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s --check-prefix=FTZ
// RUN: tile-translate --tile-to-ptx --reflect-ftz=false %s | FileCheck %s --check-prefix=KEEP
// RUN: tile-translate --tile-to-llvmir %s | FileCheck %s --check-prefix=FLAG
// RUN: tile-translate --tile-to-llvmir --reflect-ftz=false %s | FileCheck %s --check-prefix=NOFLAG
// RUN: tile-opt %s --tile-to-nvvm | FileCheck %s --check-prefix=OP
// RUN: tile-opt %s --tile-to-nvvm="reflect-ftz=false" | FileCheck %s --check-prefix=NOOP

// FTZ-DAG: ex2.approx.ftz.f32
// FTZ-DAG: sqrt.approx.ftz.f32
// FTZ-DAG: ex2.approx.f32
// KEEP-NOT: .ftz.
// FLAG: !{i32 4, !"nvvm-reflect-ftz", i32 1}
// NOFLAG-NOT: nvvm-reflect-ftz
// OP: llvm.module_flags [#llvm.mlir.module_flag<override, "nvvm-reflect-ftz", 1 : i32>]
// NOOP-NOT: module_flags

func.func @math(%x: !tile.ptr<f32>) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %p : !tile.block<128x!tile.ptr<f32>>
  %a = tile.exp2 %v : !tile.block<128xf32>
  %b = tile.sqrt %v : !tile.block<128xf32>
  %c = tile.exp %v : !tile.block<128xf32>
  %ab = tile.addf %a, %b : !tile.block<128xf32>
  %abc = tile.addf %ab, %c : !tile.block<128xf32>
  tile.store %p, %abc : !tile.block<128x!tile.ptr<f32>>
  return
}
