// Cache operators, eviction priorities and volatile reach the PTX of loads
// and stores: vector, masked, single-byte and scalar accesses.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry hints(
// CHECK: ld.global.cg.v4.b32
// CHECK: ld.global.L1::evict_last.b32
// CHECK: ld.global.cv.u8
// CHECK: ld.volatile.global
// CHECK: st.global.cs.v4.b32
// CHECK: st.global.L1::evict_first.b32
// CHECK: st.global.wt.u8
// CHECK: st.volatile.global
func.func @hints(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %b: !tile.ptr<i8>, %n: i32) {
  %r = tile.arange 0, 512 : !tile.block<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  %v = tile.load %xp {cache = "cg"} : !tile.block<512x!tile.ptr<f32>>
  %nb = tile.splat %n : i32 -> !tile.block<512xi32>
  %m = tile.cmpi slt, %r, %nb : !tile.block<512xi32>
  %two = arith.constant 2 : i32
  %tb = tile.splat %two : i32 -> !tile.block<512xi32>
  %strided = tile.muli %r, %tb : !tile.block<512xi32>
  %sp = tile.addptr %xb, %strided : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  %w = tile.load %sp mask %m {evict = "evict_last"} : !tile.block<512x!tile.ptr<f32>>
  %byte = tile.load %b {cache = "cv"} : !tile.ptr<i8>
  %vol = tile.load %x {is_volatile} : !tile.ptr<f32>
  %s = tile.addf %v, %w : !tile.block<512xf32>
  %volb = tile.splat %vol : f32 -> !tile.block<512xf32>
  %t = tile.addf %s, %volb : !tile.block<512xf32>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %r : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  tile.store %yp, %t {cache = "cs"} : !tile.block<512x!tile.ptr<f32>>
  %yq = tile.addptr %yb, %strided : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  tile.store %yq, %t mask %m {evict = "evict_first"} : !tile.block<512x!tile.ptr<f32>>
  tile.store %b, %byte {cache = "wt"} : !tile.ptr<i8>
  tile.store %y, %vol {is_volatile} : !tile.ptr<f32>
  return
}
