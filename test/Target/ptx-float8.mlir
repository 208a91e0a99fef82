// 8-bit floats (Triton's float8e4nv and float8e5) are i8 bits in registers and
// memory; tile.cast converts them with the sm_89+ cvt forms: to them rounding
// to nearest even with saturation, f8E5M2 toward zero as an f16's high byte,
// from them exactly through f16.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: not tile-translate --tile-to-ptx --chip=sm_80 %s 2>&1 | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: .entry float8(
// The f8E4M3FN block is loaded as bytes and widened exactly.
// CHECK: ld.global.b8
// CHECK: cvt.rn.f16x2.e4m3x2
// CHECK: cvt.rn.satfinite.e5m2x2.f32
// CHECK: cvt.rz.f16.f32
// CHECK: st.global.b8
// The scalar constant 448.0 (f8E4M3FN's largest) is its bits, 0x7E = 126.
// CHECK: st.global.b8 [%rd{{[0-9]+}}], 126;
// SM80: ptx-float8.mlir:[[@LINE+6]]:8: error: converts 'f8E4M3FN' to 'f16': 8-bit float conversions need sm_89 or later (PTX cvt with e4m3x2/e5m2x2); the chip is sm_80
func.func @float8(%in: !tile.ptr<f8E4M3FN>, %out: !tile.ptr<f8E5M2>, %s: !tile.ptr<f8E4M3FN>) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %ib = tile.splat %in : !tile.ptr<f8E4M3FN> -> !tile.block<128x!tile.ptr<f8E4M3FN>>
  %ip = tile.addptr %ib, %r : !tile.block<128x!tile.ptr<f8E4M3FN>>, !tile.block<128xi32>
  %q = tile.load %ip : !tile.block<128x!tile.ptr<f8E4M3FN>>
  %h = tile.cast %q : !tile.block<128xf8E4M3FN> to !tile.block<128xf16>
  %f = tile.cast %h : !tile.block<128xf16> to !tile.block<128xf32>
  %e = tile.cast %f : !tile.block<128xf32> to !tile.block<128xf8E5M2>
  %z = tile.cast %f {rtz} : !tile.block<128xf32> to !tile.block<128xf8E5M2>
  %zero = arith.constant 0.0 : f32
  %zb = tile.splat %zero : f32 -> !tile.block<128xf32>
  %pos = tile.cmpf ogt, %f, %zb : !tile.block<128xf32>
  %pick = tile.select %pos, %e, %z : !tile.block<128xf8E5M2>
  %ob = tile.splat %out : !tile.ptr<f8E5M2> -> !tile.block<128x!tile.ptr<f8E5M2>>
  %op = tile.addptr %ob, %r : !tile.block<128x!tile.ptr<f8E5M2>>, !tile.block<128xi32>
  tile.store %op, %pick : !tile.block<128x!tile.ptr<f8E5M2>>
  %big = arith.constant 448.0 : f8E4M3FN
  tile.store %s, %big : !tile.ptr<f8E4M3FN>
  return
}
