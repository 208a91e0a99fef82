// RUN: tile-opt %s -tile-pipeline-loops=num-stages=3 -split-input-file | FileCheck %s
// RUN: tile-opt %s -tile-pipeline-loops=num-stages=1 -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: tile-opt %s -tile-pipeline-loops="num-stages=3 row-statistics=false" -split-input-file | FileCheck %s --check-prefix=INPLACE

// A K loop of dots: with 3 stages, the prologue loads iterations 0 and 1
// (predicated on there being such iterations), and each iteration computes
// its dot, then loads iteration k + 2's operands, masked off past the end.
// CHECK-LABEL: func.func @k_loop
// CHECK: %[[P0:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[M0:.*]] = tile.splat %[[P0]] : i1 -> !tile.block<16x16xi1>
// CHECK: tile.load %{{.*}} mask %[[M0]]
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: scf.for {{.*}} iter_args(
// CHECK: tile.dot
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: tile.load %{{.*}} mask %{{.*}}
// CHECK: scf.yield
// OFF-LABEL: func.func @k_loop
// OFF: scf.for
// OFF-NEXT: arith.extsi
// OFF: tile.load %{{.*}} : !tile.block<16x16x!tile.ptr<f16>>
func.func @k_loop(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i64
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<16x16xf32>) : i32 {
    %k64 = arith.extsi %k : i32 to i64
    %off = arith.muli %k64, %c256 : i64
    %s = tile.splat %off : i64 -> !tile.block<16x16xi64>
    %pa = tile.addptr %ap, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %pb = tile.addptr %bp, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %va = tile.load %pa : !tile.block<16x16x!tile.ptr<f16>>
    %vb = tile.load %pb : !tile.block<16x16x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
    scf.yield %d : !tile.block<16x16xf32>
  }
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<16x16x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %i : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
  tile.store %cp, %res : !tile.block<16x16x!tile.ptr<f32>>
  return
}

// -----

// Addresses computed from the accumulator cannot be loaded ahead: the loop
// stays as it is.
// CHECK-LABEL: func.func @address_from_product
// CHECK: scf.for
// CHECK: tile.load %{{.*}} : !tile.block<16x16x!tile.ptr<f16>>
// CHECK: tile.dot
func.func @address_from_product(%a: !tile.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<16x16xf32>) : i32 {
    %j = tile.cast %acc : !tile.block<16x16xf32> to !tile.block<16x16xi32>
    %pa = tile.addptr %ap, %j : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
    %va = tile.load %pa : !tile.block<16x16x!tile.ptr<f16>>
    %d = tile.dot %va, %va, %acc : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
    scf.yield %d : !tile.block<16x16xf32>
  }
  return
}

// -----

// A loop's own tile.num_stages (tl.range(..., num_stages=1)) overrides the
// option: this loop is not pipelined even with 3 stages asked for.
// CHECK-LABEL: func.func @loop_stages_one
// CHECK-NOT: tile.load
// CHECK: scf.for
// CHECK: tile.load %{{.*}} : !tile.block<16x16x!tile.ptr<f16>>
// CHECK: tile.dot
func.func @loop_stages_one(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i64
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<16x16xf32>) : i32 {
    %k64 = arith.extsi %k : i32 to i64
    %off = arith.muli %k64, %c256 : i64
    %s = tile.splat %off : i64 -> !tile.block<16x16xi64>
    %pa = tile.addptr %ap, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %pb = tile.addptr %bp, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %va = tile.load %pa : !tile.block<16x16x!tile.ptr<f16>>
    %vb = tile.load %pb : !tile.block<16x16x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
    scf.yield %d : !tile.block<16x16xf32>
  } {tile.num_stages = 1 : i32}
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<16x16x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %i : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
  tile.store %cp, %res : !tile.block<16x16x!tile.ptr<f32>>
  return
}

// -----

// tl.range(..., num_stages=2), even where the kernel's num_stages is 1: the
// prologue loads iteration 0 alone, and each iteration loads the next.
// CHECK-LABEL: func.func @loop_stages_two
// CHECK-COUNT-2: tile.load %{{.*}} mask
// CHECK-NOT: tile.load
// CHECK: scf.for
// CHECK: tile.dot
// CHECK-COUNT-2: tile.load %{{.*}} mask
// CHECK: scf.yield
// OFF-LABEL: func.func @loop_stages_two
// OFF-COUNT-2: tile.load %{{.*}} mask
// OFF: scf.for
// OFF: tile.dot
func.func @loop_stages_two(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i64
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %i = tile.reshape %r : !tile.block<256xi32> -> !tile.block<16x16xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %i : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<16x16xf32>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<16x16xf32>) : i32 {
    %k64 = arith.extsi %k : i32 to i64
    %off = arith.muli %k64, %c256 : i64
    %s = tile.splat %off : i64 -> !tile.block<16x16xi64>
    %pa = tile.addptr %ap, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %pb = tile.addptr %bp, %s : !tile.block<16x16x!tile.ptr<f16>>, !tile.block<16x16xi64>
    %va = tile.load %pa : !tile.block<16x16x!tile.ptr<f16>>
    %vb = tile.load %pb : !tile.block<16x16x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : !tile.block<16x16xf16>, !tile.block<16x16xf16> -> !tile.block<16x16xf32>
    scf.yield %d : !tile.block<16x16xf32>
  } {tile.num_stages = 2 : i32}
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<16x16x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %i : !tile.block<16x16x!tile.ptr<f32>>, !tile.block<16x16xi32>
  tile.store %cp, %res : !tile.block<16x16x!tile.ptr<f32>>
  return
}

// -----

// Attention's column indices (`cols = start_n + arange`) address the loads
// of K and V and build the causal mask: the mask's copy is recomputed from
// the induction variable in the last stage, where it used to be carried
// from the iteration that loaded (in its own layout, converted through
// shared memory every iteration). Only the loaded blocks are carried.
// CHECK-LABEL: func.func @causal_columns
// CHECK: scf.for %[[IV:[^ ]*]] = {{.*}} -> (!tile.block<128x64xf32>, !tile.block<128xf32>, !tile.block<64x64xf16>, !tile.block<64x64xf16>, !tile.block<64x64xf16>, !tile.block<64x64xf16>)
// CHECK: %[[NOW:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK-NEXT: %[[S:.*]] = tile.splat %[[NOW]] : i32 -> !tile.block<64xi32>
// CHECK-NEXT: %[[COLS:.*]] = tile.addi %[[S]], %{{.*}} : !tile.block<64xi32>
// CHECK-NEXT: %[[ROW:.*]] = tile.expand_dims %[[COLS]] {axis = 0 : i32}
// CHECK: tile.dot
// CHECK: %[[B:.*]] = tile.broadcast %[[ROW]]
// CHECK: tile.cmpi sge, %{{.*}}, %[[B]]
func.func @causal_columns(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg4: i32 {tile.divisibility = 16 : i32}) {
  %0 = tile.constant dense<64> : !tile.block<64x1xi32>
  %1 = tile.constant dense<-1.000000e+09> : !tile.block<128x64xf32>
  %2 = tile.constant dense<64> : !tile.block<1x64xi32>
  %3 = tile.constant dense<64> : !tile.block<128x1xi32>
  %c0_i32 = arith.constant 0 : i32
  %4 = tile.constant dense<0.000000e+00> : !tile.block<128xf32>
  %5 = tile.constant dense<0.000000e+00> : !tile.block<128x64xf32>
  %c64_i32 = arith.constant 64 : i32
  %6 = tile.arange 0, 128 : !tile.block<128xi32>
  %7 = tile.arange 0, 64 : !tile.block<64xi32>
  %8 = tile.expand_dims %6 {axis = 1 : i32} : !tile.block<128xi32> -> !tile.block<128x1xi32>
  %9 = tile.muli %8, %3 : !tile.block<128x1xi32>
  %10 = tile.splat %arg0 : !tile.ptr<f16> -> !tile.block<128x1x!tile.ptr<f16>>
  %11 = tile.addptr %10, %9 : !tile.block<128x1x!tile.ptr<f16>>, !tile.block<128x1xi32>
  %12 = tile.expand_dims %7 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %13 = tile.broadcast %11 : !tile.block<128x1x!tile.ptr<f16>> -> !tile.block<128x64x!tile.ptr<f16>>
  %14 = tile.broadcast %12 : !tile.block<1x64xi32> -> !tile.block<128x64xi32>
  %15 = tile.addptr %13, %14 : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %16 = tile.load %15 : !tile.block<128x64x!tile.ptr<f16>>
  %17:2 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %5, %arg7 = %4) -> (!tile.block<128x64xf32>, !tile.block<128xf32>)  : i32 {
    %22 = tile.splat %arg5 : i32 -> !tile.block<64xi32>
    %23 = tile.addi %22, %7 : !tile.block<64xi32>
    %24 = tile.expand_dims %23 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
    %25 = tile.muli %24, %2 : !tile.block<1x64xi32>
    %26 = tile.splat %arg1 : !tile.ptr<f16> -> !tile.block<1x64x!tile.ptr<f16>>
    %27 = tile.addptr %26, %25 : !tile.block<1x64x!tile.ptr<f16>>, !tile.block<1x64xi32>
    %28 = tile.expand_dims %7 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
    %29 = tile.broadcast %27 : !tile.block<1x64x!tile.ptr<f16>> -> !tile.block<64x64x!tile.ptr<f16>>
    %30 = tile.broadcast %28 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
    %31 = tile.addptr %29, %30 : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
    %32 = tile.load %31 : !tile.block<64x64x!tile.ptr<f16>>
    %33 = tile.dot %16, %32, %5 : !tile.block<128x64xf16>, !tile.block<64x64xf16> -> !tile.block<128x64xf32>
    %34 = tile.broadcast %8 : !tile.block<128x1xi32> -> !tile.block<128x64xi32>
    %35 = tile.broadcast %24 : !tile.block<1x64xi32> -> !tile.block<128x64xi32>
    %36 = tile.cmpi sge, %34, %35 : !tile.block<128x64xi32>
    %37 = tile.select %36, %33, %1 : !tile.block<128x64xf32>
    %38 = tile.reduce  maxnum %37 {axis = 1 : i32} : !tile.block<128x64xf32> -> !tile.block<128xf32>
    %39 = tile.maxnumf %arg7, %38 : !tile.block<128xf32>
    %40 = tile.expand_dims %39 {axis = 1 : i32} : !tile.block<128xf32> -> !tile.block<128x1xf32>
    %41 = tile.broadcast %40 : !tile.block<128x1xf32> -> !tile.block<128x64xf32>
    %42 = tile.subf %37, %41 : !tile.block<128x64xf32>
    %43 = tile.exp2 %42 : !tile.block<128x64xf32>
    %44 = tile.subf %arg7, %39 : !tile.block<128xf32>
    %45 = tile.exp2 %44 : !tile.block<128xf32>
    %46 = tile.expand_dims %23 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
    %47 = tile.muli %46, %0 : !tile.block<64x1xi32>
    %48 = tile.splat %arg2 : !tile.ptr<f16> -> !tile.block<64x1x!tile.ptr<f16>>
    %49 = tile.addptr %48, %47 : !tile.block<64x1x!tile.ptr<f16>>, !tile.block<64x1xi32>
    %50 = tile.broadcast %49 : !tile.block<64x1x!tile.ptr<f16>> -> !tile.block<64x64x!tile.ptr<f16>>
    %51 = tile.broadcast %12 : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
    %52 = tile.addptr %50, %51 : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
    %53 = tile.load %52 : !tile.block<64x64x!tile.ptr<f16>>
    %54 = tile.cast %43 : !tile.block<128x64xf32> to !tile.block<128x64xf16>
    %55 = tile.expand_dims %45 {axis = 1 : i32} : !tile.block<128xf32> -> !tile.block<128x1xf32>
    %56 = tile.broadcast %55 : !tile.block<128x1xf32> -> !tile.block<128x64xf32>
    %57 = tile.mulf %arg6, %56 : !tile.block<128x64xf32>
    %58 = tile.dot %54, %53, %57 : !tile.block<128x64xf16>, !tile.block<64x64xf16> -> !tile.block<128x64xf32>
    scf.yield %58, %39 : !tile.block<128x64xf32>, !tile.block<128xf32>
  }
  %18 = tile.splat %arg3 : !tile.ptr<f32> -> !tile.block<128x1x!tile.ptr<f32>>
  %19 = tile.addptr %18, %9 : !tile.block<128x1x!tile.ptr<f32>>, !tile.block<128x1xi32>
  %20 = tile.broadcast %19 : !tile.block<128x1x!tile.ptr<f32>> -> !tile.block<128x64x!tile.ptr<f32>>
  %21 = tile.addptr %20, %14 : !tile.block<128x64x!tile.ptr<f32>>, !tile.block<128x64xi32>
  tile.store %21, %17#0 : !tile.block<128x64x!tile.ptr<f32>>
  return
}

// -----

// Attention backward's row statistics: `m` meets a product (`exp2(s - m)`)
// before the result reaches the second dot as its A operand. In a loop of
// f16 dots it is pipelined with the dot operands (tile-async-dot-operands
// then carries it in a ring of shared memory, not in registers): the body
// reads the iter_arg, and loads iteration k + 2's row, predicated.
// CHECK-LABEL: func.func @statistics_meet_product
// CHECK: scf.for {{.*}} -> (!tile.block<64x64xf32>, !tile.block<64x64xf16>, !tile.block<64x64xf16>, !tile.block<64xf32>, !tile.block<64xf32>, !tile.block<64x64xf16>, !tile.block<64x64xf16>)
// CHECK: tile.dot
// CHECK: tile.expand_dims %arg{{[0-9]+}} {axis = 0 : i32} : !tile.block<64xf32>
// CHECK: tile.dot
// CHECK: tile.load %{{.*}} mask %{{.*}} : !tile.block<64x!tile.ptr<f32>>
// CHECK: scf.yield
// Without row statistics it is loaded in the iteration that uses it, where
// its latency overlaps the product it waits for; the dot operands `q` and
// `v` are carried as before.
// INPLACE-LABEL: func.func @statistics_meet_product
// INPLACE: scf.for {{.*}} -> (!tile.block<64x64xf32>, !tile.block<64x64xf16>, !tile.block<64x64xf16>, !tile.block<64x64xf16>, !tile.block<64x64xf16>)
// INPLACE: tile.dot
// INPLACE: %[[M:.*]] = tile.load %{{.*}} : !tile.block<64x!tile.ptr<f32>>
// INPLACE: tile.expand_dims %[[M]]
// INPLACE: tile.dot
// INPLACE: scf.yield
func.func @statistics_meet_product(%q: !tile.ptr<f16>, %k: !tile.ptr<f16>, %v: !tile.ptr<f16>, %m: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4096 = arith.constant 4096 : i32
  %c64 = arith.constant 64 : i32
  %r = tile.arange 0, 4096 : !tile.block<4096xi32>
  %i = tile.reshape %r : !tile.block<4096xi32> -> !tile.block<64x64xi32>
  %rows = tile.arange 0, 64 : !tile.block<64xi32>
  %kb = tile.splat %k : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %kp = tile.addptr %kb, %i : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
  %kv = tile.load %kp : !tile.block<64x64x!tile.ptr<f16>>
  %zero = tile.constant dense<0.0> : !tile.block<64x64xf32>
  %res = scf.for %it = %c0 to %n step %c1 iter_args(%acc = %zero) -> (!tile.block<64x64xf32>) : i32 {
    %off = arith.muli %it, %c4096 : i32
    %s = tile.splat %off : i32 -> !tile.block<64x64xi32>
    %qi = tile.addi %i, %s : !tile.block<64x64xi32>
    %qb = tile.splat %q : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
    %qp = tile.addptr %qb, %qi : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
    %qv = tile.load %qp : !tile.block<64x64x!tile.ptr<f16>>
    %vb = tile.splat %v : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
    %vp = tile.addptr %vb, %qi : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
    %vv = tile.load %vp : !tile.block<64x64x!tile.ptr<f16>>
    %moff = arith.muli %it, %c64 : i32
    %ms = tile.splat %moff : i32 -> !tile.block<64xi32>
    %mi = tile.addi %rows, %ms : !tile.block<64xi32>
    %mb = tile.splat %m : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
    %mp = tile.addptr %mb, %mi : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
    %sc = tile.dot %kv, %qv, %zero : !tile.block<64x64xf16>, !tile.block<64x64xf16> -> !tile.block<64x64xf32>
    %mv = tile.load %mp : !tile.block<64x!tile.ptr<f32>>
    %m2 = tile.expand_dims %mv {axis = 0 : i32} : !tile.block<64xf32> -> !tile.block<1x64xf32>
    %m3 = tile.broadcast %m2 : !tile.block<1x64xf32> -> !tile.block<64x64xf32>
    %d = tile.subf %sc, %m3 : !tile.block<64x64xf32>
    %e = tile.exp2 %d : !tile.block<64x64xf32>
    %p = tile.cast %e : !tile.block<64x64xf32> to !tile.block<64x64xf16>
    %acc2 = tile.dot %p, %vv, %acc : !tile.block<64x64xf16>, !tile.block<64x64xf16> -> !tile.block<64x64xf32>
    scf.yield %acc2 : !tile.block<64x64xf32>
  } {tile.num_stages = 3 : i32}
  %cb = tile.splat %q : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %cp = tile.addptr %cb, %i : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
  %out = tile.cast %res : !tile.block<64x64xf32> to !tile.block<64x64xf16>
  tile.store %cp, %out : !tile.block<64x64x!tile.ptr<f16>>
  return
}
