// A float multiply feeding an add fuses into one fma, as Triton's default
// (enable_fp_fusion) allows; with fusion off each rounds on its own, and
// the `.rn` keeps ptxas from fusing them later.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s --check-prefix=FUSED
// RUN: tile-translate --tile-to-ptx --fp-fusion=false %s | FileCheck %s --check-prefix=SEPARATE
// RUN: tile-opt %s --tile-to-nvvm="fp-fusion=false" | FileCheck %s --check-prefix=NOCONTRACT
// RUN: tile-opt %s --tile-assign-layouts --convert-tile-to-gpu | FileCheck %s --check-prefix=CONTRACT
// RUN: tile-opt %s --tile-assign-layouts --convert-tile-to-gpu="fp-fusion=false" | FileCheck %s --check-prefix=NOCONTRACT

// FUSED: fma.rn.f32
// FUSED-NOT: mul.rn.f32
// SEPARATE-NOT: fma.rn.f32
// SEPARATE: mul.rn.f32
// SEPARATE: sub.rn.f32
// SEPARATE-NOT: fma.rn.f32
// NOCONTRACT-NOT: contract
// CONTRACT: arith.mulf {{.*}} fastmath<contract>
// CONTRACT: arith.subf {{.*}} fastmath<contract>

func.func @axpy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %a: f32) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %p : !tile.block<128x!tile.ptr<f32>>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %q = tile.addptr %yb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %u = tile.load %q : !tile.block<128x!tile.ptr<f32>>
  %ab = tile.splat %a : f32 -> !tile.block<128xf32>
  %w = tile.mulf %v, %ab : !tile.block<128xf32>
  %z = tile.subf %w, %u : !tile.block<128xf32>
  tile.store %q, %z : !tile.block<128x!tile.ptr<f32>>
  return
}
