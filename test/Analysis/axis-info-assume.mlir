// `llvm.intr.assume` of `x >= 0` (tl.assume) makes x non-negative, which
// signed division and remainder need to keep runs, when every execution that
// defines x reaches the assumption: same block, only straight-line ops in
// between.
// RUN: tile-opt --test-print-axis-info -verify-diagnostics %s -o /dev/null

func.func @assumed(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32, %f: i32, %n: i32 {tile.divisibility = 16 : i32}) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
// expected-remark @-3 {{region 0 argument 2: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
// expected-remark @-4 {{region 0 argument 3: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @-5 {{region 0 argument 4: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @-6 {{region 0 argument 5: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @-7 {{region 0 argument 6: contiguity = [1], divisibility = [16], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %cm1 = arith.constant -1 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = -1}}
  %c1 = arith.constant 1 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1, non-negative}}
  %ga = arith.cmpi sge, %a, %c0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  llvm.intr.assume %ga : i1
  %gb = arith.cmpi sgt, %b, %cm1 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  llvm.intr.assume %gb : i1
  %gc = arith.cmpi sle, %c1, %c : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  llvm.intr.assume %gc : i1
  // Not a bound at 0 (d > -2 allows -1), and not an assumption (e).
  %cm2 = arith.constant -2 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [2], constancy = [1], constant = -2}}
  %gd = arith.cmpi sgt, %d, %cm2 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  llvm.intr.assume %gd : i1
  %ge = arith.cmpi sge, %e, %c0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c128 = arith.constant 128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128, non-negative}}
  %start = arith.muli %a, %c128 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [1], non-negative}}
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [1073741824], constancy = [1], non-negative}}
  %s = tile.splat %start : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [128], constancy = [128], non-negative}}
  %offs = tile.addi %s, %r : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [128], divisibility = [128], constancy = [1], non-negative}}
  %ns = tile.splat %n : i32 -> !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %wrapped = tile.remsi %offs, %ns : !tile.block<128xi32>
  // expected-remark @-1 {{contiguity = [16], divisibility = [16], constancy = [1], non-negative}}
  // An assumption after a loop: the loop may not end, so it does not count.
  scf.for %i = %c0 to %n step %c1 : i32 {
  // expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  }
  %gf = arith.cmpi sge, %f, %c0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  llvm.intr.assume %gf : i1
  return
}

func.func @other_block(%x: i32, %cond: i1) {
// expected-remark @-1 {{region 0 argument 0: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @-2 {{region 0 argument 1: contiguity = [1], divisibility = [1], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0, non-negative}}
  %y = arith.addi %x, %x : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  scf.if %cond {
    // Only when the branch runs.
    %g = arith.cmpi sge, %y, %c0 : i32
    // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
    llvm.intr.assume %g : i1
  }
  // Defined after the scf.if and assumed right away: it counts.
  %z = arith.addi %x, %c0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1], non-negative}}
  %gz = arith.cmpi sge, %z, %c0 : i32
  // expected-remark @-1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  llvm.intr.assume %gz : i1
  return
}
