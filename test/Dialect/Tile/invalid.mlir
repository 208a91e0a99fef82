// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

// expected-error @+1 {{block dimension 0 has extent 0; every extent must be a positive constant}}
func.func @zero_extent(%a: !tile.block<0xf32>) { return }

// -----

// expected-error @+1 {{block dimension 1 has extent 0; every extent must be a positive constant}}
func.func @zero_extent_inner(%a: !tile.block<16x0xf32>) { return }

// -----

// expected-error @+1 {{block dimension 0 has extent ?; every extent must be a positive constant}}
func.func @dynamic_extent(%a: !tile.block<?x4xf32>) { return }

// -----

// expected-error @+1 {{a block needs rank 1 or more; use a scalar type for a single value}}
func.func @rank0(%a: !tile.block<f32>) { return }

// -----

// expected-error @+1 {{block 65536x65537 has more than 2^31 elements}}
func.func @too_many_elements(%a: !tile.block<65536x65537xf32>) { return }

// -----

// expected-error @+1 {{block element type must be a scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2) or !tile.ptr, not 'i7'}}
func.func @bad_element_i7(%a: !tile.block<4xi7>) { return }

// -----

// expected-error @+1 {{block element type must be a scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2) or !tile.ptr, not 'index'}}
func.func @bad_element_index(%a: !tile.block<4xindex>) { return }

// -----

// expected-error @+1 {{block element type must be a scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2) or !tile.ptr, not 'ui32'}}
func.func @bad_element_unsigned(%a: !tile.block<4xui32>) { return }

// -----

// expected-error @+1 {{block element type must be a scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2) or !tile.ptr, not 'f8E4M3FNUZ'}}
func.func @bad_element_f8(%a: !tile.block<4xf8E4M3FNUZ>) { return }

// -----

// expected-error @+1 {{block element type must be a scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2) or !tile.ptr, not '!tile.block<4xf32>'}}
func.func @nested_block(%a: !tile.block<4x!tile.block<4xf32>>) { return }

// -----

// expected-error @+1 {{pointee type must be a scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2), not 'index'}}
func.func @bad_pointee(%a: !tile.ptr<index>) { return }

// -----

// expected-error @+1 {{pointee type must be a scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2), not '!tile.ptr<f32>'}}
func.func @pointer_to_pointer(%a: !tile.ptr<!tile.ptr<f32>>) { return }

// -----

// expected-error @+1 {{block encoding must be a distributed layout (#tile.blocked, #tile.slice, #tile.linear, #tile.mma), not 5 : i32}}
func.func @bad_encoding(%a: !tile.block<4xf32, 5 : i32>) { return }

// -----

// expected-error @+1 {{#tile.blocked size_per_thread entries must be powers of two from 1 to 1024, not 3}}
func.func @blocked_size_3(%a: !tile.block<4xf32, #tile.blocked<size_per_thread = [3], threads_per_warp = [32], warps = [4], order = [0]>>) { return }

// -----

// expected-error @+1 {{#tile.blocked threads_per_warp must multiply to 32, not 16}}
func.func @blocked_lanes_16(%a: !tile.block<4x4xf32, #tile.blocked<size_per_thread = [1, 1], threads_per_warp = [4, 4], warps = [4, 1], order = [1, 0]>>) { return }

// -----

// expected-error @+1 {{#tile.blocked warps must multiply to at most 32, not 64}}
func.func @blocked_warps_64(%a: !tile.block<4x4xf32, #tile.blocked<size_per_thread = [1, 1], threads_per_warp = [4, 8], warps = [8, 8], order = [1, 0]>>) { return }

// -----

// expected-error @+1 {{#tile.blocked warps entries must be powers of two from 1 to 32, not 0}}
func.func @blocked_warps_0(%a: !tile.block<4xf32, #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [0], order = [0]>>) { return }

// -----

// expected-error @+1 {{#tile.blocked order must be a permutation of the dimensions 0 to 1}}
func.func @blocked_order(%a: !tile.block<4x4xf32, #tile.blocked<size_per_thread = [1, 1], threads_per_warp = [4, 8], warps = [4, 1], order = [1, 1]>>) { return }

// -----

// expected-error @+1 {{#tile.blocked size_per_thread, threads_per_warp, warps and order must have one entry per dimension}}
func.func @blocked_ranks(%a: !tile.block<4x4xf32, #tile.blocked<size_per_thread = [1, 1], threads_per_warp = [32], warps = [4, 1], order = [1, 0]>>) { return }

// -----

// expected-error @+1 {{layout #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]> is for blocks of rank 1, not 2}}
func.func @layout_rank(%a: !tile.block<4x4xf32, #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>>) { return }

// -----

// expected-error @+1 {{#tile.slice dim 2 is not a dimension of its rank-2 parent}}
func.func @slice_dim(%a: !tile.block<4xf32, #tile.slice<dim = 2, parent = #tile.blocked<size_per_thread = [1, 1], threads_per_warp = [4, 8], warps = [4, 1], order = [1, 0]>>>) { return }

// -----

// expected-error @+1 {{#tile.slice parent must have rank 2 or more, not 1}}
func.func @slice_rank1(%a: !tile.block<4xf32, #tile.slice<dim = 0, parent = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>>>) { return }

// -----

// expected-error @+1 {{#tile.linear needs 5 lane bases (32 lanes), not 2}}
func.func @linear_lanes(%a: !tile.block<4xf32, #tile.linear<register = [], lane = [[1], [2]], warp = []>>) { return }

// -----

// expected-error @+1 {{#tile.linear basis coordinate 64 in dimension 0 is outside the padded block 32}}
func.func @linear_outside(%a: !tile.block<32xf32, #tile.linear<register = [], lane = [[1], [2], [4], [8], [64]], warp = []>>) { return }

// -----

// expected-error @+1 {{#tile.linear layout does not reach every element of the padded block 64}}
func.func @linear_not_surjective(%a: !tile.block<64xf32, #tile.linear<register = [], lane = [[1], [2], [4], [8], [16]], warp = []>>) { return }

// -----

// expected-error @+1 {{#tile.linear bases must all have 1 coordinates}}
func.func @linear_ragged(%a: !tile.block<32xf32, #tile.linear<register = [[1]], lane = [[1, 0], [2], [4], [8], [16]], warp = []>>) { return }

// -----

// expected-error @+1 {{#tile.mma version must be 2 (mma.sync) or 3 (wgmma), not 1}}
func.func @mma_version(%a: !tile.block<64x64xf32, #tile.mma<version = 1, warps = [4, 1], instr = [16, 64, 16]>>) { return }

// -----

// expected-error @+1 {{#tile.mma version 3 needs warpgroups: a multiple of 4 warps along the rows, not 2}}
func.func @mma_warpgroup(%a: !tile.block<64x64xf32, #tile.mma<version = 3, warps = [2, 2], instr = [16, 64, 16]>>) { return }

// -----

// expected-error @+1 {{#tile.mma version 2 (mma.sync m16n8) has 8 columns per instruction, not 16}}
func.func @mma_v2_n(%a: !tile.block<64x64xf32, #tile.mma<version = 2, warps = [2, 2], instr = [16, 16, 16]>>) { return }

// -----

// expected-error @+1 {{#tile.mma instr must be [16, n, k]: 16 rows per warp}}
func.func @mma_instr(%a: !tile.block<64x64xf32, #tile.mma<version = 3, warps = [4, 1], instr = [64, 64, 16]>>) { return }

// -----

func.func @convert_without_layouts(%a: !tile.block<4xf32>) {
  // expected-error @+1 {{'tile.convert_layout' op converts between layouts: the operand and the result need one each}}
  %0 = tile.convert_layout %a : !tile.block<4xf32> -> !tile.block<4xf32>
  return
}

// -----

func.func @convert_shape(%a: !tile.block<4xf32, #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>>) {
  // expected-error @+1 {{'tile.convert_layout' op requires the same shape for all operands and results}}
  %0 = tile.convert_layout %a : !tile.block<4xf32, #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>> -> !tile.block<8xf32, #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [4], order = [0]>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// program_id, num_programs, arange
//===----------------------------------------------------------------------===//

func.func @program_id_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 2}}
  %0 = tile.program_id 3 : i32
  return
}

// -----

func.func @num_programs_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 2}}
  %0 = "tile.num_programs"() <{axis = 3 : i32}> : () -> i32
  return
}

// -----

func.func @program_id_type() {
  // expected-error @+1 {{result #0 must be 32-bit signless integer, but got 'i64'}}
  %0 = "tile.program_id"() <{axis = 0 : i32}> : () -> i64
  return
}

// -----

func.func @arange_empty() {
  // expected-error @+1 {{'tile.arange' op needs end > start, but the range is [8, 8)}}
  %0 = tile.arange 8, 8 : !tile.block<1xi32>
  return
}

// -----

func.func @arange_reversed() {
  // expected-error @+1 {{'tile.arange' op needs end > start, but the range is [16, 0)}}
  %0 = tile.arange 16, 0 : !tile.block<16xi32>
  return
}

// -----

func.func @arange_length() {
  // expected-error @+1 {{'tile.arange' op range [0, 24) gives !tile.block<24xi32>, not '!tile.block<32xi32>'}}
  %0 = tile.arange 0, 24 : !tile.block<32xi32>
  return
}

// -----

func.func @arange_element_type() {
  // expected-error @+1 {{'tile.arange' op range [0, 16) gives !tile.block<16xi32>, not '!tile.block<16xi64>'}}
  %0 = tile.arange 0, 16 : !tile.block<16xi64>
  return
}

// -----

func.func @arange_rank() {
  // expected-error @+1 {{'tile.arange' op range [0, 16) gives !tile.block<16xi32>, not '!tile.block<4x4xi32>'}}
  %0 = tile.arange 0, 16 : !tile.block<4x4xi32>
  return
}

// -----

func.func @arange_float() {
  // expected-error @+1 {{result #0 must be block of integers, but got '!tile.block<16xf32>'}}
  %0 = "tile.arange"() <{start = 0 : i32, end = 16 : i32}> : () -> !tile.block<16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// constant, splat
//===----------------------------------------------------------------------===//

func.func @constant_shape() {
  // expected-error @+1 {{'tile.constant' op value has type '!tile.block<4xi32>' but the result is '!tile.block<8xi32>'}}
  %0 = tile.constant dense<1> : !tile.block<4xi32> : !tile.block<8xi32>
  return
}

// -----

func.func @constant_element_type() {
  // expected-error @+1 {{'tile.constant' op value has type '!tile.block<4xi32>' but the result is '!tile.block<4xi64>'}}
  %0 = "tile.constant"() <{value = dense<1> : !tile.block<4xi32>}> : () -> !tile.block<4xi64>
  return
}

// -----

func.func @constant_tensor_value() {
  // expected-error @+1 {{'tile.constant' op value has type 'tensor<4xi32>' but the result is '!tile.block<4xi32>'}}
  %0 = tile.constant dense<1> : tensor<4xi32> : !tile.block<4xi32>
  return
}

// -----

func.func @constant_tensor_result() {
  // expected-error @+1 {{result #0 must be block of scalars, but got 'tensor<4xi32>'}}
  %0 = tile.constant dense<1> : tensor<4xi32>
  return
}

// -----

func.func @constant_not_elements() {
  // The parser reports this at the token after the attribute.
  // expected-error @+2 {{expected a dense elements attribute typed as a !tile.block}}
  %0 = tile.constant 1 : i32
  return
}

// -----

func.func @splat_element_type(%x: f32) {
  // expected-error @+1 {{'tile.splat' op failed to verify that element type of the result is the operand type}}
  %0 = tile.splat %x : f32 -> !tile.block<16xf16>
  return
}

// -----

func.func @splat_to_tensor(%x: i32) {
  // expected-error @+1 {{'tile.splat' op result #0 must be block, but got 'tensor<4xi32>'}}
  %0 = tile.splat %x : i32 -> tensor<4xi32>
  return
}

// -----

func.func @splat_of_block(%x: !tile.block<4xi32>) {
  // expected-error @+1 {{'tile.splat' op operand #0 must be scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2) or pointer, but got '!tile.block<4xi32>'}}
  %0 = "tile.splat"(%x) : (!tile.block<4xi32>) -> !tile.block<4x4xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

func.func @expand_dims_axis(%x: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op axis 3 is out of range for a rank-1 block 16 (axis must be 0..1)}}
  %0 = tile.expand_dims %x {axis = 3 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  return
}

// -----

func.func @expand_dims_negative_axis(%x: !tile.block<16xi32>) {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %0 = tile.expand_dims %x {axis = -1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  return
}

// -----

func.func @expand_dims_shape(%x: !tile.block<16x8xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op inserting a dimension at axis 1 of 16x8 gives 16x1x8, not 16x8x1}}
  %0 = tile.expand_dims %x {axis = 1 : i32} : !tile.block<16x8xi32> -> !tile.block<16x8x1xi32>
  return
}

// -----

func.func @expand_dims_element_type(%x: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op changes the element type from 'i32' to 'i64'; use tile.cast for conversions}}
  %0 = tile.expand_dims %x {axis = 0 : i32} : !tile.block<16xi32> -> !tile.block<1x16xi64>
  return
}

// -----

func.func @broadcast_dim(%x: !tile.block<16x2xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast 16x2 to 16x32: dimension 1 is 2, not 1}}
  %0 = tile.broadcast %x : !tile.block<16x2xf32> -> !tile.block<16x32xf32>
  return
}

// -----

func.func @broadcast_rank(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast 16 to 8x16: ranks differ (1 vs 2); insert dimensions with tile.expand_dims first}}
  %0 = tile.broadcast %x : !tile.block<16xf32> -> !tile.block<8x16xf32>
  return
}

// -----

func.func @broadcast_shrink(%x: !tile.block<16x32xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast 16x32 to 16x1: dimension 1 is 32, not 1}}
  %0 = tile.broadcast %x : !tile.block<16x32xf32> -> !tile.block<16x1xf32>
  return
}

// -----

func.func @broadcast_element_type(%x: !tile.block<16x1xf32>) {
  // expected-error @+1 {{'tile.broadcast' op changes the element type from 'f32' to 'f16'; use tile.cast for conversions}}
  %0 = tile.broadcast %x : !tile.block<16x1xf32> -> !tile.block<16x32xf16>
  return
}

// -----

func.func @reshape_count(%x: !tile.block<4x8xf32>) {
  // expected-error @+1 {{'tile.reshape' op cannot reshape 4x8 (32 elements) to 24 (24 elements)}}
  %0 = tile.reshape %x : !tile.block<4x8xf32> -> !tile.block<24xf32>
  return
}

// -----

func.func @reshape_element_type(%x: !tile.block<4x8xf32>) {
  // expected-error @+1 {{'tile.reshape' op changes the element type from 'f32' to 'i32'; use tile.cast for conversions}}
  %0 = tile.reshape %x : !tile.block<4x8xf32> -> !tile.block<32xi32>
  return
}

// -----

func.func @trans_order_size(%x: !tile.block<2x3x4xf32>) {
  // expected-error @+1 {{'tile.trans' op order has 2 entries but the operand has rank 3}}
  %0 = tile.trans %x {order = array<i32: 1, 0>} : !tile.block<2x3x4xf32> -> !tile.block<3x2x4xf32>
  return
}

// -----

func.func @trans_order_repeated(%x: !tile.block<2x3x4xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..2}}
  %0 = tile.trans %x {order = array<i32: 1, 1, 2>} : !tile.block<2x3x4xf32> -> !tile.block<3x3x4xf32>
  return
}

// -----

func.func @trans_order_range(%x: !tile.block<2x3x4xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..2}}
  %0 = tile.trans %x {order = array<i32: 0, 1, 3>} : !tile.block<2x3x4xf32> -> !tile.block<2x3x4xf32>
  return
}

// -----

func.func @trans_order_negative(%x: !tile.block<2x3xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..1}}
  %0 = tile.trans %x {order = array<i32: -1, 0>} : !tile.block<2x3xf32> -> !tile.block<3x2xf32>
  return
}

// -----

func.func @trans_shape(%x: !tile.block<16x32xf32>) {
  // expected-error @+1 {{'tile.trans' op permuting 16x32 gives 32x16, not 16x32}}
  %0 = tile.trans %x : !tile.block<16x32xf32> -> !tile.block<16x32xf32>
  return
}

// -----

func.func @trans_element_type(%x: !tile.block<16x32xf32>) {
  // expected-error @+1 {{'tile.trans' op changes the element type from 'f32' to 'bf16'; use tile.cast for conversions}}
  %0 = tile.trans %x : !tile.block<16x32xf32> -> !tile.block<32x16xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// addptr, load, store
//===----------------------------------------------------------------------===//

func.func @addptr_shape(%p: !tile.block<16x!tile.ptr<f32>>, %o: !tile.block<8xi32>) {
  // expected-error @+1 {{'tile.addptr' op pointer is 16 but offset is 8; broadcast them to one shape first}}
  %0 = tile.addptr %p, %o : !tile.block<16x!tile.ptr<f32>>, !tile.block<8xi32>
  return
}

// -----

func.func @addptr_block_scalar(%p: !tile.block<16x!tile.ptr<f32>>, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op pointer and offset must both be blocks or both scalars; splat the scalar first}}
  %0 = tile.addptr %p, %o : !tile.block<16x!tile.ptr<f32>>, i32
  return
}

// -----

func.func @addptr_scalar_block(%p: !tile.ptr<f32>, %o: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.addptr' op pointer and offset must both be blocks or both scalars; splat the scalar first}}
  %0 = tile.addptr %p, %o : !tile.ptr<f32>, !tile.block<16xi32>
  return
}

// -----

func.func @addptr_float_offset(%p: !tile.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'tile.addptr' op operand #1 must be integer or block of integers, but got 'f32'}}
  %0 = tile.addptr %p, %o : !tile.ptr<f32>, f32
  return
}

// -----

func.func @addptr_result(%p: !tile.ptr<f32>, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op failed to verify that result type is the pointer type}}
  %0 = "tile.addptr"(%p, %o) : (!tile.ptr<f32>, i32) -> !tile.ptr<f16>
  return
}

// -----

func.func @load_not_pointer(%p: !tile.block<4xf32>) {
  // expected-error @+1 {{'ptr' must be pointer or block of pointers, but got '!tile.block<4xf32>'}}
  %0 = tile.load %p : !tile.block<4xf32>
  return
}

// -----

func.func @load_result(%p: !tile.block<4x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op failed to verify that result holds the pointees}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (!tile.block<4x!tile.ptr<f32>>) -> !tile.block<4xf16>
  return
}

// -----

func.func @load_result_shape(%p: !tile.block<4x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op failed to verify that result holds the pointees}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (!tile.block<4x!tile.ptr<f32>>) -> !tile.block<8xf32>
  return
}

// -----

func.func @load_mask_shape(%p: !tile.block<4x!tile.ptr<f32>>, %m: !tile.block<8xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask has the pointers' shape}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tile.block<4x!tile.ptr<f32>>, !tile.block<8xi1>) -> !tile.block<4xf32>
  return
}

// -----

func.func @load_mask_type(%p: !tile.block<4x!tile.ptr<f32>>, %m: !tile.block<4xi32>) {
  // expected-error @+1 {{'tile.load' op operand #1 must be i1 or block of i1, but got '!tile.block<4xi32>'}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tile.block<4x!tile.ptr<f32>>, !tile.block<4xi32>) -> !tile.block<4xf32>
  return
}

// -----

func.func @load_other_type(%p: !tile.block<4x!tile.ptr<f32>>, %m: !tile.block<4xi1>, %o: !tile.block<4xf16>) {
  // expected-error @+1 {{'tile.load' op failed to verify that other has the result's type}}
  %0 = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!tile.block<4x!tile.ptr<f32>>, !tile.block<4xi1>, !tile.block<4xf16>) -> !tile.block<4xf32>
  return
}

// -----

func.func @load_mask_use(%p: !tile.block<4x!tile.ptr<f32>>, %m: !tile.block<8xi1>) {
  // expected-error @+2 {{use of value '%m' expects different type than prior uses: '!tile.block<4xi1>' vs '!tile.block<8xi1>'}}
  // expected-note @-2 {{prior use here}}
  %0 = tile.load %p mask %m : !tile.block<4x!tile.ptr<f32>>
  return
}

// -----

func.func @store_value_type(%p: !tile.block<4x!tile.ptr<f32>>, %v: !tile.block<4xf16>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value holds the pointees}}
  "tile.store"(%p, %v) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tile.block<4x!tile.ptr<f32>>, !tile.block<4xf16>) -> ()
  return
}

// -----

func.func @store_value_shape(%p: !tile.block<4x!tile.ptr<f32>>, %v: !tile.block<2x2xf32>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value holds the pointees}}
  "tile.store"(%p, %v) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tile.block<4x!tile.ptr<f32>>, !tile.block<2x2xf32>) -> ()
  return
}

// -----

func.func @store_mask_shape(%p: !tile.block<4x!tile.ptr<f32>>, %v: !tile.block<4xf32>, %m: !tile.block<2xi1>) {
  // expected-error @+1 {{'tile.store' op failed to verify that mask has the pointers' shape}}
  "tile.store"(%p, %v, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!tile.block<4x!tile.ptr<f32>>, !tile.block<4xf32>, !tile.block<2xi1>) -> ()
  return
}

// -----

func.func @store_scalar_block_mask(%p: !tile.ptr<f32>, %v: f32, %m: !tile.block<1xi1>) {
  // expected-error @+1 {{'tile.store' op failed to verify that mask has the pointers' shape}}
  "tile.store"(%p, %v, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!tile.ptr<f32>, f32, !tile.block<1xi1>) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// reduce, scan
//===----------------------------------------------------------------------===//

func.func @reduce_axis(%x: !tile.block<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis 2 is out of range for a rank-2 block 16x32}}
  %0 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<16x32xf32> -> !tile.block<16xf32>
  return
}

// -----

func.func @reduce_maxnum_of_integers(%x: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.reduce' op kind 'maxnum' ignores NaN and takes float elements, not 'i32'}}
  %0 = tile.reduce maxnum %x {axis = 0 : i32} : !tile.block<16xi32> -> i32
  return
}

// -----

func.func @scan_umin_of_floats(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.scan' op kind 'umin' compares unsigned integers and takes integer elements, not 'f32'}}
  %0 = tile.scan umin %x {axis = 0 : i32} : !tile.block<16xf32>
  return
}

// -----

func.func @maxnumf_of_integers(%x: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.maxnumf' op operand #0 must be}}
  %0 = tile.maxnumf %x, %x : !tile.block<16xi32>
  return
}

// -----

func.func @reduce_result_shape(%x: !tile.block<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing 16x32 along axis 1 gives a 16 block of 'f32', not '!tile.block<32xf32>'}}
  %0 = tile.reduce max %x {axis = 1 : i32} : !tile.block<16x32xf32> -> !tile.block<32xf32>
  return
}

// -----

func.func @reduce_result_element(%x: !tile.block<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing 16x32 along axis 0 gives a 32 block of 'f32', not '!tile.block<32xf16>'}}
  %0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<16x32xf32> -> !tile.block<32xf16>
  return
}

// -----

func.func @reduce_result_scalar(%x: !tile.block<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing 16x32 along axis 0 gives a 32 block of 'f32', not 'f32'}}
  %0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<16x32xf32> -> f32
  return
}

// -----

func.func @reduce_rank1_result(%x: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.reduce' op reducing a rank-1 block gives a scalar 'i32', not 'i64'}}
  %0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<16xi32> -> i64
  return
}

// -----

func.func @reduce_rank1_block_result(%x: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.reduce' op reducing a rank-1 block gives a scalar 'i32', not '!tile.block<1xi32>'}}
  %0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<16xi32> -> !tile.block<1xi32>
  return
}

// -----

func.func @reduce_pointers(%x: !tile.block<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.reduce' op operand #0 must be variadic of block of scalars, but got '!tile.block<16x!tile.ptr<f32>>'}}
  %0 = "tile.reduce"(%x) <{axis = 0 : i32, kind = #tile<combine sum>}> ({}) : (!tile.block<16x!tile.ptr<f32>>) -> !tile.ptr<f32>
  return
}

// -----

func.func @reduce_custom_no_region(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op with kind 'custom' needs a combine region}}
  %0 = tile.reduce custom %x {axis = 0 : i32} : !tile.block<16xf32> -> f32
  return
}

// -----

func.func @reduce_region_with_sum(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op takes a combine region only with kind 'custom', not 'sum'}}
  %0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %b : f32
    tile.yield %m : f32
  }
  return
}

// -----

func.func @reduce_region_with_max(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op takes a combine region only with kind 'custom', not 'max'}}
  %0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    tile.yield %m : f32
  }
  return
}

// -----

func.func @reduce_several_builtin(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op with kind 'sum' takes one operand, not 2 (only 'custom' combines several)}}
  %0:2 = tile.reduce sum %x, %x {axis = 0 : i32} : !tile.block<16xf32>, !tile.block<16xf32> -> f32, f32
  return
}

// -----

func.func @reduce_several_shapes(%x: !tile.block<16xf32>, %y: !tile.block<8xi32>) {
  // expected-error @+1 {{'tile.reduce' op operands must have one shape, got 16 and 8}}
  %0:2 = tile.reduce custom %x, %y {axis = 0 : i32} : !tile.block<16xf32>, !tile.block<8xi32> -> f32, i32 {
  ^bb0(%a: f32, %i: i32, %b: f32, %j: i32):
    tile.yield %a, %i : f32, i32
  }
  return
}

// -----

func.func @reduce_several_result_count(%x: !tile.block<16xf32>, %y: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.reduce' op has 2 operands but 1 results}}
  %0 = tile.reduce custom %x, %y {axis = 0 : i32} : !tile.block<16xf32>, !tile.block<16xi32> -> f32 {
  ^bb0(%a: f32, %i: i32, %b: f32, %j: i32):
    tile.yield %a, %i : f32, i32
  }
  return
}

// -----

func.func @reduce_several_region_order(%x: !tile.block<16xf32>, %y: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.reduce' op combine region must take arguments ('f32', 'i32', 'f32', 'i32')}}
  %0:2 = tile.reduce custom %x, %y {axis = 0 : i32} : !tile.block<16xf32>, !tile.block<16xi32> -> f32, i32 {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    tile.yield %a, %i : f32, i32
  }
  return
}

// -----

func.func @scan_several_yield(%x: !tile.block<16xf32>, %y: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.scan' op combine region must yield 'f32', 'i32'}}
  %0:2 = tile.scan custom %x, %y {axis = 0 : i32} : !tile.block<16xf32>, !tile.block<16xi32> {
  ^bb0(%a: f32, %i: i32, %b: f32, %j: i32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @reduce_region_arg_count(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combine region must take two 'f32' arguments}}
  %0 = tile.reduce custom %x {axis = 0 : i32} : !tile.block<16xf32> -> f32 {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @reduce_region_arg_type(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combine region must take two 'f32' arguments}}
  %0 = tile.reduce custom %x {axis = 0 : i32} : !tile.block<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f16):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @reduce_region_yield_type(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combine region must yield one 'f32'}}
  %0 = tile.reduce custom %x {axis = 0 : i32} : !tile.block<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.truncf %a : f32 to f16
    tile.yield %c : f16
  }
  return
}

// -----

func.func @reduce_region_yield_count(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combine region must yield one 'f32'}}
  %0 = tile.reduce custom %x {axis = 0 : i32} : !tile.block<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a, %b : f32, f32
  }
  return
}

// -----

func.func @reduce_region_empty_yield(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combine region must yield one 'f32'}}
  %0 = tile.reduce custom %x {axis = 0 : i32} : !tile.block<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
  }
  return
}

// -----

func.func @reduce_region_terminator(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combine region must yield one 'f32'}}
  %0 = "tile.reduce"(%x) <{axis = 0 : i32, kind = #tile<combine custom>}> ({
  ^bb0(%a: f32, %b: f32):
    "func.return"(%a) : (f32) -> ()
  }) : (!tile.block<16xf32>) -> f32
  return
}

// -----

func.func @yield_outside(%a: f32) {
  // expected-error @+1 {{'tile.yield' op expects parent op to be one of 'tile.reduce, tile.scan, tile.map_elementwise'}}
  tile.yield %a : f32
}

// -----

func.func @scan_axis(%x: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.scan' op axis 1 is out of range for a rank-1 block 128}}
  %0 = tile.scan sum %x {axis = 1 : i32} : !tile.block<128xi32>
  return
}

// -----

func.func @scan_result(%x: !tile.block<128xi32>) {
  // expected-error @+2 {{'tile.scan' op inferred type(s) '!tile.block<128xi32>' are incompatible with return type(s) of operation '!tile.block<128xi64>'}}
  // expected-error @+1 {{'tile.scan' op failed to infer returned types}}
  %0 = "tile.scan"(%x) <{axis = 0 : i32, kind = #tile<combine sum>}> ({}) : (!tile.block<128xi32>) -> !tile.block<128xi64>
  return
}

// -----

func.func @scan_custom_no_region(%x: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.scan' op with kind 'custom' needs a combine region}}
  %0 = tile.scan custom %x {axis = 0 : i32} : !tile.block<128xi32>
  return
}

// -----

func.func @scan_region_with_min(%x: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.scan' op takes a combine region only with kind 'custom', not 'min'}}
  %0 = tile.scan min %x {axis = 0 : i32} : !tile.block<128xi32> {
  ^bb0(%a: i32, %b: i32):
    %m = arith.minsi %a, %b : i32
    tile.yield %m : i32
  }
  return
}

// -----

func.func @scan_region_args(%x: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.scan' op combine region must take two 'i32' arguments}}
  %0 = tile.scan custom %x {axis = 0 : i32} : !tile.block<128xi32> {
  ^bb0(%a: i64, %b: i64):
    %m = arith.trunci %a : i64 to i32
    tile.yield %m : i32
  }
  return
}

// -----

func.func @scan_region_yield(%x: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.scan' op combine region must yield one 'i32'}}
  %0 = tile.scan custom %x {axis = 0 : i32} : !tile.block<128xi32> {
  ^bb0(%a: i32, %b: i32):
    %m = arith.extsi %a : i32 to i64
    tile.yield %m : i64
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

func.func @dot_rank(%a: !tile.block<32xf16>, %b: !tile.block<16x64xf16>, %c: !tile.block<32x64xf32>) {
  // expected-error @+1 {{'tile.dot' op needs rank-2 or rank-3 (batched) operands of one rank, got 32, 16x64 and 32x64}}
  %0 = tile.dot %a, %b, %c : !tile.block<32xf16>, !tile.block<16x64xf16> -> !tile.block<32x64xf32>
  return
}

// -----

func.func @dot_batch_mismatch(%a: !tile.block<2x32x16xf16>, %b: !tile.block<4x16x64xf16>, %c: !tile.block<2x32x64xf32>) {
  // expected-error @+1 {{'tile.dot' op batch sizes differ: a is 2x32x16, b is 4x16x64 and the accumulator 2x32x64}}
  %0 = tile.dot %a, %b, %c : !tile.block<2x32x16xf16>, !tile.block<4x16x64xf16> -> !tile.block<2x32x64xf32>
  return
}

// -----

func.func @dot_rank4(%a: !tile.block<2x2x32x16xf16>, %b: !tile.block<2x2x16x64xf16>, %c: !tile.block<2x2x32x64xf32>) {
  // expected-error @+1 {{'tile.dot' op needs rank-2 or rank-3 (batched) operands of one rank, got 2x2x32x16, 2x2x16x64 and 2x2x32x64}}
  %0 = tile.dot %a, %b, %c : !tile.block<2x2x32x16xf16>, !tile.block<2x2x16x64xf16> -> !tile.block<2x2x32x64xf32>
  return
}

// -----

func.func @dot_inner(%a: !tile.block<32x16xf16>, %b: !tile.block<32x64xf16>, %c: !tile.block<32x64xf32>) {
  // expected-error @+1 {{'tile.dot' op inner dimensions differ: a is 32x16 and b is 32x64}}
  %0 = tile.dot %a, %b, %c : !tile.block<32x16xf16>, !tile.block<32x64xf16> -> !tile.block<32x64xf32>
  return
}

// -----

func.func @dot_acc_shape(%a: !tile.block<32x16xf16>, %b: !tile.block<16x64xf16>, %c: !tile.block<64x32xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator is 64x32 but a*b is 32x64}}
  %0 = tile.dot %a, %b, %c : !tile.block<32x16xf16>, !tile.block<16x64xf16> -> !tile.block<64x32xf32>
  return
}

// -----

func.func @dot_mixed_inputs(%a: !tile.block<32x16xf16>, %b: !tile.block<16x64xbf16>, %c: !tile.block<32x64xf32>) {
  // expected-error @+1 {{'tile.dot' op a and b must have one element type (or both be 8-bit floats), got 'f16' and 'bf16'}}
  %0 = tile.dot %a, %b, %c : !tile.block<32x16xf16>, !tile.block<16x64xbf16> -> !tile.block<32x64xf32>
  return
}

// -----

func.func @dot_float8_and_f16(%a: !tile.block<64x32xf8E4M3FN>, %b: !tile.block<32x64xf16>, %c: !tile.block<64x64xf32>) {
  // expected-error @+1 {{'tile.dot' op a and b must have one element type (or both be 8-bit floats), got 'f8E4M3FN' and 'f16'}}
  %0 = tile.dot %a, %b, %c : !tile.block<64x32xf8E4M3FN>, !tile.block<32x64xf16> -> !tile.block<64x64xf32>
  return
}

// -----

func.func @dot_float8_f16_acc(%a: !tile.block<64x32xf8E5M2>, %b: !tile.block<32x64xf8E5M2>, %c: !tile.block<64x64xf16>) {
  // expected-error @+1 {{'tile.dot' op accumulator of 'f8E5M2' inputs must be 'f32', not 'f16'}}
  %0 = tile.dot %a, %b, %c : !tile.block<64x32xf8E5M2>, !tile.block<32x64xf8E5M2> -> !tile.block<64x64xf16>
  return
}

// -----

func.func @dot_tf32_f16(%a: !tile.block<64x32xf16>, %b: !tile.block<32x64xf16>, %c: !tile.block<64x64xf32>) {
  // expected-error @+1 {{'tile.dot' op reads tf32 from f32 inputs only, not 'f16'}}
  %0 = tile.dot %a, %b, %c {tf32} : !tile.block<64x32xf16>, !tile.block<32x64xf16> -> !tile.block<64x64xf32>
  return
}

// -----

func.func @dot_f64_inputs(%a: !tile.block<32x16xf64>, %b: !tile.block<16x64xf64>, %c: !tile.block<32x64xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator of 'f64' inputs must be 'f64', not 'f32'}}
  %0 = tile.dot %a, %b, %c : !tile.block<32x16xf64>, !tile.block<16x64xf64> -> !tile.block<32x64xf32>
  return
}

// -----

func.func @dot_int8_float_acc(%a: !tile.block<32x16xi8>, %b: !tile.block<16x64xi8>, %c: !tile.block<32x64xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator of 'i8' inputs must be 'i32', not 'f32'}}
  %0 = tile.dot %a, %b, %c : !tile.block<32x16xi8>, !tile.block<16x64xi8> -> !tile.block<32x64xf32>
  return
}

// -----

func.func @dot_int16_inputs(%a: !tile.block<32x16xi16>, %b: !tile.block<16x64xi16>, %c: !tile.block<32x64xi32>) {
  // expected-error @+1 {{'tile.dot' op inputs must be f16, bf16, f32 or 8-bit floats (f32 accumulator), i8 (i32 accumulator) or f64 (f64 accumulator), not 'i16'}}
  %0 = tile.dot %a, %b, %c : !tile.block<32x16xi16>, !tile.block<16x64xi16> -> !tile.block<32x64xi32>
  return
}

// -----

func.func @dot_pointer_inputs(%a: !tile.block<32x16x!tile.ptr<f32>>, %b: !tile.block<16x64x!tile.ptr<f32>>, %c: !tile.block<32x64xf32>) {
  // expected-error @+1 {{'tile.dot' op operand #0 must be block of scalars, but got '!tile.block<32x16x!tile.ptr<f32>>'}}
  %0 = tile.dot %a, %b, %c : !tile.block<32x16x!tile.ptr<f32>>, !tile.block<16x64x!tile.ptr<f32>> -> !tile.block<32x64xf32>
  return
}

// -----

func.func @dot_f16_acc(%a: !tile.block<32x16xf16>, %b: !tile.block<16x64xf16>, %c: !tile.block<32x64xf16>) {
  // expected-error @+1 {{'tile.dot' op accumulator of 'f16' inputs must be 'f32', not 'f16'}}
  %0 = tile.dot %a, %b, %c : !tile.block<32x16xf16>, !tile.block<16x64xf16> -> !tile.block<32x64xf16>
  return
}

// -----

func.func @dot_result(%a: !tile.block<32x16xf16>, %b: !tile.block<16x64xf16>, %c: !tile.block<32x64xf32>) {
  // expected-error @+1 {{'tile.dot' op failed to verify that result type is the accumulator type}}
  %0 = "tile.dot"(%a, %b, %c) : (!tile.block<32x16xf16>, !tile.block<16x64xf16>, !tile.block<32x64xf32>) -> !tile.block<32x64xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

func.func @addf_shapes(%a: !tile.block<16x1xf32>, %b: !tile.block<8x32xf32>) {
  // expected-error @+1 {{'tile.addf' op requires the same type for all operands and results}}
  %0 = "tile.addf"(%a, %b) : (!tile.block<16x1xf32>, !tile.block<8x32xf32>) -> !tile.block<8x32xf32>
  return
}

// -----

func.func @addf_custom_shapes(%a: !tile.block<16x1xf32>, %b: !tile.block<8x32xf32>) {
  // expected-error @+2 {{use of value '%b' expects different type than prior uses: '!tile.block<16x1xf32>' vs '!tile.block<8x32xf32>'}}
  // expected-note @-2 {{prior use here}}
  %0 = tile.addf %a, %b : !tile.block<16x1xf32>
  return
}

// -----

func.func @addi_result(%a: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.addi' op requires the same type for all operands and results}}
  %0 = "tile.addi"(%a, %a) : (!tile.block<16xi32>, !tile.block<16xi32>) -> !tile.block<16xi64>
  return
}

// -----

func.func @addi_of_floats(%a: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.addi' op operand #0 must be block of integers, but got '!tile.block<16xf32>'}}
  %0 = "tile.addi"(%a, %a) : (!tile.block<16xf32>, !tile.block<16xf32>) -> !tile.block<16xf32>
  return
}

// -----

func.func @addf_of_ints(%a: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.addf' op operand #0 must be block of f16, bf16, f32 or f64, but got '!tile.block<16xi32>'}}
  %0 = tile.addf %a, %a : !tile.block<16xi32>
  return
}

// -----

func.func @addf_scalars(%a: f32) {
  // expected-error @+1 {{'tile.addf' op operand #0 must be block of f16, bf16, f32 or f64, but got 'f32'}}
  %0 = tile.addf %a, %a : f32
  return
}

// -----

func.func @fma_types(%a: !tile.block<16xf32>, %c: !tile.block<16xf16>) {
  // expected-error @+1 {{'tile.fma' op requires the same type for all operands and results}}
  %0 = "tile.fma"(%a, %a, %c) : (!tile.block<16xf32>, !tile.block<16xf32>, !tile.block<16xf16>) -> !tile.block<16xf32>
  return
}

// -----

func.func @negf_of_ints(%a: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.negf' op operand #0 must be block of f16, bf16, f32 or f64, but got '!tile.block<16xi32>'}}
  %0 = tile.negf %a : !tile.block<16xi32>
  return
}

// -----

func.func @cmpi_operands(%a: !tile.block<16xi32>, %b: !tile.block<16xi64>) {
  // expected-error @+1 {{'tile.cmpi' op requires all operands to have the same type}}
  %0 = "tile.cmpi"(%a, %b) <{predicate = 0 : i64}> : (!tile.block<16xi32>, !tile.block<16xi64>) -> !tile.block<16xi1>
  return
}

// -----

func.func @cmpi_result(%a: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.cmpi' op failed to verify that result is an i1 block of the operands' shape}}
  %0 = "tile.cmpi"(%a, %a) <{predicate = 0 : i64}> : (!tile.block<16xi32>, !tile.block<16xi32>) -> !tile.block<8xi1>
  return
}

// -----

func.func @cmpi_predicate(%a: !tile.block<16xi32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = tile.cmpi olt, %a, %a : !tile.block<16xi32>
  return
}

// -----

func.func @cmpf_of_ints(%a: !tile.block<16xi32>) {
  // expected-error @+1 {{custom op 'tile.cmpf' 'lhs' must be block of f16, bf16, f32 or f64, but got '!tile.block<16xi32>'}}
  %0 = tile.cmpf olt, %a, %a : !tile.block<16xi32>
  return
}

// -----

func.func @select_condition(%c: !tile.block<8xi1>, %a: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.select' op failed to verify that condition is an i1 block of the result's shape}}
  %0 = "tile.select"(%c, %a, %a) : (!tile.block<8xi1>, !tile.block<16xf32>, !tile.block<16xf32>) -> !tile.block<16xf32>
  return
}

// -----

func.func @select_values(%c: !tile.block<16xi1>, %a: !tile.block<16xf32>, %b: !tile.block<16xf16>) {
  // expected-error @+1 {{'tile.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "tile.select"(%c, %a, %b) : (!tile.block<16xi1>, !tile.block<16xf32>, !tile.block<16xf16>) -> !tile.block<16xf32>
  return
}

// -----

func.func @cast_shape(%a: !tile.block<128xf32>) {
  // expected-error @+1 {{'tile.cast' op cannot change the shape from 128 to 64x2; a cast converts elements only}}
  %0 = tile.cast %a : !tile.block<128xf32> to !tile.block<64x2xf16>
  return
}

// -----

func.func @cast_unsigned_float(%a: !tile.block<128xf32>) {
  // expected-error @+1 {{'tile.cast' op 'unsigned_src' applies to integer sources only, not 'f32'}}
  %0 = tile.cast %a {unsigned_src} : !tile.block<128xf32> to !tile.block<128xi32>
  return
}

// -----

func.func @cast_pointers(%a: !tile.block<128x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.cast' op operand #0 must be scalar (i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2) or block of scalars, but got '!tile.block<128x!tile.ptr<f32>>'}}
  %0 = tile.cast %a : !tile.block<128x!tile.ptr<f32>> to !tile.block<128xi64>
  return
}

//===----------------------------------------------------------------------===//
// Hints
//===----------------------------------------------------------------------===//

// -----

func.func @hint_nothing(%a: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.hint' op states no fact: give divisibility, contiguity or constancy}}
  %0 = tile.hint %a : !tile.block<128xi32>
  return
}

// -----

func.func @hint_rank(%a: !tile.block<4x32xi32>) {
  // expected-error @+1 {{'tile.hint' op divisibility needs 2 entries, one per dimension, not 1}}
  %0 = tile.hint %a divisibility [16] : !tile.block<4x32xi32>
  return
}

// -----

func.func @hint_scalar_rank(%a: i32) {
  // expected-error @+1 {{'tile.hint' op contiguity needs 1 entry for a scalar, not 2}}
  %0 = tile.hint %a contiguity [1, 1] : i32
  return
}

// -----

func.func @hint_not_power_of_two(%a: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.hint' op divisibility entry 0 is 24, not a positive power of two}}
  %0 = tile.hint %a divisibility [24] : !tile.block<128xi32>
  return
}

// -----

func.func @hint_zero(%a: !tile.block<4x32xi32>) {
  // expected-error @+1 {{'tile.hint' op constancy entry 1 is 0, not a positive integer}}
  %0 = tile.hint %a constancy [1, 0] : !tile.block<4x32xi32>
  return
}

// -----

func.func @hint_beyond_extent(%a: !tile.block<4x32xi32>) {
  // expected-error @+1 {{'tile.hint' op contiguity entry 1 is 64, more than the extent 32}}
  %0 = tile.hint %a contiguity [1, 64] : !tile.block<4x32xi32>
  return
}

// -----

func.func @hint_scalar_contiguity(%a: i32) {
  // expected-error @+1 {{'tile.hint' op contiguity entry 0 is 16, more than the extent 1}}
  %0 = tile.hint %a contiguity [16] : i32
  return
}

// -----

func.func @hint_float(%a: !tile.block<128xf32>) {
  // expected-error @+1 {{'tile.hint' op operand #0 must be signless integer or pointer or block of integers or block of pointers, but got '!tile.block<128xf32>'}}
  %0 = tile.hint %a divisibility [16] : !tile.block<128xf32>
  return
}

// -----

func.func @hint_negative(%a: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.hint' op divisibility entry 0 is -16, not a positive power of two}}
  %0 = tile.hint %a divisibility [-16] : !tile.block<128xi32>
  return
}

// -----

func.func @bitcast_width(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.bitcast' op cannot bitcast 'f32' (32 bits) to 'f16' (16 bits)}}
  %0 = tile.bitcast %x : !tile.block<16xf32> to !tile.block<16xf16>
  return
}

// -----

func.func @bitcast_pointer_to_int(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.bitcast' op cannot bitcast between '!tile.ptr<f32>' and 'i64'; use tile.int_to_ptr or tile.ptr_to_int}}
  %0 = tile.bitcast %p : !tile.ptr<f32> to i64
  return
}

// -----

func.func @bitcast_shape(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.bitcast' op the operand is 16 but the result is 4x4; broadcast them to one shape first}}
  %0 = tile.bitcast %x : !tile.block<16xf32> to !tile.block<4x4xi32>
  return
}

// -----

func.func @int_to_ptr_width(%x: !tile.block<16xi32>) {
  // expected-error @+1 {{'tile.int_to_ptr' op operand #0 must be i64 or block of i64}}
  %0 = tile.int_to_ptr %x : !tile.block<16xi32> to !tile.block<16x!tile.ptr<f32>>
  return
}

// -----

func.func @ptr_to_int_scalar_to_block(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.ptr_to_int' op the operand and the result must both be blocks or both scalars; splat the scalar first}}
  %0 = tile.ptr_to_int %p : !tile.ptr<f32> to !tile.block<4xi64>
  return
}

// -----

func.func @extern_symbol(%x: f32) {
  // expected-error @+1 {{'tile.extern_elementwise' op symbol 'not a name' is not a function name (letters, digits, _)}}
  %0 = tile.extern_elementwise "not a name"(%x) : (f32) -> f32
  return
}

// -----

func.func @extern_shapes(%x: !tile.block<8xf32>) {
  // expected-error @+1 {{'tile.extern_elementwise' op an argument is 8 but the result is 16; broadcast them to one shape first}}
  %0 = tile.extern_elementwise "__nv_erff"(%x) : (!tile.block<8xf32>) -> !tile.block<16xf32>
  return
}

// -----

func.func @cast_unsigned_dst(%x: !tile.block<8xi32>) {
  // expected-error @+1 {{'tile.cast' op 'unsigned_dst' applies to float-to-integer casts only, not 'i32' to 'i64'}}
  %0 = tile.cast %x {unsigned_dst} : !tile.block<8xi32> to !tile.block<8xi64>
  return
}

// -----

func.func @cast_rtz_widening(%x: !tile.block<8xf16>) {
  // expected-error @+1 {{'tile.cast' op 'rtz' (round toward zero) applies to casts to a narrower float only, not 'f16' to 'f32'}}
  %0 = tile.cast %x {rtz} : !tile.block<8xf16> to !tile.block<8xf32>
  return
}

// -----

func.func @load_cache_operator(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.load' op cache operator 'wt' is not one of ca, cg, cv}}
  %0 = tile.load %p {cache = "wt"} : !tile.ptr<f32>
  return
}

// -----

func.func @store_eviction_priority(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tile.store' op eviction priority 'evict_soon' is not evict_first or evict_last}}
  tile.store %p, %v {evict = "evict_soon"} : !tile.ptr<f32>
  return
}

// -----

func.func @load_operator_and_priority(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.load' op a cache operator and an eviction priority cannot be combined (PTX has no such form)}}
  %0 = tile.load %p {cache = "cg", evict = "evict_first"} : !tile.ptr<f32>
  return
}

// -----

func.func @volatile_with_hint(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.load' op a volatile access takes no cache operator or eviction priority}}
  %0 = tile.load %p {cache = "cg", is_volatile} : !tile.ptr<f32>
  return
}

// -----

func.func @atomic_kind_type(%p: !tile.block<4x!tile.ptr<f32>>, %v: !tile.block<4xf32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'and' does not apply to 'f32' elements, only to i32 or i64}}
  %0 = tile.atomic_rmw and acq_rel gpu %p, %v : !tile.block<4x!tile.ptr<f32>>
  return
}

// -----

func.func @atomic_add_i16(%p: !tile.ptr<i16>, %v: i16) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'add' does not apply to 'i16' elements, only to i32, i64, f16, bf16, f32 or f64}}
  %0 = tile.atomic_rmw add acq_rel gpu %p, %v : !tile.ptr<i16>
  return
}

// -----

func.func @atomic_max_f16(%p: !tile.ptr<f16>, %v: f16) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'max' does not apply to 'f16' elements, only to i32, i64, f32 or f64}}
  %0 = tile.atomic_rmw max acq_rel gpu %p, %v : !tile.ptr<f16>
  return
}

// -----

func.func @atomic_value_type(%p: !tile.block<4x!tile.ptr<i32>>, %v: !tile.block<4xi64>) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that value holds the pointees}}
  %0 = "tile.atomic_rmw"(%p, %v) <{kind = #tile<atomic add>, sem = #tile<sem acq_rel>, scope = #tile<scope gpu>}> : (!tile.block<4x!tile.ptr<i32>>, !tile.block<4xi64>) -> !tile.block<4xi32>
  return
}

// -----

func.func @atomic_value_shape(%p: !tile.ptr<i32>, %v: !tile.block<4xi32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that value holds the pointees}}
  %0 = "tile.atomic_rmw"(%p, %v) <{kind = #tile<atomic add>, sem = #tile<sem acq_rel>, scope = #tile<scope gpu>}> : (!tile.ptr<i32>, !tile.block<4xi32>) -> i32
  return
}

// -----

func.func @atomic_mask_shape(%p: !tile.block<4x!tile.ptr<i32>>, %v: !tile.block<4xi32>, %m: !tile.block<8xi1>) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that mask has the pointers' shape}}
  %0 = "tile.atomic_rmw"(%p, %v, %m) <{kind = #tile<atomic add>, sem = #tile<sem acq_rel>, scope = #tile<scope gpu>}> : (!tile.block<4x!tile.ptr<i32>>, !tile.block<4xi32>, !tile.block<8xi1>) -> !tile.block<4xi32>
  return
}

// -----

func.func @atomic_bad_kind(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+2 {{expected ::mlir::tile::AtomicKind to be one of: add, max, min, umax, umin, and, or, xor, xchg}}
  // expected-error @+1 {{failed to parse Tile_AtomicKindAttr parameter 'value'}}
  %0 = tile.atomic_rmw nand acq_rel gpu %p, %v : !tile.ptr<i32>
  return
}

// -----

func.func @atomic_bad_sem(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+2 {{expected ::mlir::tile::MemSemantic to be one of: relaxed, acquire, release, acq_rel}}
  // expected-error @+1 {{failed to parse Tile_MemSemanticAttr parameter 'value'}}
  %0 = tile.atomic_rmw add seq_cst gpu %p, %v : !tile.ptr<i32>
  return
}

// -----

func.func @atomic_bad_scope(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+2 {{expected ::mlir::tile::MemScope to be one of: cta, gpu, sys}}
  // expected-error @+1 {{failed to parse Tile_MemScopeAttr parameter 'value'}}
  %0 = tile.atomic_rmw add acq_rel cluster %p, %v : !tile.ptr<i32>
  return
}

// -----

func.func @atomic_mask_keyword(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected SSA operand}}
  %0 = tile.atomic_rmw add acq_rel gpu %p, %v mask : !tile.ptr<i32>
  return
}

// -----

func.func @atomic_cas_i8(%p: !tile.ptr<i8>, %v: i8) {
  // expected-error @+1 {{'tile.atomic_cas' op compares and swaps elements of 16, 32 or 64 bits, not 'i8'}}
  %0 = tile.atomic_cas acq_rel gpu %p, %v, %v : !tile.ptr<i8>
  return
}

// -----

func.func @atomic_cas_cmp(%p: !tile.block<4x!tile.ptr<i32>>, %c: !tile.block<4xf32>, %v: !tile.block<4xi32>) {
  // expected-error @+1 {{'tile.atomic_cas' op failed to verify that cmp holds the pointees}}
  %0 = "tile.atomic_cas"(%p, %c, %v) <{sem = #tile<sem acq_rel>, scope = #tile<scope gpu>}> : (!tile.block<4x!tile.ptr<i32>>, !tile.block<4xf32>, !tile.block<4xi32>) -> !tile.block<4xi32>
  return
}

// -----

func.func @tensor_map_coordinates(%map: !tile.tensor_map, %p: !tile.block<64x32x!tile.ptr<f16>>, %i: i32) {
  // expected-error @+1 {{'tile.load' op has 1 tensor map coordinates for a rank-2 block (one per dimension)}}
  %0 = tile.load %p tensor_map %map[%i] : !tile.block<64x32x!tile.ptr<f16>>
  return
}

// -----

func.func @tensor_map_dims(%map: !tile.tensor_map, %p: !tile.block<64x32x!tile.ptr<f16>>, %i: i32) {
  // expected-error @+1 {{'tile.load' op map_dims must be a permutation of the 2 dimensions}}
  %0 = tile.load %p tensor_map %map[%i, %i] {map_dims = array<i64: 1, 1>} : !tile.block<64x32x!tile.ptr<f16>>
  return
}

// -----

func.func @tensor_map_scalar(%map: !tile.tensor_map, %p: !tile.ptr<f16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op reads a box of a tensor map into a block, not a scalar}}
  %0 = tile.load %p tensor_map %map[%i] : !tile.ptr<f16>
  return
}

// -----

func.func @tensor_map_volatile(%map: !tile.tensor_map, %p: !tile.block<64x!tile.ptr<f16>>, %i: i32) {
  // expected-error @+1 {{'tile.load' op reads a tensor map's box with TMA, which is neither atomic nor volatile}}
  %0 = tile.load %p tensor_map %map[%i] {is_volatile} : !tile.block<64x!tile.ptr<f16>>
  return
}

// -----

func.func @tensor_map_store_volatile(%map: !tile.tensor_map, %p: !tile.block<64x!tile.ptr<f16>>, %v: !tile.block<64xf16>, %i: i32) {
  // expected-error @+1 {{'tile.store' op writes a tensor map's box with TMA, which is neither atomic nor volatile}}
  tile.store %p, %v tensor_map %map[%i] {is_volatile} : !tile.block<64x!tile.ptr<f16>>
  return
}

// -----

func.func @tensor_map_store_coordinates(%map: !tile.tensor_map, %p: !tile.block<64x32x!tile.ptr<f16>>, %v: !tile.block<64x32xf16>, %i: i32) {
  // expected-error @+1 {{'tile.store' op has 1 tensor map coordinates for a rank-2 block (one per dimension)}}
  tile.store %p, %v tensor_map %map[%i] : !tile.block<64x32x!tile.ptr<f16>>
  return
}

// -----

func.func @map_dims_without_map(%p: !tile.block<64x!tile.ptr<f16>>) {
  // expected-error @+1 {{'tile.load' op has tensor map coordinates or map_dims but no tensor map}}
  %0 = tile.load %p {map_dims = array<i64: 0>} : !tile.block<64x!tile.ptr<f16>>
  return
}

// -----

func.func @async_copy_tensor_map(%map: !tile.tensor_map, %p: !tile.block<128x64x!tile.ptr<f16>>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<128x64xf16>>
  // expected-error @+1 {{'tile.async_copy' op has 3 tensor map coordinates for a rank-2 block (one per dimension)}}
  tile.async_copy %p, %r[%slot] tensor_map %map[%slot, %slot, %slot] : !tile.block<128x64x!tile.ptr<f16>>, !tile.ring<3, !tile.block<128x64xf16>>
  return
}

// -----

func.func @async_copy_shape(%p: !tile.block<64x64x!tile.ptr<f16>>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<128x64xf16>>
  // expected-error @+1 {{'tile.async_copy' op copies 64x64 '!tile.ptr<f16>' into slots of 128x64 'f16'}}
  tile.async_copy %p, %r[%slot] : !tile.block<64x64x!tile.ptr<f16>>, !tile.ring<3, !tile.block<128x64xf16>>
  return
}

// -----

#mma_s8t = #tile.mma<version = 3, warps = [4, 1], instr = [16, 64, 32]>
func.func @ring_dot_transposed_8bit(%a: !tile.ring<2, !tile.block<64x64xi8>>, %slot: i32,
                                          %acc: !tile.block<64x64xi32, #mma_s8t>) {
  // expected-error @+1 {{'tile.ring_dot' op reads B transposed from its ring, which the tensor cores do for 16-bit elements only}}
  %d = tile.ring_dot %a[%slot], %a[%slot], %acc {b_transposed}
      : !tile.ring<2, !tile.block<64x64xi8>>, !tile.ring<2, !tile.block<64x64xi8>>
        -> !tile.block<64x64xi32, #mma_s8t>
  return
}

// -----

func.func @ring_dot_layout(%acc: !tile.block<64x64xf32>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf16>>
  // expected-error @+1 {{'tile.ring_dot' op accumulator needs a #tile.mma layout of version 2 (mma.sync) or 3 (wgmma)}}
  %d = tile.ring_dot %r[%slot], %r[%slot], %acc : !tile.ring<3, !tile.block<64x64xf16>>, !tile.ring<3, !tile.block<64x64xf16>> -> !tile.block<64x64xf32>
  return
}

// -----

#mma2 = #tile.mma<version = 2, warps = [2, 2], instr = [16, 8, 16]>
func.func @ring_dot_mma_sync_register_a(%a: !tile.block<64x64xf16, #mma2>, %acc: !tile.block<64x64xf32, #mma2>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf16>>
  // expected-error @+1 {{'tile.ring_dot' op on mma.sync reads A from a ring}}
  %d = tile.ring_dot %a, %r[%slot], %acc : !tile.block<64x64xf16, #mma2>, !tile.ring<3, !tile.block<64x64xf16>> -> !tile.block<64x64xf32, #mma2>
  return
}

// -----

#mma2 = #tile.mma<version = 2, warps = [2, 2], instr = [16, 8, 16]>
func.func @ring_dot_mma_sync_float8(%acc: !tile.block<64x64xf32, #mma2>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf8E5M2>>
  // expected-error @+1 {{'tile.ring_dot' op on mma.sync takes no 8-bit float operands}}
  %d = tile.ring_dot %r[%slot], %r[%slot], %acc : !tile.ring<3, !tile.block<64x64xf8E5M2>>, !tile.ring<3, !tile.block<64x64xf8E5M2>> -> !tile.block<64x64xf32, #mma2>
  return
}

// -----

func.func @ring_load_operands(%slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf16>>
  // expected-error @+1 {{'tile.ring_load' op reads rank-1 rings (row statistics), not a ring of 64x64 blocks}}
  %m = tile.ring_load %r[%slot] : !tile.ring<3, !tile.block<64x64xf16>> -> !tile.block<64x64xf16>
  return
}

// -----

func.func @ring_store_type(%b: !tile.block<64x64xf16>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x128xf16>>
  // expected-error @+1 {{'tile.ring_store' op stores 64x64 'f16' into 64x128 'f16' slots}}
  tile.ring_store %b, %r[%slot] : !tile.block<64x64xf16>, !tile.ring<3, !tile.block<64x128xf16>>
  return
}

// -----

func.func @ring_load_type(%slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<32xf32>>
  // expected-error @+1 {{'tile.ring_load' op reads 32 'f32' slots into 64 'f32'}}
  %m = tile.ring_load %r[%slot] : !tile.ring<3, !tile.block<32xf32>> -> !tile.block<64xf32>
  return
}

// -----

#mma = #tile.mma<version = 3, warps = [4, 1], instr = [16, 64, 16]>
func.func @ring_dot_shapes(%acc: !tile.block<64x64xf32, #mma>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x32xf16>>
  // expected-error @+1 {{'tile.ring_dot' op inner dimensions differ: a is 64x32 and b is 64x32}}
  %d = tile.ring_dot %r[%slot], %r[%slot], %acc : !tile.ring<3, !tile.block<64x32xf16>>, !tile.ring<3, !tile.block<64x32xf16>> -> !tile.block<64x64xf32, #mma>
  return
}

// -----

#mma = #tile.mma<version = 3, warps = [4, 1], instr = [16, 64, 16]>
#blocked = #tile.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps = [4, 1], order = [1, 0]>
func.func @ring_dot_register_a_layout(%a: !tile.block<64x64xf16, #blocked>, %acc: !tile.block<64x64xf32, #mma>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf16>>
  // expected-error @+1 {{'tile.ring_dot' op A in registers must be a 16-bit block in the accumulator layout of the dot's warps}}
  %d = tile.ring_dot %a, %r[%slot], %acc : !tile.block<64x64xf16, #blocked>, !tile.ring<3, !tile.block<64x64xf16>> -> !tile.block<64x64xf32, #mma>
  return
}

// -----

#mma = #tile.mma<version = 3, warps = [4, 1], instr = [16, 64, 16]>
func.func @ring_dot_register_a_slot(%a: !tile.block<64x64xf16, #mma>, %acc: !tile.block<64x64xf32, #mma>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf16>>
  // expected-error @+1 {{'tile.ring_dot' op A in registers takes no slot index}}
  %d = tile.ring_dot %a[%slot], %r[%slot], %acc : !tile.block<64x64xf16, #mma>, !tile.ring<3, !tile.block<64x64xf16>> -> !tile.block<64x64xf32, #mma>
  return
}

// -----

#mma = #tile.mma<version = 3, warps = [4, 1], instr = [16, 64, 16]>
func.func @ring_dot_ring_a_no_slot(%acc: !tile.block<64x64xf32, #mma>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf16>>
  // expected-error @+1 {{'tile.ring_dot' op A from a ring needs a slot index}}
  %d = tile.ring_dot %r, %r[%slot], %acc : !tile.ring<3, !tile.block<64x64xf16>>, !tile.ring<3, !tile.block<64x64xf16>> -> !tile.block<64x64xf32, #mma>
  return
}

// -----

func.func @print_flags(%x: !tile.block<16xf32>, %n: i32) {
  // expected-error @+1 {{'tile.print' op needs one is_signed flag per operand: 2 operands, 1 flags}}
  tile.print " x: " %x, %n {is_signed = array<i1: true>} : !tile.block<16xf32>, i32
  return
}

// -----

func.func @assert_on_floats(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.assert' op operand #0 must be i1 or block of i1}}
  tile.assert %x, "no" : !tile.block<16xf32>
  return
}

// -----

func.func @gather_shapes(%src: !tile.block<16x32xf32>, %idx: !tile.block<8x8xi32>) {
  // expected-error @+1 {{'tile.gather' op index is 8x8 but the source is 16x32: they may differ only along axis 1}}
  %g = tile.gather %src[%idx] {axis = 1 : i32} : !tile.block<16x32xf32>, !tile.block<8x8xi32> -> !tile.block<8x8xf32>
  return
}

// -----

func.func @gather_rank(%src: !tile.block<16x32xf32>, %idx: !tile.block<8xi32>) {
  // expected-error @+1 {{'tile.gather' op index must have the source's rank 2, not 1}}
  %g = tile.gather %src[%idx] {axis = 0 : i32} : !tile.block<16x32xf32>, !tile.block<8xi32> -> !tile.block<8xf32>
  return
}

// -----

func.func @gather_result(%src: !tile.block<16x32xf32>, %idx: !tile.block<16x8xi32>) {
  // expected-error @+1 {{'tile.gather' op result must be a 16x8 block of 'f32'}}
  %g = tile.gather %src[%idx] {axis = 1 : i32} : !tile.block<16x32xf32>, !tile.block<16x8xi32> -> !tile.block<16x8xf16>
  return
}

// -----

func.func @histogram_type(%x: !tile.block<64xi64>) {
  // expected-error @+1 {{'tile.histogram' op takes a rank-1 block of i32, not '!tile.block<64xi64>'}}
  %h = tile.histogram %x : !tile.block<64xi64> -> !tile.block<8xi32>
  return
}

// -----

func.func @atomic_load_release(%p: !tile.ptr<i32>) {
  // expected-error @+1 {{'tile.load' op an atomic load is acquire or relaxed, not release}}
  %f = tile.load %p {sem = #tile<sem release>, scope = #tile<scope gpu>} : !tile.ptr<i32>
  return
}

// -----

func.func @atomic_store_acquire(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tile.store' op an atomic store is release or relaxed, not acquire}}
  tile.store %p, %v {sem = #tile<sem acquire>, scope = #tile<scope gpu>} : !tile.ptr<i32>
  return
}

// -----

func.func @atomic_load_no_scope(%p: !tile.ptr<i32>) {
  // expected-error @+1 {{'tile.load' op an atomic access needs both sem and scope}}
  %f = tile.load %p {sem = #tile<sem acquire>} : !tile.ptr<i32>
  return
}

// -----

func.func @atomic_load_hint(%p: !tile.ptr<i32>) {
  // expected-error @+1 {{'tile.load' op an atomic access takes no cache operator, eviction priority or volatile}}
  %f = tile.load %p {sem = #tile<sem acquire>, scope = #tile<scope gpu>, cache = "cg"} : !tile.ptr<i32>
  return
}

// -----

func.func @inline_asm_shapes(%x: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.inline_asm' op operands and results must have one shape, got 128 and 64}}
  %y = tile.inline_asm "mov.b32 $0, $1;", "=r,r" %x {pack = 1 : i32, pure} : (!tile.block<128xi32>) -> (!tile.block<64xi32>)
  return
}

// -----

func.func @inline_asm_scalar_pack(%n: i32) {
  // expected-error @+1 {{'tile.inline_asm' op on scalars takes pack 1, not 2}}
  %y = tile.inline_asm "mov.b32 $0, $1;", "=r,r" %n {pack = 2 : i32, pure} : (i32) -> (i32)
  return
}

// -----

func.func @inline_asm_no_result(%n: i32) {
  // expected-error @+1 {{'tile.inline_asm' op needs at least one result}}
  tile.inline_asm "trap;", "" {pack = 1 : i32} : () -> ()
  return
}

// -----

func.func @print_in_combine(%x: !tile.block<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combine region cannot print (tl.device_print in a combine function is not supported)}}
  %0 = tile.reduce custom %x {axis = 0 : i32} : !tile.block<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    tile.print " a: " %a {is_signed = array<i1: true>} : f32
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  return
}

// -----

func.func @cast_f8_to_int(%x: !tile.block<8xf8E4M3FN>) {
  // expected-error @+1 {{'tile.cast' op converts 'f8E4M3FN' to 'i32': 8-bit floats convert to and from floats only}}
  %0 = tile.cast %x : !tile.block<8xf8E4M3FN> to !tile.block<8xi32>
  return
}

// -----

func.func @cast_rtz_to_e4m3(%x: !tile.block<8xf32>) {
  // expected-error @+1 {{'tile.cast' op 'rtz' (round toward zero) to f8E4M3FN is not supported; only f8E5M2 has it}}
  %0 = tile.cast %x {rtz} : !tile.block<8xf32> to !tile.block<8xf8E4M3FN>
  return
}

// -----

func.func @f8_arithmetic(%x: !tile.block<8xf8E5M2>) {
  // expected-error @+1 {{'tile.addf' op operand #0 must be block of f16, bf16, f32 or f64, but got '!tile.block<8xf8E5M2>'}}
  %0 = tile.addf %x, %x : !tile.block<8xf8E5M2>
  return
}

// -----

func.func @map_shapes(%x: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.map_elementwise' op operands and results must have one shape, got 128 and 64}}
  %y = tile.map_elementwise %x {pack = 1 : i32} : (!tile.block<128xi32>) -> (!tile.block<64xi32>) {
  ^bb0(%a: i32):
    tile.yield %a : i32
  }
  return
}

// -----

func.func @map_scalar_pack(%n: i32) {
  // expected-error @+1 {{'tile.map_elementwise' op on scalars takes pack 1, not 2}}
  %y = tile.map_elementwise %n {pack = 2 : i32} : (i32) -> (i32) {
  ^bb0(%a: i32, %b: i32):
    tile.yield %a, %b : i32, i32
  }
  return
}

// -----

func.func @map_no_operand() {
  // expected-error @+1 {{'tile.map_elementwise' op needs at least one operand}}
  %y = tile.map_elementwise {pack = 1 : i32} : () -> (i32) {
  ^bb0:
    %c = arith.constant 1 : i32
    tile.yield %c : i32
  }
  return
}

// -----

func.func @map_region_arguments(%x: !tile.block<128xi32>, %f: !tile.block<128xf32>) {
  // expected-error @+1 {{'tile.map_elementwise' op region must take 2 scalar(s) of each operand's element type ('i32', 'i32', 'f32', 'f32')}}
  %y = tile.map_elementwise %x, %f {pack = 2 : i32} : (!tile.block<128xi32>, !tile.block<128xf32>) -> (!tile.block<128xi32>) {
  ^bb0(%a: i32, %b: f32, %c: i32, %d: f32):
    tile.yield %a, %c : i32, i32
  }
  return
}

// -----

func.func @map_region_results(%x: !tile.block<128xi32>) {
  // expected-error @+1 {{'tile.map_elementwise' op region must yield 1 scalar(s) of each result's element type ('f32')}}
  %y = tile.map_elementwise %x {pack = 1 : i32} : (!tile.block<128xi32>) -> (!tile.block<128xf32>) {
  ^bb0(%a: i32):
    tile.yield %a : i32
  }
  return
}

// -----

func.func @map_region_store(%x: !tile.block<128xi32>, %p: !tile.ptr<i32>) {
  %y = tile.map_elementwise %x {pack = 1 : i32} : (!tile.block<128xi32>) -> (!tile.block<128xi32>) {
  ^bb0(%a: i32):
    // expected-error @+1 {{'tile.store' op is in a tile.map_elementwise region, which computes on the scalars of one element and cannot write memory}}
    tile.store %p, %a : !tile.ptr<i32>
    tile.yield %a : i32
  }
  return
}

// -----

func.func @map_region_block(%x: !tile.block<128xi32>) {
  %y = tile.map_elementwise %x {pack = 1 : i32} : (!tile.block<128xi32>) -> (!tile.block<128xi32>) {
  ^bb0(%a: i32):
    // expected-error @+1 {{'tile.splat' op is in a tile.map_elementwise region, which computes on the scalars of one element and cannot compute on blocks}}
    %b = tile.splat %a : i32 -> !tile.block<4xi32>
    tile.yield %a : i32
  }
  return
}

// -----

func.func @tensor_map_strides(%base: !tile.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_map' op has 1 strides for 2 dimensions}}
  %map = tile.make_tensor_map %base[%n, %n], [%s] : !tile.ptr<f16>
  return
}

// -----

func.func @tensor_map_rank(%base: !tile.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_map' op describes a rank-6 tensor; tensor maps have 1 to 5 dimensions}}
  %map = tile.make_tensor_map %base[%n, %n, %n, %n, %n, %n], [%s, %s, %s, %s, %s, %s] : !tile.ptr<f16>
  return
}

// -----

func.func @tensor_map_of_bools(%base: !tile.ptr<i1>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_tensor_map' op describes a tensor of 'i1'; tensor maps hold 1-, 2-, 4- or 8-byte numbers}}
  %map = tile.make_tensor_map %base[%n], [%s] : !tile.ptr<i1>
  return
}
