// The facts of each op rule. Contiguity and constancy are run lengths along
// each dimension, divisibility the power of two dividing each run's first
// element (in bytes for pointers); runs start at multiples of their length.
// RUN: tile-opt --test-print-axis-info -verify-diagnostics %s -o /dev/null
// Values created after the analysis ran get the same facts from their
// operands' (every op is cloned after the analysis, clones are reported):
// RUN: tile-opt --test-print-axis-info=clone -verify-diagnostics %s -o /dev/null

// Kernel arguments: pointers are aligned to their element, and
// tile.divisibility (specialization) says more.
func.func @sources(%p: !tile.ptr<f32>, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32},
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [4], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-4 {{region 0 argument 3: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @-5 {{region 0 argument 4: contiguity = [1], divisibility = [64], constancy = [1]}}
                   %n: i32 {tile.divisibility = 16 : i32}, %m: i32,
                   %big: i64 {tile.divisibility = 64 : i32}) {
  %pid = tile.program_id 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %c48 = arith.constant 48 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1], constant = 48, non-negative}}
  %cm4 = arith.constant -4 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [1], constant = -4}}
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %true = arith.constant true
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = -1}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %r8 = tile.arange 8, 24 : !tile.block<16xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [8], constancy = [1], non-negative}}
  %s = tile.splat %n : i32 -> !tile.block<4x8xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [4, 8]}}
  %z = tile.constant dense<0> : !tile.block<64xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [64], constant = 0, non-negative}}
  %d = tile.constant dense<[0, 1, 2, 3, 8, 9, 10, 11]> : !tile.block<8xi32>
  // expected-remark @-1 {{contiguity = [4], divisibility = [8], constancy = [1], non-negative}}
  %d2 = tile.constant dense<[[4, 4], [4, 4], [7, 7], [7, 7]]> : !tile.block<4x2xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [2, 2], non-negative}}
  %d3 = tile.constant dense<[5, 6, 7, 8, 9, 10]> : !tile.block<6xi32>
  // expected-remark @-1 {{contiguity = [6], divisibility = [1], constancy = [1], non-negative}}
  %qs = tile.splat %q : !tile.ptr<f16> -> !tile.block<64x!tile.ptr<f16>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [64]}}
  return
}

func.func @shapes() {
  %r = tile.arange 0, 16 : !tile.block<16xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [1073741824], constancy = [1], non-negative}}
  %e0 = tile.expand_dims %r {axis = 0 : i32} : !tile.block<16xi32> -> !tile.block<1x16xi32>
  // expected-remark @-1 {{contiguity = [1, 16], divisibility = [1, 1073741824], constancy = [1, 1], non-negative}}
  %e1 = tile.expand_dims %r {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  // expected-remark @-1 {{contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 1], non-negative}}
  %b0 = tile.broadcast %e0 : !tile.block<1x16xi32> -> !tile.block<8x16xi32>
  // expected-remark @-1 {{contiguity = [1, 16], divisibility = [1, 1073741824], constancy = [8, 1], non-negative}}
  %b1 = tile.broadcast %e1 : !tile.block<16x1xi32> -> !tile.block<16x8xi32>
  // expected-remark @-1 {{contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 8], non-negative}}
  %t = tile.trans %b1 : !tile.block<16x8xi32> -> !tile.block<8x16xi32>
  // expected-remark @-1 {{contiguity = [1, 16], divisibility = [1, 1073741824], constancy = [8, 1], non-negative}}
  %flat = tile.reshape %b0 : !tile.block<8x16xi32> -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [1073741824], constancy = [1], non-negative}}
  %rows = tile.reshape %r : !tile.block<16xi32> -> !tile.block<4x4xi32>
  // expected-remark @-1 {{contiguity = [1, 4], divisibility = [1, 4], constancy = [1, 1], non-negative}}
  %cube = tile.reshape %r : !tile.block<16xi32> -> !tile.block<2x2x4xi32>
  // expected-remark @-1 {{contiguity = [1, 1, 4], divisibility = [1, 1, 4], constancy = [1, 1, 1], non-negative}}
  %p = tile.trans %cube {order = array<i32: 2, 0, 1>} : !tile.block<2x2x4xi32> -> !tile.block<4x2x2xi32>
  // expected-remark @-1 {{contiguity = [4, 1, 1], divisibility = [4, 1, 1], constancy = [1, 1, 1], non-negative}}
  // Adding or dropping unit dimensions is expand_dims (or its inverse): a
  // block pointer's column of indices stays contiguous down its rows.
  %col = tile.reshape %r : !tile.block<16xi32> -> !tile.block<16x1xi32>
  // expected-remark @-1 {{contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 1], non-negative}}
  %row = tile.reshape %e0 : !tile.block<1x16xi32> -> !tile.block<16xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [1073741824], constancy = [1], non-negative}}
  %c7 = arith.constant 7 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 7, non-negative}}
  %s = tile.splat %c7 : i32 -> !tile.block<8x16xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [8, 16], constant = 7, non-negative}}
  %sr = tile.reshape %s : !tile.block<8x16xi32> -> !tile.block<2x64xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [2, 64], constant = 7, non-negative}}
  %u = builtin.unrealized_conversion_cast %b0 : !tile.block<8x16xi32> to !tile.block<8x16xi32>
  // expected-remark @-1 {{contiguity = [1, 16], divisibility = [1, 1073741824], constancy = [8, 1], non-negative}}
  return
}

func.func @arithmetic(%n: i32 {tile.divisibility = 16 : i32}, %m: i32) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %c128 = arith.constant 128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128, non-negative}}
  %start = arith.muli %pid, %c128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], non-negative}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %s = tile.splat %start : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [128], non-negative}}
  %offs = tile.addi %s, %r : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  %ns = tile.splat %n : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ms = tile.splat %m : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %sub = tile.subi %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %rsub = tile.subi %ns, %offs : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %unk = tile.addi %ms, %r : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %prod = tile.muli %r, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %one = tile.constant dense<1> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128], constant = 1, non-negative}}
  %same = tile.muli %offs, %one : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  %four = tile.constant dense<4> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4, non-negative}}
  %eight = tile.constant dense<8> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [8], constancy = [128], constant = 8, non-negative}}
  %sixteen = tile.constant dense<16> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128], constant = 16, non-negative}}
  %scaled = tile.muli %r, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [1], non-negative}}
  %fold = tile.addi %four, %eight : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [128], constant = 12, non-negative}}
  %zero = tile.subi %four, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [128], constant = 0, non-negative}}
  %times0 = tile.muli %unk, %zero : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [128], constant = 0, non-negative}}
  %sc = arith.addi %start, %n : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  return
}

func.func @division(%n: i32 {tile.divisibility = 16 : i32}, %m: i32) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %c128 = arith.constant 128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128, non-negative}}
  %start = arith.muli %pid, %c128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], non-negative}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %s = tile.splat %start : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [128], non-negative}}
  %offs = tile.addi %s, %r : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  %ns = tile.splat %n : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %sub = tile.subi %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %four = tile.constant dense<4> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4, non-negative}}
  %sixteen = tile.constant dense<16> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128], constant = 16, non-negative}}
  %one = tile.constant dense<1> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128], constant = 1, non-negative}}
  // Quotients are constant over aligned runs of the divisor: for signed
  // division only where the dividend is known non-negative.
  %q = tile.divsi %offs, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [4], non-negative}}
  %qs = tile.divsi %sub, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %qu = tile.divui %sub, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %q1 = tile.divsi %sub, %one : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %e = tile.muli %r, %sixteen : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1], non-negative}}
  %exact = tile.divsi %e, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [1], non-negative}}
  // Remainders are consecutive there.
  %rem = tile.remsi %offs, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [4], divisibility = [4], constancy = [1], non-negative}}
  %srem = tile.remsi %sub, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %urem = tile.remui %sub, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [4], divisibility = [4], constancy = [1], non-negative}}
  %remn = tile.remsi %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [16], constancy = [1], non-negative}}
  %rem1 = tile.remsi %sub, %one : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [128], constant = 0, non-negative}}
  // Shifts by constants: multiplications and floor divisions by 2^s.
  %shl = tile.shli %r, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %shr = tile.shrsi %offs, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16], non-negative}}
  %shru = tile.shrui %sub, %four : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16], non-negative}}
  %z = tile.constant dense<0> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [128], constant = 0, non-negative}}
  %shr0 = tile.shrui %offs, %z : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  %shrn = tile.shrsi %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %sd = arith.divsi %start, %c128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  return
}

func.func @logic(%n: i32 {tile.divisibility = 16 : i32}, %m: i32) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %c128 = arith.constant 128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128, non-negative}}
  %start = arith.muli %pid, %c128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], non-negative}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %s = tile.splat %start : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [128], non-negative}}
  %offs = tile.addi %s, %r : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  %ns = tile.splat %n : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ms = tile.splat %m : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %sub = tile.subi %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %unk = tile.addi %ms, %r : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %eight = tile.constant dense<8> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [8], constancy = [128], constant = 8, non-negative}}
  %and = tile.andi %ns, %r : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1], non-negative}}
  %or = tile.ori %ns, %eight : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [8], constancy = [128]}}
  %xor = tile.xori %offs, %eight : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %max = tile.maxsi %offs, %unk : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1], constancy = [1], non-negative}}
  %maxs = tile.maxsi %offs, %sub : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1], non-negative}}
  %min = tile.minsi %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %minu = tile.minui %offs, %sub : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [16], constancy = [1], non-negative}}
  // `offs < n` is constant over aligned runs dividing n; `offs == n` and
  // `offs <= n` are not.
  %lt = tile.cmpi slt, %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %eq = tile.cmpi eq, %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %gt = tile.cmpi sgt, %ns, %offs : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %le = tile.cmpi sle, %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %ult = tile.cmpi ult, %sub, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %both = tile.andi %lt, %gt : !tile.block<128xi1>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %sel = tile.select %lt, %offs, %sub : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %yes = tile.constant dense<true> : !tile.block<128xi1>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128], constant = -1}}
  %pick = tile.select %yes, %offs, %sub : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  %scmp = arith.cmpi slt, %start, %n : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %ssel = arith.select %scmp, %start, %n : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  return
}

func.func @casts(%n: i32 {tile.divisibility = 16 : i32}, %m: i32) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %c128 = arith.constant 128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128, non-negative}}
  %start = arith.muli %pid, %c128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], non-negative}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %s = tile.splat %start : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [128], non-negative}}
  %offs = tile.addi %s, %r : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  %ns = tile.splat %n : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %sub = tile.subi %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %lt = tile.cmpi slt, %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  // Sign extension keeps every fact; zero extension of a value that may be
  // negative and truncation can wrap: runs start at values they divide.
  %ext = tile.cast %offs : !tile.block<128xi32> to !tile.block<128xi64>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  %extu = tile.cast %sub {unsigned_src} : !tile.block<128xi32> to !tile.block<128xi64>
  // expected-remark @-1 {{contiguity = [16], divisibility = [16], constancy = [1], non-negative}}
  %tr = tile.cast %ext : !tile.block<128xi64> to !tile.block<128xi16>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1]}}
  %tr8 = tile.cast %offs : !tile.block<128xi32> to !tile.block<128xi8>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1]}}
  %tr8s = tile.cast %sub : !tile.block<128xi32> to !tile.block<128xi8>
  // expected-remark @-1 {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %nz = tile.cast %offs : !tile.block<128xi32> to !tile.block<128xi1>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %fromb = tile.cast %lt : !tile.block<128xi1> to !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16], non-negative}}
  // Through floats only runs of equal elements survive.
  %nf = tile.cast %ns : !tile.block<128xi32> to !tile.block<128xf32>
  %ni = tile.cast %nf : !tile.block<128xf32> to !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %pid64 = arith.extsi %pid : i32 to i64
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %idx = arith.index_cast %start : i32 to index
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], non-negative}}
  %t32 = arith.trunci %pid64 : i64 to i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %u = arith.extui %m : i32 to i64
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  return
}

func.func @memory(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f16>,
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [2], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-4 {{region 0 argument 3: contiguity = [1], divisibility = [16], constancy = [1]}}
                  %ip: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                  %n: i32 {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %pb = tile.splat %p : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %pa = tile.addptr %pb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %qb = tile.splat %q : !tile.ptr<f16> -> !tile.block<128x!tile.ptr<f16>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [2], constancy = [128]}}
  %qa = tile.addptr %qb, %r : !tile.block<128x!tile.ptr<f16>>, !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [2], constancy = [1]}}
  %eight = tile.constant dense<8> : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [8], constancy = [128], constant = 8, non-negative}}
  %r8 = tile.muli %r, %eight : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [8], constancy = [1], non-negative}}
  %pa8 = tile.addptr %pb, %r8 : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %ps = tile.addptr %p, %n : !tile.ptr<f32>, i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %nb = tile.splat %n : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %m = tile.cmpi slt, %r, %nb : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %ib = tile.splat %ip : !tile.ptr<i32> -> !tile.block<128x!tile.ptr<i32>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ia = tile.addptr %ib, %r : !tile.block<128x!tile.ptr<i32>>, !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
  // Equal pointers (under equal mask bits and `other`s) load equal values.
  %v = tile.load %ia mask %m : !tile.block<128x!tile.ptr<i32>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %same = tile.load %ib mask %m : !tile.block<128x!tile.ptr<i32>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %all = tile.load %ib : !tile.block<128x!tile.ptr<i32>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %mixed = tile.load %ib mask %m other %r : !tile.block<128x!tile.ptr<i32>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %one = tile.load %ip : !tile.ptr<i32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  return
}

func.func @reductions() {
  %r = tile.arange 0, 16 : !tile.block<16xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [1073741824], constancy = [1], non-negative}}
  %e = tile.expand_dims %r {axis = 0 : i32} : !tile.block<16xi32> -> !tile.block<1x16xi32>
  // expected-remark @-1 {{contiguity = [1, 16], divisibility = [1, 1073741824], constancy = [1, 1], non-negative}}
  %b = tile.broadcast %e : !tile.block<1x16xi32> -> !tile.block<8x16xi32>
  // expected-remark @-1 {{contiguity = [1, 16], divisibility = [1, 1073741824], constancy = [8, 1], non-negative}}
  %sum0 = tile.reduce sum %b {axis = 0 : i32} : !tile.block<8x16xi32> -> !tile.block<16xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %max0 = tile.reduce max %b {axis = 0 : i32} : !tile.block<8x16xi32> -> !tile.block<16xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [1073741824], constancy = [1], non-negative}}
  %sum1 = tile.reduce sum %b {axis = 1 : i32} : !tile.block<8x16xi32> -> !tile.block<8xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [8], non-negative}}
  %c4 = arith.constant 4 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [1], constant = 4, non-negative}}
  %s4 = tile.splat %c4 : i32 -> !tile.block<8x16xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [4, 4], constancy = [8, 16], constant = 4, non-negative}}
  %sums = tile.reduce sum %s4 {axis = 1 : i32} : !tile.block<8x16xi32> -> !tile.block<8xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [8], non-negative}}
  %maxs = tile.reduce max %s4 {axis = 1 : i32} : !tile.block<8x16xi32> -> !tile.block<8xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [8], constant = 4, non-negative}}
  %total = tile.reduce sum %sums {axis = 0 : i32} : !tile.block<8xi32> -> i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [1], non-negative}}
  %top = tile.reduce max %r {axis = 0 : i32} : !tile.block<16xi32> -> i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %cum = tile.scan sum %b {axis = 1 : i32} : !tile.block<8x16xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [8, 1], non-negative}}
  %custom = tile.reduce custom %b {axis = 1 : i32} : !tile.block<8x16xi32> -> !tile.block<8xi32> {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1]}}
  // expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
  // expected-remark @-3 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  ^bb0(%x: i32, %y: i32):
    %xy = arith.muli %x, %y : i32
    // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
    tile.yield %xy : i32
  }
  // Float maxima of equal lines are equal; float sums may round differently.
  %f = tile.cast %b : !tile.block<8x16xi32> to !tile.block<8x16xf32>
  %fmax = tile.reduce max %f {axis = 1 : i32} : !tile.block<8x16xf32> -> !tile.block<8xf32>
  %fmaxi = tile.cast %fmax : !tile.block<8xf32> to !tile.block<8xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [8]}}
  %fsum = tile.reduce sum %f {axis = 1 : i32} : !tile.block<8x16xf32> -> !tile.block<8xf32>
  %fsumi = tile.cast %fsum : !tile.block<8xf32> to !tile.block<8xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  return
}
