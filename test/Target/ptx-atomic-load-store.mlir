// Atomic loads and stores (tl.atomic_load / tl.atomic_store) reach the PTX
// as one ordered access per element, with their scope; a replicated
// element is stored once.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry ordered(
// CHECK: ld.acquire.gpu.global.b32
// CHECK: ld.relaxed.cta.global.b16
// CHECK-NOT: ld.global.v
// CHECK: st.release.sys.global.b16
// CHECK: st.release.gpu.global.b32
func.func @ordered(%flag: !tile.ptr<i32>, %x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %n: i32) attributes {tile.num_warps = 1 : i32} {
  %f = tile.load %flag {sem = #tile<sem acquire>, scope = #tile<scope gpu>} : !tile.ptr<i32>
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %nb = tile.splat %n : i32 -> !tile.block<128xi32>
  %m = tile.cmpi slt, %r, %nb : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f16> -> !tile.block<128x!tile.ptr<f16>>
  %xp = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f16>>, !tile.block<128xi32>
  %v = tile.load %xp mask %m {sem = #tile<sem relaxed>, scope = #tile<scope cta>} : !tile.block<128x!tile.ptr<f16>>
  %yb = tile.splat %y : !tile.ptr<f16> -> !tile.block<128x!tile.ptr<f16>>
  %yp = tile.addptr %yb, %r : !tile.block<128x!tile.ptr<f16>>, !tile.block<128xi32>
  tile.store %yp, %v mask %m {sem = #tile<sem release>, scope = #tile<scope sys>} : !tile.block<128x!tile.ptr<f16>>
  tile.store %flag, %f {sem = #tile<sem release>, scope = #tile<scope gpu>} : !tile.ptr<i32>
  return
}
