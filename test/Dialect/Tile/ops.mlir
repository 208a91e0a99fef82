// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s | FileCheck %s --check-prefix=SPACING --strict-whitespace

// Round trip of every tile op, element type and type form, in both the
// custom and the generic form.

// Layouts print as aliases declared at the top.
// CHECK-DAG: #[[B4:.*]] = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[B32:.*]] = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [32], order = [0]>
// CHECK-DAG: #[[B2:.*]] = #tile.blocked<size_per_thread = [2], threads_per_warp = [32], warps = [1], order = [0]>
// CHECK-DAG: #[[SLICE:.*]] = #tile.slice<dim = 0, parent = #[[B4]]>
// CHECK-DAG: #[[MMA:.*]] = #tile.mma<version = 3, warps = [8, 1], instr = [16, 128, 16]>
// CHECK-DAG: #[[LINEAR:.*]] = #tile.linear<register = {{\[\[}}1], [2]], lane = {{\[\[}}4], [8], [16], [32], [64]], warp = []>
#b4 = #tile.blocked<size_per_thread = [1, 4], threads_per_warp = [2, 16], warps = [4, 1], order = [1, 0]>
#b32 = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [32], order = [0]>
#b2 = #tile.blocked<size_per_thread = [2], threads_per_warp = [32], warps = [1], order = [0]>

// CHECK-LABEL: func @types
// CHECK-SAME: !tile.block<4xi1>
// CHECK-SAME: !tile.block<4xi8>
// CHECK-SAME: !tile.block<4xi16>
// CHECK-SAME: !tile.block<4xi32>
// CHECK-SAME: !tile.block<4xi64>
// CHECK-SAME: !tile.block<4xf16>
// CHECK-SAME: !tile.block<4xbf16>
// CHECK-SAME: !tile.block<4xf32>
// CHECK-SAME: !tile.block<4xf64>
// CHECK-SAME: !tile.block<4x!tile.ptr<f32>>
// CHECK-SAME: !tile.block<24x40xf32>
// CHECK-SAME: !tile.block<1000xi32>
// CHECK-SAME: !tile.block<2x3x5xf16>
// CHECK-SAME: !tile.block<64x64xf32, #[[B4]]>
// CHECK-SAME: !tile.block<128x!tile.ptr<bf16>, #[[B32]]>
// CHECK-SAME: !tile.block<64xf32, #[[SLICE]]>
// CHECK-SAME: !tile.block<128xf32, #[[LINEAR]]>
// CHECK-SAME: !tile.ptr<i1>
// CHECK-SAME: !tile.ptr<i8>
// CHECK-SAME: !tile.ptr<i16>
// CHECK-SAME: !tile.ptr<i32>
// CHECK-SAME: !tile.ptr<i64>
// CHECK-SAME: !tile.ptr<f16>
// CHECK-SAME: !tile.ptr<bf16>
// CHECK-SAME: !tile.ptr<f32>
// CHECK-SAME: !tile.ptr<f64>
func.func @types(%a: !tile.block<4xi1>, %b: !tile.block<4xi8>,
                 %c: !tile.block<4xi16>, %d: !tile.block<4xi32>,
                 %e: !tile.block<4xi64>, %f: !tile.block<4xf16>,
                 %g: !tile.block<4xbf16>, %h: !tile.block<4xf32>,
                 %i: !tile.block<4xf64>, %j: !tile.block<4x!tile.ptr<f32>>,
                 %k: !tile.block<24x40xf32>, %l: !tile.block<1000xi32>,
                 %m: !tile.block<2x3x5xf16>,
                 %n: !tile.block<64x64xf32, #b4>,
                 %o: !tile.block<128x!tile.ptr<bf16>, #b32>,
                 %q: !tile.block<64xf32, #tile.slice<dim = 0, parent = #b4>>,
                 %r: !tile.block<128xf32, #tile.linear<register = [[1], [2]], lane = [[4], [8], [16], [32], [64]], warp = []>>,
                 %p0: !tile.ptr<i1>, %p1: !tile.ptr<i8>, %p2: !tile.ptr<i16>,
                 %p3: !tile.ptr<i32>, %p4: !tile.ptr<i64>, %p5: !tile.ptr<f16>,
                 %p6: !tile.ptr<bf16>, %p7: !tile.ptr<f32>, %p8: !tile.ptr<f64>) {
  return
}

// CHECK-LABEL: func @grid
func.func @grid() -> (i32, i32, i32, i32, i32, i32) {
  // CHECK: tile.program_id 0 : i32
  // CHECK: tile.program_id 1 : i32
  // CHECK: tile.program_id 2 : i32
  // CHECK: tile.num_programs 0 : i32
  // CHECK: tile.num_programs 1 : i32
  // CHECK: tile.num_programs 2 : i32
  %0 = tile.program_id 0 : i32
  %1 = tile.program_id 1 : i32
  %2 = tile.program_id 2 : i32
  %3 = tile.num_programs 0 : i32
  %4 = tile.num_programs 1 : i32
  %5 = tile.num_programs 2 : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}

// CHECK-LABEL: func @arange
func.func @arange() {
  // CHECK: tile.arange 0, 128 : !tile.block<128xi32>
  %0 = tile.arange 0, 128 : !tile.block<128xi32>
  // CHECK: tile.arange 8, 32 : !tile.block<24xi32>
  %1 = tile.arange 8, 32 : !tile.block<24xi32>
  // CHECK: tile.arange 4, 1004 : !tile.block<1000xi32>
  %2 = tile.arange 4, 1004 : !tile.block<1000xi32>
  // CHECK: tile.arange 0, 1 : !tile.block<1xi32>
  %3 = tile.arange 0, 1 : !tile.block<1xi32>
  return
}

// CHECK-LABEL: func @constant
func.func @constant() {
  // CHECK: tile.constant dense<0.000000e+00> : !tile.block<16x32xf32>
  %0 = tile.constant dense<0.0> : !tile.block<16x32xf32>
  // CHECK: tile.constant dense<[0, 2, 4, 6]> : !tile.block<4xi32>
  %1 = tile.constant dense<[0, 2, 4, 6]> : !tile.block<4xi32>
  // CHECK: tile.constant dense<true> : !tile.block<8xi1>
  %2 = tile.constant dense<true> : !tile.block<8xi1>
  // CHECK: tile.constant dense<{{\[}}[1, 2], [3, 4]]> : !tile.block<2x2xi8>
  %3 = tile.constant dense<[[1, 2], [3, 4]]> : !tile.block<2x2xi8>
  // CHECK: tile.constant dense<-1> : !tile.block<2x3x4xi64>
  %4 = tile.constant dense<-1> : !tile.block<2x3x4xi64>
  // CHECK: tile.constant dense<1.500000e+00> : !tile.block<24x40xf16>
  %5 = tile.constant dense<1.5> : !tile.block<24x40xf16>
  // CHECK: tile.constant dense<2.000000e+00> : !tile.block<1000xbf16>
  %6 = tile.constant dense<2.0> : !tile.block<1000xbf16>
  // CHECK: tile.constant dense<[1.000000e+00, 2.500000e+00]> : !tile.block<2xf64>
  %7 = tile.constant dense<[1.0, 2.5]> : !tile.block<2xf64>
  // CHECK: tile.constant dense<7> : !tile.block<4xi16>
  %8 = tile.constant dense<7> : !tile.block<4xi16>
  // The encoding of the result is printed after a second colon.
  // CHECK: tile.constant dense<0.000000e+00> : !tile.block<64x64xf32> : !tile.block<64x64xf32, #[[B4]]>
  %9 = tile.constant dense<0.0> : !tile.block<64x64xf32> : !tile.block<64x64xf32, #b4>
  // CHECK: tile.constant dense<1> : !tile.block<128xi32, #[[B2]]>
  %10 = tile.constant dense<1> : !tile.block<128xi32, #b2>
  return
}

// CHECK-LABEL: func @splat
func.func @splat(%x: f32, %n: i32, %b: i1, %h: bf16, %p: !tile.ptr<f16>) {
  // CHECK: tile.splat %{{.*}} : f32 -> !tile.block<16x32xf32>
  %0 = tile.splat %x : f32 -> !tile.block<16x32xf32>
  // CHECK: tile.splat %{{.*}} : i32 -> !tile.block<1000xi32>
  %1 = tile.splat %n : i32 -> !tile.block<1000xi32>
  // CHECK: tile.splat %{{.*}} : i1 -> !tile.block<2x3x4xi1>
  %2 = tile.splat %b : i1 -> !tile.block<2x3x4xi1>
  // CHECK: tile.splat %{{.*}} : bf16 -> !tile.block<24x40xbf16>
  %3 = tile.splat %h : bf16 -> !tile.block<24x40xbf16>
  // CHECK: tile.splat %{{.*}} : !tile.ptr<f16> -> !tile.block<128x!tile.ptr<f16>>
  %4 = tile.splat %p : !tile.ptr<f16> -> !tile.block<128x!tile.ptr<f16>>
  // CHECK: tile.splat %{{.*}} : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  %5 = tile.splat %p : !tile.ptr<f16> -> !tile.block<16x16x!tile.ptr<f16>>
  return
}

// CHECK-LABEL: func @shapes
func.func @shapes(%v: !tile.block<16xi32>, %m: !tile.block<4x8xf32>,
                  %t: !tile.block<2x3x4xf32>, %pp: !tile.block<24x!tile.ptr<f32>>) {
  // CHECK: tile.expand_dims %{{.*}} {axis = 0 : i32} : !tile.block<16xi32> -> !tile.block<1x16xi32>
  %0 = tile.expand_dims %v {axis = 0 : i32} : !tile.block<16xi32> -> !tile.block<1x16xi32>
  // CHECK: tile.expand_dims %{{.*}} {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  %1 = tile.expand_dims %v {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  // CHECK: tile.expand_dims %{{.*}} {axis = 1 : i32} : !tile.block<4x8xf32> -> !tile.block<4x1x8xf32>
  %2 = tile.expand_dims %m {axis = 1 : i32} : !tile.block<4x8xf32> -> !tile.block<4x1x8xf32>
  // CHECK: tile.expand_dims %{{.*}} {axis = 0 : i32} : !tile.block<24x!tile.ptr<f32>> -> !tile.block<1x24x!tile.ptr<f32>>
  %3 = tile.expand_dims %pp {axis = 0 : i32} : !tile.block<24x!tile.ptr<f32>> -> !tile.block<1x24x!tile.ptr<f32>>
  // CHECK: tile.broadcast %{{.*}} : !tile.block<16x1xi32> -> !tile.block<16x32xi32>
  %4 = tile.broadcast %1 : !tile.block<16x1xi32> -> !tile.block<16x32xi32>
  // CHECK: tile.broadcast %{{.*}} : !tile.block<1x16xi32> -> !tile.block<40x16xi32>
  %5 = tile.broadcast %0 : !tile.block<1x16xi32> -> !tile.block<40x16xi32>
  // CHECK: tile.broadcast %{{.*}} : !tile.block<4x1x8xf32> -> !tile.block<4x3x8xf32>
  %6 = tile.broadcast %2 : !tile.block<4x1x8xf32> -> !tile.block<4x3x8xf32>
  // CHECK: tile.broadcast %{{.*}} : !tile.block<1x24x!tile.ptr<f32>> -> !tile.block<40x24x!tile.ptr<f32>>
  %7 = tile.broadcast %3 : !tile.block<1x24x!tile.ptr<f32>> -> !tile.block<40x24x!tile.ptr<f32>>
  // CHECK: tile.reshape %{{.*}} : !tile.block<4x8xf32> -> !tile.block<32xf32>
  %8 = tile.reshape %m : !tile.block<4x8xf32> -> !tile.block<32xf32>
  // CHECK: tile.reshape %{{.*}} : !tile.block<2x3x4xf32> -> !tile.block<6x4xf32>
  %9 = tile.reshape %t : !tile.block<2x3x4xf32> -> !tile.block<6x4xf32>
  // CHECK: tile.reshape %{{.*}} : !tile.block<16xi32> -> !tile.block<2x2x4xi32>
  %10 = tile.reshape %v : !tile.block<16xi32> -> !tile.block<2x2x4xi32>
  // CHECK: tile.trans %{{.*}} : !tile.block<4x8xf32> -> !tile.block<8x4xf32>
  %11 = tile.trans %m : !tile.block<4x8xf32> -> !tile.block<8x4xf32>
  // CHECK: tile.trans %{{.*}} : !tile.block<2x3x4xf32> -> !tile.block<4x3x2xf32>
  %12 = tile.trans %t : !tile.block<2x3x4xf32> -> !tile.block<4x3x2xf32>
  // CHECK: tile.trans %{{.*}} {order = array<i32: 1, 0, 2>} : !tile.block<2x3x4xf32> -> !tile.block<3x2x4xf32>
  %13 = tile.trans %t {order = array<i32: 1, 0, 2>} : !tile.block<2x3x4xf32> -> !tile.block<3x2x4xf32>
  // CHECK: tile.trans %{{.*}} {order = array<i32: 0>} : !tile.block<16xi32> -> !tile.block<16xi32>
  %14 = tile.trans %v {order = array<i32: 0>} : !tile.block<16xi32> -> !tile.block<16xi32>
  return
}

// CHECK-LABEL: func @memory
func.func @memory(%base: !tile.ptr<f32>, %ptrs: !tile.block<128x!tile.ptr<f32>>,
                  %offs: !tile.block<128xi32>, %offs64: !tile.block<128xi64>,
                  %m: !tile.block<128xi1>, %other: !tile.block<128xf32>,
                  %i: i32, %i64: i64, %b: i1, %s: f32,
                  %p2: !tile.block<24x40x!tile.ptr<i8>>, %o2: !tile.block<24x40xi32>) {
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %0 = tile.addptr %ptrs, %offs : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi64>
  %1 = tile.addptr %ptrs, %offs64 : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi64>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f32>, i32
  %2 = tile.addptr %base, %i : !tile.ptr<f32>, i32
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f32>, i64
  %3 = tile.addptr %base, %i64 : !tile.ptr<f32>, i64
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.block<24x40x!tile.ptr<i8>>, !tile.block<24x40xi32>
  %4 = tile.addptr %p2, %o2 : !tile.block<24x40x!tile.ptr<i8>>, !tile.block<24x40xi32>

  // CHECK: tile.load %{{.*}} : !tile.block<128x!tile.ptr<f32>>
  // Absent mask and other print nothing, not their spaces.
  // SPACING: = tile.load %{{[0-9]+}} : !tile.block<128x!tile.ptr<f32>>
  %5 = tile.load %0 : !tile.block<128x!tile.ptr<f32>>
  // CHECK: tile.load %{{.*}} mask %{{.*}} : !tile.block<128x!tile.ptr<f32>>
  %6 = tile.load %0 mask %m : !tile.block<128x!tile.ptr<f32>>
  // CHECK: tile.load %{{.*}} mask %{{.*}} other %{{.*}} : !tile.block<128x!tile.ptr<f32>>
  %7 = tile.load %0 mask %m other %other : !tile.block<128x!tile.ptr<f32>>
  // CHECK: tile.load %{{.*}} : !tile.ptr<f32>
  %8 = tile.load %2 : !tile.ptr<f32>
  // CHECK: tile.load %{{.*}} mask %{{.*}} other %{{.*}} : !tile.ptr<f32>
  %9 = tile.load %2 mask %b other %s : !tile.ptr<f32>
  // CHECK: tile.load %{{.*}} : !tile.block<24x40x!tile.ptr<i8>>
  %10 = tile.load %4 : !tile.block<24x40x!tile.ptr<i8>>

  // CHECK: tile.store %{{.*}}, %{{.*}} : !tile.block<128x!tile.ptr<f32>>
  tile.store %0, %5 : !tile.block<128x!tile.ptr<f32>>
  // CHECK: tile.store %{{.*}}, %{{.*}} mask %{{.*}} : !tile.block<128x!tile.ptr<f32>>
  tile.store %1, %7 mask %m : !tile.block<128x!tile.ptr<f32>>
  // CHECK: tile.store %{{.*}}, %{{.*}} : !tile.ptr<f32>
  tile.store %3, %8 : !tile.ptr<f32>
  // CHECK: tile.store %{{.*}}, %{{.*}} mask %{{.*}} : !tile.ptr<f32>
  tile.store %3, %9 mask %b : !tile.ptr<f32>
  // CHECK: tile.store %{{.*}}, %{{.*}} : !tile.block<24x40x!tile.ptr<i8>>
  tile.store %4, %10 : !tile.block<24x40x!tile.ptr<i8>>
  return
}

// CHECK-LABEL: func @reduce
func.func @reduce(%x: !tile.block<16x32xf32>, %v: !tile.block<8xf32>,
                  %i: !tile.block<1000xi32>, %t: !tile.block<2x3x4xi64>) {
  // CHECK: tile.reduce sum %{{.*}} {axis = 0 : i32} : !tile.block<16x32xf32> -> !tile.block<32xf32>
  %0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<16x32xf32> -> !tile.block<32xf32>
  // CHECK: tile.reduce max %{{.*}} {axis = 1 : i32} : !tile.block<16x32xf32> -> !tile.block<16xf32>
  %1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<16x32xf32> -> !tile.block<16xf32>
  // CHECK: tile.reduce min %{{.*}} {axis = 0 : i32} : !tile.block<1000xi32> -> i32
  %2 = tile.reduce min %i {axis = 0 : i32} : !tile.block<1000xi32> -> i32
  // CHECK: tile.reduce maxnum %{{.*}} {axis = 1 : i32} : !tile.block<16x32xf32> -> !tile.block<16xf32>
  %mn = tile.reduce maxnum %x {axis = 1 : i32} : !tile.block<16x32xf32> -> !tile.block<16xf32>
  // CHECK: tile.reduce minnum %{{.*}} {axis = 0 : i32} : !tile.block<8xf32> -> f32
  %nn = tile.reduce minnum %v {axis = 0 : i32} : !tile.block<8xf32> -> f32
  // CHECK: tile.reduce umax %{{.*}} {axis = 0 : i32} : !tile.block<1000xi32> -> i32
  %um = tile.reduce umax %i {axis = 0 : i32} : !tile.block<1000xi32> -> i32
  // CHECK: tile.scan umin %{{.*}} {axis = 0 : i32} : !tile.block<1000xi32>
  %us = tile.scan umin %i {axis = 0 : i32} : !tile.block<1000xi32>
  // CHECK: tile.reduce sum %{{.*}} {axis = 2 : i32} : !tile.block<2x3x4xi64> -> !tile.block<2x3xi64>
  %3 = tile.reduce sum %t {axis = 2 : i32} : !tile.block<2x3x4xi64> -> !tile.block<2x3xi64>
  // CHECK: tile.reduce custom %{{.*}} {axis = 0 : i32} : !tile.block<8xf32> -> f32 {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
  // CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
  // CHECK-NEXT:   tile.yield %[[M]] : f32
  // CHECK-NEXT: }
  %4 = tile.reduce custom %v {axis = 0 : i32} : !tile.block<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    tile.yield %m : f32
  }
  // CHECK: tile.reduce custom %{{.*}} {axis = 1 : i32} : !tile.block<2x3x4xi64> -> !tile.block<2x4xi64> {
  // CHECK: arith.xori
  // CHECK: tile.yield
  %5 = tile.reduce custom %t {axis = 1 : i32} : !tile.block<2x3x4xi64> -> !tile.block<2x4xi64> {
  ^bb0(%a: i64, %b: i64):
    %m = arith.xori %a, %b : i64
    tile.yield %m : i64
  }
  // Several blocks at once (argmax): the earlier element of each, then the
  // later one; a result per block.
  // CHECK: %{{.*}}:2 = tile.reduce custom %{{.*}}, %{{.*}} {axis = 0 : i32} : !tile.block<8xf32>, !tile.block<8xi32> -> f32, i32 {
  // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
  // CHECK: tile.yield %{{.*}}, %{{.*}} : f32, i32
  %iota = tile.arange 0, 8 : !tile.block<8xi32>
  %6:2 = tile.reduce custom %v, %iota {axis = 0 : i32} : !tile.block<8xf32>, !tile.block<8xi32> -> f32, i32 {
  ^bb0(%va: f32, %ia: i32, %vb: f32, %ib: i32):
    %gt = arith.cmpf ogt, %va, %vb : f32
    %m = arith.select %gt, %va, %vb : f32
    %at = arith.select %gt, %ia, %ib : i32
    tile.yield %m, %at : f32, i32
  }
  return
}

// CHECK-LABEL: func @scan
func.func @scan(%x: !tile.block<128xi32>, %y: !tile.block<16x24xf32>) {
  // CHECK: tile.scan sum %{{.*}} {axis = 0 : i32} : !tile.block<128xi32>
  %0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<128xi32>
  // CHECK: tile.scan max %{{.*}} {axis = 1 : i32, reverse} : !tile.block<16x24xf32>
  %1 = tile.scan max %y {axis = 1 : i32, reverse} : !tile.block<16x24xf32>
  // CHECK: tile.scan min %{{.*}} {axis = 0 : i32} : !tile.block<16x24xf32>
  %2 = tile.scan min %y {axis = 0 : i32} : !tile.block<16x24xf32>
  // CHECK: tile.scan custom %{{.*}} {axis = 0 : i32, reverse} : !tile.block<128xi32> {
  // CHECK: arith.muli
  // CHECK: tile.yield
  %3 = tile.scan custom %x {axis = 0 : i32, reverse} : !tile.block<128xi32> {
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %b : i32
    tile.yield %m : i32
  }
  // A linear recurrence over two blocks; each result has its operand's type.
  // CHECK: %{{.*}}:2 = tile.scan custom %{{.*}}, %{{.*}} {axis = 1 : i32} : !tile.block<16x24xf32>, !tile.block<16x24xf32> {
  // CHECK: tile.yield %{{.*}}, %{{.*}} : f32, f32
  %4:2 = tile.scan custom %y, %y {axis = 1 : i32} : !tile.block<16x24xf32>, !tile.block<16x24xf32> {
  ^bb0(%a1: f32, %b1: f32, %a2: f32, %b2: f32):
    %a = arith.mulf %a1, %a2 : f32
    %t = arith.mulf %b1, %a2 : f32
    %b = arith.addf %t, %b2 : f32
    tile.yield %a, %b : f32, f32
  }
  return
}

// CHECK-LABEL: func @dot
func.func @dot(%a16: !tile.block<32x16xf16>, %b16: !tile.block<16x64xf16>,
               %abf: !tile.block<32x16xbf16>, %bbf: !tile.block<16x64xbf16>,
               %a32: !tile.block<32x16xf32>, %b32: !tile.block<16x64xf32>,
               %c: !tile.block<32x64xf32>, %a24: !tile.block<24x40xf16>,
               %b24: !tile.block<40x24xf16>, %c24: !tile.block<24x24xf32>) {
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<32x16xf16>, !tile.block<16x64xf16> -> !tile.block<32x64xf32>
  %0 = tile.dot %a16, %b16, %c : !tile.block<32x16xf16>, !tile.block<16x64xf16> -> !tile.block<32x64xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<32x16xbf16>, !tile.block<16x64xbf16> -> !tile.block<32x64xf32>
  %1 = tile.dot %abf, %bbf, %0 : !tile.block<32x16xbf16>, !tile.block<16x64xbf16> -> !tile.block<32x64xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<32x16xf32>, !tile.block<16x64xf32> -> !tile.block<32x64xf32>
  %2 = tile.dot %a32, %b32, %1 : !tile.block<32x16xf32>, !tile.block<16x64xf32> -> !tile.block<32x64xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<24x40xf16>, !tile.block<40x24xf16> -> !tile.block<24x24xf32>
  %3 = tile.dot %a24, %b24, %c24 : !tile.block<24x40xf16>, !tile.block<40x24xf16> -> !tile.block<24x24xf32>
  return
}

// CHECK-LABEL: func @dot_float8
func.func @dot_float8(%a: !tile.block<64x32xf8E4M3FN>, %b: !tile.block<32x64xf8E5M2>,
                      %c: !tile.block<64x64xf32>) {
  // 8-bit floats of two kinds multiply into f32.
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<64x32xf8E4M3FN>, !tile.block<32x64xf8E5M2> -> !tile.block<64x64xf32>
  %0 = tile.dot %a, %b, %c : !tile.block<64x32xf8E4M3FN>, !tile.block<32x64xf8E5M2> -> !tile.block<64x64xf32>
  return
}

// CHECK-LABEL: func @dot_tf32
func.func @dot_tf32(%a: !tile.block<64x32xf32>, %b: !tile.block<32x64xf32>,
                    %c: !tile.block<64x64xf32>) {
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {tf32} : !tile.block<64x32xf32>, !tile.block<32x64xf32> -> !tile.block<64x64xf32>
  %0 = tile.dot %a, %b, %c {tf32} : !tile.block<64x32xf32>, !tile.block<32x64xf32> -> !tile.block<64x64xf32>
  return
}

// CHECK-LABEL: func @int_elementwise
func.func @int_elementwise(%a: !tile.block<16x32xi32>, %b: !tile.block<16x32xi32>) {
  // CHECK: tile.addi %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %0 = tile.addi %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.subi %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %1 = tile.subi %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.muli %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %2 = tile.muli %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.divsi %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %3 = tile.divsi %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.divui %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %4 = tile.divui %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.remsi %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %5 = tile.remsi %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.remui %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %6 = tile.remui %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.minsi %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %7 = tile.minsi %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.maxsi %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %8 = tile.maxsi %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.minui %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %9 = tile.minui %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.maxui %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %10 = tile.maxui %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.andi %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %11 = tile.andi %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.ori %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %12 = tile.ori %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.xori %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %13 = tile.xori %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.shli %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %14 = tile.shli %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.shrsi %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %15 = tile.shrsi %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.shrui %{{.*}}, %{{.*}} : !tile.block<16x32xi32>
  %16 = tile.shrui %a, %b : !tile.block<16x32xi32>
  // CHECK: tile.noti %{{.*}} : !tile.block<16x32xi32>
  %17 = tile.noti %a : !tile.block<16x32xi32>
  // CHECK: tile.absi %{{.*}} : !tile.block<16x32xi32>
  %18 = tile.absi %a : !tile.block<16x32xi32>
  return
}

// CHECK-LABEL: func @int_types
func.func @int_types(%a: !tile.block<4xi1>, %b: !tile.block<4xi8>,
                     %c: !tile.block<2x3x5xi16>, %d: !tile.block<1000xi64>) {
  // CHECK: tile.andi %{{.*}}, %{{.*}} : !tile.block<4xi1>
  %0 = tile.andi %a, %a : !tile.block<4xi1>
  // CHECK: tile.addi %{{.*}}, %{{.*}} : !tile.block<4xi8>
  %1 = tile.addi %b, %b : !tile.block<4xi8>
  // CHECK: tile.muli %{{.*}}, %{{.*}} : !tile.block<2x3x5xi16>
  %2 = tile.muli %c, %c : !tile.block<2x3x5xi16>
  // CHECK: tile.subi %{{.*}}, %{{.*}} : !tile.block<1000xi64>
  %3 = tile.subi %d, %d : !tile.block<1000xi64>
  return
}

// CHECK-LABEL: func @float_elementwise
func.func @float_elementwise(%a: !tile.block<24x40xf32>, %b: !tile.block<24x40xf32>,
                             %c: !tile.block<24x40xf32>) {
  // CHECK: tile.addf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %0 = tile.addf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.subf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %1 = tile.subf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.mulf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %2 = tile.mulf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.divf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %3 = tile.divf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.remf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %4 = tile.remf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.minimumf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %5 = tile.minimumf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.maximumf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %6 = tile.maximumf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.minnumf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %mn = tile.minnumf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.maxnumf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %mx = tile.maxnumf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.powf %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %7 = tile.powf %a, %b : !tile.block<24x40xf32>
  // CHECK: tile.negf %{{.*}} : !tile.block<24x40xf32>
  %8 = tile.negf %a : !tile.block<24x40xf32>
  // CHECK: tile.absf %{{.*}} : !tile.block<24x40xf32>
  %9 = tile.absf %a : !tile.block<24x40xf32>
  // CHECK: tile.exp %{{.*}} : !tile.block<24x40xf32>
  %10 = tile.exp %a : !tile.block<24x40xf32>
  // CHECK: tile.exp2 %{{.*}} : !tile.block<24x40xf32>
  %11 = tile.exp2 %a : !tile.block<24x40xf32>
  // CHECK: tile.log %{{.*}} : !tile.block<24x40xf32>
  %12 = tile.log %a : !tile.block<24x40xf32>
  // CHECK: tile.log2 %{{.*}} : !tile.block<24x40xf32>
  %13 = tile.log2 %a : !tile.block<24x40xf32>
  // CHECK: tile.sqrt %{{.*}} : !tile.block<24x40xf32>
  %14 = tile.sqrt %a : !tile.block<24x40xf32>
  // CHECK: tile.rsqrt %{{.*}} : !tile.block<24x40xf32>
  %15 = tile.rsqrt %a : !tile.block<24x40xf32>
  // CHECK: tile.floor %{{.*}} : !tile.block<24x40xf32>
  %16 = tile.floor %a : !tile.block<24x40xf32>
  // CHECK: tile.ceil %{{.*}} : !tile.block<24x40xf32>
  %17 = tile.ceil %a : !tile.block<24x40xf32>
  // CHECK: tile.sin %{{.*}} : !tile.block<24x40xf32>
  %18 = tile.sin %a : !tile.block<24x40xf32>
  // CHECK: tile.cos %{{.*}} : !tile.block<24x40xf32>
  %19 = tile.cos %a : !tile.block<24x40xf32>
  // CHECK: tile.fma %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<24x40xf32>
  %20 = tile.fma %a, %b, %c : !tile.block<24x40xf32>
  return
}

// CHECK-LABEL: func @float_types
func.func @float_types(%a: !tile.block<4xf16>, %b: !tile.block<4xbf16>,
                       %c: !tile.block<2x3x5xf64>,
                       %d: !tile.block<64x64xf32, #b4>) {
  // CHECK: tile.addf %{{.*}}, %{{.*}} : !tile.block<4xf16>
  %0 = tile.addf %a, %a : !tile.block<4xf16>
  // CHECK: tile.mulf %{{.*}}, %{{.*}} : !tile.block<4xbf16>
  %1 = tile.mulf %b, %b : !tile.block<4xbf16>
  // CHECK: tile.fma %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<2x3x5xf64>
  %2 = tile.fma %c, %c, %c : !tile.block<2x3x5xf64>
  // CHECK: tile.exp %{{.*}} : !tile.block<64x64xf32, #[[B4]]>
  %3 = tile.exp %d : !tile.block<64x64xf32, #b4>
  return
}

// CHECK-LABEL: func @compare
func.func @compare(%a: !tile.block<128xi32>, %b: !tile.block<128xi32>,
                   %x: !tile.block<16x8xf32>, %y: !tile.block<16x8xf32>) {
  // CHECK: tile.cmpi eq, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %0 = tile.cmpi eq, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpi ne, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %1 = tile.cmpi ne, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpi slt, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %2 = tile.cmpi slt, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpi sle, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %3 = tile.cmpi sle, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpi sgt, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %4 = tile.cmpi sgt, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpi sge, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %5 = tile.cmpi sge, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpi ult, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %6 = tile.cmpi ult, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpi ule, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %7 = tile.cmpi ule, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpi ugt, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %8 = tile.cmpi ugt, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpi uge, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %9 = tile.cmpi uge, %a, %b : !tile.block<128xi32>
  // CHECK: tile.cmpf false, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %10 = tile.cmpf false, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf oeq, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %11 = tile.cmpf oeq, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf ogt, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %12 = tile.cmpf ogt, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf oge, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %13 = tile.cmpf oge, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf olt, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %14 = tile.cmpf olt, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf ole, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %15 = tile.cmpf ole, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf one, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %16 = tile.cmpf one, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf ord, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %17 = tile.cmpf ord, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf ueq, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %18 = tile.cmpf ueq, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf ugt, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %19 = tile.cmpf ugt, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf uge, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %20 = tile.cmpf uge, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf ult, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %21 = tile.cmpf ult, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf ule, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %22 = tile.cmpf ule, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf une, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %23 = tile.cmpf une, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf uno, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %24 = tile.cmpf uno, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.cmpf true, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %25 = tile.cmpf true, %x, %y : !tile.block<16x8xf32>
  // CHECK: tile.select %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<128xi32>
  %26 = tile.select %2, %a, %b : !tile.block<128xi32>
  // CHECK: tile.select %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<16x8xf32>
  %27 = tile.select %12, %x, %y : !tile.block<16x8xf32>
  return
}

// CHECK-LABEL: func @select_ptr
func.func @select_ptr(%c: !tile.block<8xi1>, %a: !tile.block<8x!tile.ptr<f32>>,
                      %b: !tile.block<8x!tile.ptr<f32>>) -> !tile.block<8x!tile.ptr<f32>> {
  // CHECK: tile.select %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<8x!tile.ptr<f32>>
  %0 = tile.select %c, %a, %b : !tile.block<8x!tile.ptr<f32>>
  return %0 : !tile.block<8x!tile.ptr<f32>>
}

// CHECK-LABEL: func @cast
func.func @cast(%f: !tile.block<128xf32>, %i8: !tile.block<128xi8>,
                %b: !tile.block<128xi1>, %i64: !tile.block<2x3x4xi64>) {
  // CHECK: tile.cast %{{.*}} : !tile.block<128xf32> to !tile.block<128xf16>
  %0 = tile.cast %f : !tile.block<128xf32> to !tile.block<128xf16>
  // CHECK: tile.cast %{{.*}} : !tile.block<128xf32> to !tile.block<128xbf16>
  %1 = tile.cast %f : !tile.block<128xf32> to !tile.block<128xbf16>
  // CHECK: tile.cast %{{.*}} : !tile.block<128xf32> to !tile.block<128xf64>
  %2 = tile.cast %f : !tile.block<128xf32> to !tile.block<128xf64>
  // CHECK: tile.cast %{{.*}} : !tile.block<128xf32> to !tile.block<128xi32>
  %3 = tile.cast %f : !tile.block<128xf32> to !tile.block<128xi32>
  // CHECK: tile.cast %{{.*}} {unsigned_src} : !tile.block<128xi8> to !tile.block<128xf32>
  %4 = tile.cast %i8 {unsigned_src} : !tile.block<128xi8> to !tile.block<128xf32>
  // CHECK: tile.cast %{{.*}} : !tile.block<128xi8> to !tile.block<128xi16>
  %5 = tile.cast %i8 : !tile.block<128xi8> to !tile.block<128xi16>
  // CHECK: tile.cast %{{.*}} : !tile.block<128xi1> to !tile.block<128xf32>
  %6 = tile.cast %b : !tile.block<128xi1> to !tile.block<128xf32>
  // CHECK: tile.cast %{{.*}} : !tile.block<128xf32> to !tile.block<128xi1>
  %7 = tile.cast %f : !tile.block<128xf32> to !tile.block<128xi1>
  // CHECK: tile.cast %{{.*}} {unsigned_src} : !tile.block<2x3x4xi64> to !tile.block<2x3x4xi8>
  %8 = tile.cast %i64 {unsigned_src} : !tile.block<2x3x4xi64> to !tile.block<2x3x4xi8>
  // CHECK: tile.cast %{{.*}} : !tile.block<128xf32> to !tile.block<128xf8E4M3FN>
  %9 = tile.cast %f : !tile.block<128xf32> to !tile.block<128xf8E4M3FN>
  // CHECK: tile.cast %{{.*}} {rtz} : !tile.block<128xf32> to !tile.block<128xf8E5M2>
  %10 = tile.cast %f {rtz} : !tile.block<128xf32> to !tile.block<128xf8E5M2>
  // CHECK: tile.cast %{{.*}} : !tile.block<128xf8E4M3FN> to !tile.block<128xf16>
  %11 = tile.cast %9 : !tile.block<128xf8E4M3FN> to !tile.block<128xf16>
  return
}

// The seed kernel, written in the generic form: out[i, j] = x[i, j] for a
// 16x32 tile at row offset 16 * program_id.

// CHECK-LABEL: func @seed_kernel
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[OUT:.*]]: !tile.ptr<f32>, %[[STRIDE:.*]]: i32)
// CHECK:       %[[PID:.*]] = tile.program_id 0 : i32
// CHECK:       %[[ROWS:.*]] = tile.arange 0, 16 : !tile.block<16xi32>
// CHECK:       %[[COLS:.*]] = tile.arange 0, 32 : !tile.block<32xi32>
// CHECK:       %[[R1:.*]] = tile.expand_dims %[[ROWS]] {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
// CHECK:       %[[C1:.*]] = tile.expand_dims %[[COLS]] {axis = 0 : i32} : !tile.block<32xi32> -> !tile.block<1x32xi32>
// CHECK:       %[[RS:.*]] = tile.splat %[[STRIDE]] : i32 -> !tile.block<16x1xi32>
// CHECK:       %[[RM:.*]] = tile.muli %[[R1]], %[[RS]] : !tile.block<16x1xi32>
// CHECK:       %[[RB:.*]] = tile.broadcast %[[RM]] : !tile.block<16x1xi32> -> !tile.block<16x32xi32>
// CHECK:       %[[CB:.*]] = tile.broadcast %[[C1]] : !tile.block<1x32xi32> -> !tile.block<16x32xi32>
// CHECK:       %[[OFF:.*]] = tile.addi %[[RB]], %[[CB]] : !tile.block<16x32xi32>
// CHECK:       %[[BASE:.*]] = tile.addptr %[[X]], %[[PID]] : !tile.ptr<f32>, i32
// CHECK:       %[[XP:.*]] = tile.splat %[[BASE]] : !tile.ptr<f32> -> !tile.block<16x32x!tile.ptr<f32>>
// CHECK:       %[[XA:.*]] = tile.addptr %[[XP]], %[[OFF]] : !tile.block<16x32x!tile.ptr<f32>>, !tile.block<16x32xi32>
// CHECK:       %[[V:.*]] = tile.load %[[XA]] : !tile.block<16x32x!tile.ptr<f32>>
// CHECK:       %[[OP:.*]] = tile.splat %[[OUT]] : !tile.ptr<f32> -> !tile.block<16x32x!tile.ptr<f32>>
// CHECK:       %[[OA:.*]] = tile.addptr %[[OP]], %[[OFF]] : !tile.block<16x32x!tile.ptr<f32>>, !tile.block<16x32xi32>
// CHECK:       tile.store %[[OA]], %[[V]] : !tile.block<16x32x!tile.ptr<f32>>
// CHECK:       return
"func.func"() <{function_type = (!tile.ptr<f32>, !tile.ptr<f32>, i32) -> (), sym_name = "seed_kernel"}> ({
^bb0(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %stride: i32):
  %pid = "tile.program_id"() <{axis = 0 : i32}> : () -> i32
  %rows = "tile.arange"() <{end = 16 : i32, start = 0 : i32}> : () -> !tile.block<16xi32>
  %cols = "tile.arange"() <{end = 32 : i32, start = 0 : i32}> : () -> !tile.block<32xi32>
  %r1 = "tile.expand_dims"(%rows) <{axis = 1 : i32}> : (!tile.block<16xi32>) -> !tile.block<16x1xi32>
  %c1 = "tile.expand_dims"(%cols) <{axis = 0 : i32}> : (!tile.block<32xi32>) -> !tile.block<1x32xi32>
  %rs = "tile.splat"(%stride) : (i32) -> !tile.block<16x1xi32>
  %rm = "tile.muli"(%r1, %rs) : (!tile.block<16x1xi32>, !tile.block<16x1xi32>) -> !tile.block<16x1xi32>
  %rb = "tile.broadcast"(%rm) : (!tile.block<16x1xi32>) -> !tile.block<16x32xi32>
  %cb = "tile.broadcast"(%c1) : (!tile.block<1x32xi32>) -> !tile.block<16x32xi32>
  %off = "tile.addi"(%rb, %cb) : (!tile.block<16x32xi32>, !tile.block<16x32xi32>) -> !tile.block<16x32xi32>
  %base = "tile.addptr"(%x, %pid) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
  %xp = "tile.splat"(%base) : (!tile.ptr<f32>) -> !tile.block<16x32x!tile.ptr<f32>>
  %xa = "tile.addptr"(%xp, %off) : (!tile.block<16x32x!tile.ptr<f32>>, !tile.block<16x32xi32>) -> !tile.block<16x32x!tile.ptr<f32>>
  %v = "tile.load"(%xa) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (!tile.block<16x32x!tile.ptr<f32>>) -> !tile.block<16x32xf32>
  %op = "tile.splat"(%out) : (!tile.ptr<f32>) -> !tile.block<16x32x!tile.ptr<f32>>
  %oa = "tile.addptr"(%op, %off) : (!tile.block<16x32x!tile.ptr<f32>>, !tile.block<16x32xi32>) -> !tile.block<16x32x!tile.ptr<f32>>
  "tile.store"(%oa, %v) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tile.block<16x32x!tile.ptr<f32>>, !tile.block<16x32xf32>) -> ()
  "func.return"() : () -> ()
}) : () -> ()

// The generic form of masked loads and stores and of the region ops.

// CHECK-LABEL: func @generic_forms
// CHECK: tile.load %{{.*}} mask %{{.*}} other %{{.*}} : !tile.block<8x!tile.ptr<f16>>
// CHECK: tile.load %{{.*}} mask %{{.*}} : !tile.block<8x!tile.ptr<f16>>
// CHECK: tile.store %{{.*}}, %{{.*}} mask %{{.*}} : !tile.block<8x!tile.ptr<f16>>
// CHECK: tile.reduce custom %{{.*}} {axis = 0 : i32} : !tile.block<8xf16> -> f16 {
// CHECK: arith.maximumf
// CHECK: tile.yield %{{.*}} : f16
// CHECK: tile.scan sum %{{.*}} {axis = 0 : i32, reverse} : !tile.block<8xf16>
// CHECK: tile.cmpi sge, %{{.*}}, %{{.*}} : !tile.block<8xi32>
"func.func"() <{function_type = (!tile.block<8x!tile.ptr<f16>>, !tile.block<8xi1>, !tile.block<8xf16>, !tile.block<8xi32>) -> (), sym_name = "generic_forms"}> ({
^bb0(%p: !tile.block<8x!tile.ptr<f16>>, %m: !tile.block<8xi1>, %o: !tile.block<8xf16>, %i: !tile.block<8xi32>):
  %0 = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!tile.block<8x!tile.ptr<f16>>, !tile.block<8xi1>, !tile.block<8xf16>) -> !tile.block<8xf16>
  %1 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tile.block<8x!tile.ptr<f16>>, !tile.block<8xi1>) -> !tile.block<8xf16>
  "tile.store"(%p, %1, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!tile.block<8x!tile.ptr<f16>>, !tile.block<8xf16>, !tile.block<8xi1>) -> ()
  %2 = "tile.reduce"(%0) <{axis = 0 : i32, kind = #tile<combine custom>}> ({
  ^bb0(%a: f16, %b: f16):
    %mx = "arith.maximumf"(%a, %b) <{fastmath = #arith.fastmath<none>}> : (f16, f16) -> f16
    "tile.yield"(%mx) : (f16) -> ()
  }) : (!tile.block<8xf16>) -> f16
  %3 = "tile.scan"(%0) <{axis = 0 : i32, kind = #tile<combine sum>, reverse}> ({
  }) : (!tile.block<8xf16>) -> !tile.block<8xf16>
  %4 = "tile.cmpi"(%i, %i) <{predicate = 5 : i64}> : (!tile.block<8xi32>, !tile.block<8xi32>) -> !tile.block<8xi1>
  "func.return"() : () -> ()
}) : () -> ()

// CHECK-LABEL: func @mma_layout
// CHECK-SAME: !tile.block<128x128xf32, #[[MMA]]>
func.func @mma_layout(%a: !tile.block<128x128xf32, #tile.mma<version = 3, warps = [8, 1], instr = [16, 128, 16]>>) {
  return
}

// CHECK-LABEL: func @bits_and_calls
func.func @bits_and_calls(%f: !tile.block<128xf32>, %h: f16, %p: !tile.ptr<f32>,
                          %ps: !tile.block<8x!tile.ptr<f32>>, %a: !tile.block<8xi64>,
                          %i: i32) {
  // CHECK: tile.bitcast %{{.*}} : !tile.block<128xf32> to !tile.block<128xi32>
  %0 = tile.bitcast %f : !tile.block<128xf32> to !tile.block<128xi32>
  // CHECK: tile.bitcast %{{.*}} : f16 to bf16
  %1 = tile.bitcast %h : f16 to bf16
  // CHECK: tile.bitcast %{{.*}} : !tile.ptr<f32> to !tile.ptr<i8>
  %2 = tile.bitcast %p : !tile.ptr<f32> to !tile.ptr<i8>
  // CHECK: tile.ptr_to_int %{{.*}} : !tile.block<8x!tile.ptr<f32>> to !tile.block<8xi64>
  %3 = tile.ptr_to_int %ps : !tile.block<8x!tile.ptr<f32>> to !tile.block<8xi64>
  // CHECK: tile.int_to_ptr %{{.*}} : !tile.block<8xi64> to !tile.block<8x!tile.ptr<f16>>
  %4 = tile.int_to_ptr %a : !tile.block<8xi64> to !tile.block<8x!tile.ptr<f16>>
  // CHECK: tile.extern_elementwise "__nv_erff"(%{{.*}}) : (!tile.block<128xf32>) -> !tile.block<128xf32>
  %5 = tile.extern_elementwise "__nv_erff"(%f) : (!tile.block<128xf32>) -> !tile.block<128xf32>
  // CHECK: tile.extern_elementwise "__nv_umulhi"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
  %6 = tile.extern_elementwise "__nv_umulhi"(%i, %i) : (i32, i32) -> i32
  // CHECK: tile.cast %{{.*}} {unsigned_dst} : !tile.block<128xf32> to !tile.block<128xi32>
  %7 = tile.cast %f {unsigned_dst} : !tile.block<128xf32> to !tile.block<128xi32>
  // CHECK: tile.cast %{{.*}} {rtz} : !tile.block<128xf32> to !tile.block<128xbf16>
  %8 = tile.cast %f {rtz} : !tile.block<128xf32> to !tile.block<128xbf16>
  return
}

// CHECK-LABEL: func @cache_hints
func.func @cache_hints(%p: !tile.block<8x!tile.ptr<f32>>, %s: !tile.ptr<i8>) {
  // CHECK: tile.load %{{.*}} {cache = "cg"} : !tile.block<8x!tile.ptr<f32>>
  %0 = tile.load %p {cache = "cg"} : !tile.block<8x!tile.ptr<f32>>
  // CHECK: tile.load %{{.*}} {evict = "evict_last"} : !tile.ptr<i8>
  %1 = tile.load %s {evict = "evict_last"} : !tile.ptr<i8>
  // CHECK: tile.store %{{.*}}, %{{.*}} {cache = "cs"} : !tile.block<8x!tile.ptr<f32>>
  tile.store %p, %0 {cache = "cs"} : !tile.block<8x!tile.ptr<f32>>
  // CHECK: tile.store %{{.*}}, %{{.*}} {is_volatile} : !tile.ptr<i8>
  tile.store %s, %1 {is_volatile} : !tile.ptr<i8>
  return
}

// CHECK-LABEL: func @convert_layout
func.func @convert_layout(%a: !tile.block<64x64xf32, #b4>) {
  // CHECK: tile.convert_layout %{{.*}} : !tile.block<64x64xf32, #[[B4]]> -> !tile.block<64x64xf32, #[[T:.*]]>
  %0 = tile.convert_layout %a : !tile.block<64x64xf32, #b4> -> !tile.block<64x64xf32, #tile.blocked<size_per_thread = [4, 1], threads_per_warp = [16, 2], warps = [1, 4], order = [0, 1]>>
  return
}

// Facts for the compiler: any subset of the three, on blocks of integers or
// pointers and on scalars.

// CHECK-LABEL: func @hints
// CHECK: tile.hint %{{.*}} divisibility [16] contiguity [16] : !tile.block<128xi32>
// CHECK: tile.hint %{{.*}} constancy [4, 1] : !tile.block<8x32xi32>
// CHECK: tile.hint %{{.*}} divisibility [16, 16] contiguity [1, 32] constancy [8, 1] : !tile.block<8x32x!tile.ptr<f16>>
// CHECK: tile.hint %{{.*}} divisibility [16] : !tile.ptr<f16>
// CHECK: tile.hint %{{.*}} divisibility [8] : i64
func.func @hints(%o: !tile.block<128xi32>, %b: !tile.block<8x32xi32>,
                 %p: !tile.block<8x32x!tile.ptr<f16>>, %q: !tile.ptr<f16>, %n: i64) {
  %0 = tile.hint %o divisibility [16] contiguity [16] : !tile.block<128xi32>
  %1 = tile.hint %b constancy [4, 1] : !tile.block<8x32xi32>
  %2 = tile.hint %p divisibility [16, 16] contiguity [1, 32] constancy [8, 1]
      : !tile.block<8x32x!tile.ptr<f16>>
  %3 = tile.hint %q divisibility [16] : !tile.ptr<f16>
  %4 = tile.hint %n divisibility [8] : i64
  return
}

// CHECK-LABEL: func @atomics
func.func @atomics(%p: !tile.block<128x!tile.ptr<i32>>, %v: !tile.block<128xi32>,
                   %m: !tile.block<128xi1>, %q: !tile.ptr<f32>, %x: f32, %b: i1,
                   %h: !tile.block<128x!tile.ptr<f16>>, %hv: !tile.block<128xf16>,
                   %s: !tile.ptr<i16>, %sv: i16) {
  // CHECK: tile.atomic_rmw add acq_rel gpu %{{.*}}, %{{.*}} mask %{{.*}} : !tile.block<128x!tile.ptr<i32>>
  %0 = tile.atomic_rmw add acq_rel gpu %p, %v mask %m : !tile.block<128x!tile.ptr<i32>>
  // CHECK: tile.atomic_rmw umax relaxed cta %{{.*}}, %{{.*}} : !tile.block<128x!tile.ptr<i32>>
  %1 = tile.atomic_rmw umax relaxed cta %p, %0 : !tile.block<128x!tile.ptr<i32>>
  // CHECK: tile.atomic_rmw and acquire sys %{{.*}}, %{{.*}} : !tile.block<128x!tile.ptr<i32>>
  %2 = tile.atomic_rmw and acquire sys %p, %1 : !tile.block<128x!tile.ptr<i32>>
  // CHECK: tile.atomic_rmw or release gpu
  %3 = tile.atomic_rmw or release gpu %p, %2 : !tile.block<128x!tile.ptr<i32>>
  // CHECK: tile.atomic_rmw xor
  %4 = tile.atomic_rmw xor acq_rel gpu %p, %3 : !tile.block<128x!tile.ptr<i32>>
  // CHECK: tile.atomic_rmw umin
  %5 = tile.atomic_rmw umin acq_rel gpu %p, %4 : !tile.block<128x!tile.ptr<i32>>
  // CHECK: tile.atomic_rmw max acq_rel gpu %{{.*}}, %{{.*}} mask %{{.*}} : !tile.ptr<f32>
  %6 = tile.atomic_rmw max acq_rel gpu %q, %x mask %b : !tile.ptr<f32>
  // CHECK: tile.atomic_rmw min acq_rel gpu %{{.*}}, %{{.*}} : !tile.ptr<f32>
  %7 = tile.atomic_rmw min acq_rel gpu %q, %6 : !tile.ptr<f32>
  // CHECK: tile.atomic_rmw xchg acq_rel gpu %{{.*}}, %{{.*}} : !tile.ptr<f32>
  %8 = tile.atomic_rmw xchg acq_rel gpu %q, %7 : !tile.ptr<f32>
  // CHECK: tile.atomic_rmw add acq_rel gpu %{{.*}}, %{{.*}} : !tile.block<128x!tile.ptr<f16>>
  %9 = tile.atomic_rmw add acq_rel gpu %h, %hv : !tile.block<128x!tile.ptr<f16>>
  // CHECK: tile.atomic_cas acq_rel gpu %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<128x!tile.ptr<i32>>
  %10 = tile.atomic_cas acq_rel gpu %p, %v, %5 : !tile.block<128x!tile.ptr<i32>>
  // CHECK: tile.atomic_cas relaxed cta %{{.*}}, %{{.*}}, %{{.*}} : !tile.ptr<i16>
  %11 = tile.atomic_cas relaxed cta %s, %sv, %sv : !tile.ptr<i16>
  return
}

// Rings of tensor-core operands in shared memory, the copies that fill them
// and the wgmma dot that reads them.

// CHECK-LABEL: func @rings
// CHECK: %[[RA:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<128x64xf16>>
// CHECK: %[[RB:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<64x128xf16>>
// CHECK: tile.async_copy %{{.*}}, %[[RA]][%{{.*}}] mask %{{.*}} : !tile.block<128x64x!tile.ptr<f16>>, !tile.ring<3, !tile.block<128x64xf16>>
// CHECK: tile.async_copy %{{.*}}, %[[RB]][%{{.*}}] : !tile.block<64x128x!tile.ptr<f16>>, !tile.ring<3, !tile.block<64x128xf16>>
// CHECK: tile.async_commit_group
// CHECK: tile.async_wait {pending = 2 : i32}
// CHECK: tile.ring_dot %[[RA]][%{{.*}}], %[[RB]][%{{.*}}], %{{.*}} : !tile.ring<3, !tile.block<128x64xf16>>, !tile.ring<3, !tile.block<64x128xf16>> -> !tile.block<128x128xf32, #[[MMA]]>
#mma = #tile.mma<version = 3, warps = [8, 1], instr = [16, 128, 16]>
func.func @rings(%pa: !tile.block<128x64x!tile.ptr<f16>>, %m: !tile.block<128x64xi1>,
                 %pb: !tile.block<64x128x!tile.ptr<f16>>, %slot: i32,
                 %acc: !tile.block<128x128xf32, #mma>) {
  %ra = tile.ring_alloc : !tile.ring<3, !tile.block<128x64xf16>>
  %rb = tile.ring_alloc : !tile.ring<3, !tile.block<64x128xf16>>
  tile.async_copy %pa, %ra[%slot] mask %m : !tile.block<128x64x!tile.ptr<f16>>, !tile.ring<3, !tile.block<128x64xf16>>
  tile.async_copy %pb, %rb[%slot] : !tile.block<64x128x!tile.ptr<f16>>, !tile.ring<3, !tile.block<64x128xf16>>
  tile.async_commit_group
  tile.async_wait {pending = 2 : i32}
  %d = tile.ring_dot %ra[%slot], %rb[%slot], %acc
      : !tile.ring<3, !tile.block<128x64xf16>>, !tile.ring<3, !tile.block<64x128xf16>>
        -> !tile.block<128x128xf32, #mma>
  return
}

// A load that names its box of a host tensor descriptor's TMA map, the TMA
// copy into a ring slot it becomes, and the wait for the slot's phase.

// CHECK-LABEL: func @tensor_map_boxes
// CHECK: tile.load %{{.*}} mask %{{.*}} other %{{.*}} tensor_map %{{.*}}[%{{.*}}, %{{.*}}] : !tile.block<64x32x!tile.ptr<f16>>
// CHECK: tile.load %{{.*}} tensor_map %{{.*}}[%{{.*}}, %{{.*}}] {map_dims = array<i64: 1, 0>} : !tile.block<32x64x!tile.ptr<f16>>
// CHECK: tile.async_copy %{{.*}}, %[[R:.*]][%{{.*}}] tensor_map %{{.*}}[%{{.*}}, %{{.*}}] : !tile.block<64x32x!tile.ptr<f16>>, !tile.ring<2, !tile.block<64x32xf16>>
// CHECK: tile.ring_wait %[[R]][%{{.*}}], %{{.*}} : !tile.ring<2, !tile.block<64x32xf16>>
// CHECK: tile.store %{{.*}}, %{{.*}} mask %{{.*}} tensor_map %{{.*}}[%{{.*}}, %{{.*}}] : !tile.block<64x32x!tile.ptr<f16>>
func.func @tensor_map_boxes(%map: !tile.tensor_map, %p: !tile.block<64x32x!tile.ptr<f16>>,
                            %pt: !tile.block<32x64x!tile.ptr<f16>>, %m: !tile.block<64x32xi1>,
                            %z: !tile.block<64x32xf16>, %row: i32, %col: i32, %slot: i32) {
  %a = tile.load %p mask %m other %z tensor_map %map[%row, %col] : !tile.block<64x32x!tile.ptr<f16>>
  %b = tile.load %pt tensor_map %map[%row, %col] {map_dims = array<i64: 1, 0>} : !tile.block<32x64x!tile.ptr<f16>>
  %r = tile.ring_alloc : !tile.ring<2, !tile.block<64x32xf16>>
  tile.async_copy %p, %r[%slot] tensor_map %map[%row, %col] : !tile.block<64x32x!tile.ptr<f16>>, !tile.ring<2, !tile.block<64x32xf16>>
  tile.ring_wait %r[%slot], %row : !tile.ring<2, !tile.block<64x32xf16>>
  tile.store %p, %a mask %m tensor_map %map[%row, %col] : !tile.block<64x32x!tile.ptr<f16>>
  return
}

// Row statistics in a rank-1 ring: copied like operands, read back into a
// block in any layout (here a slice of a wgmma accumulator's).
// CHECK-LABEL: func @row_statistics_ring
// CHECK: %[[R:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<32xf32>>
// CHECK: tile.async_copy %{{.*}}, %[[R]][%{{.*}}] : !tile.block<32x!tile.ptr<f32>>, !tile.ring<3, !tile.block<32xf32>>
// CHECK: tile.ring_load %[[R]][%{{.*}}] : !tile.ring<3, !tile.block<32xf32>> -> !tile.block<32xf32, #{{.*}}>
#mma_rows = #tile.mma<version = 3, warps = [4, 1], instr = [16, 32, 16]>
func.func @row_statistics_ring(%p: !tile.block<32x!tile.ptr<f32>>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<32xf32>>
  tile.async_copy %p, %r[%slot] : !tile.block<32x!tile.ptr<f32>>, !tile.ring<3, !tile.block<32xf32>>
  %m = tile.ring_load %r[%slot] : !tile.ring<3, !tile.block<32xf32>>
      -> !tile.block<32xf32, #tile.slice<dim = 0, parent = #mma_rows>>
  return
}

// A block stored from registers into a ring slot (a copy through registers
// issued an iteration before its stores).
// CHECK-LABEL: func @ring_store
// CHECK: tile.ring_store %{{.*}}, %{{.*}}[%{{.*}}] : !tile.block<64x128xf16>, !tile.ring<3, !tile.block<64x128xf16>>
func.func @ring_store(%b: !tile.block<64x128xf16>, %slot: i32) {
  %r = tile.ring_alloc : !tile.ring<3, !tile.block<64x128xf16>>
  tile.ring_store %b, %r[%slot] : !tile.block<64x128xf16>, !tile.ring<3, !tile.block<64x128xf16>>
  return
}

// The map of a tensor a kernel describes (tl.make_tensor_descriptor):
// extents and strides outermost first.
// CHECK-LABEL: func @make_tensor_map
// CHECK: %[[MAP:.*]] = tile.make_tensor_map %{{.*}}[%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : !tile.ptr<f16>
// CHECK: tile.load %{{.*}} tensor_map %[[MAP]][%{{.*}}, %{{.*}}] : !tile.block<64x32x!tile.ptr<f16>>
func.func @make_tensor_map(%base: !tile.ptr<f16>, %rows: i32, %cols: i32, %stride: i64,
                           %p: !tile.block<64x32x!tile.ptr<f16>>, %row: i32, %col: i32) {
  %one = arith.constant 1 : i64
  %map = tile.make_tensor_map %base[%rows, %cols], [%stride, %one] : !tile.ptr<f16>
  %a = tile.load %p tensor_map %map[%row, %col] : !tile.block<64x32x!tile.ptr<f16>>
  return
}

// The other element types wgmma reads: 8-bit floats and i8 (32 deep), f32
// as tf32.
// CHECK-LABEL: func @ring_types
// CHECK-SAME: !tile.ring<2, !tile.block<64x64xi8>>
// CHECK-SAME: !tile.ring<2, !tile.block<64x64xf8E4M3FN>>
// CHECK-SAME: !tile.ring<2, !tile.block<64x32xf32>>
// CHECK: tile.ring_dot %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : !tile.ring<2, !tile.block<64x64xi8>>, !tile.ring<2, !tile.block<64x64xi8>> -> !tile.block<64x64xi32, #{{.*}}>
#mma_s8 = #tile.mma<version = 3, warps = [4, 1], instr = [16, 64, 32]>
func.func @ring_types(%a: !tile.ring<2, !tile.block<64x64xi8>>,
                      %b: !tile.ring<2, !tile.block<64x64xf8E4M3FN>>,
                      %c: !tile.ring<2, !tile.block<64x32xf32>>, %slot: i32,
                      %acc: !tile.block<64x64xi32, #mma_s8>) {
  %d = tile.ring_dot %a[%slot], %a[%slot], %acc
      : !tile.ring<2, !tile.block<64x64xi8>>, !tile.ring<2, !tile.block<64x64xi8>>
        -> !tile.block<64x64xi32, #mma_s8>
  return
}

// mma.sync (a version 2 accumulator): both operands from slots.
// CHECK-LABEL: func.func @ring_mma_sync
// CHECK: tile.ring_dot %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : !tile.ring<5, !tile.block<64x32xf16>>, !tile.ring<5, !tile.block<32x32xf16>> -> !tile.block<64x32xf32, #{{.*}}>
#mma_sync = #tile.mma<version = 2, warps = [2, 1], instr = [16, 8, 16]>
func.func @ring_mma_sync(%slot: i32, %acc: !tile.block<64x32xf32, #mma_sync>) {
  %ra = tile.ring_alloc : !tile.ring<5, !tile.block<64x32xf16>>
  %rb = tile.ring_alloc : !tile.ring<5, !tile.block<32x32xf16>>
  %d = tile.ring_dot %ra[%slot], %rb[%slot], %acc
      : !tile.ring<5, !tile.block<64x32xf16>>, !tile.ring<5, !tile.block<32x32xf16>>
        -> !tile.block<64x32xf32, #mma_sync>
  return
}

// A in registers (attention's p): no slot, the block in the accumulator
// layout of the dot's warps.
// CHECK-LABEL: func.func @register_a
// CHECK: tile.ring_dot %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : !tile.block<128x64xf16, #[[MMA64:.*]]>, !tile.ring<3, !tile.block<64x64xf16>> -> !tile.block<128x64xf32, #[[MMA64]]>
#mma64 = #tile.mma<version = 3, warps = [8, 1], instr = [16, 64, 16]>
func.func @register_a(%p: !tile.block<128x64xf16, #mma64>, %slot: i32,
                      %acc: !tile.block<128x64xf32, #mma64>) {
  %rv = tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf16>>
  %o = tile.ring_dot %p, %rv[%slot], %acc
      : !tile.block<128x64xf16, #mma64>, !tile.ring<3, !tile.block<64x64xf16>>
        -> !tile.block<128x64xf32, #mma64>
  return
}

// B read from a ring of its transpose: slots of 32x64 for a 64x32 B.
// CHECK-LABEL: func.func @transposed_b
// CHECK: tile.ring_dot %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} {b_transposed} : !tile.block<128x64xf16, #{{.*}}>, !tile.ring<3, !tile.block<32x64xf16>> -> !tile.block<128x32xf32, #{{.*}}>
#mma32 = #tile.mma<version = 3, warps = [8, 1], instr = [16, 32, 16]>
func.func @transposed_b(%p: !tile.block<128x64xf16, #mma64>, %slot: i32,
                        %acc: !tile.block<128x32xf32, #mma32>) {
  %rw = tile.ring_alloc : !tile.ring<3, !tile.block<32x64xf16>>
  %o = tile.ring_dot %p, %rw[%slot], %acc {b_transposed}
      : !tile.block<128x64xf16, #mma64>, !tile.ring<3, !tile.block<32x64xf16>>
        -> !tile.block<128x32xf32, #mma32>
  return
}

// CHECK-LABEL: func @debugging
func.func @debugging(%x: !tile.block<128xf32>, %n: i32, %ok: !tile.block<128xi1>) {
  // CHECK: tile.print " x: " %{{.*}}, %{{.*}} {is_signed = array<i1: true, false>} : !tile.block<128xf32>, i32
  tile.print " x: " %x, %n {is_signed = array<i1: true, false>} : !tile.block<128xf32>, i32
  // CHECK: tile.print " bits: " hex %{{.*}} {is_signed = array<i1: true>} : !tile.block<128xf32>
  tile.print " bits: " hex %x {is_signed = array<i1: true>} : !tile.block<128xf32>
  // CHECK: tile.print " here" {is_signed = array<i1>}
  tile.print " here" {is_signed = array<i1>}
  // CHECK: tile.assert %{{.*}}, "x out of range" : !tile.block<128xi1>
  tile.assert %ok, "x out of range" : !tile.block<128xi1>
  // CHECK: tile.barrier
  tile.barrier
  return
}

// CHECK-LABEL: func @gather_histogram
func.func @gather_histogram(%src: !tile.block<16x32xf32>, %idx: !tile.block<16x8xi32>,
                            %x: !tile.block<1000xi32>, %m: !tile.block<1000xi1>) {
  // CHECK: tile.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : !tile.block<16x32xf32>, !tile.block<16x8xi32> -> !tile.block<16x8xf32>
  %g = tile.gather %src[%idx] {axis = 1 : i32} : !tile.block<16x32xf32>, !tile.block<16x8xi32> -> !tile.block<16x8xf32>
  // CHECK: tile.histogram %{{.*}} mask %{{.*}} : !tile.block<1000xi32>, !tile.block<1000xi1> -> !tile.block<64xi32>
  %h = tile.histogram %x mask %m : !tile.block<1000xi32>, !tile.block<1000xi1> -> !tile.block<64xi32>
  // CHECK: tile.histogram %{{.*}} : !tile.block<1000xi32> -> !tile.block<5xi32>
  %h5 = tile.histogram %x : !tile.block<1000xi32> -> !tile.block<5xi32>
  return
}

// CHECK-LABEL: func @atomic_load_store
func.func @atomic_load_store(%p: !tile.ptr<i32>, %ps: !tile.block<64x!tile.ptr<f32>>,
                             %m: !tile.block<64xi1>, %v: !tile.block<64xf32>) {
  // CHECK: tile.load %{{.*}} {scope = #tile<scope gpu>, sem = #tile<sem acquire>} : !tile.ptr<i32>
  %f = tile.load %p {sem = #tile<sem acquire>, scope = #tile<scope gpu>} : !tile.ptr<i32>
  // CHECK: tile.load %{{.*}} mask %{{.*}} {scope = #tile<scope cta>, sem = #tile<sem relaxed>} : !tile.block<64x!tile.ptr<f32>>
  %x = tile.load %ps mask %m {sem = #tile<sem relaxed>, scope = #tile<scope cta>} : !tile.block<64x!tile.ptr<f32>>
  // CHECK: tile.store %{{.*}}, %{{.*}} {scope = #tile<scope sys>, sem = #tile<sem release>} : !tile.ptr<i32>
  tile.store %p, %f {sem = #tile<sem release>, scope = #tile<scope sys>} : !tile.ptr<i32>
  // CHECK: tile.store %{{.*}}, %{{.*}} mask %{{.*}} {scope = #tile<scope gpu>, sem = #tile<sem relaxed>} : !tile.block<64x!tile.ptr<f32>>
  tile.store %ps, %v mask %m {sem = #tile<sem relaxed>, scope = #tile<scope gpu>} : !tile.block<64x!tile.ptr<f32>>
  return
}

// CHECK-LABEL: func @inline_asm
func.func @inline_asm(%x: !tile.block<128xi32>, %b: !tile.block<128xi8>, %n: i32) {
  // CHECK: tile.inline_asm "shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r" %{{.*}}, %{{.*}}, %{{.*}} {pack = 1 : i32, pure} : (!tile.block<128xi32>, !tile.block<128xi32>, !tile.block<128xi32>) -> !tile.block<128xi32>
  %y = tile.inline_asm "shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r" %x, %x, %x {pack = 1 : i32, pure} : (!tile.block<128xi32>, !tile.block<128xi32>, !tile.block<128xi32>) -> (!tile.block<128xi32>)
  // CHECK: %{{.*}}:2 = tile.inline_asm "{{.*}}", "=r,=r,r" %{{.*}} {pack = 4 : i32} : (!tile.block<128xi8>) -> (!tile.block<128xi8>, !tile.block<128xi8>)
  %c:2 = tile.inline_asm "mov.b32 $0, $2; mov.b32 $1, $2;", "=r,=r,r" %b {pack = 4 : i32} : (!tile.block<128xi8>) -> (!tile.block<128xi8>, !tile.block<128xi8>)
  // CHECK: tile.inline_asm "mov.b32 $0, 1;", "=r" {pack = 1 : i32} : () -> i32
  %one = tile.inline_asm "mov.b32 $0, 1;", "=r" {pack = 1 : i32} : () -> (i32)
  return
}

// CHECK-LABEL: func @map_elementwise
func.func @map_elementwise(%x: !tile.block<128xi32>, %y: !tile.block<128xi32>, %n: f32) -> (!tile.block<128xi32>, f32) {
  // CHECK: %{{.*}}:2 = tile.map_elementwise %{{.*}}, %{{.*}} {pack = 2 : i32} : (!tile.block<128xi32>, !tile.block<128xi32>) -> (!tile.block<128xi32>, !tile.block<128xi1>) {
  // CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
  // CHECK: scf.if
  // CHECK: tile.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, i32, i1, i1
  %r:2 = tile.map_elementwise %x, %y {pack = 2 : i32} : (!tile.block<128xi32>, !tile.block<128xi32>) -> (!tile.block<128xi32>, !tile.block<128xi1>) {
  ^bb0(%a0: i32, %a1: i32, %b0: i32, %b1: i32):
    %lt = arith.cmpi slt, %a0, %b0 : i32
    %q = scf.if %lt -> (i32) {
      scf.yield %a0 : i32
    } else {
      %d = arith.divsi %a0, %b0 : i32
      scf.yield %d : i32
    }
    %e = arith.cmpi eq, %a1, %b1 : i32
    tile.yield %q, %a1, %lt, %e : i32, i32, i1, i1
  }
  // CHECK: tile.map_elementwise %{{.*}} {pack = 1 : i32} : (f32) -> f32
  %s = tile.map_elementwise %n {pack = 1 : i32} : (f32) -> (f32) {
  ^bb0(%v: f32):
    %w = math.exp %v : f32
    tile.yield %w : f32
  }
  return %r#0, %s : !tile.block<128xi32>, f32
}

// CHECK-LABEL: func.func @dot_int8
func.func @dot_int8(%a: !tile.block<32x16xi8>, %b: !tile.block<16x64xi8>, %c: !tile.block<32x64xi32>) -> !tile.block<32x64xi32> {
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<32x16xi8>, !tile.block<16x64xi8> -> !tile.block<32x64xi32>
  %0 = tile.dot %a, %b, %c : !tile.block<32x16xi8>, !tile.block<16x64xi8> -> !tile.block<32x64xi32>
  return %0 : !tile.block<32x64xi32>
}

// CHECK-LABEL: func.func @dot_batched
func.func @dot_batched(%a: !tile.block<4x16x32xf32>, %b: !tile.block<4x32x8xf32>, %c: !tile.block<4x16x8xf32>, %x: !tile.block<16x16xf64>, %z: !tile.block<16x16xf64>) -> (!tile.block<4x16x8xf32>, !tile.block<16x16xf64>) {
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<4x16x32xf32>, !tile.block<4x32x8xf32> -> !tile.block<4x16x8xf32>
  %0 = tile.dot %a, %b, %c : !tile.block<4x16x32xf32>, !tile.block<4x32x8xf32> -> !tile.block<4x16x8xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : !tile.block<16x16xf64>, !tile.block<16x16xf64> -> !tile.block<16x16xf64>
  %1 = tile.dot %x, %x, %z : !tile.block<16x16xf64>, !tile.block<16x16xf64> -> !tile.block<16x16xf64>
  return %0, %1 : !tile.block<4x16x8xf32>, !tile.block<16x16xf64>
}
