// The user's PTX (tl.inline_asm_elementwise) lands in the kernel once per
// `pack` elements, bytes packed four to a b32 register; asm with side
// effects stays though its result is unused.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// 512 bytes over 128 threads: 4 per thread, one asm.
// CHECK-LABEL: .entry packed(
// CHECK-COUNT-1: and.b32 {{.*}}, 0x1F1F1F1F;
// CHECK-NOT: and.b32 {{.*}}, 0x1F1F1F1F;
// CHECK: trap;
func.func @packed(%x: !tile.ptr<i8>, %y: !tile.ptr<i8>) {
  %r = tile.arange 0, 512 : !tile.block<512xi32>
  %xb = tile.splat %x : !tile.ptr<i8> -> !tile.block<512x!tile.ptr<i8>>
  %xp = tile.addptr %xb, %r : !tile.block<512x!tile.ptr<i8>>, !tile.block<512xi32>
  %v = tile.load %xp : !tile.block<512x!tile.ptr<i8>>
  %w = tile.inline_asm "and.b32 $0, $1, 0x1F1F1F1F;", "=r,r" %v {pack = 4 : i32, pure} : (!tile.block<512xi8>) -> (!tile.block<512xi8>)
  %yb = tile.splat %y : !tile.ptr<i8> -> !tile.block<512x!tile.ptr<i8>>
  %yp = tile.addptr %yb, %r : !tile.block<512x!tile.ptr<i8>>, !tile.block<512xi32>
  tile.store %yp, %w : !tile.block<512x!tile.ptr<i8>>
  %unused = tile.inline_asm "trap;", "=r" {pack = 1 : i32} : () -> (i32)
  return
}
