// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// Broadcasting an index function (the row offsets) costs no data movement:
// no barrier, no shared memory.
// CHECK-LABEL: gpu.func @broadcast_indices
// CHECK-SAME: tile.shared_bytes = 0
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @broadcast_indices(%x: !tile.ptr<f32>, %stride: i32) {
  %rows = tile.arange 0, 24 : !tile.block<24xi32>
  %cols = tile.arange 0, 40 : !tile.block<40xi32>
  %s = tile.splat %stride : i32 -> !tile.block<24xi32>
  %ro = tile.muli %rows, %s : !tile.block<24xi32>
  %r2 = tile.expand_dims %ro {axis = 1 : i32} : !tile.block<24xi32> -> !tile.block<24x1xi32>
  %rb = tile.broadcast %r2 : !tile.block<24x1xi32> -> !tile.block<24x40xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<40xi32> -> !tile.block<1x40xi32>
  %cb = tile.broadcast %c2 : !tile.block<1x40xi32> -> !tile.block<24x40xi32>
  %offs = tile.addi %rb, %cb : !tile.block<24x40xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<24x40x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<24x40x!tile.ptr<f32>>, !tile.block<24x40xi32>
  %v = tile.load %p : !tile.block<24x40x!tile.ptr<f32>>
  tile.store %p, %v : !tile.block<24x40x!tile.ptr<f32>>
  return
}
