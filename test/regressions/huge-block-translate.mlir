// A 2^20-element block used to take tile-translate 41 s and 2 GB (in ptxas)
// at the default 4 warps; now the compile stops at once with a located
// diagnostic.
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx 2>&1 | FileCheck %s
// RUN: not tile-translate --tile-to-ptx --num-warps=32 %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=W32
// CHECK: huge-block-translate.mlir:[[@LINE+3]]:8: error: block of 1048576 elements needs 8192 registers per thread at 128 threads, more than 255
// W32: huge-block-translate.mlir:[[@LINE+2]]:8: error: block of 1048576 elements needs 1024 registers per thread at 1024 threads, more than 255
func.func @huge(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.arange 0, 1048576 : !tile.block<1048576xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1048576x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<1048576x!tile.ptr<f32>>, !tile.block<1048576xi32>
  %v = tile.load %xp : !tile.block<1048576x!tile.ptr<f32>>
  %w = tile.addf %v, %v : !tile.block<1048576xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<1048576x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r : !tile.block<1048576x!tile.ptr<f32>>, !tile.block<1048576xi32>
  tile.store %op, %w : !tile.block<1048576x!tile.ptr<f32>>
  return
}
