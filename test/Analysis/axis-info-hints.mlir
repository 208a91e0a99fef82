// tile.hint replaces the facts it states and keeps the others; what flows
// from it is computed as from any value.
// RUN: tile-opt --test-print-axis-info -verify-diagnostics %s -o /dev/null

// Triton's vectorization hint: offsets from a runtime value the analysis
// knows nothing about, then `tl.max_contiguous(tl.multiple_of(offs, 16), 16)`.
func.func @vectorization_hint(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %start: i32) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %s = tile.splat %start : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %offs = tile.addi %s, %r : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %c1 = arith.constant 1 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non-negative}}
  %ones = tile.splat %c1 : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128], constant = 1, non-negative}}
  %scattered = tile.muli %offs, %ones : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %m = tile.hint %offs divisibility [16] : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %h = tile.hint %m contiguity [16] : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %p = tile.addptr %xb, %h : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [16], constancy = [1]}}
  return
}

// Pointers, scalars, several dimensions (a block argument of a function is
// unknown); divisibility beyond 2^30 is kept
// as 2^30, and constancy can be stated too.
func.func @other_hints(%q: !tile.ptr<f16>, %n: i32, %b: !tile.block<8x32xi32>) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [2], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]}}
  %qh = tile.hint %q divisibility [16] : !tile.ptr<f16>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %nh = tile.hint %n divisibility [4294967296] : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %bh = tile.hint %b contiguity [1, 32] constancy [8, 1] : !tile.block<8x32xi32>
  // expected-remark @-1 {{contiguity = [1, 32], divisibility = [1, 1], constancy = [8, 1]}}
  %qb = tile.splat %qh : !tile.ptr<f16> -> !tile.block<8x32x!tile.ptr<f16>>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [8, 32]}}
  %p = tile.addptr %qb, %bh : !tile.block<8x32x!tile.ptr<f16>>, !tile.block<8x32xi32>
  // expected-remark @-1 {{contiguity = [1, 32], divisibility = [2, 2], constancy = [8, 1]}}
  %ph = tile.hint %p divisibility [16, 16] : !tile.block<8x32x!tile.ptr<f16>>
  // expected-remark @-1 {{contiguity = [1, 32], divisibility = [16, 16], constancy = [8, 1]}}
  return
}
