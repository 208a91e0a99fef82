// Regression: an optional group in the assembly format once accepted a bare
// `mask` or `other` keyword and dropped it; a keyword without its operand is
// an error.
// RUN: not tile-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @load_mask_no_operand(%p: !tile.block<4x!tile.ptr<f32>>) -> !tile.block<4xf32> {
  // CHECK: mask-keyword-without-operand.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = tile.load %p mask : !tile.block<4x!tile.ptr<f32>>
  return %0 : !tile.block<4xf32>
}

// -----

func.func @load_other_no_operand(%p: !tile.block<4x!tile.ptr<f32>>, %m: !tile.block<4xi1>) -> !tile.block<4xf32> {
  // CHECK: mask-keyword-without-operand.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  %0 = tile.load %p mask %m other : !tile.block<4x!tile.ptr<f32>>
  return %0 : !tile.block<4xf32>
}

// -----

func.func @store_mask_no_operand(%p: !tile.block<4x!tile.ptr<f32>>, %v: !tile.block<4xf32>) {
  // CHECK: mask-keyword-without-operand.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
  tile.store %p, %v mask : !tile.block<4x!tile.ptr<f32>>
  return
}
