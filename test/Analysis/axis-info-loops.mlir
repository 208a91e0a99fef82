// Facts through control flow: values carried by scf.for and scf.while and
// the results of scf.if are the join (gcd) of everything that flows into
// them, iterated to a fixpoint; induction variables are divisible by what
// divides their lower bound and step.
// RUN: tile-opt --test-print-axis-info -verify-diagnostics %s -o /dev/null

// Triton's tutorial 03 K loop: a pointer block advanced by a splat of
// BLOCK_K * stride_ak with stride_ak known to be 1 keeps its contiguity and
// alignment along K.
func.func @loop_carried_unit_stride(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [16], constancy = [1]}}
                                    %stride_am: i32 {tile.divisibility = 16 : i32},
                                    %K: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %c64 = arith.constant 64 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64, non-negative}}
  %rm = tile.arange 0, 16 : !tile.block<16xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [1073741824], constancy = [1], non-negative}}
  %rk = tile.arange 0, 64 : !tile.block<64xi32>
  // expected-remark @-1 {{contiguity = [64], divisibility = [1073741824], constancy = [1], non-negative}}
  %rm1 = tile.expand_dims %rm {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  // expected-remark @-1 {{contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 1], non-negative}}
  %sm = tile.splat %stride_am : i32 -> !tile.block<16x1xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [16, 1]}}
  %rows = tile.muli %rm1, %sm : !tile.block<16x1xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %rowsb = tile.broadcast %rows : !tile.block<16x1xi32> -> !tile.block<16x64xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64]}}
  %rk1 = tile.expand_dims %rk {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  // expected-remark @-1 {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1], non-negative}}
  %cols = tile.broadcast %rk1 : !tile.block<1x64xi32> -> !tile.block<16x64xi32>
  // expected-remark @-1 {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [16, 1], non-negative}}
  %offs = tile.addi %rowsb, %cols : !tile.block<16x64xi32>
  // expected-remark @-1 {{contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1]}}
  %base = tile.splat %a : !tile.ptr<f16> -> !tile.block<16x64x!tile.ptr<f16>>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [16, 64]}}
  %ptrs = tile.addptr %base, %offs : !tile.block<16x64x!tile.ptr<f16>>, !tile.block<16x64xi32>
  // expected-remark @-1 {{contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1]}}
  %step = tile.splat %c64 : i32 -> !tile.block<16x64xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [64, 64], constancy = [16, 64], constant = 64, non-negative}}
  %end = scf.for %k = %c0 to %K step %c64 iter_args(%p = %ptrs) -> (!tile.block<16x64x!tile.ptr<f16>>) : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [64], constancy = [1], non-negative}}
  // expected-remark @-2 {{region 0 argument 1: contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1]}}
  // expected-remark @-3 {{contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1]}}
    %left = arith.subi %K, %k : i32
    // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
    %lefts = tile.splat %left : i32 -> !tile.block<16x64xi32>
    // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [16, 64]}}
    %mask = tile.cmpi slt, %cols, %lefts : !tile.block<16x64xi32>
    // expected-remark @-1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [16, 16]}}
    %x = tile.load %p mask %mask : !tile.block<16x64x!tile.ptr<f16>>
    %next = tile.addptr %p, %step : !tile.block<16x64x!tile.ptr<f16>>, !tile.block<16x64xi32>
    // expected-remark @-1 {{contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1]}}
    scf.yield %next : !tile.block<16x64x!tile.ptr<f16>>
  }
  return
}

// The B side: rows strided by stride_bk (divisible by 16), advanced by
// BLOCK_K * stride_bk; contiguous along N.
func.func @loop_carried_divisible_stride(%b: !tile.ptr<f32> {tile.divisibility = 16 : i32},
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [1], constancy = [1]}}
                                         %stride_bk: i32 {tile.divisibility = 16 : i32},
                                         %K: i32) {
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %c32 = arith.constant 32 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [32], constancy = [1], constant = 32, non-negative}}
  %rk = tile.arange 0, 32 : !tile.block<32xi32>
  // expected-remark @-1 {{contiguity = [32], divisibility = [1073741824], constancy = [1], non-negative}}
  %rn = tile.arange 0, 64 : !tile.block<64xi32>
  // expected-remark @-1 {{contiguity = [64], divisibility = [1073741824], constancy = [1], non-negative}}
  %rk1 = tile.expand_dims %rk {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  // expected-remark @-1 {{contiguity = [32, 1], divisibility = [1073741824, 1], constancy = [1, 1], non-negative}}
  %sk = tile.splat %stride_bk : i32 -> !tile.block<32x1xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 1]}}
  %rows = tile.muli %rk1, %sk : !tile.block<32x1xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %rowsb = tile.broadcast %rows : !tile.block<32x1xi32> -> !tile.block<32x64xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64]}}
  %rn1 = tile.expand_dims %rn {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  // expected-remark @-1 {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1], non-negative}}
  %cols = tile.broadcast %rn1 : !tile.block<1x64xi32> -> !tile.block<32x64xi32>
  // expected-remark @-1 {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [32, 1], non-negative}}
  %offs = tile.addi %rowsb, %cols : !tile.block<32x64xi32>
  // expected-remark @-1 {{contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1]}}
  %base = tile.splat %b : !tile.ptr<f32> -> !tile.block<32x64x!tile.ptr<f32>>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 64]}}
  %ptrs = tile.addptr %base, %offs : !tile.block<32x64x!tile.ptr<f32>>, !tile.block<32x64xi32>
  // expected-remark @-1 {{contiguity = [1, 64], divisibility = [4, 16], constancy = [1, 1]}}
  %adv = arith.muli %c32, %stride_bk : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [512], constancy = [1]}}
  %advs = tile.splat %adv : i32 -> !tile.block<32x64xi32>
  // expected-remark @-1 {{contiguity = [1, 1], divisibility = [512, 512], constancy = [32, 64]}}
  %end = scf.for %k = %c0 to %K step %c32 iter_args(%p = %ptrs) -> (!tile.block<32x64x!tile.ptr<f32>>) : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [32], constancy = [1], non-negative}}
  // expected-remark @-2 {{region 0 argument 1: contiguity = [1, 64], divisibility = [4, 16], constancy = [1, 1]}}
  // expected-remark @-3 {{contiguity = [1, 64], divisibility = [4, 16], constancy = [1, 1]}}
    %x = tile.load %p : !tile.block<32x64x!tile.ptr<f32>>
    %next = tile.addptr %p, %advs : !tile.block<32x64x!tile.ptr<f32>>, !tile.block<32x64xi32>
    // expected-remark @-1 {{contiguity = [1, 64], divisibility = [4, 16], constancy = [1, 1]}}
    scf.yield %next : !tile.block<32x64x!tile.ptr<f32>>
  }
  return
}

// An advance that breaks alignment (by one element) loses it at the fixpoint.
func.func @loop_carried_misaligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %c1 = arith.constant 1 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non-negative}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %base = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ptrs = tile.addptr %base, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %ones = tile.splat %c1 : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128], constant = 1, non-negative}}
  %end = scf.for %i = %c0 to %n step %c1 iter_args(%p = %ptrs) -> (!tile.block<128x!tile.ptr<f32>>) : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  // expected-remark @-2 {{region 0 argument 1: contiguity = [128], divisibility = [4], constancy = [1]}}
  // expected-remark @-3 {{contiguity = [128], divisibility = [4], constancy = [1]}}
    %next = tile.addptr %p, %ones : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
    // expected-remark @-1 {{contiguity = [128], divisibility = [4], constancy = [1]}}
    scf.yield %next : !tile.block<128x!tile.ptr<f32>>
  }
  return
}

// Triton's tutorial 05: `X += row * stride` on a kernel pointer, then
// `cols = off + tl.arange(0, BLOCK)` over `for off in range(0, N, BLOCK)`.
func.func @layer_norm_rows(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32},
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [16], constancy = [1]}}
                           %stride: i32 {tile.divisibility = 16 : i32},
                           %N: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %c1024 = arith.constant 1024 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1024], constancy = [1], constant = 1024, non-negative}}
  %row = tile.program_id 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %ro = arith.muli %row, %stride : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %Xrow = tile.addptr %X, %ro : !tile.ptr<f16>, i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  scf.for %off = %c0 to %N step %c1024 : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1024], constancy = [1], non-negative}}
    %r = tile.arange 0, 1024 : !tile.block<1024xi32>
    // expected-remark @-1 {{contiguity = [1024], divisibility = [1073741824], constancy = [1], non-negative}}
    %offs = tile.splat %off : i32 -> !tile.block<1024xi32>
    // expected-remark @-1 {{contiguity = [1], divisibility = [1024], constancy = [1024], non-negative}}
    %cols = tile.addi %offs, %r : !tile.block<1024xi32>
    // expected-remark @-1 {{contiguity = [1024], divisibility = [1024], constancy = [1], non-negative}}
    %ns = tile.splat %N : i32 -> !tile.block<1024xi32>
    // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1024]}}
    %mask = tile.cmpi slt, %cols, %ns : !tile.block<1024xi32>
    // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
    %xb = tile.splat %Xrow : !tile.ptr<f16> -> !tile.block<1024x!tile.ptr<f16>>
    // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1024]}}
    %xp = tile.addptr %xb, %cols : !tile.block<1024x!tile.ptr<f16>>, !tile.block<1024xi32>
    // expected-remark @-1 {{contiguity = [1024], divisibility = [16], constancy = [1]}}
    %v = tile.load %xp mask %mask : !tile.block<1024x!tile.ptr<f16>>
  }
  return
}

// A kernel pointer reassigned in a loop (`X += stride` each iteration).
func.func @pointer_reassigned_in_loop(%X: !tile.ptr<f32> {tile.divisibility = 16 : i32},
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @-4 {{region 0 argument 3: contiguity = [1], divisibility = [1], constancy = [1]}}
                                      %stride: i32 {tile.divisibility = 16 : i32},
                                      %odd: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %c1 = arith.constant 1 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non-negative}}
  %p:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %X, %y = %X) -> (!tile.ptr<f32>, !tile.ptr<f32>) : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  // expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [16], constancy = [1]}}
  // expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [4], constancy = [1]}}
  // expected-remark @-4 {{result 0: contiguity = [1], divisibility = [16], constancy = [1]}}
  // expected-remark @-5 {{result 1: contiguity = [1], divisibility = [4], constancy = [1]}}
    %x2 = tile.addptr %x, %stride : !tile.ptr<f32>, i32
    // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
    %y2 = tile.addptr %y, %odd : !tile.ptr<f32>, i32
    // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [1]}}
    scf.yield %x2, %y2 : !tile.ptr<f32>, !tile.ptr<f32>
  }
  return
}

// Induction variables: constant bounds, divisible bounds, index type, a
// lower bound that may be negative, an unsigned loop.
func.func @induction_variables(%lo: i32 {tile.divisibility = 16 : i32}, %hi: i32, %m: i32) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [1], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %c8 = arith.constant 8 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [8], constancy = [1], constant = 8, non-negative}}
  %c48 = arith.constant 48 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1], constant = 48, non-negative}}
  scf.for %i = %c0 to %c48 step %c8 : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [8], constancy = [1], non-negative}}
  }
  scf.for %j = %lo to %hi step %c8 : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [8], constancy = [1]}}
  }
  scf.for %k = %m to %hi step %c48 : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1]}}
  }
  // An unsigned loop may run past 2^31: not non-negative as a signed value.
  scf.for unsigned %u = %c0 to %hi step %c8 : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [8], constancy = [1]}}
  }
  %i0 = arith.constant 0 : index
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %i4 = arith.constant 4 : index
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [1], constant = 4, non-negative}}
  %i64 = arith.constant 64 : index
  // expected-remark @-1 {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64, non-negative}}
  scf.for %l = %i0 to %i64 step %i4 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [4], constancy = [1], non-negative}}
  }
  return
}

// scf.if: each result is the join of both branches; a join of different
// divisibilities keeps the smaller, a join of consecutive and constant runs
// keeps neither. A branch that cannot run does not count (values in it get
// facts from their operands: anything holds where nothing runs).
func.func @if_joins(%n: i32 {tile.divisibility = 16 : i32}, %m: i32, %c: i1) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [1], constancy = [1]}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %c3 = arith.constant 3 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 3, non-negative}}
  %res:3 = scf.if %c -> (!tile.block<128xi32>, i32, !tile.block<128xi32>) {
  // expected-remark @-1 {{result 0: contiguity = [128], divisibility = [1], constancy = [1]}}
  // expected-remark @-2 {{result 1: contiguity = [1], divisibility = [1], constancy = [1]}}
  // expected-remark @-3 {{result 2: contiguity = [1], divisibility = [1], constancy = [1]}}
    %ns = tile.splat %n : i32 -> !tile.block<128xi32>
    // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
    %a = tile.addi %ns, %r : !tile.block<128xi32>
    // expected-remark @-1 {{contiguity = [128], divisibility = [16], constancy = [1]}}
    scf.yield %a, %n, %r : !tile.block<128xi32>, i32, !tile.block<128xi32>
  } else {
    %ms = tile.splat %m : i32 -> !tile.block<128xi32>
    // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
    %b = tile.addi %ms, %r : !tile.block<128xi32>
    // expected-remark @-1 {{contiguity = [128], divisibility = [1], constancy = [1]}}
    scf.yield %b, %c3, %ms : !tile.block<128xi32>, i32, !tile.block<128xi32>
  }
  %true = arith.constant true
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = -1}}
  %c16 = arith.constant 16 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1], constant = 16, non-negative}}
  %live = scf.if %true -> (i32) {
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [1], constant = 16, non-negative}}
    scf.yield %c16 : i32
  } else {
    %dead = arith.addi %c3, %c3 : i32
    // expected-remark @-1 {{contiguity = [1], divisibility = [2], constancy = [1], constant = 6, non-negative}}
    scf.yield %dead : i32
  }
  return
}

// scf.while: the before-region arguments join the initial values and what
// the after-region yields; the after-region and the results get what the
// condition forwards.
func.func @while_loop(%n: i32) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %c1 = arith.constant 1 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non-negative}}
  %c128 = arith.constant 128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128, non-negative}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %step = tile.splat %c128 : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [128], constant = 128, non-negative}}
  %res:2 = scf.while (%i = %c0, %o = %r) : (i32, !tile.block<128xi32>) -> (i32, !tile.block<128xi32>) {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  // expected-remark @-2 {{region 0 argument 1: contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  // expected-remark @-3 {{region 1 argument 0: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  // expected-remark @-4 {{region 1 argument 1: contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  // expected-remark @-5 {{result 0: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  // expected-remark @-6 {{result 1: contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
    %go = arith.cmpi slt, %i, %n : i32
    // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
    scf.condition(%go) %i, %o : i32, !tile.block<128xi32>
  } do {
  ^bb0(%i2: i32, %o2: !tile.block<128xi32>):
    %i3 = arith.addi %i2, %c1 : i32
    // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
    %o3 = tile.addi %o2, %step : !tile.block<128xi32>
    // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
    scf.yield %i3, %o3 : i32, !tile.block<128xi32>
  }
  return
}

// Nested loops: rows advance by 8 * stride (divisible by 16) in the outer
// loop, columns by 4 elements in the inner one; both pointer blocks keep
// their contiguity and 16 bytes of alignment.
func.func @nested_loops(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [1], constancy = [1]}}
                        %stride: i32 {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %c1 = arith.constant 1 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non-negative}}
  %c4 = arith.constant 4 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [1], constant = 4, non-negative}}
  %c8 = arith.constant 8 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [8], constancy = [1], constant = 8, non-negative}}
  %r = tile.arange 0, 64 : !tile.block<64xi32>
  // expected-remark @-1 {{contiguity = [64], divisibility = [1073741824], constancy = [1], non-negative}}
  %base = tile.splat %x : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %ptrs = tile.addptr %base, %r : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  // expected-remark @-1 {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %rowstep = arith.muli %c8, %stride : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1]}}
  %rows = tile.splat %rowstep : i32 -> !tile.block<64xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [64]}}
  %cols = tile.splat %c4 : i32 -> !tile.block<64xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [4], constancy = [64], constant = 4, non-negative}}
  %outer = scf.for %i = %c0 to %n step %c1 iter_args(%p = %ptrs) -> (!tile.block<64x!tile.ptr<f32>>) : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  // expected-remark @-2 {{region 0 argument 1: contiguity = [64], divisibility = [16], constancy = [1]}}
  // expected-remark @-3 {{contiguity = [64], divisibility = [16], constancy = [1]}}
    %inner = scf.for %j = %c0 to %n step %c1 iter_args(%q = %p) -> (!tile.block<64x!tile.ptr<f32>>) : i32 {
    // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
    // expected-remark @-2 {{region 0 argument 1: contiguity = [64], divisibility = [16], constancy = [1]}}
    // expected-remark @-3 {{contiguity = [64], divisibility = [16], constancy = [1]}}
      %q2 = tile.addptr %q, %cols : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
      // expected-remark @-1 {{contiguity = [64], divisibility = [16], constancy = [1]}}
      scf.yield %q2 : !tile.block<64x!tile.ptr<f32>>
    }
    %p2 = tile.addptr %p, %rows : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
    // expected-remark @-1 {{contiguity = [64], divisibility = [16], constancy = [1]}}
    scf.yield %p2 : !tile.block<64x!tile.ptr<f32>>
  }
  return
}
