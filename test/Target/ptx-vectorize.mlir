// The compiler, not the author, vectorizes: aligned contiguous f32 accesses
// become 128-bit, unaligned ones stay 32-bit. Every PTX is assembled.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry aligned(
// CHECK: .maxntid 128, 1, 1
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}
// CHECK: @%p{{[0-9]+}} st.global.v4.b32
// CHECK-LABEL: .entry unaligned(
// CHECK-NOT: .v4
// CHECK: ld.global.b32
// CHECK-NOT: .v4
// CHECK: st.global.b32
// CHECK-LABEL: .entry half_aligned(
// CHECK: ld.global.v4.b32
// CHECK-LABEL: .entry unmasked(
// CHECK: ld.global.v4.{{f32|b32}}
// CHECK: st.global.v4.{{f32|b32}}
// Rows `stride` elements apart: with 16 | stride every row start is aligned;
// with nothing known a row may start anywhere (an odd stride), so 128-bit
// accesses would be misaligned and they stay 32-bit.
// CHECK-LABEL: .entry aligned_rows(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK-LABEL: .entry unaligned_rows(
// CHECK-NOT: .v4
// CHECK: ld.global.b32
// CHECK-NOT: .v4
// CHECK: st.global.b32
// CHECK-NOT: .v4

func.func @aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %s = tile.splat %start : i32 -> !tile.block<1024xi32>
  %offs = tile.addi %s, %r : !tile.block<1024xi32>
  %nb = tile.splat %n : i32 -> !tile.block<1024xi32>
  %m = tile.cmpi slt, %offs, %nb : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p mask %m : !tile.block<1024x!tile.ptr<f32>>
  %w = tile.mulf %v, %v : !tile.block<1024xf32>
  tile.store %p, %w mask %m : !tile.block<1024x!tile.ptr<f32>>
  return
}

func.func @unaligned(%x: !tile.ptr<f32>, %n: i32) {
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %nb = tile.splat %n : i32 -> !tile.block<1024xi32>
  %m = tile.cmpi slt, %r, %nb : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p mask %m : !tile.block<1024x!tile.ptr<f32>>
  tile.store %p, %v mask %m : !tile.block<1024x!tile.ptr<f32>>
  return
}

// f16 with 16-byte alignment: eight halves per 128-bit access.
func.func @half_aligned(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 2048 : !tile.block<2048xi32>
  %nb = tile.splat %n : i32 -> !tile.block<2048xi32>
  %m = tile.cmpi slt, %r, %nb : !tile.block<2048xi32>
  %xb = tile.splat %x : !tile.ptr<f16> -> !tile.block<2048x!tile.ptr<f16>>
  %p = tile.addptr %xb, %r : !tile.block<2048x!tile.ptr<f16>>, !tile.block<2048xi32>
  %v = tile.load %p mask %m : !tile.block<2048x!tile.ptr<f16>>
  tile.store %p, %v mask %m : !tile.block<2048x!tile.ptr<f16>>
  return
}

func.func @unmasked(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 512 : !tile.block<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  %v = tile.load %p : !tile.block<512x!tile.ptr<f32>>
  %w = tile.addf %v, %v : !tile.block<512xf32>
  tile.store %p, %w : !tile.block<512x!tile.ptr<f32>>
  return
}

func.func @aligned_rows(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 16 : !tile.block<16xi32>
  %c = tile.arange 0, 32 : !tile.block<32xi32>
  %r1 = tile.expand_dims %r {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  %s = tile.splat %stride : i32 -> !tile.block<16x1xi32>
  %rs = tile.muli %r1, %s : !tile.block<16x1xi32>
  %rb = tile.broadcast %rs : !tile.block<16x1xi32> -> !tile.block<16x32xi32>
  %c1 = tile.expand_dims %c {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
  %cb = tile.broadcast %c1 : !tile.block<1x32xi32> -> !tile.block<16x32xi32>
  %o = tile.addi %rb, %cb : !tile.block<16x32xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16x32x!tile.ptr<f32>>
  %p = tile.addptr %xb, %o : !tile.block<16x32x!tile.ptr<f32>>, !tile.block<16x32xi32>
  %v = tile.load %p : !tile.block<16x32x!tile.ptr<f32>>
  %w = tile.addf %v, %v : !tile.block<16x32xf32>
  tile.store %p, %w : !tile.block<16x32x!tile.ptr<f32>>
  return
}

func.func @unaligned_rows(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32) {
  %r = tile.arange 0, 16 : !tile.block<16xi32>
  %c = tile.arange 0, 32 : !tile.block<32xi32>
  %r1 = tile.expand_dims %r {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  %s = tile.splat %stride : i32 -> !tile.block<16x1xi32>
  %rs = tile.muli %r1, %s : !tile.block<16x1xi32>
  %rb = tile.broadcast %rs : !tile.block<16x1xi32> -> !tile.block<16x32xi32>
  %c1 = tile.expand_dims %c {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
  %cb = tile.broadcast %c1 : !tile.block<1x32xi32> -> !tile.block<16x32xi32>
  %o = tile.addi %rb, %cb : !tile.block<16x32xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16x32x!tile.ptr<f32>>
  %p = tile.addptr %xb, %o : !tile.block<16x32x!tile.ptr<f32>>, !tile.block<16x32xi32>
  %v = tile.load %p : !tile.block<16x32x!tile.ptr<f32>>
  %w = tile.addf %v, %v : !tile.block<16x32xf32>
  tile.store %p, %w : !tile.block<16x32x!tile.ptr<f32>>
  return
}
