// RUN: tile-opt %s -canonicalize -split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// Integer identities
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @addi_zero
// CHECK-SAME: (%[[X:.*]]: !tile.block<16xi32>)
// CHECK-NOT: tile.addi
// CHECK: return %[[X]], %[[X]]
func.func @addi_zero(%x: !tile.block<16xi32>) -> (!tile.block<16xi32>, !tile.block<16xi32>) {
  %z = tile.constant dense<0> : !tile.block<16xi32>
  %0 = tile.addi %x, %z : !tile.block<16xi32>
  %1 = tile.addi %z, %x : !tile.block<16xi32>
  return %0, %1 : !tile.block<16xi32>, !tile.block<16xi32>
}

// -----

// A zero made by tile.splat of a scalar constant is an identity too.
// CHECK-LABEL: func @addi_splat_zero
// CHECK-SAME: (%[[X:.*]]: !tile.block<4x8xi64>)
// CHECK-NOT: tile.addi
// CHECK: return %[[X]]
func.func @addi_splat_zero(%x: !tile.block<4x8xi64>) -> !tile.block<4x8xi64> {
  %c0 = arith.constant 0 : i64
  %z = tile.splat %c0 : i64 -> !tile.block<4x8xi64>
  %0 = tile.addi %x, %z : !tile.block<4x8xi64>
  return %0 : !tile.block<4x8xi64>
}

// -----

// CHECK-LABEL: func @addi_nonzero
// CHECK: %[[C:.*]] = tile.constant dense<1> : !tile.block<16xi32>
// CHECK: %[[R:.*]] = tile.addi %{{.*}}, %[[C]] : !tile.block<16xi32>
// CHECK: return %[[R]]
func.func @addi_nonzero(%x: !tile.block<16xi32>) -> !tile.block<16xi32> {
  %c = tile.constant dense<1> : !tile.block<16xi32>
  %0 = tile.addi %x, %c : !tile.block<16xi32>
  return %0 : !tile.block<16xi32>
}

// -----

// A non-splat constant with a zero in it is not an identity.
// CHECK-LABEL: func @addi_nonsplat
// CHECK: tile.constant dense<[0, 1, 0, 0]> : !tile.block<4xi32>
// CHECK: tile.addi
func.func @addi_nonsplat(%x: !tile.block<4xi32>) -> !tile.block<4xi32> {
  %c = tile.constant dense<[0, 1, 0, 0]> : !tile.block<4xi32>
  %0 = tile.addi %x, %c : !tile.block<4xi32>
  return %0 : !tile.block<4xi32>
}

// -----

// CHECK-LABEL: func @subi_zero
// CHECK-SAME: (%[[X:.*]]: !tile.block<16xi32>)
// CHECK-NOT: tile.subi
// CHECK: return %[[X]]
func.func @subi_zero(%x: !tile.block<16xi32>) -> !tile.block<16xi32> {
  %z = tile.constant dense<0> : !tile.block<16xi32>
  %0 = tile.subi %x, %z : !tile.block<16xi32>
  return %0 : !tile.block<16xi32>
}

// -----

// 0 - x is not x.
// CHECK-LABEL: func @zero_subi
// CHECK: tile.subi
func.func @zero_subi(%x: !tile.block<16xi32>) -> !tile.block<16xi32> {
  %z = tile.constant dense<0> : !tile.block<16xi32>
  %0 = tile.subi %z, %x : !tile.block<16xi32>
  return %0 : !tile.block<16xi32>
}

// -----

// CHECK-LABEL: func @muli_one
// CHECK-SAME: (%[[X:.*]]: !tile.block<16xi8>)
// CHECK-NOT: tile.muli
// CHECK: return %[[X]], %[[X]]
func.func @muli_one(%x: !tile.block<16xi8>) -> (!tile.block<16xi8>, !tile.block<16xi8>) {
  %one = tile.constant dense<1> : !tile.block<16xi8>
  %0 = tile.muli %x, %one : !tile.block<16xi8>
  %1 = tile.muli %one, %x : !tile.block<16xi8>
  return %0, %1 : !tile.block<16xi8>, !tile.block<16xi8>
}

// -----

// CHECK-LABEL: func @muli_zero
// CHECK: %[[Z:.*]] = tile.constant dense<0> : !tile.block<16xi32>
// CHECK-NOT: tile.muli
// CHECK: return %[[Z]], %[[Z]]
func.func @muli_zero(%x: !tile.block<16xi32>) -> (!tile.block<16xi32>, !tile.block<16xi32>) {
  %z = tile.constant dense<0> : !tile.block<16xi32>
  %0 = tile.muli %x, %z : !tile.block<16xi32>
  %1 = tile.muli %z, %x : !tile.block<16xi32>
  return %0, %1 : !tile.block<16xi32>, !tile.block<16xi32>
}

// -----

// CHECK-LABEL: func @divsi_one
// CHECK-SAME: (%[[X:.*]]: !tile.block<16xi32>)
// CHECK-NOT: tile.divsi
// CHECK: return %[[X]]
func.func @divsi_one(%x: !tile.block<16xi32>) -> !tile.block<16xi32> {
  %one = tile.constant dense<1> : !tile.block<16xi32>
  %0 = tile.divsi %x, %one : !tile.block<16xi32>
  return %0 : !tile.block<16xi32>
}

// -----

// 1 / x is not x.
// CHECK-LABEL: func @one_divsi
// CHECK: tile.divsi
func.func @one_divsi(%x: !tile.block<16xi32>) -> !tile.block<16xi32> {
  %one = tile.constant dense<1> : !tile.block<16xi32>
  %0 = tile.divsi %one, %x : !tile.block<16xi32>
  return %0 : !tile.block<16xi32>
}

// -----

//===----------------------------------------------------------------------===//
// Float identities
//===----------------------------------------------------------------------===//

// x + -0.0 is x for every x; x + +0.0 is not (-0.0 + +0.0 is +0.0).
// CHECK-LABEL: func @addf_zero
// CHECK-SAME: (%[[X:.*]]: !tile.block<16xf32>)
// CHECK: %[[PZ:.*]] = tile.constant dense<0.000000e+00> : !tile.block<16xf32>
// CHECK: %[[A:.*]] = tile.addf %[[X]], %[[PZ]] : !tile.block<16xf32>
// The constant moves to the right of the commutative op.
// CHECK: %[[B:.*]] = tile.addf %[[X]], %[[PZ]] : !tile.block<16xf32>
// CHECK: return %[[X]], %[[X]], %[[A]], %[[B]]
func.func @addf_zero(%x: !tile.block<16xf32>)
    -> (!tile.block<16xf32>, !tile.block<16xf32>, !tile.block<16xf32>, !tile.block<16xf32>) {
  %nz = tile.constant dense<-0.0> : !tile.block<16xf32>
  %pz = tile.constant dense<0.0> : !tile.block<16xf32>
  %0 = tile.addf %x, %nz : !tile.block<16xf32>
  %1 = tile.addf %nz, %x : !tile.block<16xf32>
  %2 = tile.addf %x, %pz : !tile.block<16xf32>
  %3 = tile.addf %pz, %x : !tile.block<16xf32>
  return %0, %1, %2, %3 : !tile.block<16xf32>, !tile.block<16xf32>, !tile.block<16xf32>, !tile.block<16xf32>
}

// -----

// CHECK-LABEL: func @addf_neg_zero_f16
// CHECK-SAME: (%[[X:.*]]: !tile.block<8xf16>)
// CHECK-NOT: tile.addf
// CHECK: return %[[X]]
func.func @addf_neg_zero_f16(%x: !tile.block<8xf16>) -> !tile.block<8xf16> {
  %c = arith.constant -0.0 : f16
  %nz = tile.splat %c : f16 -> !tile.block<8xf16>
  %0 = tile.addf %x, %nz : !tile.block<8xf16>
  return %0 : !tile.block<8xf16>
}

// -----

// x - +0.0 is x; x - -0.0 is not (+0.0 - -0.0 is +0.0, but -0.0 - -0.0 is +0.0).
// CHECK-LABEL: func @subf_zero
// CHECK-SAME: (%[[X:.*]]: !tile.block<16xf32>)
// CHECK: %[[NZ:.*]] = tile.constant dense<-0.000000e+00> : !tile.block<16xf32>
// CHECK: %[[A:.*]] = tile.subf %[[X]], %[[NZ]] : !tile.block<16xf32>
// CHECK: return %[[X]], %[[A]]
func.func @subf_zero(%x: !tile.block<16xf32>) -> (!tile.block<16xf32>, !tile.block<16xf32>) {
  %pz = tile.constant dense<0.0> : !tile.block<16xf32>
  %nz = tile.constant dense<-0.0> : !tile.block<16xf32>
  %0 = tile.subf %x, %pz : !tile.block<16xf32>
  %1 = tile.subf %x, %nz : !tile.block<16xf32>
  return %0, %1 : !tile.block<16xf32>, !tile.block<16xf32>
}

// -----

// CHECK-LABEL: func @mulf_one
// CHECK-SAME: (%[[X:.*]]: !tile.block<16xbf16>)
// CHECK-NOT: tile.mulf
// CHECK: return %[[X]], %[[X]]
func.func @mulf_one(%x: !tile.block<16xbf16>) -> (!tile.block<16xbf16>, !tile.block<16xbf16>) {
  %one = tile.constant dense<1.0> : !tile.block<16xbf16>
  %0 = tile.mulf %x, %one : !tile.block<16xbf16>
  %1 = tile.mulf %one, %x : !tile.block<16xbf16>
  return %0, %1 : !tile.block<16xbf16>, !tile.block<16xbf16>
}

// -----

// x * 0.0 is not 0.0 (NaN, infinities, -0.0).
// CHECK-LABEL: func @mulf_zero
// CHECK: tile.mulf
func.func @mulf_zero(%x: !tile.block<16xf32>) -> !tile.block<16xf32> {
  %z = tile.constant dense<0.0> : !tile.block<16xf32>
  %0 = tile.mulf %x, %z : !tile.block<16xf32>
  return %0 : !tile.block<16xf32>
}

// -----

// x / 1.0 has no folder.
// CHECK-LABEL: func @divf_one
// CHECK: tile.divf
func.func @divf_one(%x: !tile.block<16xf32>) -> !tile.block<16xf32> {
  %one = tile.constant dense<1.0> : !tile.block<16xf32>
  %0 = tile.divf %x, %one : !tile.block<16xf32>
  return %0 : !tile.block<16xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @fold_int
// CHECK-DAG: %[[ADD:.*]] = tile.constant dense<10> : !tile.block<4x4xi32>
// CHECK-DAG: %[[SUB:.*]] = tile.constant dense<-4> : !tile.block<4x4xi32>
// CHECK-DAG: %[[MUL:.*]] = tile.constant dense<21> : !tile.block<4x4xi32>
// CHECK-DAG: %[[DIV:.*]] = tile.constant dense<-2> : !tile.block<4x4xi32>
// CHECK-NOT: tile.addi
// CHECK-NOT: tile.subi
// CHECK-NOT: tile.muli
// CHECK-NOT: tile.divsi
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]]
func.func @fold_int() -> (!tile.block<4x4xi32>, !tile.block<4x4xi32>, !tile.block<4x4xi32>, !tile.block<4x4xi32>) {
  %a = tile.constant dense<3> : !tile.block<4x4xi32>
  %b = tile.constant dense<7> : !tile.block<4x4xi32>
  %m = tile.constant dense<-7> : !tile.block<4x4xi32>
  %0 = tile.addi %a, %b : !tile.block<4x4xi32>
  %1 = tile.subi %a, %b : !tile.block<4x4xi32>
  %2 = tile.muli %a, %b : !tile.block<4x4xi32>
  // Signed division truncates toward zero: -7 / 3 is -2.
  %3 = tile.divsi %m, %a : !tile.block<4x4xi32>
  return %0, %1, %2, %3 : !tile.block<4x4xi32>, !tile.block<4x4xi32>, !tile.block<4x4xi32>, !tile.block<4x4xi32>
}

// -----

// Integer arithmetic wraps.
// CHECK-LABEL: func @fold_int_wrap
// CHECK: %[[C:.*]] = tile.constant dense<-128> : !tile.block<8xi8>
// CHECK: return %[[C]]
func.func @fold_int_wrap() -> !tile.block<8xi8> {
  %a = tile.constant dense<127> : !tile.block<8xi8>
  %b = tile.constant dense<1> : !tile.block<8xi8>
  %0 = tile.addi %a, %b : !tile.block<8xi8>
  return %0 : !tile.block<8xi8>
}

// -----

// Division by zero and INT_MIN / -1 are left to run time.
// CHECK-LABEL: func @divsi_no_fold
// CHECK: tile.divsi
// CHECK: tile.divsi
func.func @divsi_no_fold() -> (!tile.block<4xi32>, !tile.block<4xi32>) {
  %a = tile.constant dense<7> : !tile.block<4xi32>
  %z = tile.constant dense<0> : !tile.block<4xi32>
  %min = tile.constant dense<-2147483648> : !tile.block<4xi32>
  %m1 = tile.constant dense<-1> : !tile.block<4xi32>
  %0 = tile.divsi %a, %z : !tile.block<4xi32>
  %1 = tile.divsi %min, %m1 : !tile.block<4xi32>
  return %0, %1 : !tile.block<4xi32>, !tile.block<4xi32>
}

// -----

// CHECK-LABEL: func @fold_float
// CHECK-DAG: %[[ADD:.*]] = tile.constant dense<3.500000e+00> : !tile.block<16xf32>
// CHECK-DAG: %[[SUB:.*]] = tile.constant dense<-1.500000e+00> : !tile.block<16xf32>
// CHECK-DAG: %[[MUL:.*]] = tile.constant dense<2.500000e+00> : !tile.block<16xf32>
// CHECK-NOT: tile.addf
// CHECK-NOT: tile.subf
// CHECK-NOT: tile.mulf
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]]
func.func @fold_float() -> (!tile.block<16xf32>, !tile.block<16xf32>, !tile.block<16xf32>) {
  %a = tile.constant dense<1.0> : !tile.block<16xf32>
  %b = tile.constant dense<2.5> : !tile.block<16xf32>
  %0 = tile.addf %a, %b : !tile.block<16xf32>
  %1 = tile.subf %a, %b : !tile.block<16xf32>
  %2 = tile.mulf %a, %b : !tile.block<16xf32>
  return %0, %1, %2 : !tile.block<16xf32>, !tile.block<16xf32>, !tile.block<16xf32>
}

// -----

// Non-splat constants are not folded.
// CHECK-LABEL: func @fold_nonsplat
// CHECK: tile.addi
func.func @fold_nonsplat() -> !tile.block<4xi32> {
  %a = tile.constant dense<[1, 2, 3, 4]> : !tile.block<4xi32>
  %b = tile.constant dense<1> : !tile.block<4xi32>
  %0 = tile.addi %a, %b : !tile.block<4xi32>
  return %0 : !tile.block<4xi32>
}

// -----

// Ops without a folder keep their constant operands.
// CHECK-LABEL: func @no_folder
// CHECK: tile.divui
// CHECK: tile.remsi
// CHECK: tile.maxsi
func.func @no_folder() -> (!tile.block<4xi32>, !tile.block<4xi32>, !tile.block<4xi32>) {
  %a = tile.constant dense<7> : !tile.block<4xi32>
  %b = tile.constant dense<2> : !tile.block<4xi32>
  %0 = tile.divui %a, %b : !tile.block<4xi32>
  %1 = tile.remsi %a, %b : !tile.block<4xi32>
  %2 = tile.maxsi %a, %b : !tile.block<4xi32>
  return %0, %1, %2 : !tile.block<4xi32>, !tile.block<4xi32>, !tile.block<4xi32>
}

// -----

// Folding keeps the result's encoding.
// CHECK-LABEL: func @fold_encoded
// CHECK: %[[C:.*]] = tile.constant dense<5> : !tile.block<128xi32, #blocked>
// CHECK-NOT: tile.addi
// CHECK: return %[[C]]
func.func @fold_encoded() -> !tile.block<128xi32, #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>> {
  %a = tile.constant dense<2> : !tile.block<128xi32> : !tile.block<128xi32, #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>>
  %b = tile.constant dense<3> : !tile.block<128xi32> : !tile.block<128xi32, #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>>
  %0 = tile.addi %a, %b : !tile.block<128xi32, #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>>
  return %0 : !tile.block<128xi32, #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>>
}

// -----

//===----------------------------------------------------------------------===//
// splat and shape ops of constants
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @splat_of_constant
// CHECK-DAG: %[[F:.*]] = tile.constant dense<2.000000e+00> : !tile.block<16x32xf32>
// CHECK-DAG: %[[I:.*]] = tile.constant dense<-3> : !tile.block<1000xi64>
// CHECK-DAG: %[[B:.*]] = tile.constant dense<true> : !tile.block<8xi1>
// CHECK-NOT: tile.splat
// CHECK: return %[[F]], %[[I]], %[[B]]
func.func @splat_of_constant() -> (!tile.block<16x32xf32>, !tile.block<1000xi64>, !tile.block<8xi1>) {
  %f = arith.constant 2.0 : f32
  %i = arith.constant -3 : i64
  %b = arith.constant true
  %0 = tile.splat %f : f32 -> !tile.block<16x32xf32>
  %1 = tile.splat %i : i64 -> !tile.block<1000xi64>
  %2 = tile.splat %b : i1 -> !tile.block<8xi1>
  return %0, %1, %2 : !tile.block<16x32xf32>, !tile.block<1000xi64>, !tile.block<8xi1>
}

// -----

// CHECK-LABEL: func @splat_of_argument
// CHECK: tile.splat %{{.*}} : f32 -> !tile.block<16xf32>
// CHECK: tile.splat %{{.*}} : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
func.func @splat_of_argument(%x: f32, %p: !tile.ptr<f32>) -> (!tile.block<16xf32>, !tile.block<16x!tile.ptr<f32>>) {
  %0 = tile.splat %x : f32 -> !tile.block<16xf32>
  %1 = tile.splat %p : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  return %0, %1 : !tile.block<16xf32>, !tile.block<16x!tile.ptr<f32>>
}

// -----

// CHECK-LABEL: func @shape_ops_of_splat_constant
// CHECK-DAG: %[[E:.*]] = tile.constant dense<4> : !tile.block<16x1xi32>
// CHECK-DAG: %[[B:.*]] = tile.constant dense<4> : !tile.block<16x32xi32>
// CHECK-DAG: %[[R:.*]] = tile.constant dense<4> : !tile.block<4x4xi32>
// CHECK-NOT: tile.expand_dims
// CHECK-NOT: tile.broadcast
// CHECK-NOT: tile.reshape
// CHECK: return %[[E]], %[[B]], %[[R]]
func.func @shape_ops_of_splat_constant() -> (!tile.block<16x1xi32>, !tile.block<16x32xi32>, !tile.block<4x4xi32>) {
  %c = tile.constant dense<4> : !tile.block<16xi32>
  %0 = tile.expand_dims %c {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  %1 = tile.broadcast %0 : !tile.block<16x1xi32> -> !tile.block<16x32xi32>
  %2 = tile.reshape %c : !tile.block<16xi32> -> !tile.block<4x4xi32>
  return %0, %1, %2 : !tile.block<16x1xi32>, !tile.block<16x32xi32>, !tile.block<4x4xi32>
}

// -----

// Shape ops of non-splat constants stay.
// CHECK-LABEL: func @shape_ops_of_nonsplat_constant
// CHECK: tile.expand_dims
// CHECK: tile.broadcast
// CHECK: tile.reshape
func.func @shape_ops_of_nonsplat_constant() -> (!tile.block<4x1xi32>, !tile.block<4x8xi32>, !tile.block<2x2xi32>) {
  %c = tile.constant dense<[1, 2, 3, 4]> : !tile.block<4xi32>
  %0 = tile.expand_dims %c {axis = 1 : i32} : !tile.block<4xi32> -> !tile.block<4x1xi32>
  %1 = tile.broadcast %0 : !tile.block<4x1xi32> -> !tile.block<4x8xi32>
  %2 = tile.reshape %c : !tile.block<4xi32> -> !tile.block<2x2xi32>
  return %0, %1, %2 : !tile.block<4x1xi32>, !tile.block<4x8xi32>, !tile.block<2x2xi32>
}

// -----

// Shape ops to the same type are dropped.
// CHECK-LABEL: func @shape_ops_identity
// CHECK-SAME: (%[[X:.*]]: !tile.block<16x32xf32>)
// CHECK-NOT: tile.broadcast
// CHECK-NOT: tile.reshape
// CHECK: return %[[X]], %[[X]]
func.func @shape_ops_identity(%x: !tile.block<16x32xf32>) -> (!tile.block<16x32xf32>, !tile.block<16x32xf32>) {
  %0 = tile.broadcast %x : !tile.block<16x32xf32> -> !tile.block<16x32xf32>
  %1 = tile.reshape %x : !tile.block<16x32xf32> -> !tile.block<16x32xf32>
  return %0, %1 : !tile.block<16x32xf32>, !tile.block<16x32xf32>
}

// -----

// CHECK-LABEL: func @broadcast_of_splat
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[S:.*]] = tile.splat %[[X]] : f32 -> !tile.block<16x32xf32>
// CHECK-NOT: tile.broadcast
// CHECK: return %[[S]]
func.func @broadcast_of_splat(%x: f32) -> !tile.block<16x32xf32> {
  %0 = tile.splat %x : f32 -> !tile.block<16x1xf32>
  %1 = tile.broadcast %0 : !tile.block<16x1xf32> -> !tile.block<16x32xf32>
  return %1 : !tile.block<16x32xf32>
}

// -----

// CHECK-LABEL: func @broadcast_of_broadcast
// CHECK-SAME: (%[[X:.*]]: !tile.block<1x1x8xi32>)
// CHECK: %[[B:.*]] = tile.broadcast %[[X]] : !tile.block<1x1x8xi32> -> !tile.block<4x3x8xi32>
// CHECK-NOT: tile.broadcast
// CHECK: return %[[B]]
func.func @broadcast_of_broadcast(%x: !tile.block<1x1x8xi32>) -> !tile.block<4x3x8xi32> {
  %0 = tile.broadcast %x : !tile.block<1x1x8xi32> -> !tile.block<1x3x8xi32>
  %1 = tile.broadcast %0 : !tile.block<1x3x8xi32> -> !tile.block<4x3x8xi32>
  return %1 : !tile.block<4x3x8xi32>
}

// -----

// trans has no folder.
// CHECK-LABEL: func @trans_of_splat_constant
// CHECK: tile.trans
func.func @trans_of_splat_constant() -> !tile.block<8x4xf32> {
  %c = tile.constant dense<1.0> : !tile.block<4x8xf32>
  %0 = tile.trans %c : !tile.block<4x8xf32> -> !tile.block<8x4xf32>
  return %0 : !tile.block<8x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// addptr, load, store
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @addptr_zero
// CHECK-SAME: (%[[P:.*]]: !tile.block<128x!tile.ptr<f32>>, %[[Q:.*]]: !tile.ptr<f16>)
// CHECK-NOT: tile.addptr
// CHECK: return %[[P]], %[[Q]]
func.func @addptr_zero(%p: !tile.block<128x!tile.ptr<f32>>, %q: !tile.ptr<f16>)
    -> (!tile.block<128x!tile.ptr<f32>>, !tile.ptr<f16>) {
  %z = tile.constant dense<0> : !tile.block<128xi32>
  %0 = tile.addptr %p, %z : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %c0 = arith.constant 0 : i64
  %1 = tile.addptr %q, %c0 : !tile.ptr<f16>, i64
  return %0, %1 : !tile.block<128x!tile.ptr<f32>>, !tile.ptr<f16>
}

// -----

// CHECK-LABEL: func @addptr_nonzero
// CHECK: tile.addptr
// CHECK: tile.addptr
func.func @addptr_nonzero(%p: !tile.block<128x!tile.ptr<f32>>, %q: !tile.ptr<f16>)
    -> (!tile.block<128x!tile.ptr<f32>>, !tile.ptr<f16>) {
  %c = tile.constant dense<1> : !tile.block<128xi32>
  %0 = tile.addptr %p, %c : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %c1 = arith.constant 1 : i32
  %1 = tile.addptr %q, %c1 : !tile.ptr<f16>, i32
  return %0, %1 : !tile.block<128x!tile.ptr<f32>>, !tile.ptr<f16>
}

// -----

// An all-true mask is dropped (with its `other`); an all-false mask with an
// `other` gives `other`.
// CHECK-LABEL: func @load_constant_mask
// CHECK-SAME: (%[[P:.*]]: !tile.block<128x!tile.ptr<f32>>, %[[O:.*]]: !tile.block<128xf32>)
// CHECK: %[[A:.*]] = tile.load %[[P]] : !tile.block<128x!tile.ptr<f32>>
// CHECK: %[[B:.*]] = tile.load %[[P]] : !tile.block<128x!tile.ptr<f32>>
// CHECK-NOT: tile.load
// CHECK: return %[[A]], %[[B]], %[[O]]
func.func @load_constant_mask(%p: !tile.block<128x!tile.ptr<f32>>, %o: !tile.block<128xf32>)
    -> (!tile.block<128xf32>, !tile.block<128xf32>, !tile.block<128xf32>) {
  %t = tile.constant dense<true> : !tile.block<128xi1>
  %f = tile.constant dense<false> : !tile.block<128xi1>
  %0 = tile.load %p mask %t : !tile.block<128x!tile.ptr<f32>>
  %1 = tile.load %p mask %t other %o : !tile.block<128x!tile.ptr<f32>>
  %2 = tile.load %p mask %f other %o : !tile.block<128x!tile.ptr<f32>>
  return %0, %1, %2 : !tile.block<128xf32>, !tile.block<128xf32>, !tile.block<128xf32>
}

// -----

// CHECK-LABEL: func @load_scalar_constant_mask
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<i32>, %[[O:.*]]: i32)
// CHECK: %[[A:.*]] = tile.load %[[P]] : !tile.ptr<i32>
// CHECK: return %[[A]], %[[O]]
func.func @load_scalar_constant_mask(%p: !tile.ptr<i32>, %o: i32) -> (i32, i32) {
  %t = arith.constant true
  %f = arith.constant false
  %0 = tile.load %p mask %t other %o : !tile.ptr<i32>
  %1 = tile.load %p mask %f other %o : !tile.ptr<i32>
  return %0, %1 : i32, i32
}

// -----

// An all-false mask without `other` leaves the (undefined) load alone; so do
// non-constant and non-splat masks.
// CHECK-LABEL: func @load_mask_no_fold
// CHECK: tile.load %{{.*}} mask %{{.*}} : !tile.block<4x!tile.ptr<f32>>
// CHECK: tile.load %{{.*}} mask %{{.*}} other %{{.*}} : !tile.block<4x!tile.ptr<f32>>
// CHECK: tile.load %{{.*}} mask %{{.*}} other %{{.*}} : !tile.block<4x!tile.ptr<f32>>
func.func @load_mask_no_fold(%p: !tile.block<4x!tile.ptr<f32>>, %m: !tile.block<4xi1>, %o: !tile.block<4xf32>)
    -> (!tile.block<4xf32>, !tile.block<4xf32>, !tile.block<4xf32>) {
  %f = tile.constant dense<false> : !tile.block<4xi1>
  %mixed = tile.constant dense<[true, false, true, true]> : !tile.block<4xi1>
  %0 = tile.load %p mask %f : !tile.block<4x!tile.ptr<f32>>
  %1 = tile.load %p mask %m other %o : !tile.block<4x!tile.ptr<f32>>
  %2 = tile.load %p mask %mixed other %o : !tile.block<4x!tile.ptr<f32>>
  return %0, %1, %2 : !tile.block<4xf32>, !tile.block<4xf32>, !tile.block<4xf32>
}

// -----

// An unused load is dead.
// CHECK-LABEL: func @load_dead
// CHECK-NOT: tile.load
// CHECK: return
func.func @load_dead(%p: !tile.block<4x!tile.ptr<f32>>) {
  %0 = tile.load %p : !tile.block<4x!tile.ptr<f32>>
  return
}

// -----

// CHECK-LABEL: func @store_constant_mask
// CHECK-SAME: (%[[P:.*]]: !tile.block<128x!tile.ptr<f32>>, %[[V:.*]]: !tile.block<128xf32>, %[[Q:.*]]: !tile.ptr<f32>, %[[S:.*]]: f32)
// CHECK-NEXT: tile.store %[[P]], %[[V]] : !tile.block<128x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[Q]], %[[S]] : !tile.ptr<f32>
// CHECK-NEXT: return
func.func @store_constant_mask(%p: !tile.block<128x!tile.ptr<f32>>, %v: !tile.block<128xf32>,
                               %q: !tile.ptr<f32>, %s: f32) {
  %t = tile.constant dense<true> : !tile.block<128xi1>
  %f = tile.constant dense<false> : !tile.block<128xi1>
  %bt = arith.constant true
  %bf = arith.constant false
  tile.store %p, %v mask %t : !tile.block<128x!tile.ptr<f32>>
  tile.store %p, %v mask %f : !tile.block<128x!tile.ptr<f32>>
  tile.store %q, %s mask %bt : !tile.ptr<f32>
  tile.store %q, %s mask %bf : !tile.ptr<f32>
  return
}

// -----

// CHECK-LABEL: func @store_mask_no_fold
// CHECK: tile.store %{{.*}}, %{{.*}} mask %{{.*}} : !tile.block<4x!tile.ptr<f32>>
// CHECK: tile.store %{{.*}}, %{{.*}} mask %{{.*}} : !tile.block<4x!tile.ptr<f32>>
func.func @store_mask_no_fold(%p: !tile.block<4x!tile.ptr<f32>>, %v: !tile.block<4xf32>, %m: !tile.block<4xi1>) {
  %mixed = tile.constant dense<[true, false, true, true]> : !tile.block<4xi1>
  tile.store %p, %v mask %m : !tile.block<4x!tile.ptr<f32>>
  tile.store %p, %v mask %mixed : !tile.block<4x!tile.ptr<f32>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// select, cmpi, cast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @select_constant_condition
// CHECK-SAME: (%[[A:.*]]: !tile.block<16xf32>, %[[B:.*]]: !tile.block<16xf32>, %[[C:.*]]: !tile.block<16xi1>)
// CHECK-NOT: tile.select
// CHECK: return %[[A]], %[[B]], %[[A]]
func.func @select_constant_condition(%a: !tile.block<16xf32>, %b: !tile.block<16xf32>, %c: !tile.block<16xi1>)
    -> (!tile.block<16xf32>, !tile.block<16xf32>, !tile.block<16xf32>) {
  %t = tile.constant dense<true> : !tile.block<16xi1>
  %f = tile.constant dense<false> : !tile.block<16xi1>
  %0 = tile.select %t, %a, %b : !tile.block<16xf32>
  %1 = tile.select %f, %a, %b : !tile.block<16xf32>
  // Both arms equal: the condition does not matter.
  %2 = tile.select %c, %a, %a : !tile.block<16xf32>
  return %0, %1, %2 : !tile.block<16xf32>, !tile.block<16xf32>, !tile.block<16xf32>
}

// -----

// CHECK-LABEL: func @select_no_fold
// CHECK: tile.select
// CHECK: tile.select
func.func @select_no_fold(%a: !tile.block<4xi32>, %b: !tile.block<4xi32>, %c: !tile.block<4xi1>)
    -> (!tile.block<4xi32>, !tile.block<4xi32>) {
  %mixed = tile.constant dense<[true, false, true, false]> : !tile.block<4xi1>
  %0 = tile.select %c, %a, %b : !tile.block<4xi32>
  %1 = tile.select %mixed, %a, %b : !tile.block<4xi32>
  return %0, %1 : !tile.block<4xi32>, !tile.block<4xi32>
}

// -----

// CHECK-LABEL: func @cmpi_constants
// CHECK-DAG: %[[T:.*]] = tile.constant dense<true> : !tile.block<8xi1>
// CHECK-DAG: %[[F:.*]] = tile.constant dense<false> : !tile.block<8xi1>
// CHECK-NOT: tile.cmpi
// CHECK: return %[[T]], %[[F]], %[[F]], %[[T]], %[[T]], %[[F]]
func.func @cmpi_constants() -> (!tile.block<8xi1>, !tile.block<8xi1>, !tile.block<8xi1>,
                                !tile.block<8xi1>, !tile.block<8xi1>, !tile.block<8xi1>) {
  %m1 = tile.constant dense<-1> : !tile.block<8xi32>
  %one = tile.constant dense<1> : !tile.block<8xi32>
  %0 = tile.cmpi slt, %m1, %one : !tile.block<8xi32>
  // Unsigned, -1 is the largest value.
  %1 = tile.cmpi ult, %m1, %one : !tile.block<8xi32>
  %2 = tile.cmpi eq, %m1, %one : !tile.block<8xi32>
  %3 = tile.cmpi ne, %m1, %one : !tile.block<8xi32>
  %4 = tile.cmpi uge, %m1, %one : !tile.block<8xi32>
  %5 = tile.cmpi sge, %m1, %one : !tile.block<8xi32>
  return %0, %1, %2, %3, %4, %5 : !tile.block<8xi1>, !tile.block<8xi1>, !tile.block<8xi1>,
                                  !tile.block<8xi1>, !tile.block<8xi1>, !tile.block<8xi1>
}

// -----

// cmpi needs both operands constant; cmpf has no folder.
// CHECK-LABEL: func @cmp_no_fold
// CHECK: tile.cmpi
// CHECK: tile.cmpf
func.func @cmp_no_fold(%x: !tile.block<8xi32>) -> (!tile.block<8xi1>, !tile.block<8xi1>) {
  %one = tile.constant dense<1> : !tile.block<8xi32>
  %0 = tile.cmpi slt, %x, %one : !tile.block<8xi32>
  %a = tile.constant dense<1.0> : !tile.block<8xf32>
  %b = tile.constant dense<2.0> : !tile.block<8xf32>
  %1 = tile.cmpf olt, %a, %b : !tile.block<8xf32>
  return %0, %1 : !tile.block<8xi1>, !tile.block<8xi1>
}

// -----

// A cmpi folded to a constant feeds a select, a load mask and a store mask.
// CHECK-LABEL: func @cmpi_select_chain
// CHECK-SAME: (%[[P:.*]]: !tile.block<8x!tile.ptr<f32>>, %[[A:.*]]: !tile.block<8xf32>, %[[B:.*]]: !tile.block<8xf32>)
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]] : !tile.block<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[L]] : !tile.block<8x!tile.ptr<f32>>
// CHECK-NEXT: return %[[A]]
func.func @cmpi_select_chain(%p: !tile.block<8x!tile.ptr<f32>>, %a: !tile.block<8xf32>, %b: !tile.block<8xf32>) -> !tile.block<8xf32> {
  %r = tile.arange 0, 8 : !tile.block<8xi32>
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %lo = tile.splat %c0 : i32 -> !tile.block<8xi32>
  %hi = tile.splat %c8 : i32 -> !tile.block<8xi32>
  %m = tile.cmpi slt, %lo, %hi : !tile.block<8xi32>
  %0 = tile.select %m, %a, %b : !tile.block<8xf32>
  %1 = tile.load %p mask %m other %b : !tile.block<8x!tile.ptr<f32>>
  tile.store %p, %1 mask %m : !tile.block<8x!tile.ptr<f32>>
  return %0 : !tile.block<8xf32>
}

// -----

// CHECK-LABEL: func @cast_same_type
// CHECK-SAME: (%[[X:.*]]: !tile.block<16xf32>)
// CHECK-NOT: tile.cast
// CHECK: return %[[X]]
func.func @cast_same_type(%x: !tile.block<16xf32>) -> !tile.block<16xf32> {
  %0 = tile.cast %x : !tile.block<16xf32> to !tile.block<16xf32>
  return %0 : !tile.block<16xf32>
}

// -----

// A conversion stays, even of a constant.
// CHECK-LABEL: func @cast_no_fold
// CHECK: tile.cast %{{.*}} : !tile.block<16xf32> to !tile.block<16xf16>
// CHECK: tile.cast %{{.*}} : !tile.block<4xi32> to !tile.block<4xf32>
func.func @cast_no_fold(%x: !tile.block<16xf32>) -> (!tile.block<16xf16>, !tile.block<4xf32>) {
  %0 = tile.cast %x : !tile.block<16xf32> to !tile.block<16xf16>
  %c = tile.constant dense<3> : !tile.block<4xi32>
  %1 = tile.cast %c : !tile.block<4xi32> to !tile.block<4xf32>
  return %0, %1 : !tile.block<16xf16>, !tile.block<4xf32>
}

// -----

// An all-true mask is dropped; the cache hint stays.
// CHECK-LABEL: func @true_mask_keeps_hints
// CHECK: tile.load %{{.*}} {cache = "cg"} : !tile.block<8x!tile.ptr<f32>>
func.func @true_mask_keeps_hints(%p: !tile.block<8x!tile.ptr<f32>>) -> !tile.block<8xf32> {
  %t = tile.constant dense<true> : !tile.block<8xi1>
  %0 = tile.load %p mask %t {cache = "cg"} : !tile.block<8x!tile.ptr<f32>>
  return %0 : !tile.block<8xf32>
}

// -----

// The transpose of a load used once becomes a load of the transposed
// pointers, mask and other (tutorial 06's `desc.load(...).T`); a load used
// twice stays.
// CHECK-LABEL: func.func @transposed_load
// CHECK: %[[P:.*]] = tile.trans %{{.*}} : !tile.block<16x32x!tile.ptr<f16>> -> !tile.block<32x16x!tile.ptr<f16>>
// CHECK: %[[M:.*]] = tile.trans %{{.*}} : !tile.block<16x32xi1> -> !tile.block<32x16xi1>
// CHECK: %[[O:.*]] = tile.trans %{{.*}} : !tile.block<16x32xf16> -> !tile.block<32x16xf16>
// CHECK: %[[T:.*]] = tile.load %[[P]] mask %[[M]] other %[[O]] {cache = "cg"} : !tile.block<32x16x!tile.ptr<f16>>
// CHECK-NOT: tile.trans
// CHECK: tile.store %{{.*}}, %[[T]]
// CHECK: %[[U:.*]] = tile.load
// CHECK: tile.trans %[[U]]
func.func @transposed_load(%p: !tile.block<16x32x!tile.ptr<f16>>, %m: !tile.block<16x32xi1>,
                           %o: !tile.block<16x32xf16>, %q: !tile.block<32x16x!tile.ptr<f16>>) {
  %v = tile.load %p mask %m other %o {cache = "cg"} : !tile.block<16x32x!tile.ptr<f16>>
  %t = tile.trans %v : !tile.block<16x32xf16> -> !tile.block<32x16xf16>
  tile.store %q, %t : !tile.block<32x16x!tile.ptr<f16>>
  %w = tile.load %p : !tile.block<16x32x!tile.ptr<f16>>
  %u = tile.trans %w : !tile.block<16x32xf16> -> !tile.block<32x16xf16>
  tile.store %q, %u : !tile.block<32x16x!tile.ptr<f16>>
  tile.store %p, %w : !tile.block<16x32x!tile.ptr<f16>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Accumulating into a dot (`acc += tl.dot(a, b)`)
//===----------------------------------------------------------------------===//

// A sum of a dot onto zeros and another block becomes a dot onto that block,
// in either operand order, for float and integer dots.
// CHECK-LABEL: func @add_into_dot
// CHECK-SAME: (%[[A:.*]]: !tile.block<16x16xf16>, %[[B:.*]]: !tile.block<16x16xf16>, %[[ACC:.*]]: !tile.block<16x16xf32>, %[[I:.*]]: !tile.block<32x16xi8>, %[[J:.*]]: !tile.block<16x32xi8>, %[[IACC:.*]]: !tile.block<32x32xi32>)
// CHECK-NOT: tile.addf
// CHECK-NOT: tile.addi
// CHECK: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK: %[[E:.*]] = tile.dot %[[A]], %[[B]], %[[D]]
// CHECK: %[[F:.*]] = tile.dot %[[I]], %[[J]], %[[IACC]]
// CHECK: return %[[E]], %[[F]]
func.func @add_into_dot(%a: !tile.block<16x16xf16>, %b: !tile.block<16x16xf16>, %acc: !tile.block<16x16xf32>, %i: !tile.block<32x16xi8>, %j: !tile.block<16x32xi8>, %iacc: !tile.block<32x32xi32>) -> (!tile.block<16x16xf32>, !tile.block<32x32xi32>) {
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %d0 = tile.dot %a, %b, %zero : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
  %s0 = tile.addf %acc, %d0 : !tile.block<16x16xf32>
  %d1 = tile.dot %a, %b, %zero : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
  %s1 = tile.addf %d1, %s0 : !tile.block<16x16xf32>
  %izero = tile.constant dense<0> : !tile.block<32x32xi32>
  %d2 = tile.dot %i, %j, %izero : !tile.block<32x16xi8>, !tile.block<16x32xi8> -> !tile.block<32x32xi32>
  %s2 = tile.addi %iacc, %d2 : !tile.block<32x32xi32>
  return %s1, %s2 : !tile.block<16x16xf32>, !tile.block<32x32xi32>
}

// -----

// Not when the dot already accumulates, when its product has another use, or
// when it sits outside the loop that adds it (it would run every iteration).
// CHECK-LABEL: func @add_into_dot_kept
// CHECK: %[[D0:.*]] = tile.dot
// CHECK: tile.addf %{{.*}}, %[[D0]]
// CHECK: %[[D1:.*]] = tile.dot
// CHECK: tile.addf %{{.*}}, %[[D1]]
// CHECK: %[[D2:.*]] = tile.dot
// CHECK: scf.for
// CHECK: tile.addf %{{.*}}, %[[D2]]
func.func @add_into_dot_kept(%a: !tile.block<16x16xf16>, %b: !tile.block<16x16xf16>, %acc: !tile.block<16x16xf32>, %n: index) -> (!tile.block<16x16xf32>, !tile.block<16x16xf32>, !tile.block<16x16xf32>, !tile.block<16x16xf32>) {
  %d0 = tile.dot %a, %b, %acc : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
  %s0 = tile.addf %acc, %d0 : !tile.block<16x16xf32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %d1 = tile.dot %a, %b, %zero : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
  %s1 = tile.addf %acc, %d1 : !tile.block<16x16xf32>
  %d2 = tile.dot %a, %b, %zero : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s2 = scf.for %iv = %c0 to %n step %c1 iter_args(%sum = %acc) -> (!tile.block<16x16xf32>) {
    %next = tile.addf %sum, %d2 : !tile.block<16x16xf32>
    scf.yield %next : !tile.block<16x16xf32>
  }
  return %s0, %s1, %d1, %s2 : !tile.block<16x16xf32>, !tile.block<16x16xf32>, !tile.block<16x16xf32>, !tile.block<16x16xf32>
}
