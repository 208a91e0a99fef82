// The source locations become the PTX's line table (Triton's default), and
// the `.target` carries no `debug`: ptxas would read it as device debugging
// and leave the code unoptimized. --line-info=false leaves the table out.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx --line-info=false %s | FileCheck %s --check-prefix=NOLINES
// RUN: tile-opt %s --tile-to-nvvm="line-info=false" --mlir-print-debuginfo | FileCheck %s --check-prefix=NOSCOPE
// RUN: tile-opt %s --tile-to-nvvm --mlir-print-debuginfo | FileCheck %s --check-prefix=SCOPE

// CHECK: .target sm_90{{$}}
// CHECK: .loc [[FILE:[0-9]+]] 7 0
// CHECK: .loc [[FILE]] 8 17
// CHECK-NEXT: mul.wide.u32
// CHECK: .loc [[FILE]] 8 9
// CHECK-NEXT: ld.global
// An op inlined from a device function keeps its own line.
// CHECK: .loc [[FILE]] 3 12
// CHECK-NEXT: mul.f32
// CHECK: .loc [[FILE]] 9 5
// CHECK-NEXT: st.global
// CHECK: .file [[FILE]] "/work/kernels/scale.py"

// NOLINES: .target sm_90{{$}}
// NOLINES-NOT: .loc
// NOLINES-NOT: .file
// NOLINES-NOT: .section .debug

// NOSCOPE-NOT: di_subprogram
// SCOPE: #llvm.di_subprogram<{{.*}}name = "scale"{{.*}}file = #{{[a-z_0-9]+}}, line = 7

#def = loc("/work/kernels/scale.py":7:0)
#addr = loc("/work/kernels/scale.py":8:17)
#load = loc("/work/kernels/scale.py":8:9)
#mul = loc(callsite("/work/kernels/scale.py":3:12 at "/work/kernels/scale.py":8:20))
#store = loc("/work/kernels/scale.py":9:5)
func.func @scale(%x: !tile.ptr<f32>, %a: f32) {
  %r = tile.arange 0, 128 : !tile.block<128xi32> loc(#addr)
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>> loc(#addr)
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32> loc(#addr)
  %v = tile.load %p : !tile.block<128x!tile.ptr<f32>> loc(#load)
  %ab = tile.splat %a : f32 -> !tile.block<128xf32> loc(#mul)
  %w = tile.mulf %v, %ab : !tile.block<128xf32> loc(#mul)
  tile.store %p, %w : !tile.block<128x!tile.ptr<f32>> loc(#store)
  return loc(#store)
} loc(#def)
