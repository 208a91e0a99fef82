// Malformed IR, unknown ops and bad op syntax give a located error and exit
// status 1, never a crash.
// RUN: not tile-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not tile-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=NOCRASH

// NOCRASH-NOT: PLEASE submit a bug report
// NOCRASH-NOT: Stack dump
// NOCRASH-NOT: Assertion

func.func @f() {
  // CHECK: errors.mlir:[[@LINE+1]]:8: error: custom op 'tile.bar' is unknown
  %0 = tile.bar : i32
  return
}

// -----

func.func @f() {
  // CHECK: errors.mlir:[[@LINE+1]]:3: error: unregistered operation 'tile.bar' found in dialect ('tile') that does not allow unknown operations
  "tile.bar"() : () -> ()
  return
}

// -----

func.func @f(%x: !tile.block<4xf32>) {
  // CHECK: errors.mlir:[[@LINE+1]]:8: error: custom op 'tile.add' is unknown
  %0 = tile.add %x, %x : !tile.block<4xf32>
  return
}

// -----

func.func @f(%a: !tile.block<4xf32>) {
  // CHECK: errors.mlir:[[@LINE+1]]:22: error: use of undeclared SSA value name
  %0 = tile.addf %a, %undefined : !tile.block<4xf32>
  return
}

// -----

func.func @f(%a: !tile.block<4xf32>) {
  %0 = tile.addf %a, %a
  // CHECK: errors.mlir:[[@LINE-1]]:24: error: expected ':'
  return
}

// -----

func.func @f() {
  // CHECK: errors.mlir:[[@LINE+1]]:23: error: expected attribute value
  %0 = tile.program_id x : i32
  return
}

// -----

func.func @f() {
  // CHECK: errors.mlir:[[@LINE+1]]:24: error: integer constant out of range for attribute
  %0 = tile.program_id 99999999999 : i32
  return
}

// -----

func.func @f() {
  // CHECK: errors.mlir:[[@LINE+1]]:23: error: integer constant out of range for attribute
  %0 = tile.arange 0, 5000000000 : !tile.block<16xi32>
  return
}

// -----

func.func @f(%a: !tile.block<4xf32>) {
  // CHECK: errors.mlir:[[@LINE+2]]:20: error: custom op 'tile.reduce' expected ::mlir::tile::CombineKind to be one of: sum, max, min, custom
  // CHECK: errors.mlir:[[@LINE+1]]:25: error: custom op 'tile.reduce' failed to parse Tile_CombineKindAttr parameter 'value' which is to be a `::mlir::tile::CombineKind`
  %0 = tile.reduce prod %a {axis = 0 : i32} : !tile.block<4xf32> -> f32
  return
}

// -----

func.func @f(%a: !tile.block<4xi32>) {
  // CHECK: errors.mlir:[[@LINE+1]]:18: error: custom op 'tile.cmpi' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]
  %0 = tile.cmpi lt, %a, %a : !tile.block<4xi32>
  return
}

// -----

func.func @f() {
  // CHECK: errors.mlir:[[@LINE+1]]:22: error: inferred shape of elements literal ([3]) does not match type ([4])
  %0 = tile.constant dense<[1, 2, 3]> : !tile.block<4xi32>
  return
}

// -----

func.func @f() {
  // CHECK: errors.mlir:[[@LINE+1]]:28: error: expected integer elements, but parsed floating-point
  %0 = tile.constant dense<1.5> : !tile.block<4xi32>
  return
}

// -----

func.func @f(%x: !tile.block<16xi32>) {
  // CHECK: errors.mlir:[[@LINE+1]]:66: error: expected '->'
  %0 = tile.expand_dims %x {axis = 1 : i32} : !tile.block<16xi32>
  return
}

// -----

// A type used where an operation is expected.
// CHECK: errors.mlir:[[@LINE+1]]:1: error: type names with a '.' are reserved for dialect-defined names
!tile.block<4xf32>

// -----

// A truncated function: the input ends inside the body.
func.func @f(%a: !tile.block<4xf32>) {
  %0 = tile.addf %a, %a : !tile.block<4xf32>
// The error is at the end of the input, the end of this line.
// CHECK: errors.mlir:[[@LINE]]:{{[0-9]+}}: error: expected operation name in quotes
