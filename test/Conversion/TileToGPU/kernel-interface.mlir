// What a kernel's interface must be to become a PTX entry, checked before
// anything is emitted. Names with '.', spaces or non-ASCII characters used to
// abort the process in LLVM ("Symbol name with unsupported characters"),
// through tileCompile too; a memref parameter was accepted and expanded into
// five PTX parameters while the launch facts listed one.
// RUN: not tile-opt %s -split-input-file -convert-tile-to-gpu 2>&1 | FileCheck %s
// RUN: not tile-translate --tile-to-ptx %s 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: kernel-interface.mlir:[[@LINE+4]]:1: error: kernel name 'my.kernel' is not an identifier: a kernel is named with letters, digits and '_', not starting with a digit (it becomes the PTX entry name)
// FIRST-NOT: Stack dump

// CHECK: kernel-interface.mlir:[[@LINE+1]]:1: error: kernel name 'my.kernel' is not an identifier: a kernel is named with letters, digits and '_', not starting with a digit (it becomes the PTX entry name)
func.func @"my.kernel"(%x: !tile.ptr<f32>) {
  return
}

// -----

// CHECK: kernel-interface.mlir:[[@LINE+1]]:1: error: kernel name 'my kernel' is not an identifier
func.func @"my kernel"(%x: !tile.ptr<f32>) {
  return
}

// -----

// CHECK: kernel-interface.mlir:[[@LINE+1]]:1: error: kernel name 'caf\303\251' is not an identifier
func.func @"café"(%x: !tile.ptr<f32>) {
  return
}

// -----

// CHECK: kernel-interface.mlir:[[@LINE+1]]:1: error: kernel name '2d_add' is not an identifier
func.func @"2d_add"(%x: !tile.ptr<f32>) {
  return
}

// -----

// CHECK: kernel-interface.mlir:[[@LINE+1]]:33: error: kernel 'with_memref' argument 1 has type 'memref<4xf32>'; kernel arguments are scalars (i1, i8, i16, i32, i64, f16, bf16, f32, f64), !tile.ptr or !tile.tensor_map
func.func @with_memref(%x: f32, %m: memref<4xf32>) {
  return
}

// -----

// CHECK: kernel-interface.mlir:[[@LINE+1]]:23: error: kernel 'with_block' argument 0 has type '!tile.block<4xf32>'
func.func @with_block(%b: !tile.block<4xf32>) {
  return
}

// -----

// CHECK: kernel-interface.mlir:[[@LINE+1]]:23: error: kernel 'with_index' argument 0 has type 'index'
func.func @with_index(%i: index) {
  return
}

// -----

// 8-bit floats live in memory: no launcher passes one by value.
// CHECK: kernel-interface.mlir:[[@LINE+1]]:24: error: kernel 'with_float8' argument 0 has type 'f8E4M3FN'
func.func @with_float8(%x: f8E4M3FN) {
  return
}
