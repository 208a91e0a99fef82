// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu -split-input-file | FileCheck %s

// f32 division is div.full.f32 and exp is ex2.approx of x * log2(e), as
// Triton computes them; multiplies feeding adds may contract to fma.
// CHECK-LABEL: gpu.func @float_ops
// CHECK: llvm.inline_asm asm_dialect = att "div.full.f32 $0, $1, $2;", "=f,f,f"
// CHECK: arith.mulf {{.*}}, %{{.*}} : f32
// CHECK: llvm.inline_asm asm_dialect = att "ex2.approx.f32 $0, $1;", "=f,f"
// CHECK: arith.addf {{.*}} fastmath<contract> : f32
func.func @float_ops(%x: !tile.ptr<f32>) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %p : !tile.block<128x!tile.ptr<f32>>
  %q = tile.divf %v, %v : !tile.block<128xf32>
  %e = tile.exp %q : !tile.block<128xf32>
  %s = tile.addf %e, %v : !tile.block<128xf32>
  tile.store %p, %s : !tile.block<128x!tile.ptr<f32>>
  return
}

// -----

// f16 transcendentals go through f32 (libdevice has no f16 versions);
// integer abs is max(x, -x); casts to i1 compare with zero.
// CHECK-LABEL: gpu.func @narrow_and_int
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: math.sqrt {{.*}} : f32
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: arith.maxsi
// CHECK: arith.cmpi ne
func.func @narrow_and_int(%x: !tile.ptr<f16>, %y: !tile.ptr<i32>, %z: !tile.ptr<i1>) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f16> -> !tile.block<128x!tile.ptr<f16>>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f16>>, !tile.block<128xi32>
  %v = tile.load %p : !tile.block<128x!tile.ptr<f16>>
  %s = tile.sqrt %v : !tile.block<128xf16>
  tile.store %p, %s : !tile.block<128x!tile.ptr<f16>>
  %yb = tile.splat %y : !tile.ptr<i32> -> !tile.block<128x!tile.ptr<i32>>
  %q = tile.addptr %yb, %r : !tile.block<128x!tile.ptr<i32>>, !tile.block<128xi32>
  %i = tile.load %q : !tile.block<128x!tile.ptr<i32>>
  %a = tile.absi %i : !tile.block<128xi32>
  tile.store %q, %a : !tile.block<128x!tile.ptr<i32>>
  %b = tile.cast %a : !tile.block<128xi32> to !tile.block<128xi1>
  %zb = tile.splat %z : !tile.ptr<i1> -> !tile.block<128x!tile.ptr<i1>>
  %w = tile.addptr %zb, %r : !tile.block<128x!tile.ptr<i1>>, !tile.block<128xi32>
  tile.store %w, %b : !tile.block<128x!tile.ptr<i1>>
  return
}
