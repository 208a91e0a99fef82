// MLIR parses, verifies and walks nested IR recursively: 5,000 nested scf.if
// overflowed tile-opt's stack. Input nested deeper than 256 levels of
// brackets is now a located error before parsing, in tile-opt and in the
// compile library (tile-translate, tile-cc, the C API), and both run on a
// 256 MiB stack, so that the deepest accepted input goes through every pass.
// 2,000 nested `!tile.ptr<` took 31 s (one error per level, each quoting the
// line); it is now one error, at once.
// RUN: python3 %S/Inputs/nested.py if 254 > %t.if254.mlir
// RUN: tile-opt %t.if254.mlir --canonicalize --tile-assign-layouts --convert-tile-to-gpu | FileCheck %s --check-prefix=DEEPEST
// RUN: tile-translate --tile-to-ptx %t.if254.mlir | FileCheck %s --check-prefix=PTX
// RUN: python3 %S/Inputs/nested.py if 255 > %t.if255.mlir
// RUN: not tile-opt %t.if255.mlir 2>&1 | FileCheck %s --check-prefix=TOODEEP
// RUN: not tile-translate --tile-to-ptx %t.if255.mlir 2>&1 | FileCheck %s --check-prefix=TOODEEP
// RUN: python3 %S/Inputs/nested.py if 5000 > %t.if5000.mlir
// RUN: not tile-opt %t.if5000.mlir 2>&1 | FileCheck %s --check-prefix=DEEP5000
// RUN: not tile-translate --tile-to-ptx %t.if5000.mlir 2>&1 | FileCheck %s --check-prefix=DEEP5000
// RUN: cat %t.if5000.mlir | not tile-opt 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: python3 %S/Inputs/nested.py for 250 > %t.for250.mlir
// RUN: tile-translate --tile-to-ptx %t.for250.mlir | FileCheck %s --check-prefix=PTX
// RUN: python3 %S/Inputs/nested.py ptr 250 > %t.ptr250.mlir
// RUN: not timeout 20 tile-opt %t.ptr250.mlir 2>&1 | FileCheck %s --check-prefix=PTR
// RUN: python3 %S/Inputs/nested.py ptr 2000 > %t.ptr2000.mlir
// RUN: not timeout 20 tile-opt %t.ptr2000.mlir 2>&1 | FileCheck %s --check-prefix=PTR2000
// Brackets in strings and comments do not count.
// RUN: tile-opt %s | FileCheck %s --check-prefix=STRINGS

// DEEPEST: gpu.func @k(
// PTX: .visible .entry k(
// TOODEEP: if255.mlir:258:32: error: nesting deeper than 256 levels of brackets ( [ { < here; tile limits the nesting of its input because the parser, verifier and passes recurse over it
// DEEP5000: if5000.mlir:258:12: error: nesting deeper than 256 levels of brackets
// DEEP5000-NOT: Stack dump
// STDIN: <stdin>:258:12: error: nesting deeper than 256 levels
// PTR: ptr250.mlir:1:2507: error: pointee type must be a scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2), not '!tile.ptr<f32>'
// PTR-NOT: error
// PTR2000: ptr2000.mlir:1:2577: error: nesting deeper than 256 levels
// PTR2000-NOT: error
// STRINGS: note = "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((
// ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((
func.func @f() attributes {note = "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("} {
  return
}
