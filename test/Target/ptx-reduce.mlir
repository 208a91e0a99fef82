// Reductions use warp shuffles; math goes through libdevice, so no
// unresolved __nv_ symbol is left in the PTX.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry row_softmax(
// CHECK-NOT: __nv_
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0
// CHECK: ex2.approx
// CHECK: shfl.sync.bfly.b32
// CHECK-NOT: __nv_
// CHECK-LABEL: .entry column_max(
// CHECK: shfl.sync.bfly.b32
func.func @row_softmax(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) {
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %nb = tile.splat %n : i32 -> !tile.block<1024xi32>
  %m = tile.cmpi slt, %r, %nb : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %ninf = tile.constant dense<0xFF800000> : !tile.block<1024xf32>
  %v = tile.load %p mask %m other %ninf : !tile.block<1024x!tile.ptr<f32>>
  %max = tile.reduce max %v {axis = 0 : i32} : !tile.block<1024xf32> -> f32
  %mb = tile.splat %max : f32 -> !tile.block<1024xf32>
  %d = tile.subf %v, %mb : !tile.block<1024xf32>
  %e = tile.exp %d : !tile.block<1024xf32>
  %s = tile.reduce sum %e {axis = 0 : i32} : !tile.block<1024xf32> -> f32
  %sb = tile.splat %s : f32 -> !tile.block<1024xf32>
  %y = tile.divf %e, %sb : !tile.block<1024xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %q = tile.addptr %ob, %r : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %q, %y mask %m : !tile.block<1024x!tile.ptr<f32>>
  return
}

func.func @column_max(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %rows = tile.arange 0, 32 : !tile.block<32xi32>
  %cols = tile.arange 0, 16 : !tile.block<16xi32>
  %c16 = tile.constant dense<16> : !tile.block<32xi32>
  %ro = tile.muli %rows, %c16 : !tile.block<32xi32>
  %r2 = tile.expand_dims %ro {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %rb = tile.broadcast %r2 : !tile.block<32x1xi32> -> !tile.block<32x16xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<16xi32> -> !tile.block<1x16xi32>
  %cb = tile.broadcast %c2 : !tile.block<1x16xi32> -> !tile.block<32x16xi32>
  %offs = tile.addi %rb, %cb : !tile.block<32x16xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<32x16x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<32x16x!tile.ptr<f32>>, !tile.block<32x16xi32>
  %v = tile.load %p : !tile.block<32x16x!tile.ptr<f32>>
  %mx = tile.reduce max %v {axis = 0 : i32} : !tile.block<32x16xf32> -> !tile.block<16xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  %q = tile.addptr %ob, %cols : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
  tile.store %q, %mx : !tile.block<16x!tile.ptr<f32>>
  return
}
