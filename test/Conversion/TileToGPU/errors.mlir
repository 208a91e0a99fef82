// RUN: not tile-opt %s -convert-tile-to-gpu -split-input-file 2>&1 | FileCheck %s --check-prefix=NOLAYOUT
// RUN: not tile-opt %s -tile-assign-layouts=num-warps=0 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not tile-opt %s -tile-assign-layouts -convert-tile-to-gpu=chip=sm_86 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu=chip=sm_90 | FileCheck %s --check-prefix=FITS
// RUN: not tile-opt %s -tile-assign-layouts -convert-tile-to-gpu=chip=sm_91 2>&1 | FileCheck %s --check-prefix=CHIP

// NOLAYOUT: errors.mlir:[[@LINE+5]]:1: error: kernel 'big_dot' has no layouts; run tile-assign-layouts first
// WARPS: error: num-warps must be a power of two from 1 to 32, not 0
// SHARED: errors.mlir:[[@LINE+3]]:1: error: kernel 'big_dot' needs 131072 bytes of shared memory, more than the 101376 a block can have on sm_86; use smaller tiles or fewer stages
// FITS: tile.shared_bytes = 131072
// CHIP: error: convert-tile-to-gpu: unsupported chip 'sm_91'
func.func @big_dot(%a: !tile.ptr<f32>) {
  %r = tile.arange 0, 16384 : !tile.block<16384xi32>
  %ab = tile.splat %a : !tile.ptr<f32> -> !tile.block<16384x!tile.ptr<f32>>
  %p = tile.addptr %ab, %r : !tile.block<16384x!tile.ptr<f32>>, !tile.block<16384xi32>
  %v = tile.load %p : !tile.block<16384x!tile.ptr<f32>>
  %m = tile.reshape %v : !tile.block<16384xf32> -> !tile.block<128x128xf32>
  %c = tile.dot %m, %m, %m : !tile.block<128x128xf32>, !tile.block<128x128xf32> -> !tile.block<128x128xf32>
  %f = tile.reshape %c : !tile.block<128x128xf32> -> !tile.block<16384xf32>
  tile.store %p, %f : !tile.block<16384x!tile.ptr<f32>>
  return
}
