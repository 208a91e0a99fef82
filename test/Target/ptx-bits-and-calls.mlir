// Bit casts, pointer casts, libdevice calls and rounding modes reach the PTX:
// no unresolved __nv_ symbol is left (libdevice is linked).
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-NOT: .extern .func __nv_
// CHECK-LABEL: .entry bits_and_calls(
// The erf body from libdevice is inlined: no call is left. Its fma flushes
// subnormals, as Triton's does: reflect-ftz is on by default.
// CHECK-NOT: call{{.*}}__nv_
// CHECK: fma.rn.ftz.f32
// CHECK: cvt.rzi.u32.f32
// CHECK: mul.hi.u32
// CHECK: cvt.rz.bf16.f32
// CHECK: cvt.rz.bf16.f32
// CHECK: ret;
func.func @bits_and_calls(%x: !tile.ptr<f32>, %out: !tile.ptr<i32>, %h: !tile.ptr<bf16>,
                          %addrs: !tile.ptr<i64>, %a: i32, %b: i32) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %xp : !tile.block<128x!tile.ptr<f32>>
  %e = tile.extern_elementwise "__nv_erff"(%v) : (!tile.block<128xf32>) -> !tile.block<128xf32>
  %bits = tile.bitcast %e : !tile.block<128xf32> to !tile.block<128xi32>
  %u = tile.cast %v {unsigned_dst} : !tile.block<128xf32> to !tile.block<128xi32>
  %s = tile.addi %bits, %u : !tile.block<128xi32>
  %hi = tile.extern_elementwise "__nv_umulhi"(%a, %b) : (i32, i32) -> i32
  %hb = tile.splat %hi : i32 -> !tile.block<128xi32>
  %t = tile.addi %s, %hb : !tile.block<128xi32>
  %ob = tile.splat %out : !tile.ptr<i32> -> !tile.block<128x!tile.ptr<i32>>
  %op = tile.addptr %ob, %r : !tile.block<128x!tile.ptr<i32>>, !tile.block<128xi32>
  tile.store %op, %t : !tile.block<128x!tile.ptr<i32>>
  %z = tile.cast %v {rtz} : !tile.block<128xf32> to !tile.block<128xbf16>
  %hb2 = tile.splat %h : !tile.ptr<bf16> -> !tile.block<128x!tile.ptr<bf16>>
  %hp = tile.addptr %hb2, %r : !tile.block<128x!tile.ptr<bf16>>, !tile.block<128xi32>
  tile.store %hp, %z : !tile.block<128x!tile.ptr<bf16>>
  // A pointer loaded from memory: ptr_to_int / int_to_ptr round trip.
  %addr = tile.load %addrs : !tile.ptr<i64>
  %p = tile.int_to_ptr %addr : i64 to !tile.ptr<f32>
  %back = tile.ptr_to_int %p : !tile.ptr<f32> to i64
  %p2 = tile.int_to_ptr %back : i64 to !tile.ptr<f32>
  %c = tile.bitcast %p2 : !tile.ptr<f32> to !tile.ptr<i32>
  tile.store %c, %hi : !tile.ptr<i32>
  // A scalar cast with rounding toward zero (scalars use tile.cast for rtz).
  %sx = tile.load %x : !tile.ptr<f32>
  %sh = tile.cast %sx {rtz} : f32 to bf16
  tile.store %h, %sh : !tile.ptr<bf16>
  return
}
