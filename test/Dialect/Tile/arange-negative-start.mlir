// Regression: the verifier once read the I32Attr bounds unsigned, so a
// negative start was taken as 2^32 + start.
// RUN: tile-opt %s | FileCheck %s

// CHECK-LABEL: func @arange_negative
// CHECK: tile.arange -4, 4 : !tile.block<8xi32>
func.func @arange_negative() -> !tile.block<8xi32> {
  %0 = tile.arange -4, 4 : !tile.block<8xi32>
  return %0 : !tile.block<8xi32>
}
