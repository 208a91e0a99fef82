// Malformed tile types and attributes give a located parse error and exit
// status 1, never a crash.
// RUN: not tile-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not tile-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=NOCRASH

// NOCRASH-NOT: PLEASE submit a bug report
// NOCRASH-NOT: Stack dump
// NOCRASH-NOT: Assertion

// CHECK: invalid-types.mlir:[[@LINE+1]]:24: error: unknown  type `foo` in dialect `tile`
func.func @f(%a: !tile.foo) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:24: error: unknown  type `foo` in dialect `tile`
func.func @f(%a: !tile.foo<4xf32>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:43: error: unknown attribute `foo` in dialect `tile`
func.func @f(%a: !tile.block<4xf32, #tile.foo<1>>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:72: error: expected ','
func.func @f(%a: !tile.block<4xf32, #tile.blocked<size_per_thread = [4]>>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:29: error: unbalanced '<' character in pretty dialect name
func.func @f(%a: !tile.block<4xf32) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:30: error: expected non-function type
func.func @f(%a: !tile.block<>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:32: error: expected non-function type
func.func @f(%a: !tile.block<4x>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:30: error: expected non-function type
func.func @f(%a: !tile.block<-1xf32>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:30: error: invalid dimension
func.func @f(%a: !tile.block<9999999999999999999999xf32>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:27: error: !tile.ptr needs a pointee type, as in !tile.ptr<f32>
func.func @f(%a: !tile.ptr<>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:27: error: expected '<'
func.func @f(%a: !tile.ptr) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:50: error: #tile.blocked size_per_thread entries must be powers of two from 1 to 1024, not 4294967295
func.func @f(%a: !tile.block<4xf32, #tile.blocked<size_per_thread = [-1], threads_per_warp = [32], warps = [4], order = [0]>>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:29: error: block dimension 0 has extent 0; every extent must be a positive constant
func.func @f(%a: !tile.block<0xf32>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:27: error: pointee type must be a scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2), not 'index'
func.func @f(%a: !tile.ptr<index>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:{{[0-9]+}}: error: a ring needs at least one slot, not 0
func.func @f(%a: !tile.ring<0, !tile.block<64x64xf16>>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:{{[0-9]+}}: error: a ring holds tensor-core operands (f16, bf16, f32, f8E4M3FN, f8E5M2 or i8), not 'f64'
func.func @f(%a: !tile.ring<2, !tile.block<64x64xf64>>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:{{[0-9]+}}: error: a ring's block must be rank 1 or 2 with no encoding
func.func @f(%a: !tile.ring<2, !tile.block<2x4x8xf16>>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:{{[0-9]+}}: error: a rank-1 ring holds row statistics (f32 or i32), not 'f16'
func.func @f(%a: !tile.ring<2, !tile.block<4096xf16>>) { return }

// -----

// CHECK: invalid-types.mlir:[[@LINE+1]]:{{[0-9]+}}: error: a rank-1 ring's rows hold at least 8 elements, not 4
func.func @f(%a: !tile.ring<2, !tile.block<4xf32>>) { return }
