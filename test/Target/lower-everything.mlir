// Everything the IR allows lowers: every elementwise op on every element type
// it takes, casts between every pair of scalar types, reductions and scans
// of every kind and type, rank-3 blocks, odd extents, scf control flow with
// carried blocks. Each kernel must reach PTX that ptxas accepts.
// (Written by a small script; see the kernels' names for what each covers.)
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: FileCheck %s < %t.ptx
// CHECK-NOT: __nv_

func.func @int_ops_i8(%xp: !tile.ptr<i8>, %yp: !tile.ptr<i8>, %outp: !tile.ptr<i8>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<i8> -> !tile.block<3x8x5x!tile.ptr<i8>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<i8>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<i8>>
  %yb = tile.splat %yp : !tile.ptr<i8> -> !tile.block<3x8x5x!tile.ptr<i8>>
  %ya = tile.addptr %yb, %offs : !tile.block<3x8x5x!tile.ptr<i8>>, !tile.block<3x8x5xi32>
  %y = tile.load %ya : !tile.block<3x8x5x!tile.ptr<i8>>
  %v0 = tile.addi %x, %y : !tile.block<3x8x5xi8>
  %v1 = tile.subi %v0, %y : !tile.block<3x8x5xi8>
  %v2 = tile.muli %v1, %y : !tile.block<3x8x5xi8>
  %v3 = tile.divsi %v2, %y : !tile.block<3x8x5xi8>
  %v4 = tile.divui %v3, %y : !tile.block<3x8x5xi8>
  %v5 = tile.remsi %v4, %y : !tile.block<3x8x5xi8>
  %v6 = tile.remui %v5, %y : !tile.block<3x8x5xi8>
  %v7 = tile.minsi %v6, %y : !tile.block<3x8x5xi8>
  %v8 = tile.maxsi %v7, %y : !tile.block<3x8x5xi8>
  %v9 = tile.minui %v8, %y : !tile.block<3x8x5xi8>
  %v10 = tile.maxui %v9, %y : !tile.block<3x8x5xi8>
  %v11 = tile.andi %v10, %y : !tile.block<3x8x5xi8>
  %v12 = tile.ori %v11, %y : !tile.block<3x8x5xi8>
  %v13 = tile.xori %v12, %y : !tile.block<3x8x5xi8>
  %v14 = tile.shli %v13, %y : !tile.block<3x8x5xi8>
  %v15 = tile.shrsi %v14, %y : !tile.block<3x8x5xi8>
  %v16 = tile.shrui %v15, %y : !tile.block<3x8x5xi8>
  %na = tile.noti %v16 : !tile.block<3x8x5xi8>
  %nb = tile.absi %na : !tile.block<3x8x5xi8>
  %c = tile.cmpi slt, %nb, %y : !tile.block<3x8x5xi8>
  %s = tile.select %c, %nb, %x : !tile.block<3x8x5xi8>
  %ob = tile.splat %outp : !tile.ptr<i8> -> !tile.block<3x8x5x!tile.ptr<i8>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<i8>>, !tile.block<3x8x5xi32>
  tile.store %oa, %s : !tile.block<3x8x5x!tile.ptr<i8>>
  return
}

func.func @int_ops_i16(%xp: !tile.ptr<i16>, %yp: !tile.ptr<i16>, %outp: !tile.ptr<i16>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<i16> -> !tile.block<3x8x5x!tile.ptr<i16>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<i16>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<i16>>
  %yb = tile.splat %yp : !tile.ptr<i16> -> !tile.block<3x8x5x!tile.ptr<i16>>
  %ya = tile.addptr %yb, %offs : !tile.block<3x8x5x!tile.ptr<i16>>, !tile.block<3x8x5xi32>
  %y = tile.load %ya : !tile.block<3x8x5x!tile.ptr<i16>>
  %v0 = tile.addi %x, %y : !tile.block<3x8x5xi16>
  %v1 = tile.subi %v0, %y : !tile.block<3x8x5xi16>
  %v2 = tile.muli %v1, %y : !tile.block<3x8x5xi16>
  %v3 = tile.divsi %v2, %y : !tile.block<3x8x5xi16>
  %v4 = tile.divui %v3, %y : !tile.block<3x8x5xi16>
  %v5 = tile.remsi %v4, %y : !tile.block<3x8x5xi16>
  %v6 = tile.remui %v5, %y : !tile.block<3x8x5xi16>
  %v7 = tile.minsi %v6, %y : !tile.block<3x8x5xi16>
  %v8 = tile.maxsi %v7, %y : !tile.block<3x8x5xi16>
  %v9 = tile.minui %v8, %y : !tile.block<3x8x5xi16>
  %v10 = tile.maxui %v9, %y : !tile.block<3x8x5xi16>
  %v11 = tile.andi %v10, %y : !tile.block<3x8x5xi16>
  %v12 = tile.ori %v11, %y : !tile.block<3x8x5xi16>
  %v13 = tile.xori %v12, %y : !tile.block<3x8x5xi16>
  %v14 = tile.shli %v13, %y : !tile.block<3x8x5xi16>
  %v15 = tile.shrsi %v14, %y : !tile.block<3x8x5xi16>
  %v16 = tile.shrui %v15, %y : !tile.block<3x8x5xi16>
  %na = tile.noti %v16 : !tile.block<3x8x5xi16>
  %nb = tile.absi %na : !tile.block<3x8x5xi16>
  %c = tile.cmpi slt, %nb, %y : !tile.block<3x8x5xi16>
  %s = tile.select %c, %nb, %x : !tile.block<3x8x5xi16>
  %ob = tile.splat %outp : !tile.ptr<i16> -> !tile.block<3x8x5x!tile.ptr<i16>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<i16>>, !tile.block<3x8x5xi32>
  tile.store %oa, %s : !tile.block<3x8x5x!tile.ptr<i16>>
  return
}

func.func @int_ops_i32(%xp: !tile.ptr<i32>, %yp: !tile.ptr<i32>, %outp: !tile.ptr<i32>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<i32> -> !tile.block<3x8x5x!tile.ptr<i32>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<i32>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<i32>>
  %yb = tile.splat %yp : !tile.ptr<i32> -> !tile.block<3x8x5x!tile.ptr<i32>>
  %ya = tile.addptr %yb, %offs : !tile.block<3x8x5x!tile.ptr<i32>>, !tile.block<3x8x5xi32>
  %y = tile.load %ya : !tile.block<3x8x5x!tile.ptr<i32>>
  %v0 = tile.addi %x, %y : !tile.block<3x8x5xi32>
  %v1 = tile.subi %v0, %y : !tile.block<3x8x5xi32>
  %v2 = tile.muli %v1, %y : !tile.block<3x8x5xi32>
  %v3 = tile.divsi %v2, %y : !tile.block<3x8x5xi32>
  %v4 = tile.divui %v3, %y : !tile.block<3x8x5xi32>
  %v5 = tile.remsi %v4, %y : !tile.block<3x8x5xi32>
  %v6 = tile.remui %v5, %y : !tile.block<3x8x5xi32>
  %v7 = tile.minsi %v6, %y : !tile.block<3x8x5xi32>
  %v8 = tile.maxsi %v7, %y : !tile.block<3x8x5xi32>
  %v9 = tile.minui %v8, %y : !tile.block<3x8x5xi32>
  %v10 = tile.maxui %v9, %y : !tile.block<3x8x5xi32>
  %v11 = tile.andi %v10, %y : !tile.block<3x8x5xi32>
  %v12 = tile.ori %v11, %y : !tile.block<3x8x5xi32>
  %v13 = tile.xori %v12, %y : !tile.block<3x8x5xi32>
  %v14 = tile.shli %v13, %y : !tile.block<3x8x5xi32>
  %v15 = tile.shrsi %v14, %y : !tile.block<3x8x5xi32>
  %v16 = tile.shrui %v15, %y : !tile.block<3x8x5xi32>
  %na = tile.noti %v16 : !tile.block<3x8x5xi32>
  %nb = tile.absi %na : !tile.block<3x8x5xi32>
  %c = tile.cmpi slt, %nb, %y : !tile.block<3x8x5xi32>
  %s = tile.select %c, %nb, %x : !tile.block<3x8x5xi32>
  %ob = tile.splat %outp : !tile.ptr<i32> -> !tile.block<3x8x5x!tile.ptr<i32>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<i32>>, !tile.block<3x8x5xi32>
  tile.store %oa, %s : !tile.block<3x8x5x!tile.ptr<i32>>
  return
}

func.func @int_ops_i64(%xp: !tile.ptr<i64>, %yp: !tile.ptr<i64>, %outp: !tile.ptr<i64>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<i64> -> !tile.block<3x8x5x!tile.ptr<i64>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<i64>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<i64>>
  %yb = tile.splat %yp : !tile.ptr<i64> -> !tile.block<3x8x5x!tile.ptr<i64>>
  %ya = tile.addptr %yb, %offs : !tile.block<3x8x5x!tile.ptr<i64>>, !tile.block<3x8x5xi32>
  %y = tile.load %ya : !tile.block<3x8x5x!tile.ptr<i64>>
  %v0 = tile.addi %x, %y : !tile.block<3x8x5xi64>
  %v1 = tile.subi %v0, %y : !tile.block<3x8x5xi64>
  %v2 = tile.muli %v1, %y : !tile.block<3x8x5xi64>
  %v3 = tile.divsi %v2, %y : !tile.block<3x8x5xi64>
  %v4 = tile.divui %v3, %y : !tile.block<3x8x5xi64>
  %v5 = tile.remsi %v4, %y : !tile.block<3x8x5xi64>
  %v6 = tile.remui %v5, %y : !tile.block<3x8x5xi64>
  %v7 = tile.minsi %v6, %y : !tile.block<3x8x5xi64>
  %v8 = tile.maxsi %v7, %y : !tile.block<3x8x5xi64>
  %v9 = tile.minui %v8, %y : !tile.block<3x8x5xi64>
  %v10 = tile.maxui %v9, %y : !tile.block<3x8x5xi64>
  %v11 = tile.andi %v10, %y : !tile.block<3x8x5xi64>
  %v12 = tile.ori %v11, %y : !tile.block<3x8x5xi64>
  %v13 = tile.xori %v12, %y : !tile.block<3x8x5xi64>
  %v14 = tile.shli %v13, %y : !tile.block<3x8x5xi64>
  %v15 = tile.shrsi %v14, %y : !tile.block<3x8x5xi64>
  %v16 = tile.shrui %v15, %y : !tile.block<3x8x5xi64>
  %na = tile.noti %v16 : !tile.block<3x8x5xi64>
  %nb = tile.absi %na : !tile.block<3x8x5xi64>
  %c = tile.cmpi slt, %nb, %y : !tile.block<3x8x5xi64>
  %s = tile.select %c, %nb, %x : !tile.block<3x8x5xi64>
  %ob = tile.splat %outp : !tile.ptr<i64> -> !tile.block<3x8x5x!tile.ptr<i64>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<i64>>, !tile.block<3x8x5xi32>
  tile.store %oa, %s : !tile.block<3x8x5x!tile.ptr<i64>>
  return
}

func.func @float_ops_f16(%xp: !tile.ptr<f16>, %yp: !tile.ptr<f16>, %outp: !tile.ptr<f16>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<f16> -> !tile.block<3x8x5x!tile.ptr<f16>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<f16>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<f16>>
  %yb = tile.splat %yp : !tile.ptr<f16> -> !tile.block<3x8x5x!tile.ptr<f16>>
  %ya = tile.addptr %yb, %offs : !tile.block<3x8x5x!tile.ptr<f16>>, !tile.block<3x8x5xi32>
  %y = tile.load %ya : !tile.block<3x8x5x!tile.ptr<f16>>
  %v0 = tile.addf %x, %y : !tile.block<3x8x5xf16>
  %v1 = tile.subf %v0, %y : !tile.block<3x8x5xf16>
  %v2 = tile.mulf %v1, %y : !tile.block<3x8x5xf16>
  %v3 = tile.divf %v2, %y : !tile.block<3x8x5xf16>
  %v4 = tile.remf %v3, %y : !tile.block<3x8x5xf16>
  %v5 = tile.minimumf %v4, %y : !tile.block<3x8x5xf16>
  %v6 = tile.maximumf %v5, %y : !tile.block<3x8x5xf16>
  %v7 = tile.powf %v6, %y : !tile.block<3x8x5xf16>
  %u0 = tile.negf %v7 : !tile.block<3x8x5xf16>
  %u1 = tile.absf %u0 : !tile.block<3x8x5xf16>
  %u2 = tile.exp %u1 : !tile.block<3x8x5xf16>
  %u3 = tile.exp2 %u2 : !tile.block<3x8x5xf16>
  %u4 = tile.log %u3 : !tile.block<3x8x5xf16>
  %u5 = tile.log2 %u4 : !tile.block<3x8x5xf16>
  %u6 = tile.sqrt %u5 : !tile.block<3x8x5xf16>
  %u7 = tile.rsqrt %u6 : !tile.block<3x8x5xf16>
  %u8 = tile.floor %u7 : !tile.block<3x8x5xf16>
  %u9 = tile.ceil %u8 : !tile.block<3x8x5xf16>
  %u10 = tile.sin %u9 : !tile.block<3x8x5xf16>
  %u11 = tile.cos %u10 : !tile.block<3x8x5xf16>
  %f = tile.fma %u11, %x, %y : !tile.block<3x8x5xf16>
  %c = tile.cmpf olt, %f, %y : !tile.block<3x8x5xf16>
  %s = tile.select %c, %f, %x : !tile.block<3x8x5xf16>
  %ob = tile.splat %outp : !tile.ptr<f16> -> !tile.block<3x8x5x!tile.ptr<f16>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<f16>>, !tile.block<3x8x5xi32>
  tile.store %oa, %s : !tile.block<3x8x5x!tile.ptr<f16>>
  return
}

func.func @float_ops_bf16(%xp: !tile.ptr<bf16>, %yp: !tile.ptr<bf16>, %outp: !tile.ptr<bf16>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<bf16> -> !tile.block<3x8x5x!tile.ptr<bf16>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<bf16>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<bf16>>
  %yb = tile.splat %yp : !tile.ptr<bf16> -> !tile.block<3x8x5x!tile.ptr<bf16>>
  %ya = tile.addptr %yb, %offs : !tile.block<3x8x5x!tile.ptr<bf16>>, !tile.block<3x8x5xi32>
  %y = tile.load %ya : !tile.block<3x8x5x!tile.ptr<bf16>>
  %v0 = tile.addf %x, %y : !tile.block<3x8x5xbf16>
  %v1 = tile.subf %v0, %y : !tile.block<3x8x5xbf16>
  %v2 = tile.mulf %v1, %y : !tile.block<3x8x5xbf16>
  %v3 = tile.divf %v2, %y : !tile.block<3x8x5xbf16>
  %v4 = tile.remf %v3, %y : !tile.block<3x8x5xbf16>
  %v5 = tile.minimumf %v4, %y : !tile.block<3x8x5xbf16>
  %v6 = tile.maximumf %v5, %y : !tile.block<3x8x5xbf16>
  %v7 = tile.powf %v6, %y : !tile.block<3x8x5xbf16>
  %u0 = tile.negf %v7 : !tile.block<3x8x5xbf16>
  %u1 = tile.absf %u0 : !tile.block<3x8x5xbf16>
  %u2 = tile.exp %u1 : !tile.block<3x8x5xbf16>
  %u3 = tile.exp2 %u2 : !tile.block<3x8x5xbf16>
  %u4 = tile.log %u3 : !tile.block<3x8x5xbf16>
  %u5 = tile.log2 %u4 : !tile.block<3x8x5xbf16>
  %u6 = tile.sqrt %u5 : !tile.block<3x8x5xbf16>
  %u7 = tile.rsqrt %u6 : !tile.block<3x8x5xbf16>
  %u8 = tile.floor %u7 : !tile.block<3x8x5xbf16>
  %u9 = tile.ceil %u8 : !tile.block<3x8x5xbf16>
  %u10 = tile.sin %u9 : !tile.block<3x8x5xbf16>
  %u11 = tile.cos %u10 : !tile.block<3x8x5xbf16>
  %f = tile.fma %u11, %x, %y : !tile.block<3x8x5xbf16>
  %c = tile.cmpf olt, %f, %y : !tile.block<3x8x5xbf16>
  %s = tile.select %c, %f, %x : !tile.block<3x8x5xbf16>
  %ob = tile.splat %outp : !tile.ptr<bf16> -> !tile.block<3x8x5x!tile.ptr<bf16>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<bf16>>, !tile.block<3x8x5xi32>
  tile.store %oa, %s : !tile.block<3x8x5x!tile.ptr<bf16>>
  return
}

func.func @float_ops_f32(%xp: !tile.ptr<f32>, %yp: !tile.ptr<f32>, %outp: !tile.ptr<f32>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<f32> -> !tile.block<3x8x5x!tile.ptr<f32>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<f32>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<f32>>
  %yb = tile.splat %yp : !tile.ptr<f32> -> !tile.block<3x8x5x!tile.ptr<f32>>
  %ya = tile.addptr %yb, %offs : !tile.block<3x8x5x!tile.ptr<f32>>, !tile.block<3x8x5xi32>
  %y = tile.load %ya : !tile.block<3x8x5x!tile.ptr<f32>>
  %v0 = tile.addf %x, %y : !tile.block<3x8x5xf32>
  %v1 = tile.subf %v0, %y : !tile.block<3x8x5xf32>
  %v2 = tile.mulf %v1, %y : !tile.block<3x8x5xf32>
  %v3 = tile.divf %v2, %y : !tile.block<3x8x5xf32>
  %v4 = tile.remf %v3, %y : !tile.block<3x8x5xf32>
  %v5 = tile.minimumf %v4, %y : !tile.block<3x8x5xf32>
  %v6 = tile.maximumf %v5, %y : !tile.block<3x8x5xf32>
  %v7 = tile.powf %v6, %y : !tile.block<3x8x5xf32>
  %u0 = tile.negf %v7 : !tile.block<3x8x5xf32>
  %u1 = tile.absf %u0 : !tile.block<3x8x5xf32>
  %u2 = tile.exp %u1 : !tile.block<3x8x5xf32>
  %u3 = tile.exp2 %u2 : !tile.block<3x8x5xf32>
  %u4 = tile.log %u3 : !tile.block<3x8x5xf32>
  %u5 = tile.log2 %u4 : !tile.block<3x8x5xf32>
  %u6 = tile.sqrt %u5 : !tile.block<3x8x5xf32>
  %u7 = tile.rsqrt %u6 : !tile.block<3x8x5xf32>
  %u8 = tile.floor %u7 : !tile.block<3x8x5xf32>
  %u9 = tile.ceil %u8 : !tile.block<3x8x5xf32>
  %u10 = tile.sin %u9 : !tile.block<3x8x5xf32>
  %u11 = tile.cos %u10 : !tile.block<3x8x5xf32>
  %f = tile.fma %u11, %x, %y : !tile.block<3x8x5xf32>
  %c = tile.cmpf olt, %f, %y : !tile.block<3x8x5xf32>
  %s = tile.select %c, %f, %x : !tile.block<3x8x5xf32>
  %ob = tile.splat %outp : !tile.ptr<f32> -> !tile.block<3x8x5x!tile.ptr<f32>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<f32>>, !tile.block<3x8x5xi32>
  tile.store %oa, %s : !tile.block<3x8x5x!tile.ptr<f32>>
  return
}

func.func @float_ops_f64(%xp: !tile.ptr<f64>, %yp: !tile.ptr<f64>, %outp: !tile.ptr<f64>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<f64> -> !tile.block<3x8x5x!tile.ptr<f64>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<f64>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<f64>>
  %yb = tile.splat %yp : !tile.ptr<f64> -> !tile.block<3x8x5x!tile.ptr<f64>>
  %ya = tile.addptr %yb, %offs : !tile.block<3x8x5x!tile.ptr<f64>>, !tile.block<3x8x5xi32>
  %y = tile.load %ya : !tile.block<3x8x5x!tile.ptr<f64>>
  %v0 = tile.addf %x, %y : !tile.block<3x8x5xf64>
  %v1 = tile.subf %v0, %y : !tile.block<3x8x5xf64>
  %v2 = tile.mulf %v1, %y : !tile.block<3x8x5xf64>
  %v3 = tile.divf %v2, %y : !tile.block<3x8x5xf64>
  %v4 = tile.remf %v3, %y : !tile.block<3x8x5xf64>
  %v5 = tile.minimumf %v4, %y : !tile.block<3x8x5xf64>
  %v6 = tile.maximumf %v5, %y : !tile.block<3x8x5xf64>
  %v7 = tile.powf %v6, %y : !tile.block<3x8x5xf64>
  %u0 = tile.negf %v7 : !tile.block<3x8x5xf64>
  %u1 = tile.absf %u0 : !tile.block<3x8x5xf64>
  %u2 = tile.exp %u1 : !tile.block<3x8x5xf64>
  %u3 = tile.exp2 %u2 : !tile.block<3x8x5xf64>
  %u4 = tile.log %u3 : !tile.block<3x8x5xf64>
  %u5 = tile.log2 %u4 : !tile.block<3x8x5xf64>
  %u6 = tile.sqrt %u5 : !tile.block<3x8x5xf64>
  %u7 = tile.rsqrt %u6 : !tile.block<3x8x5xf64>
  %u8 = tile.floor %u7 : !tile.block<3x8x5xf64>
  %u9 = tile.ceil %u8 : !tile.block<3x8x5xf64>
  %u10 = tile.sin %u9 : !tile.block<3x8x5xf64>
  %u11 = tile.cos %u10 : !tile.block<3x8x5xf64>
  %f = tile.fma %u11, %x, %y : !tile.block<3x8x5xf64>
  %c = tile.cmpf olt, %f, %y : !tile.block<3x8x5xf64>
  %s = tile.select %c, %f, %x : !tile.block<3x8x5xf64>
  %ob = tile.splat %outp : !tile.ptr<f64> -> !tile.block<3x8x5x!tile.ptr<f64>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<f64>>, !tile.block<3x8x5xi32>
  tile.store %oa, %s : !tile.block<3x8x5x!tile.ptr<f64>>
  return
}

func.func @casts_from_i1(%xp: !tile.ptr<i1>, %o0: !tile.ptr<i1>, %o1: !tile.ptr<i8>, %o2: !tile.ptr<i16>, %o3: !tile.ptr<i32>, %o4: !tile.ptr<i64>, %o5: !tile.ptr<f16>, %o6: !tile.ptr<bf16>, %o7: !tile.ptr<f32>, %o8: !tile.ptr<f64>) {
  %idx = tile.arange 0, 40 : !tile.block<40xi32>
  %offs = tile.addi %idx, %idx : !tile.block<40xi32>
  %xb = tile.splat %xp : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %xa = tile.addptr %xb, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  %x = tile.load %xa : !tile.block<40x!tile.ptr<i1>>
  %c0 = tile.cast %x : !tile.block<40xi1> to !tile.block<40xi1>
  %ob0 = tile.splat %o0 : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %oa0 = tile.addptr %ob0, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  tile.store %oa0, %c0 : !tile.block<40x!tile.ptr<i1>>
  %c1 = tile.cast %x : !tile.block<40xi1> to !tile.block<40xi8>
  %ob1 = tile.splat %o1 : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %oa1 = tile.addptr %ob1, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  tile.store %oa1, %c1 : !tile.block<40x!tile.ptr<i8>>
  %c2 = tile.cast %x : !tile.block<40xi1> to !tile.block<40xi16>
  %ob2 = tile.splat %o2 : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %oa2 = tile.addptr %ob2, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  tile.store %oa2, %c2 : !tile.block<40x!tile.ptr<i16>>
  %c3 = tile.cast %x : !tile.block<40xi1> to !tile.block<40xi32>
  %ob3 = tile.splat %o3 : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %oa3 = tile.addptr %ob3, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  tile.store %oa3, %c3 : !tile.block<40x!tile.ptr<i32>>
  %c4 = tile.cast %x : !tile.block<40xi1> to !tile.block<40xi64>
  %ob4 = tile.splat %o4 : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %oa4 = tile.addptr %ob4, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  tile.store %oa4, %c4 : !tile.block<40x!tile.ptr<i64>>
  %c5 = tile.cast %x : !tile.block<40xi1> to !tile.block<40xf16>
  %ob5 = tile.splat %o5 : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %oa5 = tile.addptr %ob5, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  tile.store %oa5, %c5 : !tile.block<40x!tile.ptr<f16>>
  %c6 = tile.cast %x : !tile.block<40xi1> to !tile.block<40xbf16>
  %ob6 = tile.splat %o6 : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %oa6 = tile.addptr %ob6, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  tile.store %oa6, %c6 : !tile.block<40x!tile.ptr<bf16>>
  %c7 = tile.cast %x : !tile.block<40xi1> to !tile.block<40xf32>
  %ob7 = tile.splat %o7 : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %oa7 = tile.addptr %ob7, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  tile.store %oa7, %c7 : !tile.block<40x!tile.ptr<f32>>
  %c8 = tile.cast %x : !tile.block<40xi1> to !tile.block<40xf64>
  %ob8 = tile.splat %o8 : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %oa8 = tile.addptr %ob8, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  tile.store %oa8, %c8 : !tile.block<40x!tile.ptr<f64>>
  return
}

func.func @casts_from_i8(%xp: !tile.ptr<i8>, %o0: !tile.ptr<i1>, %o1: !tile.ptr<i8>, %o2: !tile.ptr<i16>, %o3: !tile.ptr<i32>, %o4: !tile.ptr<i64>, %o5: !tile.ptr<f16>, %o6: !tile.ptr<bf16>, %o7: !tile.ptr<f32>, %o8: !tile.ptr<f64>) {
  %idx = tile.arange 0, 40 : !tile.block<40xi32>
  %offs = tile.addi %idx, %idx : !tile.block<40xi32>
  %xb = tile.splat %xp : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %xa = tile.addptr %xb, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  %x = tile.load %xa : !tile.block<40x!tile.ptr<i8>>
  %c0 = tile.cast %x : !tile.block<40xi8> to !tile.block<40xi1>
  %ob0 = tile.splat %o0 : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %oa0 = tile.addptr %ob0, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  tile.store %oa0, %c0 : !tile.block<40x!tile.ptr<i1>>
  %c1 = tile.cast %x : !tile.block<40xi8> to !tile.block<40xi8>
  %ob1 = tile.splat %o1 : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %oa1 = tile.addptr %ob1, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  tile.store %oa1, %c1 : !tile.block<40x!tile.ptr<i8>>
  %c2 = tile.cast %x : !tile.block<40xi8> to !tile.block<40xi16>
  %ob2 = tile.splat %o2 : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %oa2 = tile.addptr %ob2, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  tile.store %oa2, %c2 : !tile.block<40x!tile.ptr<i16>>
  %c3 = tile.cast %x : !tile.block<40xi8> to !tile.block<40xi32>
  %ob3 = tile.splat %o3 : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %oa3 = tile.addptr %ob3, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  tile.store %oa3, %c3 : !tile.block<40x!tile.ptr<i32>>
  %c4 = tile.cast %x : !tile.block<40xi8> to !tile.block<40xi64>
  %ob4 = tile.splat %o4 : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %oa4 = tile.addptr %ob4, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  tile.store %oa4, %c4 : !tile.block<40x!tile.ptr<i64>>
  %c5 = tile.cast %x : !tile.block<40xi8> to !tile.block<40xf16>
  %ob5 = tile.splat %o5 : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %oa5 = tile.addptr %ob5, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  tile.store %oa5, %c5 : !tile.block<40x!tile.ptr<f16>>
  %c6 = tile.cast %x : !tile.block<40xi8> to !tile.block<40xbf16>
  %ob6 = tile.splat %o6 : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %oa6 = tile.addptr %ob6, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  tile.store %oa6, %c6 : !tile.block<40x!tile.ptr<bf16>>
  %c7 = tile.cast %x : !tile.block<40xi8> to !tile.block<40xf32>
  %ob7 = tile.splat %o7 : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %oa7 = tile.addptr %ob7, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  tile.store %oa7, %c7 : !tile.block<40x!tile.ptr<f32>>
  %c8 = tile.cast %x : !tile.block<40xi8> to !tile.block<40xf64>
  %ob8 = tile.splat %o8 : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %oa8 = tile.addptr %ob8, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  tile.store %oa8, %c8 : !tile.block<40x!tile.ptr<f64>>
  %cu = tile.cast %x {unsigned_src} : !tile.block<40xi8> to !tile.block<40xf32>
  tile.store %oa7, %cu : !tile.block<40x!tile.ptr<f32>>
  return
}

func.func @casts_from_i16(%xp: !tile.ptr<i16>, %o0: !tile.ptr<i1>, %o1: !tile.ptr<i8>, %o2: !tile.ptr<i16>, %o3: !tile.ptr<i32>, %o4: !tile.ptr<i64>, %o5: !tile.ptr<f16>, %o6: !tile.ptr<bf16>, %o7: !tile.ptr<f32>, %o8: !tile.ptr<f64>) {
  %idx = tile.arange 0, 40 : !tile.block<40xi32>
  %offs = tile.addi %idx, %idx : !tile.block<40xi32>
  %xb = tile.splat %xp : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %xa = tile.addptr %xb, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  %x = tile.load %xa : !tile.block<40x!tile.ptr<i16>>
  %c0 = tile.cast %x : !tile.block<40xi16> to !tile.block<40xi1>
  %ob0 = tile.splat %o0 : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %oa0 = tile.addptr %ob0, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  tile.store %oa0, %c0 : !tile.block<40x!tile.ptr<i1>>
  %c1 = tile.cast %x : !tile.block<40xi16> to !tile.block<40xi8>
  %ob1 = tile.splat %o1 : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %oa1 = tile.addptr %ob1, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  tile.store %oa1, %c1 : !tile.block<40x!tile.ptr<i8>>
  %c2 = tile.cast %x : !tile.block<40xi16> to !tile.block<40xi16>
  %ob2 = tile.splat %o2 : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %oa2 = tile.addptr %ob2, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  tile.store %oa2, %c2 : !tile.block<40x!tile.ptr<i16>>
  %c3 = tile.cast %x : !tile.block<40xi16> to !tile.block<40xi32>
  %ob3 = tile.splat %o3 : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %oa3 = tile.addptr %ob3, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  tile.store %oa3, %c3 : !tile.block<40x!tile.ptr<i32>>
  %c4 = tile.cast %x : !tile.block<40xi16> to !tile.block<40xi64>
  %ob4 = tile.splat %o4 : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %oa4 = tile.addptr %ob4, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  tile.store %oa4, %c4 : !tile.block<40x!tile.ptr<i64>>
  %c5 = tile.cast %x : !tile.block<40xi16> to !tile.block<40xf16>
  %ob5 = tile.splat %o5 : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %oa5 = tile.addptr %ob5, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  tile.store %oa5, %c5 : !tile.block<40x!tile.ptr<f16>>
  %c6 = tile.cast %x : !tile.block<40xi16> to !tile.block<40xbf16>
  %ob6 = tile.splat %o6 : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %oa6 = tile.addptr %ob6, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  tile.store %oa6, %c6 : !tile.block<40x!tile.ptr<bf16>>
  %c7 = tile.cast %x : !tile.block<40xi16> to !tile.block<40xf32>
  %ob7 = tile.splat %o7 : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %oa7 = tile.addptr %ob7, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  tile.store %oa7, %c7 : !tile.block<40x!tile.ptr<f32>>
  %c8 = tile.cast %x : !tile.block<40xi16> to !tile.block<40xf64>
  %ob8 = tile.splat %o8 : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %oa8 = tile.addptr %ob8, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  tile.store %oa8, %c8 : !tile.block<40x!tile.ptr<f64>>
  %cu = tile.cast %x {unsigned_src} : !tile.block<40xi16> to !tile.block<40xf32>
  tile.store %oa7, %cu : !tile.block<40x!tile.ptr<f32>>
  return
}

func.func @casts_from_i32(%xp: !tile.ptr<i32>, %o0: !tile.ptr<i1>, %o1: !tile.ptr<i8>, %o2: !tile.ptr<i16>, %o3: !tile.ptr<i32>, %o4: !tile.ptr<i64>, %o5: !tile.ptr<f16>, %o6: !tile.ptr<bf16>, %o7: !tile.ptr<f32>, %o8: !tile.ptr<f64>) {
  %idx = tile.arange 0, 40 : !tile.block<40xi32>
  %offs = tile.addi %idx, %idx : !tile.block<40xi32>
  %xb = tile.splat %xp : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %xa = tile.addptr %xb, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  %x = tile.load %xa : !tile.block<40x!tile.ptr<i32>>
  %c0 = tile.cast %x : !tile.block<40xi32> to !tile.block<40xi1>
  %ob0 = tile.splat %o0 : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %oa0 = tile.addptr %ob0, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  tile.store %oa0, %c0 : !tile.block<40x!tile.ptr<i1>>
  %c1 = tile.cast %x : !tile.block<40xi32> to !tile.block<40xi8>
  %ob1 = tile.splat %o1 : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %oa1 = tile.addptr %ob1, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  tile.store %oa1, %c1 : !tile.block<40x!tile.ptr<i8>>
  %c2 = tile.cast %x : !tile.block<40xi32> to !tile.block<40xi16>
  %ob2 = tile.splat %o2 : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %oa2 = tile.addptr %ob2, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  tile.store %oa2, %c2 : !tile.block<40x!tile.ptr<i16>>
  %c3 = tile.cast %x : !tile.block<40xi32> to !tile.block<40xi32>
  %ob3 = tile.splat %o3 : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %oa3 = tile.addptr %ob3, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  tile.store %oa3, %c3 : !tile.block<40x!tile.ptr<i32>>
  %c4 = tile.cast %x : !tile.block<40xi32> to !tile.block<40xi64>
  %ob4 = tile.splat %o4 : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %oa4 = tile.addptr %ob4, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  tile.store %oa4, %c4 : !tile.block<40x!tile.ptr<i64>>
  %c5 = tile.cast %x : !tile.block<40xi32> to !tile.block<40xf16>
  %ob5 = tile.splat %o5 : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %oa5 = tile.addptr %ob5, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  tile.store %oa5, %c5 : !tile.block<40x!tile.ptr<f16>>
  %c6 = tile.cast %x : !tile.block<40xi32> to !tile.block<40xbf16>
  %ob6 = tile.splat %o6 : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %oa6 = tile.addptr %ob6, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  tile.store %oa6, %c6 : !tile.block<40x!tile.ptr<bf16>>
  %c7 = tile.cast %x : !tile.block<40xi32> to !tile.block<40xf32>
  %ob7 = tile.splat %o7 : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %oa7 = tile.addptr %ob7, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  tile.store %oa7, %c7 : !tile.block<40x!tile.ptr<f32>>
  %c8 = tile.cast %x : !tile.block<40xi32> to !tile.block<40xf64>
  %ob8 = tile.splat %o8 : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %oa8 = tile.addptr %ob8, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  tile.store %oa8, %c8 : !tile.block<40x!tile.ptr<f64>>
  %cu = tile.cast %x {unsigned_src} : !tile.block<40xi32> to !tile.block<40xf32>
  tile.store %oa7, %cu : !tile.block<40x!tile.ptr<f32>>
  return
}

func.func @casts_from_i64(%xp: !tile.ptr<i64>, %o0: !tile.ptr<i1>, %o1: !tile.ptr<i8>, %o2: !tile.ptr<i16>, %o3: !tile.ptr<i32>, %o4: !tile.ptr<i64>, %o5: !tile.ptr<f16>, %o6: !tile.ptr<bf16>, %o7: !tile.ptr<f32>, %o8: !tile.ptr<f64>) {
  %idx = tile.arange 0, 40 : !tile.block<40xi32>
  %offs = tile.addi %idx, %idx : !tile.block<40xi32>
  %xb = tile.splat %xp : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %xa = tile.addptr %xb, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  %x = tile.load %xa : !tile.block<40x!tile.ptr<i64>>
  %c0 = tile.cast %x : !tile.block<40xi64> to !tile.block<40xi1>
  %ob0 = tile.splat %o0 : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %oa0 = tile.addptr %ob0, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  tile.store %oa0, %c0 : !tile.block<40x!tile.ptr<i1>>
  %c1 = tile.cast %x : !tile.block<40xi64> to !tile.block<40xi8>
  %ob1 = tile.splat %o1 : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %oa1 = tile.addptr %ob1, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  tile.store %oa1, %c1 : !tile.block<40x!tile.ptr<i8>>
  %c2 = tile.cast %x : !tile.block<40xi64> to !tile.block<40xi16>
  %ob2 = tile.splat %o2 : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %oa2 = tile.addptr %ob2, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  tile.store %oa2, %c2 : !tile.block<40x!tile.ptr<i16>>
  %c3 = tile.cast %x : !tile.block<40xi64> to !tile.block<40xi32>
  %ob3 = tile.splat %o3 : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %oa3 = tile.addptr %ob3, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  tile.store %oa3, %c3 : !tile.block<40x!tile.ptr<i32>>
  %c4 = tile.cast %x : !tile.block<40xi64> to !tile.block<40xi64>
  %ob4 = tile.splat %o4 : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %oa4 = tile.addptr %ob4, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  tile.store %oa4, %c4 : !tile.block<40x!tile.ptr<i64>>
  %c5 = tile.cast %x : !tile.block<40xi64> to !tile.block<40xf16>
  %ob5 = tile.splat %o5 : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %oa5 = tile.addptr %ob5, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  tile.store %oa5, %c5 : !tile.block<40x!tile.ptr<f16>>
  %c6 = tile.cast %x : !tile.block<40xi64> to !tile.block<40xbf16>
  %ob6 = tile.splat %o6 : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %oa6 = tile.addptr %ob6, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  tile.store %oa6, %c6 : !tile.block<40x!tile.ptr<bf16>>
  %c7 = tile.cast %x : !tile.block<40xi64> to !tile.block<40xf32>
  %ob7 = tile.splat %o7 : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %oa7 = tile.addptr %ob7, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  tile.store %oa7, %c7 : !tile.block<40x!tile.ptr<f32>>
  %c8 = tile.cast %x : !tile.block<40xi64> to !tile.block<40xf64>
  %ob8 = tile.splat %o8 : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %oa8 = tile.addptr %ob8, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  tile.store %oa8, %c8 : !tile.block<40x!tile.ptr<f64>>
  %cu = tile.cast %x {unsigned_src} : !tile.block<40xi64> to !tile.block<40xf32>
  tile.store %oa7, %cu : !tile.block<40x!tile.ptr<f32>>
  return
}

func.func @casts_from_f16(%xp: !tile.ptr<f16>, %o0: !tile.ptr<i1>, %o1: !tile.ptr<i8>, %o2: !tile.ptr<i16>, %o3: !tile.ptr<i32>, %o4: !tile.ptr<i64>, %o5: !tile.ptr<f16>, %o6: !tile.ptr<bf16>, %o7: !tile.ptr<f32>, %o8: !tile.ptr<f64>) {
  %idx = tile.arange 0, 40 : !tile.block<40xi32>
  %offs = tile.addi %idx, %idx : !tile.block<40xi32>
  %xb = tile.splat %xp : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %xa = tile.addptr %xb, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  %x = tile.load %xa : !tile.block<40x!tile.ptr<f16>>
  %c0 = tile.cast %x : !tile.block<40xf16> to !tile.block<40xi1>
  %ob0 = tile.splat %o0 : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %oa0 = tile.addptr %ob0, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  tile.store %oa0, %c0 : !tile.block<40x!tile.ptr<i1>>
  %c1 = tile.cast %x : !tile.block<40xf16> to !tile.block<40xi8>
  %ob1 = tile.splat %o1 : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %oa1 = tile.addptr %ob1, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  tile.store %oa1, %c1 : !tile.block<40x!tile.ptr<i8>>
  %c2 = tile.cast %x : !tile.block<40xf16> to !tile.block<40xi16>
  %ob2 = tile.splat %o2 : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %oa2 = tile.addptr %ob2, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  tile.store %oa2, %c2 : !tile.block<40x!tile.ptr<i16>>
  %c3 = tile.cast %x : !tile.block<40xf16> to !tile.block<40xi32>
  %ob3 = tile.splat %o3 : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %oa3 = tile.addptr %ob3, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  tile.store %oa3, %c3 : !tile.block<40x!tile.ptr<i32>>
  %c4 = tile.cast %x : !tile.block<40xf16> to !tile.block<40xi64>
  %ob4 = tile.splat %o4 : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %oa4 = tile.addptr %ob4, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  tile.store %oa4, %c4 : !tile.block<40x!tile.ptr<i64>>
  %c5 = tile.cast %x : !tile.block<40xf16> to !tile.block<40xf16>
  %ob5 = tile.splat %o5 : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %oa5 = tile.addptr %ob5, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  tile.store %oa5, %c5 : !tile.block<40x!tile.ptr<f16>>
  %c6 = tile.cast %x : !tile.block<40xf16> to !tile.block<40xbf16>
  %ob6 = tile.splat %o6 : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %oa6 = tile.addptr %ob6, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  tile.store %oa6, %c6 : !tile.block<40x!tile.ptr<bf16>>
  %c7 = tile.cast %x : !tile.block<40xf16> to !tile.block<40xf32>
  %ob7 = tile.splat %o7 : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %oa7 = tile.addptr %ob7, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  tile.store %oa7, %c7 : !tile.block<40x!tile.ptr<f32>>
  %c8 = tile.cast %x : !tile.block<40xf16> to !tile.block<40xf64>
  %ob8 = tile.splat %o8 : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %oa8 = tile.addptr %ob8, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  tile.store %oa8, %c8 : !tile.block<40x!tile.ptr<f64>>
  return
}

func.func @casts_from_bf16(%xp: !tile.ptr<bf16>, %o0: !tile.ptr<i1>, %o1: !tile.ptr<i8>, %o2: !tile.ptr<i16>, %o3: !tile.ptr<i32>, %o4: !tile.ptr<i64>, %o5: !tile.ptr<f16>, %o6: !tile.ptr<bf16>, %o7: !tile.ptr<f32>, %o8: !tile.ptr<f64>) {
  %idx = tile.arange 0, 40 : !tile.block<40xi32>
  %offs = tile.addi %idx, %idx : !tile.block<40xi32>
  %xb = tile.splat %xp : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %xa = tile.addptr %xb, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  %x = tile.load %xa : !tile.block<40x!tile.ptr<bf16>>
  %c0 = tile.cast %x : !tile.block<40xbf16> to !tile.block<40xi1>
  %ob0 = tile.splat %o0 : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %oa0 = tile.addptr %ob0, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  tile.store %oa0, %c0 : !tile.block<40x!tile.ptr<i1>>
  %c1 = tile.cast %x : !tile.block<40xbf16> to !tile.block<40xi8>
  %ob1 = tile.splat %o1 : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %oa1 = tile.addptr %ob1, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  tile.store %oa1, %c1 : !tile.block<40x!tile.ptr<i8>>
  %c2 = tile.cast %x : !tile.block<40xbf16> to !tile.block<40xi16>
  %ob2 = tile.splat %o2 : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %oa2 = tile.addptr %ob2, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  tile.store %oa2, %c2 : !tile.block<40x!tile.ptr<i16>>
  %c3 = tile.cast %x : !tile.block<40xbf16> to !tile.block<40xi32>
  %ob3 = tile.splat %o3 : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %oa3 = tile.addptr %ob3, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  tile.store %oa3, %c3 : !tile.block<40x!tile.ptr<i32>>
  %c4 = tile.cast %x : !tile.block<40xbf16> to !tile.block<40xi64>
  %ob4 = tile.splat %o4 : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %oa4 = tile.addptr %ob4, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  tile.store %oa4, %c4 : !tile.block<40x!tile.ptr<i64>>
  %c5 = tile.cast %x : !tile.block<40xbf16> to !tile.block<40xf16>
  %ob5 = tile.splat %o5 : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %oa5 = tile.addptr %ob5, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  tile.store %oa5, %c5 : !tile.block<40x!tile.ptr<f16>>
  %c6 = tile.cast %x : !tile.block<40xbf16> to !tile.block<40xbf16>
  %ob6 = tile.splat %o6 : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %oa6 = tile.addptr %ob6, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  tile.store %oa6, %c6 : !tile.block<40x!tile.ptr<bf16>>
  %c7 = tile.cast %x : !tile.block<40xbf16> to !tile.block<40xf32>
  %ob7 = tile.splat %o7 : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %oa7 = tile.addptr %ob7, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  tile.store %oa7, %c7 : !tile.block<40x!tile.ptr<f32>>
  %c8 = tile.cast %x : !tile.block<40xbf16> to !tile.block<40xf64>
  %ob8 = tile.splat %o8 : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %oa8 = tile.addptr %ob8, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  tile.store %oa8, %c8 : !tile.block<40x!tile.ptr<f64>>
  return
}

func.func @casts_from_f32(%xp: !tile.ptr<f32>, %o0: !tile.ptr<i1>, %o1: !tile.ptr<i8>, %o2: !tile.ptr<i16>, %o3: !tile.ptr<i32>, %o4: !tile.ptr<i64>, %o5: !tile.ptr<f16>, %o6: !tile.ptr<bf16>, %o7: !tile.ptr<f32>, %o8: !tile.ptr<f64>) {
  %idx = tile.arange 0, 40 : !tile.block<40xi32>
  %offs = tile.addi %idx, %idx : !tile.block<40xi32>
  %xb = tile.splat %xp : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %xa = tile.addptr %xb, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  %x = tile.load %xa : !tile.block<40x!tile.ptr<f32>>
  %c0 = tile.cast %x : !tile.block<40xf32> to !tile.block<40xi1>
  %ob0 = tile.splat %o0 : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %oa0 = tile.addptr %ob0, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  tile.store %oa0, %c0 : !tile.block<40x!tile.ptr<i1>>
  %c1 = tile.cast %x : !tile.block<40xf32> to !tile.block<40xi8>
  %ob1 = tile.splat %o1 : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %oa1 = tile.addptr %ob1, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  tile.store %oa1, %c1 : !tile.block<40x!tile.ptr<i8>>
  %c2 = tile.cast %x : !tile.block<40xf32> to !tile.block<40xi16>
  %ob2 = tile.splat %o2 : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %oa2 = tile.addptr %ob2, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  tile.store %oa2, %c2 : !tile.block<40x!tile.ptr<i16>>
  %c3 = tile.cast %x : !tile.block<40xf32> to !tile.block<40xi32>
  %ob3 = tile.splat %o3 : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %oa3 = tile.addptr %ob3, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  tile.store %oa3, %c3 : !tile.block<40x!tile.ptr<i32>>
  %c4 = tile.cast %x : !tile.block<40xf32> to !tile.block<40xi64>
  %ob4 = tile.splat %o4 : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %oa4 = tile.addptr %ob4, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  tile.store %oa4, %c4 : !tile.block<40x!tile.ptr<i64>>
  %c5 = tile.cast %x : !tile.block<40xf32> to !tile.block<40xf16>
  %ob5 = tile.splat %o5 : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %oa5 = tile.addptr %ob5, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  tile.store %oa5, %c5 : !tile.block<40x!tile.ptr<f16>>
  %c6 = tile.cast %x : !tile.block<40xf32> to !tile.block<40xbf16>
  %ob6 = tile.splat %o6 : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %oa6 = tile.addptr %ob6, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  tile.store %oa6, %c6 : !tile.block<40x!tile.ptr<bf16>>
  %c7 = tile.cast %x : !tile.block<40xf32> to !tile.block<40xf32>
  %ob7 = tile.splat %o7 : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %oa7 = tile.addptr %ob7, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  tile.store %oa7, %c7 : !tile.block<40x!tile.ptr<f32>>
  %c8 = tile.cast %x : !tile.block<40xf32> to !tile.block<40xf64>
  %ob8 = tile.splat %o8 : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %oa8 = tile.addptr %ob8, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  tile.store %oa8, %c8 : !tile.block<40x!tile.ptr<f64>>
  return
}

func.func @casts_from_f64(%xp: !tile.ptr<f64>, %o0: !tile.ptr<i1>, %o1: !tile.ptr<i8>, %o2: !tile.ptr<i16>, %o3: !tile.ptr<i32>, %o4: !tile.ptr<i64>, %o5: !tile.ptr<f16>, %o6: !tile.ptr<bf16>, %o7: !tile.ptr<f32>, %o8: !tile.ptr<f64>) {
  %idx = tile.arange 0, 40 : !tile.block<40xi32>
  %offs = tile.addi %idx, %idx : !tile.block<40xi32>
  %xb = tile.splat %xp : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %xa = tile.addptr %xb, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  %x = tile.load %xa : !tile.block<40x!tile.ptr<f64>>
  %c0 = tile.cast %x : !tile.block<40xf64> to !tile.block<40xi1>
  %ob0 = tile.splat %o0 : !tile.ptr<i1> -> !tile.block<40x!tile.ptr<i1>>
  %oa0 = tile.addptr %ob0, %offs : !tile.block<40x!tile.ptr<i1>>, !tile.block<40xi32>
  tile.store %oa0, %c0 : !tile.block<40x!tile.ptr<i1>>
  %c1 = tile.cast %x : !tile.block<40xf64> to !tile.block<40xi8>
  %ob1 = tile.splat %o1 : !tile.ptr<i8> -> !tile.block<40x!tile.ptr<i8>>
  %oa1 = tile.addptr %ob1, %offs : !tile.block<40x!tile.ptr<i8>>, !tile.block<40xi32>
  tile.store %oa1, %c1 : !tile.block<40x!tile.ptr<i8>>
  %c2 = tile.cast %x : !tile.block<40xf64> to !tile.block<40xi16>
  %ob2 = tile.splat %o2 : !tile.ptr<i16> -> !tile.block<40x!tile.ptr<i16>>
  %oa2 = tile.addptr %ob2, %offs : !tile.block<40x!tile.ptr<i16>>, !tile.block<40xi32>
  tile.store %oa2, %c2 : !tile.block<40x!tile.ptr<i16>>
  %c3 = tile.cast %x : !tile.block<40xf64> to !tile.block<40xi32>
  %ob3 = tile.splat %o3 : !tile.ptr<i32> -> !tile.block<40x!tile.ptr<i32>>
  %oa3 = tile.addptr %ob3, %offs : !tile.block<40x!tile.ptr<i32>>, !tile.block<40xi32>
  tile.store %oa3, %c3 : !tile.block<40x!tile.ptr<i32>>
  %c4 = tile.cast %x : !tile.block<40xf64> to !tile.block<40xi64>
  %ob4 = tile.splat %o4 : !tile.ptr<i64> -> !tile.block<40x!tile.ptr<i64>>
  %oa4 = tile.addptr %ob4, %offs : !tile.block<40x!tile.ptr<i64>>, !tile.block<40xi32>
  tile.store %oa4, %c4 : !tile.block<40x!tile.ptr<i64>>
  %c5 = tile.cast %x : !tile.block<40xf64> to !tile.block<40xf16>
  %ob5 = tile.splat %o5 : !tile.ptr<f16> -> !tile.block<40x!tile.ptr<f16>>
  %oa5 = tile.addptr %ob5, %offs : !tile.block<40x!tile.ptr<f16>>, !tile.block<40xi32>
  tile.store %oa5, %c5 : !tile.block<40x!tile.ptr<f16>>
  %c6 = tile.cast %x : !tile.block<40xf64> to !tile.block<40xbf16>
  %ob6 = tile.splat %o6 : !tile.ptr<bf16> -> !tile.block<40x!tile.ptr<bf16>>
  %oa6 = tile.addptr %ob6, %offs : !tile.block<40x!tile.ptr<bf16>>, !tile.block<40xi32>
  tile.store %oa6, %c6 : !tile.block<40x!tile.ptr<bf16>>
  %c7 = tile.cast %x : !tile.block<40xf64> to !tile.block<40xf32>
  %ob7 = tile.splat %o7 : !tile.ptr<f32> -> !tile.block<40x!tile.ptr<f32>>
  %oa7 = tile.addptr %ob7, %offs : !tile.block<40x!tile.ptr<f32>>, !tile.block<40xi32>
  tile.store %oa7, %c7 : !tile.block<40x!tile.ptr<f32>>
  %c8 = tile.cast %x : !tile.block<40xf64> to !tile.block<40xf64>
  %ob8 = tile.splat %o8 : !tile.ptr<f64> -> !tile.block<40x!tile.ptr<f64>>
  %oa8 = tile.addptr %ob8, %offs : !tile.block<40x!tile.ptr<f64>>, !tile.block<40xi32>
  tile.store %oa8, %c8 : !tile.block<40x!tile.ptr<f64>>
  return
}

func.func @reduce_scan_i1(%xp: !tile.ptr<i1>, %outp: !tile.ptr<i1>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<i1> -> !tile.block<3x8x5x!tile.ptr<i1>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<i1>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<i1>>
  %rsum0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<3x8x5xi1> -> !tile.block<8x5xi1>
  %ssum0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<3x8x5xi1>
  %wsum0 = tile.scan sum %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi1>
  %esum0 = tile.expand_dims %rsum0 {axis = 0 : i32} : !tile.block<8x5xi1> -> !tile.block<1x8x5xi1>
  %bsum0 = tile.broadcast %esum0 : !tile.block<1x8x5xi1> -> !tile.block<3x8x5xi1>
  %rmax0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<3x8x5xi1> -> !tile.block<8x5xi1>
  %smax0 = tile.scan max %x {axis = 0 : i32} : !tile.block<3x8x5xi1>
  %wmax0 = tile.scan max %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi1>
  %emax0 = tile.expand_dims %rmax0 {axis = 0 : i32} : !tile.block<8x5xi1> -> !tile.block<1x8x5xi1>
  %bmax0 = tile.broadcast %emax0 : !tile.block<1x8x5xi1> -> !tile.block<3x8x5xi1>
  %rmin0 = tile.reduce min %x {axis = 0 : i32} : !tile.block<3x8x5xi1> -> !tile.block<8x5xi1>
  %smin0 = tile.scan min %x {axis = 0 : i32} : !tile.block<3x8x5xi1>
  %wmin0 = tile.scan min %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi1>
  %emin0 = tile.expand_dims %rmin0 {axis = 0 : i32} : !tile.block<8x5xi1> -> !tile.block<1x8x5xi1>
  %bmin0 = tile.broadcast %emin0 : !tile.block<1x8x5xi1> -> !tile.block<3x8x5xi1>
  %rsum1 = tile.reduce sum %x {axis = 1 : i32} : !tile.block<3x8x5xi1> -> !tile.block<3x5xi1>
  %ssum1 = tile.scan sum %x {axis = 1 : i32} : !tile.block<3x8x5xi1>
  %wsum1 = tile.scan sum %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi1>
  %esum1 = tile.expand_dims %rsum1 {axis = 1 : i32} : !tile.block<3x5xi1> -> !tile.block<3x1x5xi1>
  %bsum1 = tile.broadcast %esum1 : !tile.block<3x1x5xi1> -> !tile.block<3x8x5xi1>
  %rmax1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<3x8x5xi1> -> !tile.block<3x5xi1>
  %smax1 = tile.scan max %x {axis = 1 : i32} : !tile.block<3x8x5xi1>
  %wmax1 = tile.scan max %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi1>
  %emax1 = tile.expand_dims %rmax1 {axis = 1 : i32} : !tile.block<3x5xi1> -> !tile.block<3x1x5xi1>
  %bmax1 = tile.broadcast %emax1 : !tile.block<3x1x5xi1> -> !tile.block<3x8x5xi1>
  %rmin1 = tile.reduce min %x {axis = 1 : i32} : !tile.block<3x8x5xi1> -> !tile.block<3x5xi1>
  %smin1 = tile.scan min %x {axis = 1 : i32} : !tile.block<3x8x5xi1>
  %wmin1 = tile.scan min %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi1>
  %emin1 = tile.expand_dims %rmin1 {axis = 1 : i32} : !tile.block<3x5xi1> -> !tile.block<3x1x5xi1>
  %bmin1 = tile.broadcast %emin1 : !tile.block<3x1x5xi1> -> !tile.block<3x8x5xi1>
  %rsum2 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<3x8x5xi1> -> !tile.block<3x8xi1>
  %ssum2 = tile.scan sum %x {axis = 2 : i32} : !tile.block<3x8x5xi1>
  %wsum2 = tile.scan sum %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi1>
  %esum2 = tile.expand_dims %rsum2 {axis = 2 : i32} : !tile.block<3x8xi1> -> !tile.block<3x8x1xi1>
  %bsum2 = tile.broadcast %esum2 : !tile.block<3x8x1xi1> -> !tile.block<3x8x5xi1>
  %rmax2 = tile.reduce max %x {axis = 2 : i32} : !tile.block<3x8x5xi1> -> !tile.block<3x8xi1>
  %smax2 = tile.scan max %x {axis = 2 : i32} : !tile.block<3x8x5xi1>
  %wmax2 = tile.scan max %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi1>
  %emax2 = tile.expand_dims %rmax2 {axis = 2 : i32} : !tile.block<3x8xi1> -> !tile.block<3x8x1xi1>
  %bmax2 = tile.broadcast %emax2 : !tile.block<3x8x1xi1> -> !tile.block<3x8x5xi1>
  %rmin2 = tile.reduce min %x {axis = 2 : i32} : !tile.block<3x8x5xi1> -> !tile.block<3x8xi1>
  %smin2 = tile.scan min %x {axis = 2 : i32} : !tile.block<3x8x5xi1>
  %wmin2 = tile.scan min %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi1>
  %emin2 = tile.expand_dims %rmin2 {axis = 2 : i32} : !tile.block<3x8xi1> -> !tile.block<3x8x1xi1>
  %bmin2 = tile.broadcast %emin2 : !tile.block<3x8x1xi1> -> !tile.block<3x8x5xi1>
  %ob = tile.splat %outp : !tile.ptr<i1> -> !tile.block<3x8x5x!tile.ptr<i1>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<i1>>, !tile.block<3x8x5xi32>
  tile.store %oa, %bsum0 : !tile.block<3x8x5x!tile.ptr<i1>>
  tile.store %oa, %bmax1 : !tile.block<3x8x5x!tile.ptr<i1>>
  tile.store %oa, %bmin2 : !tile.block<3x8x5x!tile.ptr<i1>>
  tile.store %oa, %ssum0 : !tile.block<3x8x5x!tile.ptr<i1>>
  tile.store %oa, %wmax2 : !tile.block<3x8x5x!tile.ptr<i1>>
  return
}

func.func @reduce_scan_i8(%xp: !tile.ptr<i8>, %outp: !tile.ptr<i8>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<i8> -> !tile.block<3x8x5x!tile.ptr<i8>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<i8>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<i8>>
  %rsum0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<3x8x5xi8> -> !tile.block<8x5xi8>
  %ssum0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<3x8x5xi8>
  %wsum0 = tile.scan sum %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi8>
  %esum0 = tile.expand_dims %rsum0 {axis = 0 : i32} : !tile.block<8x5xi8> -> !tile.block<1x8x5xi8>
  %bsum0 = tile.broadcast %esum0 : !tile.block<1x8x5xi8> -> !tile.block<3x8x5xi8>
  %rmax0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<3x8x5xi8> -> !tile.block<8x5xi8>
  %smax0 = tile.scan max %x {axis = 0 : i32} : !tile.block<3x8x5xi8>
  %wmax0 = tile.scan max %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi8>
  %emax0 = tile.expand_dims %rmax0 {axis = 0 : i32} : !tile.block<8x5xi8> -> !tile.block<1x8x5xi8>
  %bmax0 = tile.broadcast %emax0 : !tile.block<1x8x5xi8> -> !tile.block<3x8x5xi8>
  %rmin0 = tile.reduce min %x {axis = 0 : i32} : !tile.block<3x8x5xi8> -> !tile.block<8x5xi8>
  %smin0 = tile.scan min %x {axis = 0 : i32} : !tile.block<3x8x5xi8>
  %wmin0 = tile.scan min %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi8>
  %emin0 = tile.expand_dims %rmin0 {axis = 0 : i32} : !tile.block<8x5xi8> -> !tile.block<1x8x5xi8>
  %bmin0 = tile.broadcast %emin0 : !tile.block<1x8x5xi8> -> !tile.block<3x8x5xi8>
  %rsum1 = tile.reduce sum %x {axis = 1 : i32} : !tile.block<3x8x5xi8> -> !tile.block<3x5xi8>
  %ssum1 = tile.scan sum %x {axis = 1 : i32} : !tile.block<3x8x5xi8>
  %wsum1 = tile.scan sum %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi8>
  %esum1 = tile.expand_dims %rsum1 {axis = 1 : i32} : !tile.block<3x5xi8> -> !tile.block<3x1x5xi8>
  %bsum1 = tile.broadcast %esum1 : !tile.block<3x1x5xi8> -> !tile.block<3x8x5xi8>
  %rmax1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<3x8x5xi8> -> !tile.block<3x5xi8>
  %smax1 = tile.scan max %x {axis = 1 : i32} : !tile.block<3x8x5xi8>
  %wmax1 = tile.scan max %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi8>
  %emax1 = tile.expand_dims %rmax1 {axis = 1 : i32} : !tile.block<3x5xi8> -> !tile.block<3x1x5xi8>
  %bmax1 = tile.broadcast %emax1 : !tile.block<3x1x5xi8> -> !tile.block<3x8x5xi8>
  %rmin1 = tile.reduce min %x {axis = 1 : i32} : !tile.block<3x8x5xi8> -> !tile.block<3x5xi8>
  %smin1 = tile.scan min %x {axis = 1 : i32} : !tile.block<3x8x5xi8>
  %wmin1 = tile.scan min %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi8>
  %emin1 = tile.expand_dims %rmin1 {axis = 1 : i32} : !tile.block<3x5xi8> -> !tile.block<3x1x5xi8>
  %bmin1 = tile.broadcast %emin1 : !tile.block<3x1x5xi8> -> !tile.block<3x8x5xi8>
  %rsum2 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<3x8x5xi8> -> !tile.block<3x8xi8>
  %ssum2 = tile.scan sum %x {axis = 2 : i32} : !tile.block<3x8x5xi8>
  %wsum2 = tile.scan sum %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi8>
  %esum2 = tile.expand_dims %rsum2 {axis = 2 : i32} : !tile.block<3x8xi8> -> !tile.block<3x8x1xi8>
  %bsum2 = tile.broadcast %esum2 : !tile.block<3x8x1xi8> -> !tile.block<3x8x5xi8>
  %rmax2 = tile.reduce max %x {axis = 2 : i32} : !tile.block<3x8x5xi8> -> !tile.block<3x8xi8>
  %smax2 = tile.scan max %x {axis = 2 : i32} : !tile.block<3x8x5xi8>
  %wmax2 = tile.scan max %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi8>
  %emax2 = tile.expand_dims %rmax2 {axis = 2 : i32} : !tile.block<3x8xi8> -> !tile.block<3x8x1xi8>
  %bmax2 = tile.broadcast %emax2 : !tile.block<3x8x1xi8> -> !tile.block<3x8x5xi8>
  %rmin2 = tile.reduce min %x {axis = 2 : i32} : !tile.block<3x8x5xi8> -> !tile.block<3x8xi8>
  %smin2 = tile.scan min %x {axis = 2 : i32} : !tile.block<3x8x5xi8>
  %wmin2 = tile.scan min %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi8>
  %emin2 = tile.expand_dims %rmin2 {axis = 2 : i32} : !tile.block<3x8xi8> -> !tile.block<3x8x1xi8>
  %bmin2 = tile.broadcast %emin2 : !tile.block<3x8x1xi8> -> !tile.block<3x8x5xi8>
  %ob = tile.splat %outp : !tile.ptr<i8> -> !tile.block<3x8x5x!tile.ptr<i8>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<i8>>, !tile.block<3x8x5xi32>
  tile.store %oa, %bsum0 : !tile.block<3x8x5x!tile.ptr<i8>>
  tile.store %oa, %bmax1 : !tile.block<3x8x5x!tile.ptr<i8>>
  tile.store %oa, %bmin2 : !tile.block<3x8x5x!tile.ptr<i8>>
  tile.store %oa, %ssum0 : !tile.block<3x8x5x!tile.ptr<i8>>
  tile.store %oa, %wmax2 : !tile.block<3x8x5x!tile.ptr<i8>>
  %cr = tile.reduce custom %x {axis = 1 : i32} : !tile.block<3x8x5xi8> -> !tile.block<3x5xi8> {
  ^bb0(%a: i8, %q: i8):
    %m = arith.muli %a, %q : i8
    tile.yield %m : i8
  }
  %cs = tile.scan custom %x {axis = 2 : i32} : !tile.block<3x8x5xi8> {
  ^bb0(%a: i8, %q: i8):
    %m = arith.muli %a, %q : i8
    tile.yield %m : i8
  }
  tile.store %oa, %cs : !tile.block<3x8x5x!tile.ptr<i8>>
  %flat = tile.reshape %x : !tile.block<3x8x5xi8> -> !tile.block<120xi8>
  %all = tile.reduce custom %flat {axis = 0 : i32} : !tile.block<120xi8> -> i8 {
  ^bb0(%a: i8, %q: i8):
    %m = arith.muli %a, %q : i8
    tile.yield %m : i8
  }
  tile.store %outp, %all : !tile.ptr<i8>
  return
}

func.func @reduce_scan_i16(%xp: !tile.ptr<i16>, %outp: !tile.ptr<i16>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<i16> -> !tile.block<3x8x5x!tile.ptr<i16>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<i16>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<i16>>
  %rsum0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<3x8x5xi16> -> !tile.block<8x5xi16>
  %ssum0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<3x8x5xi16>
  %wsum0 = tile.scan sum %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi16>
  %esum0 = tile.expand_dims %rsum0 {axis = 0 : i32} : !tile.block<8x5xi16> -> !tile.block<1x8x5xi16>
  %bsum0 = tile.broadcast %esum0 : !tile.block<1x8x5xi16> -> !tile.block<3x8x5xi16>
  %rmax0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<3x8x5xi16> -> !tile.block<8x5xi16>
  %smax0 = tile.scan max %x {axis = 0 : i32} : !tile.block<3x8x5xi16>
  %wmax0 = tile.scan max %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi16>
  %emax0 = tile.expand_dims %rmax0 {axis = 0 : i32} : !tile.block<8x5xi16> -> !tile.block<1x8x5xi16>
  %bmax0 = tile.broadcast %emax0 : !tile.block<1x8x5xi16> -> !tile.block<3x8x5xi16>
  %rmin0 = tile.reduce min %x {axis = 0 : i32} : !tile.block<3x8x5xi16> -> !tile.block<8x5xi16>
  %smin0 = tile.scan min %x {axis = 0 : i32} : !tile.block<3x8x5xi16>
  %wmin0 = tile.scan min %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi16>
  %emin0 = tile.expand_dims %rmin0 {axis = 0 : i32} : !tile.block<8x5xi16> -> !tile.block<1x8x5xi16>
  %bmin0 = tile.broadcast %emin0 : !tile.block<1x8x5xi16> -> !tile.block<3x8x5xi16>
  %rsum1 = tile.reduce sum %x {axis = 1 : i32} : !tile.block<3x8x5xi16> -> !tile.block<3x5xi16>
  %ssum1 = tile.scan sum %x {axis = 1 : i32} : !tile.block<3x8x5xi16>
  %wsum1 = tile.scan sum %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi16>
  %esum1 = tile.expand_dims %rsum1 {axis = 1 : i32} : !tile.block<3x5xi16> -> !tile.block<3x1x5xi16>
  %bsum1 = tile.broadcast %esum1 : !tile.block<3x1x5xi16> -> !tile.block<3x8x5xi16>
  %rmax1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<3x8x5xi16> -> !tile.block<3x5xi16>
  %smax1 = tile.scan max %x {axis = 1 : i32} : !tile.block<3x8x5xi16>
  %wmax1 = tile.scan max %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi16>
  %emax1 = tile.expand_dims %rmax1 {axis = 1 : i32} : !tile.block<3x5xi16> -> !tile.block<3x1x5xi16>
  %bmax1 = tile.broadcast %emax1 : !tile.block<3x1x5xi16> -> !tile.block<3x8x5xi16>
  %rmin1 = tile.reduce min %x {axis = 1 : i32} : !tile.block<3x8x5xi16> -> !tile.block<3x5xi16>
  %smin1 = tile.scan min %x {axis = 1 : i32} : !tile.block<3x8x5xi16>
  %wmin1 = tile.scan min %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi16>
  %emin1 = tile.expand_dims %rmin1 {axis = 1 : i32} : !tile.block<3x5xi16> -> !tile.block<3x1x5xi16>
  %bmin1 = tile.broadcast %emin1 : !tile.block<3x1x5xi16> -> !tile.block<3x8x5xi16>
  %rsum2 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<3x8x5xi16> -> !tile.block<3x8xi16>
  %ssum2 = tile.scan sum %x {axis = 2 : i32} : !tile.block<3x8x5xi16>
  %wsum2 = tile.scan sum %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi16>
  %esum2 = tile.expand_dims %rsum2 {axis = 2 : i32} : !tile.block<3x8xi16> -> !tile.block<3x8x1xi16>
  %bsum2 = tile.broadcast %esum2 : !tile.block<3x8x1xi16> -> !tile.block<3x8x5xi16>
  %rmax2 = tile.reduce max %x {axis = 2 : i32} : !tile.block<3x8x5xi16> -> !tile.block<3x8xi16>
  %smax2 = tile.scan max %x {axis = 2 : i32} : !tile.block<3x8x5xi16>
  %wmax2 = tile.scan max %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi16>
  %emax2 = tile.expand_dims %rmax2 {axis = 2 : i32} : !tile.block<3x8xi16> -> !tile.block<3x8x1xi16>
  %bmax2 = tile.broadcast %emax2 : !tile.block<3x8x1xi16> -> !tile.block<3x8x5xi16>
  %rmin2 = tile.reduce min %x {axis = 2 : i32} : !tile.block<3x8x5xi16> -> !tile.block<3x8xi16>
  %smin2 = tile.scan min %x {axis = 2 : i32} : !tile.block<3x8x5xi16>
  %wmin2 = tile.scan min %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi16>
  %emin2 = tile.expand_dims %rmin2 {axis = 2 : i32} : !tile.block<3x8xi16> -> !tile.block<3x8x1xi16>
  %bmin2 = tile.broadcast %emin2 : !tile.block<3x8x1xi16> -> !tile.block<3x8x5xi16>
  %ob = tile.splat %outp : !tile.ptr<i16> -> !tile.block<3x8x5x!tile.ptr<i16>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<i16>>, !tile.block<3x8x5xi32>
  tile.store %oa, %bsum0 : !tile.block<3x8x5x!tile.ptr<i16>>
  tile.store %oa, %bmax1 : !tile.block<3x8x5x!tile.ptr<i16>>
  tile.store %oa, %bmin2 : !tile.block<3x8x5x!tile.ptr<i16>>
  tile.store %oa, %ssum0 : !tile.block<3x8x5x!tile.ptr<i16>>
  tile.store %oa, %wmax2 : !tile.block<3x8x5x!tile.ptr<i16>>
  %cr = tile.reduce custom %x {axis = 1 : i32} : !tile.block<3x8x5xi16> -> !tile.block<3x5xi16> {
  ^bb0(%a: i16, %q: i16):
    %m = arith.muli %a, %q : i16
    tile.yield %m : i16
  }
  %cs = tile.scan custom %x {axis = 2 : i32} : !tile.block<3x8x5xi16> {
  ^bb0(%a: i16, %q: i16):
    %m = arith.muli %a, %q : i16
    tile.yield %m : i16
  }
  tile.store %oa, %cs : !tile.block<3x8x5x!tile.ptr<i16>>
  %flat = tile.reshape %x : !tile.block<3x8x5xi16> -> !tile.block<120xi16>
  %all = tile.reduce custom %flat {axis = 0 : i32} : !tile.block<120xi16> -> i16 {
  ^bb0(%a: i16, %q: i16):
    %m = arith.muli %a, %q : i16
    tile.yield %m : i16
  }
  tile.store %outp, %all : !tile.ptr<i16>
  return
}

func.func @reduce_scan_i32(%xp: !tile.ptr<i32>, %outp: !tile.ptr<i32>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<i32> -> !tile.block<3x8x5x!tile.ptr<i32>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<i32>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<i32>>
  %rsum0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<3x8x5xi32> -> !tile.block<8x5xi32>
  %ssum0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<3x8x5xi32>
  %wsum0 = tile.scan sum %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi32>
  %esum0 = tile.expand_dims %rsum0 {axis = 0 : i32} : !tile.block<8x5xi32> -> !tile.block<1x8x5xi32>
  %bsum0 = tile.broadcast %esum0 : !tile.block<1x8x5xi32> -> !tile.block<3x8x5xi32>
  %rmax0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<3x8x5xi32> -> !tile.block<8x5xi32>
  %smax0 = tile.scan max %x {axis = 0 : i32} : !tile.block<3x8x5xi32>
  %wmax0 = tile.scan max %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi32>
  %emax0 = tile.expand_dims %rmax0 {axis = 0 : i32} : !tile.block<8x5xi32> -> !tile.block<1x8x5xi32>
  %bmax0 = tile.broadcast %emax0 : !tile.block<1x8x5xi32> -> !tile.block<3x8x5xi32>
  %rmin0 = tile.reduce min %x {axis = 0 : i32} : !tile.block<3x8x5xi32> -> !tile.block<8x5xi32>
  %smin0 = tile.scan min %x {axis = 0 : i32} : !tile.block<3x8x5xi32>
  %wmin0 = tile.scan min %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi32>
  %emin0 = tile.expand_dims %rmin0 {axis = 0 : i32} : !tile.block<8x5xi32> -> !tile.block<1x8x5xi32>
  %bmin0 = tile.broadcast %emin0 : !tile.block<1x8x5xi32> -> !tile.block<3x8x5xi32>
  %rsum1 = tile.reduce sum %x {axis = 1 : i32} : !tile.block<3x8x5xi32> -> !tile.block<3x5xi32>
  %ssum1 = tile.scan sum %x {axis = 1 : i32} : !tile.block<3x8x5xi32>
  %wsum1 = tile.scan sum %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi32>
  %esum1 = tile.expand_dims %rsum1 {axis = 1 : i32} : !tile.block<3x5xi32> -> !tile.block<3x1x5xi32>
  %bsum1 = tile.broadcast %esum1 : !tile.block<3x1x5xi32> -> !tile.block<3x8x5xi32>
  %rmax1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<3x8x5xi32> -> !tile.block<3x5xi32>
  %smax1 = tile.scan max %x {axis = 1 : i32} : !tile.block<3x8x5xi32>
  %wmax1 = tile.scan max %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi32>
  %emax1 = tile.expand_dims %rmax1 {axis = 1 : i32} : !tile.block<3x5xi32> -> !tile.block<3x1x5xi32>
  %bmax1 = tile.broadcast %emax1 : !tile.block<3x1x5xi32> -> !tile.block<3x8x5xi32>
  %rmin1 = tile.reduce min %x {axis = 1 : i32} : !tile.block<3x8x5xi32> -> !tile.block<3x5xi32>
  %smin1 = tile.scan min %x {axis = 1 : i32} : !tile.block<3x8x5xi32>
  %wmin1 = tile.scan min %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi32>
  %emin1 = tile.expand_dims %rmin1 {axis = 1 : i32} : !tile.block<3x5xi32> -> !tile.block<3x1x5xi32>
  %bmin1 = tile.broadcast %emin1 : !tile.block<3x1x5xi32> -> !tile.block<3x8x5xi32>
  %rsum2 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<3x8x5xi32> -> !tile.block<3x8xi32>
  %ssum2 = tile.scan sum %x {axis = 2 : i32} : !tile.block<3x8x5xi32>
  %wsum2 = tile.scan sum %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi32>
  %esum2 = tile.expand_dims %rsum2 {axis = 2 : i32} : !tile.block<3x8xi32> -> !tile.block<3x8x1xi32>
  %bsum2 = tile.broadcast %esum2 : !tile.block<3x8x1xi32> -> !tile.block<3x8x5xi32>
  %rmax2 = tile.reduce max %x {axis = 2 : i32} : !tile.block<3x8x5xi32> -> !tile.block<3x8xi32>
  %smax2 = tile.scan max %x {axis = 2 : i32} : !tile.block<3x8x5xi32>
  %wmax2 = tile.scan max %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi32>
  %emax2 = tile.expand_dims %rmax2 {axis = 2 : i32} : !tile.block<3x8xi32> -> !tile.block<3x8x1xi32>
  %bmax2 = tile.broadcast %emax2 : !tile.block<3x8x1xi32> -> !tile.block<3x8x5xi32>
  %rmin2 = tile.reduce min %x {axis = 2 : i32} : !tile.block<3x8x5xi32> -> !tile.block<3x8xi32>
  %smin2 = tile.scan min %x {axis = 2 : i32} : !tile.block<3x8x5xi32>
  %wmin2 = tile.scan min %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi32>
  %emin2 = tile.expand_dims %rmin2 {axis = 2 : i32} : !tile.block<3x8xi32> -> !tile.block<3x8x1xi32>
  %bmin2 = tile.broadcast %emin2 : !tile.block<3x8x1xi32> -> !tile.block<3x8x5xi32>
  %ob = tile.splat %outp : !tile.ptr<i32> -> !tile.block<3x8x5x!tile.ptr<i32>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<i32>>, !tile.block<3x8x5xi32>
  tile.store %oa, %bsum0 : !tile.block<3x8x5x!tile.ptr<i32>>
  tile.store %oa, %bmax1 : !tile.block<3x8x5x!tile.ptr<i32>>
  tile.store %oa, %bmin2 : !tile.block<3x8x5x!tile.ptr<i32>>
  tile.store %oa, %ssum0 : !tile.block<3x8x5x!tile.ptr<i32>>
  tile.store %oa, %wmax2 : !tile.block<3x8x5x!tile.ptr<i32>>
  %cr = tile.reduce custom %x {axis = 1 : i32} : !tile.block<3x8x5xi32> -> !tile.block<3x5xi32> {
  ^bb0(%a: i32, %q: i32):
    %m = arith.muli %a, %q : i32
    tile.yield %m : i32
  }
  %cs = tile.scan custom %x {axis = 2 : i32} : !tile.block<3x8x5xi32> {
  ^bb0(%a: i32, %q: i32):
    %m = arith.muli %a, %q : i32
    tile.yield %m : i32
  }
  tile.store %oa, %cs : !tile.block<3x8x5x!tile.ptr<i32>>
  %flat = tile.reshape %x : !tile.block<3x8x5xi32> -> !tile.block<120xi32>
  %all = tile.reduce custom %flat {axis = 0 : i32} : !tile.block<120xi32> -> i32 {
  ^bb0(%a: i32, %q: i32):
    %m = arith.muli %a, %q : i32
    tile.yield %m : i32
  }
  tile.store %outp, %all : !tile.ptr<i32>
  return
}

func.func @reduce_scan_i64(%xp: !tile.ptr<i64>, %outp: !tile.ptr<i64>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<i64> -> !tile.block<3x8x5x!tile.ptr<i64>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<i64>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<i64>>
  %rsum0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<3x8x5xi64> -> !tile.block<8x5xi64>
  %ssum0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<3x8x5xi64>
  %wsum0 = tile.scan sum %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi64>
  %esum0 = tile.expand_dims %rsum0 {axis = 0 : i32} : !tile.block<8x5xi64> -> !tile.block<1x8x5xi64>
  %bsum0 = tile.broadcast %esum0 : !tile.block<1x8x5xi64> -> !tile.block<3x8x5xi64>
  %rmax0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<3x8x5xi64> -> !tile.block<8x5xi64>
  %smax0 = tile.scan max %x {axis = 0 : i32} : !tile.block<3x8x5xi64>
  %wmax0 = tile.scan max %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi64>
  %emax0 = tile.expand_dims %rmax0 {axis = 0 : i32} : !tile.block<8x5xi64> -> !tile.block<1x8x5xi64>
  %bmax0 = tile.broadcast %emax0 : !tile.block<1x8x5xi64> -> !tile.block<3x8x5xi64>
  %rmin0 = tile.reduce min %x {axis = 0 : i32} : !tile.block<3x8x5xi64> -> !tile.block<8x5xi64>
  %smin0 = tile.scan min %x {axis = 0 : i32} : !tile.block<3x8x5xi64>
  %wmin0 = tile.scan min %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xi64>
  %emin0 = tile.expand_dims %rmin0 {axis = 0 : i32} : !tile.block<8x5xi64> -> !tile.block<1x8x5xi64>
  %bmin0 = tile.broadcast %emin0 : !tile.block<1x8x5xi64> -> !tile.block<3x8x5xi64>
  %rsum1 = tile.reduce sum %x {axis = 1 : i32} : !tile.block<3x8x5xi64> -> !tile.block<3x5xi64>
  %ssum1 = tile.scan sum %x {axis = 1 : i32} : !tile.block<3x8x5xi64>
  %wsum1 = tile.scan sum %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi64>
  %esum1 = tile.expand_dims %rsum1 {axis = 1 : i32} : !tile.block<3x5xi64> -> !tile.block<3x1x5xi64>
  %bsum1 = tile.broadcast %esum1 : !tile.block<3x1x5xi64> -> !tile.block<3x8x5xi64>
  %rmax1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<3x8x5xi64> -> !tile.block<3x5xi64>
  %smax1 = tile.scan max %x {axis = 1 : i32} : !tile.block<3x8x5xi64>
  %wmax1 = tile.scan max %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi64>
  %emax1 = tile.expand_dims %rmax1 {axis = 1 : i32} : !tile.block<3x5xi64> -> !tile.block<3x1x5xi64>
  %bmax1 = tile.broadcast %emax1 : !tile.block<3x1x5xi64> -> !tile.block<3x8x5xi64>
  %rmin1 = tile.reduce min %x {axis = 1 : i32} : !tile.block<3x8x5xi64> -> !tile.block<3x5xi64>
  %smin1 = tile.scan min %x {axis = 1 : i32} : !tile.block<3x8x5xi64>
  %wmin1 = tile.scan min %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xi64>
  %emin1 = tile.expand_dims %rmin1 {axis = 1 : i32} : !tile.block<3x5xi64> -> !tile.block<3x1x5xi64>
  %bmin1 = tile.broadcast %emin1 : !tile.block<3x1x5xi64> -> !tile.block<3x8x5xi64>
  %rsum2 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<3x8x5xi64> -> !tile.block<3x8xi64>
  %ssum2 = tile.scan sum %x {axis = 2 : i32} : !tile.block<3x8x5xi64>
  %wsum2 = tile.scan sum %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi64>
  %esum2 = tile.expand_dims %rsum2 {axis = 2 : i32} : !tile.block<3x8xi64> -> !tile.block<3x8x1xi64>
  %bsum2 = tile.broadcast %esum2 : !tile.block<3x8x1xi64> -> !tile.block<3x8x5xi64>
  %rmax2 = tile.reduce max %x {axis = 2 : i32} : !tile.block<3x8x5xi64> -> !tile.block<3x8xi64>
  %smax2 = tile.scan max %x {axis = 2 : i32} : !tile.block<3x8x5xi64>
  %wmax2 = tile.scan max %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi64>
  %emax2 = tile.expand_dims %rmax2 {axis = 2 : i32} : !tile.block<3x8xi64> -> !tile.block<3x8x1xi64>
  %bmax2 = tile.broadcast %emax2 : !tile.block<3x8x1xi64> -> !tile.block<3x8x5xi64>
  %rmin2 = tile.reduce min %x {axis = 2 : i32} : !tile.block<3x8x5xi64> -> !tile.block<3x8xi64>
  %smin2 = tile.scan min %x {axis = 2 : i32} : !tile.block<3x8x5xi64>
  %wmin2 = tile.scan min %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xi64>
  %emin2 = tile.expand_dims %rmin2 {axis = 2 : i32} : !tile.block<3x8xi64> -> !tile.block<3x8x1xi64>
  %bmin2 = tile.broadcast %emin2 : !tile.block<3x8x1xi64> -> !tile.block<3x8x5xi64>
  %ob = tile.splat %outp : !tile.ptr<i64> -> !tile.block<3x8x5x!tile.ptr<i64>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<i64>>, !tile.block<3x8x5xi32>
  tile.store %oa, %bsum0 : !tile.block<3x8x5x!tile.ptr<i64>>
  tile.store %oa, %bmax1 : !tile.block<3x8x5x!tile.ptr<i64>>
  tile.store %oa, %bmin2 : !tile.block<3x8x5x!tile.ptr<i64>>
  tile.store %oa, %ssum0 : !tile.block<3x8x5x!tile.ptr<i64>>
  tile.store %oa, %wmax2 : !tile.block<3x8x5x!tile.ptr<i64>>
  %cr = tile.reduce custom %x {axis = 1 : i32} : !tile.block<3x8x5xi64> -> !tile.block<3x5xi64> {
  ^bb0(%a: i64, %q: i64):
    %m = arith.muli %a, %q : i64
    tile.yield %m : i64
  }
  %cs = tile.scan custom %x {axis = 2 : i32} : !tile.block<3x8x5xi64> {
  ^bb0(%a: i64, %q: i64):
    %m = arith.muli %a, %q : i64
    tile.yield %m : i64
  }
  tile.store %oa, %cs : !tile.block<3x8x5x!tile.ptr<i64>>
  %flat = tile.reshape %x : !tile.block<3x8x5xi64> -> !tile.block<120xi64>
  %all = tile.reduce custom %flat {axis = 0 : i32} : !tile.block<120xi64> -> i64 {
  ^bb0(%a: i64, %q: i64):
    %m = arith.muli %a, %q : i64
    tile.yield %m : i64
  }
  tile.store %outp, %all : !tile.ptr<i64>
  return
}

func.func @reduce_scan_f16(%xp: !tile.ptr<f16>, %outp: !tile.ptr<f16>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<f16> -> !tile.block<3x8x5x!tile.ptr<f16>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<f16>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<f16>>
  %rsum0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<3x8x5xf16> -> !tile.block<8x5xf16>
  %ssum0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<3x8x5xf16>
  %wsum0 = tile.scan sum %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xf16>
  %esum0 = tile.expand_dims %rsum0 {axis = 0 : i32} : !tile.block<8x5xf16> -> !tile.block<1x8x5xf16>
  %bsum0 = tile.broadcast %esum0 : !tile.block<1x8x5xf16> -> !tile.block<3x8x5xf16>
  %rmax0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<3x8x5xf16> -> !tile.block<8x5xf16>
  %smax0 = tile.scan max %x {axis = 0 : i32} : !tile.block<3x8x5xf16>
  %wmax0 = tile.scan max %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xf16>
  %emax0 = tile.expand_dims %rmax0 {axis = 0 : i32} : !tile.block<8x5xf16> -> !tile.block<1x8x5xf16>
  %bmax0 = tile.broadcast %emax0 : !tile.block<1x8x5xf16> -> !tile.block<3x8x5xf16>
  %rmin0 = tile.reduce min %x {axis = 0 : i32} : !tile.block<3x8x5xf16> -> !tile.block<8x5xf16>
  %smin0 = tile.scan min %x {axis = 0 : i32} : !tile.block<3x8x5xf16>
  %wmin0 = tile.scan min %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xf16>
  %emin0 = tile.expand_dims %rmin0 {axis = 0 : i32} : !tile.block<8x5xf16> -> !tile.block<1x8x5xf16>
  %bmin0 = tile.broadcast %emin0 : !tile.block<1x8x5xf16> -> !tile.block<3x8x5xf16>
  %rsum1 = tile.reduce sum %x {axis = 1 : i32} : !tile.block<3x8x5xf16> -> !tile.block<3x5xf16>
  %ssum1 = tile.scan sum %x {axis = 1 : i32} : !tile.block<3x8x5xf16>
  %wsum1 = tile.scan sum %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xf16>
  %esum1 = tile.expand_dims %rsum1 {axis = 1 : i32} : !tile.block<3x5xf16> -> !tile.block<3x1x5xf16>
  %bsum1 = tile.broadcast %esum1 : !tile.block<3x1x5xf16> -> !tile.block<3x8x5xf16>
  %rmax1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<3x8x5xf16> -> !tile.block<3x5xf16>
  %smax1 = tile.scan max %x {axis = 1 : i32} : !tile.block<3x8x5xf16>
  %wmax1 = tile.scan max %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xf16>
  %emax1 = tile.expand_dims %rmax1 {axis = 1 : i32} : !tile.block<3x5xf16> -> !tile.block<3x1x5xf16>
  %bmax1 = tile.broadcast %emax1 : !tile.block<3x1x5xf16> -> !tile.block<3x8x5xf16>
  %rmin1 = tile.reduce min %x {axis = 1 : i32} : !tile.block<3x8x5xf16> -> !tile.block<3x5xf16>
  %smin1 = tile.scan min %x {axis = 1 : i32} : !tile.block<3x8x5xf16>
  %wmin1 = tile.scan min %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xf16>
  %emin1 = tile.expand_dims %rmin1 {axis = 1 : i32} : !tile.block<3x5xf16> -> !tile.block<3x1x5xf16>
  %bmin1 = tile.broadcast %emin1 : !tile.block<3x1x5xf16> -> !tile.block<3x8x5xf16>
  %rsum2 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<3x8x5xf16> -> !tile.block<3x8xf16>
  %ssum2 = tile.scan sum %x {axis = 2 : i32} : !tile.block<3x8x5xf16>
  %wsum2 = tile.scan sum %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xf16>
  %esum2 = tile.expand_dims %rsum2 {axis = 2 : i32} : !tile.block<3x8xf16> -> !tile.block<3x8x1xf16>
  %bsum2 = tile.broadcast %esum2 : !tile.block<3x8x1xf16> -> !tile.block<3x8x5xf16>
  %rmax2 = tile.reduce max %x {axis = 2 : i32} : !tile.block<3x8x5xf16> -> !tile.block<3x8xf16>
  %smax2 = tile.scan max %x {axis = 2 : i32} : !tile.block<3x8x5xf16>
  %wmax2 = tile.scan max %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xf16>
  %emax2 = tile.expand_dims %rmax2 {axis = 2 : i32} : !tile.block<3x8xf16> -> !tile.block<3x8x1xf16>
  %bmax2 = tile.broadcast %emax2 : !tile.block<3x8x1xf16> -> !tile.block<3x8x5xf16>
  %rmin2 = tile.reduce min %x {axis = 2 : i32} : !tile.block<3x8x5xf16> -> !tile.block<3x8xf16>
  %smin2 = tile.scan min %x {axis = 2 : i32} : !tile.block<3x8x5xf16>
  %wmin2 = tile.scan min %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xf16>
  %emin2 = tile.expand_dims %rmin2 {axis = 2 : i32} : !tile.block<3x8xf16> -> !tile.block<3x8x1xf16>
  %bmin2 = tile.broadcast %emin2 : !tile.block<3x8x1xf16> -> !tile.block<3x8x5xf16>
  %ob = tile.splat %outp : !tile.ptr<f16> -> !tile.block<3x8x5x!tile.ptr<f16>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<f16>>, !tile.block<3x8x5xi32>
  tile.store %oa, %bsum0 : !tile.block<3x8x5x!tile.ptr<f16>>
  tile.store %oa, %bmax1 : !tile.block<3x8x5x!tile.ptr<f16>>
  tile.store %oa, %bmin2 : !tile.block<3x8x5x!tile.ptr<f16>>
  tile.store %oa, %ssum0 : !tile.block<3x8x5x!tile.ptr<f16>>
  tile.store %oa, %wmax2 : !tile.block<3x8x5x!tile.ptr<f16>>
  %cr = tile.reduce custom %x {axis = 1 : i32} : !tile.block<3x8x5xf16> -> !tile.block<3x5xf16> {
  ^bb0(%a: f16, %q: f16):
    %m = arith.addf %a, %q : f16
    tile.yield %m : f16
  }
  %cs = tile.scan custom %x {axis = 2 : i32} : !tile.block<3x8x5xf16> {
  ^bb0(%a: f16, %q: f16):
    %m = arith.addf %a, %q : f16
    tile.yield %m : f16
  }
  tile.store %oa, %cs : !tile.block<3x8x5x!tile.ptr<f16>>
  %flat = tile.reshape %x : !tile.block<3x8x5xf16> -> !tile.block<120xf16>
  %all = tile.reduce custom %flat {axis = 0 : i32} : !tile.block<120xf16> -> f16 {
  ^bb0(%a: f16, %q: f16):
    %m = arith.addf %a, %q : f16
    tile.yield %m : f16
  }
  tile.store %outp, %all : !tile.ptr<f16>
  return
}

func.func @reduce_scan_bf16(%xp: !tile.ptr<bf16>, %outp: !tile.ptr<bf16>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<bf16> -> !tile.block<3x8x5x!tile.ptr<bf16>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<bf16>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<bf16>>
  %rsum0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<8x5xbf16>
  %ssum0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<3x8x5xbf16>
  %wsum0 = tile.scan sum %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xbf16>
  %esum0 = tile.expand_dims %rsum0 {axis = 0 : i32} : !tile.block<8x5xbf16> -> !tile.block<1x8x5xbf16>
  %bsum0 = tile.broadcast %esum0 : !tile.block<1x8x5xbf16> -> !tile.block<3x8x5xbf16>
  %rmax0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<8x5xbf16>
  %smax0 = tile.scan max %x {axis = 0 : i32} : !tile.block<3x8x5xbf16>
  %wmax0 = tile.scan max %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xbf16>
  %emax0 = tile.expand_dims %rmax0 {axis = 0 : i32} : !tile.block<8x5xbf16> -> !tile.block<1x8x5xbf16>
  %bmax0 = tile.broadcast %emax0 : !tile.block<1x8x5xbf16> -> !tile.block<3x8x5xbf16>
  %rmin0 = tile.reduce min %x {axis = 0 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<8x5xbf16>
  %smin0 = tile.scan min %x {axis = 0 : i32} : !tile.block<3x8x5xbf16>
  %wmin0 = tile.scan min %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xbf16>
  %emin0 = tile.expand_dims %rmin0 {axis = 0 : i32} : !tile.block<8x5xbf16> -> !tile.block<1x8x5xbf16>
  %bmin0 = tile.broadcast %emin0 : !tile.block<1x8x5xbf16> -> !tile.block<3x8x5xbf16>
  %rsum1 = tile.reduce sum %x {axis = 1 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<3x5xbf16>
  %ssum1 = tile.scan sum %x {axis = 1 : i32} : !tile.block<3x8x5xbf16>
  %wsum1 = tile.scan sum %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xbf16>
  %esum1 = tile.expand_dims %rsum1 {axis = 1 : i32} : !tile.block<3x5xbf16> -> !tile.block<3x1x5xbf16>
  %bsum1 = tile.broadcast %esum1 : !tile.block<3x1x5xbf16> -> !tile.block<3x8x5xbf16>
  %rmax1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<3x5xbf16>
  %smax1 = tile.scan max %x {axis = 1 : i32} : !tile.block<3x8x5xbf16>
  %wmax1 = tile.scan max %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xbf16>
  %emax1 = tile.expand_dims %rmax1 {axis = 1 : i32} : !tile.block<3x5xbf16> -> !tile.block<3x1x5xbf16>
  %bmax1 = tile.broadcast %emax1 : !tile.block<3x1x5xbf16> -> !tile.block<3x8x5xbf16>
  %rmin1 = tile.reduce min %x {axis = 1 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<3x5xbf16>
  %smin1 = tile.scan min %x {axis = 1 : i32} : !tile.block<3x8x5xbf16>
  %wmin1 = tile.scan min %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xbf16>
  %emin1 = tile.expand_dims %rmin1 {axis = 1 : i32} : !tile.block<3x5xbf16> -> !tile.block<3x1x5xbf16>
  %bmin1 = tile.broadcast %emin1 : !tile.block<3x1x5xbf16> -> !tile.block<3x8x5xbf16>
  %rsum2 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<3x8xbf16>
  %ssum2 = tile.scan sum %x {axis = 2 : i32} : !tile.block<3x8x5xbf16>
  %wsum2 = tile.scan sum %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xbf16>
  %esum2 = tile.expand_dims %rsum2 {axis = 2 : i32} : !tile.block<3x8xbf16> -> !tile.block<3x8x1xbf16>
  %bsum2 = tile.broadcast %esum2 : !tile.block<3x8x1xbf16> -> !tile.block<3x8x5xbf16>
  %rmax2 = tile.reduce max %x {axis = 2 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<3x8xbf16>
  %smax2 = tile.scan max %x {axis = 2 : i32} : !tile.block<3x8x5xbf16>
  %wmax2 = tile.scan max %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xbf16>
  %emax2 = tile.expand_dims %rmax2 {axis = 2 : i32} : !tile.block<3x8xbf16> -> !tile.block<3x8x1xbf16>
  %bmax2 = tile.broadcast %emax2 : !tile.block<3x8x1xbf16> -> !tile.block<3x8x5xbf16>
  %rmin2 = tile.reduce min %x {axis = 2 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<3x8xbf16>
  %smin2 = tile.scan min %x {axis = 2 : i32} : !tile.block<3x8x5xbf16>
  %wmin2 = tile.scan min %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xbf16>
  %emin2 = tile.expand_dims %rmin2 {axis = 2 : i32} : !tile.block<3x8xbf16> -> !tile.block<3x8x1xbf16>
  %bmin2 = tile.broadcast %emin2 : !tile.block<3x8x1xbf16> -> !tile.block<3x8x5xbf16>
  %ob = tile.splat %outp : !tile.ptr<bf16> -> !tile.block<3x8x5x!tile.ptr<bf16>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<bf16>>, !tile.block<3x8x5xi32>
  tile.store %oa, %bsum0 : !tile.block<3x8x5x!tile.ptr<bf16>>
  tile.store %oa, %bmax1 : !tile.block<3x8x5x!tile.ptr<bf16>>
  tile.store %oa, %bmin2 : !tile.block<3x8x5x!tile.ptr<bf16>>
  tile.store %oa, %ssum0 : !tile.block<3x8x5x!tile.ptr<bf16>>
  tile.store %oa, %wmax2 : !tile.block<3x8x5x!tile.ptr<bf16>>
  %cr = tile.reduce custom %x {axis = 1 : i32} : !tile.block<3x8x5xbf16> -> !tile.block<3x5xbf16> {
  ^bb0(%a: bf16, %q: bf16):
    %m = arith.addf %a, %q : bf16
    tile.yield %m : bf16
  }
  %cs = tile.scan custom %x {axis = 2 : i32} : !tile.block<3x8x5xbf16> {
  ^bb0(%a: bf16, %q: bf16):
    %m = arith.addf %a, %q : bf16
    tile.yield %m : bf16
  }
  tile.store %oa, %cs : !tile.block<3x8x5x!tile.ptr<bf16>>
  %flat = tile.reshape %x : !tile.block<3x8x5xbf16> -> !tile.block<120xbf16>
  %all = tile.reduce custom %flat {axis = 0 : i32} : !tile.block<120xbf16> -> bf16 {
  ^bb0(%a: bf16, %q: bf16):
    %m = arith.addf %a, %q : bf16
    tile.yield %m : bf16
  }
  tile.store %outp, %all : !tile.ptr<bf16>
  return
}

func.func @reduce_scan_f32(%xp: !tile.ptr<f32>, %outp: !tile.ptr<f32>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<f32> -> !tile.block<3x8x5x!tile.ptr<f32>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<f32>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<f32>>
  %rsum0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<3x8x5xf32> -> !tile.block<8x5xf32>
  %ssum0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<3x8x5xf32>
  %wsum0 = tile.scan sum %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xf32>
  %esum0 = tile.expand_dims %rsum0 {axis = 0 : i32} : !tile.block<8x5xf32> -> !tile.block<1x8x5xf32>
  %bsum0 = tile.broadcast %esum0 : !tile.block<1x8x5xf32> -> !tile.block<3x8x5xf32>
  %rmax0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<3x8x5xf32> -> !tile.block<8x5xf32>
  %smax0 = tile.scan max %x {axis = 0 : i32} : !tile.block<3x8x5xf32>
  %wmax0 = tile.scan max %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xf32>
  %emax0 = tile.expand_dims %rmax0 {axis = 0 : i32} : !tile.block<8x5xf32> -> !tile.block<1x8x5xf32>
  %bmax0 = tile.broadcast %emax0 : !tile.block<1x8x5xf32> -> !tile.block<3x8x5xf32>
  %rmin0 = tile.reduce min %x {axis = 0 : i32} : !tile.block<3x8x5xf32> -> !tile.block<8x5xf32>
  %smin0 = tile.scan min %x {axis = 0 : i32} : !tile.block<3x8x5xf32>
  %wmin0 = tile.scan min %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xf32>
  %emin0 = tile.expand_dims %rmin0 {axis = 0 : i32} : !tile.block<8x5xf32> -> !tile.block<1x8x5xf32>
  %bmin0 = tile.broadcast %emin0 : !tile.block<1x8x5xf32> -> !tile.block<3x8x5xf32>
  %rsum1 = tile.reduce sum %x {axis = 1 : i32} : !tile.block<3x8x5xf32> -> !tile.block<3x5xf32>
  %ssum1 = tile.scan sum %x {axis = 1 : i32} : !tile.block<3x8x5xf32>
  %wsum1 = tile.scan sum %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xf32>
  %esum1 = tile.expand_dims %rsum1 {axis = 1 : i32} : !tile.block<3x5xf32> -> !tile.block<3x1x5xf32>
  %bsum1 = tile.broadcast %esum1 : !tile.block<3x1x5xf32> -> !tile.block<3x8x5xf32>
  %rmax1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<3x8x5xf32> -> !tile.block<3x5xf32>
  %smax1 = tile.scan max %x {axis = 1 : i32} : !tile.block<3x8x5xf32>
  %wmax1 = tile.scan max %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xf32>
  %emax1 = tile.expand_dims %rmax1 {axis = 1 : i32} : !tile.block<3x5xf32> -> !tile.block<3x1x5xf32>
  %bmax1 = tile.broadcast %emax1 : !tile.block<3x1x5xf32> -> !tile.block<3x8x5xf32>
  %rmin1 = tile.reduce min %x {axis = 1 : i32} : !tile.block<3x8x5xf32> -> !tile.block<3x5xf32>
  %smin1 = tile.scan min %x {axis = 1 : i32} : !tile.block<3x8x5xf32>
  %wmin1 = tile.scan min %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xf32>
  %emin1 = tile.expand_dims %rmin1 {axis = 1 : i32} : !tile.block<3x5xf32> -> !tile.block<3x1x5xf32>
  %bmin1 = tile.broadcast %emin1 : !tile.block<3x1x5xf32> -> !tile.block<3x8x5xf32>
  %rsum2 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<3x8x5xf32> -> !tile.block<3x8xf32>
  %ssum2 = tile.scan sum %x {axis = 2 : i32} : !tile.block<3x8x5xf32>
  %wsum2 = tile.scan sum %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xf32>
  %esum2 = tile.expand_dims %rsum2 {axis = 2 : i32} : !tile.block<3x8xf32> -> !tile.block<3x8x1xf32>
  %bsum2 = tile.broadcast %esum2 : !tile.block<3x8x1xf32> -> !tile.block<3x8x5xf32>
  %rmax2 = tile.reduce max %x {axis = 2 : i32} : !tile.block<3x8x5xf32> -> !tile.block<3x8xf32>
  %smax2 = tile.scan max %x {axis = 2 : i32} : !tile.block<3x8x5xf32>
  %wmax2 = tile.scan max %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xf32>
  %emax2 = tile.expand_dims %rmax2 {axis = 2 : i32} : !tile.block<3x8xf32> -> !tile.block<3x8x1xf32>
  %bmax2 = tile.broadcast %emax2 : !tile.block<3x8x1xf32> -> !tile.block<3x8x5xf32>
  %rmin2 = tile.reduce min %x {axis = 2 : i32} : !tile.block<3x8x5xf32> -> !tile.block<3x8xf32>
  %smin2 = tile.scan min %x {axis = 2 : i32} : !tile.block<3x8x5xf32>
  %wmin2 = tile.scan min %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xf32>
  %emin2 = tile.expand_dims %rmin2 {axis = 2 : i32} : !tile.block<3x8xf32> -> !tile.block<3x8x1xf32>
  %bmin2 = tile.broadcast %emin2 : !tile.block<3x8x1xf32> -> !tile.block<3x8x5xf32>
  %ob = tile.splat %outp : !tile.ptr<f32> -> !tile.block<3x8x5x!tile.ptr<f32>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<f32>>, !tile.block<3x8x5xi32>
  tile.store %oa, %bsum0 : !tile.block<3x8x5x!tile.ptr<f32>>
  tile.store %oa, %bmax1 : !tile.block<3x8x5x!tile.ptr<f32>>
  tile.store %oa, %bmin2 : !tile.block<3x8x5x!tile.ptr<f32>>
  tile.store %oa, %ssum0 : !tile.block<3x8x5x!tile.ptr<f32>>
  tile.store %oa, %wmax2 : !tile.block<3x8x5x!tile.ptr<f32>>
  %cr = tile.reduce custom %x {axis = 1 : i32} : !tile.block<3x8x5xf32> -> !tile.block<3x5xf32> {
  ^bb0(%a: f32, %q: f32):
    %m = arith.addf %a, %q : f32
    tile.yield %m : f32
  }
  %cs = tile.scan custom %x {axis = 2 : i32} : !tile.block<3x8x5xf32> {
  ^bb0(%a: f32, %q: f32):
    %m = arith.addf %a, %q : f32
    tile.yield %m : f32
  }
  tile.store %oa, %cs : !tile.block<3x8x5x!tile.ptr<f32>>
  %flat = tile.reshape %x : !tile.block<3x8x5xf32> -> !tile.block<120xf32>
  %all = tile.reduce custom %flat {axis = 0 : i32} : !tile.block<120xf32> -> f32 {
  ^bb0(%a: f32, %q: f32):
    %m = arith.addf %a, %q : f32
    tile.yield %m : f32
  }
  tile.store %outp, %all : !tile.ptr<f32>
  return
}

func.func @reduce_scan_f64(%xp: !tile.ptr<f64>, %outp: !tile.ptr<f64>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<3x8x5xi32>
  %xb = tile.splat %xp : !tile.ptr<f64> -> !tile.block<3x8x5x!tile.ptr<f64>>
  %xa = tile.addptr %xb, %offs : !tile.block<3x8x5x!tile.ptr<f64>>, !tile.block<3x8x5xi32>
  %x = tile.load %xa : !tile.block<3x8x5x!tile.ptr<f64>>
  %rsum0 = tile.reduce sum %x {axis = 0 : i32} : !tile.block<3x8x5xf64> -> !tile.block<8x5xf64>
  %ssum0 = tile.scan sum %x {axis = 0 : i32} : !tile.block<3x8x5xf64>
  %wsum0 = tile.scan sum %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xf64>
  %esum0 = tile.expand_dims %rsum0 {axis = 0 : i32} : !tile.block<8x5xf64> -> !tile.block<1x8x5xf64>
  %bsum0 = tile.broadcast %esum0 : !tile.block<1x8x5xf64> -> !tile.block<3x8x5xf64>
  %rmax0 = tile.reduce max %x {axis = 0 : i32} : !tile.block<3x8x5xf64> -> !tile.block<8x5xf64>
  %smax0 = tile.scan max %x {axis = 0 : i32} : !tile.block<3x8x5xf64>
  %wmax0 = tile.scan max %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xf64>
  %emax0 = tile.expand_dims %rmax0 {axis = 0 : i32} : !tile.block<8x5xf64> -> !tile.block<1x8x5xf64>
  %bmax0 = tile.broadcast %emax0 : !tile.block<1x8x5xf64> -> !tile.block<3x8x5xf64>
  %rmin0 = tile.reduce min %x {axis = 0 : i32} : !tile.block<3x8x5xf64> -> !tile.block<8x5xf64>
  %smin0 = tile.scan min %x {axis = 0 : i32} : !tile.block<3x8x5xf64>
  %wmin0 = tile.scan min %x {axis = 0 : i32, reverse} : !tile.block<3x8x5xf64>
  %emin0 = tile.expand_dims %rmin0 {axis = 0 : i32} : !tile.block<8x5xf64> -> !tile.block<1x8x5xf64>
  %bmin0 = tile.broadcast %emin0 : !tile.block<1x8x5xf64> -> !tile.block<3x8x5xf64>
  %rsum1 = tile.reduce sum %x {axis = 1 : i32} : !tile.block<3x8x5xf64> -> !tile.block<3x5xf64>
  %ssum1 = tile.scan sum %x {axis = 1 : i32} : !tile.block<3x8x5xf64>
  %wsum1 = tile.scan sum %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xf64>
  %esum1 = tile.expand_dims %rsum1 {axis = 1 : i32} : !tile.block<3x5xf64> -> !tile.block<3x1x5xf64>
  %bsum1 = tile.broadcast %esum1 : !tile.block<3x1x5xf64> -> !tile.block<3x8x5xf64>
  %rmax1 = tile.reduce max %x {axis = 1 : i32} : !tile.block<3x8x5xf64> -> !tile.block<3x5xf64>
  %smax1 = tile.scan max %x {axis = 1 : i32} : !tile.block<3x8x5xf64>
  %wmax1 = tile.scan max %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xf64>
  %emax1 = tile.expand_dims %rmax1 {axis = 1 : i32} : !tile.block<3x5xf64> -> !tile.block<3x1x5xf64>
  %bmax1 = tile.broadcast %emax1 : !tile.block<3x1x5xf64> -> !tile.block<3x8x5xf64>
  %rmin1 = tile.reduce min %x {axis = 1 : i32} : !tile.block<3x8x5xf64> -> !tile.block<3x5xf64>
  %smin1 = tile.scan min %x {axis = 1 : i32} : !tile.block<3x8x5xf64>
  %wmin1 = tile.scan min %x {axis = 1 : i32, reverse} : !tile.block<3x8x5xf64>
  %emin1 = tile.expand_dims %rmin1 {axis = 1 : i32} : !tile.block<3x5xf64> -> !tile.block<3x1x5xf64>
  %bmin1 = tile.broadcast %emin1 : !tile.block<3x1x5xf64> -> !tile.block<3x8x5xf64>
  %rsum2 = tile.reduce sum %x {axis = 2 : i32} : !tile.block<3x8x5xf64> -> !tile.block<3x8xf64>
  %ssum2 = tile.scan sum %x {axis = 2 : i32} : !tile.block<3x8x5xf64>
  %wsum2 = tile.scan sum %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xf64>
  %esum2 = tile.expand_dims %rsum2 {axis = 2 : i32} : !tile.block<3x8xf64> -> !tile.block<3x8x1xf64>
  %bsum2 = tile.broadcast %esum2 : !tile.block<3x8x1xf64> -> !tile.block<3x8x5xf64>
  %rmax2 = tile.reduce max %x {axis = 2 : i32} : !tile.block<3x8x5xf64> -> !tile.block<3x8xf64>
  %smax2 = tile.scan max %x {axis = 2 : i32} : !tile.block<3x8x5xf64>
  %wmax2 = tile.scan max %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xf64>
  %emax2 = tile.expand_dims %rmax2 {axis = 2 : i32} : !tile.block<3x8xf64> -> !tile.block<3x8x1xf64>
  %bmax2 = tile.broadcast %emax2 : !tile.block<3x8x1xf64> -> !tile.block<3x8x5xf64>
  %rmin2 = tile.reduce min %x {axis = 2 : i32} : !tile.block<3x8x5xf64> -> !tile.block<3x8xf64>
  %smin2 = tile.scan min %x {axis = 2 : i32} : !tile.block<3x8x5xf64>
  %wmin2 = tile.scan min %x {axis = 2 : i32, reverse} : !tile.block<3x8x5xf64>
  %emin2 = tile.expand_dims %rmin2 {axis = 2 : i32} : !tile.block<3x8xf64> -> !tile.block<3x8x1xf64>
  %bmin2 = tile.broadcast %emin2 : !tile.block<3x8x1xf64> -> !tile.block<3x8x5xf64>
  %ob = tile.splat %outp : !tile.ptr<f64> -> !tile.block<3x8x5x!tile.ptr<f64>>
  %oa = tile.addptr %ob, %offs : !tile.block<3x8x5x!tile.ptr<f64>>, !tile.block<3x8x5xi32>
  tile.store %oa, %bsum0 : !tile.block<3x8x5x!tile.ptr<f64>>
  tile.store %oa, %bmax1 : !tile.block<3x8x5x!tile.ptr<f64>>
  tile.store %oa, %bmin2 : !tile.block<3x8x5x!tile.ptr<f64>>
  tile.store %oa, %ssum0 : !tile.block<3x8x5x!tile.ptr<f64>>
  tile.store %oa, %wmax2 : !tile.block<3x8x5x!tile.ptr<f64>>
  %cr = tile.reduce custom %x {axis = 1 : i32} : !tile.block<3x8x5xf64> -> !tile.block<3x5xf64> {
  ^bb0(%a: f64, %q: f64):
    %m = arith.addf %a, %q : f64
    tile.yield %m : f64
  }
  %cs = tile.scan custom %x {axis = 2 : i32} : !tile.block<3x8x5xf64> {
  ^bb0(%a: f64, %q: f64):
    %m = arith.addf %a, %q : f64
    tile.yield %m : f64
  }
  tile.store %oa, %cs : !tile.block<3x8x5x!tile.ptr<f64>>
  %flat = tile.reshape %x : !tile.block<3x8x5xf64> -> !tile.block<120xf64>
  %all = tile.reduce custom %flat {axis = 0 : i32} : !tile.block<120xf64> -> f64 {
  ^bb0(%a: f64, %q: f64):
    %m = arith.addf %a, %q : f64
    tile.yield %m : f64
  }
  tile.store %outp, %all : !tile.ptr<f64>
  return
}

func.func @dot_f16(%ap: !tile.ptr<f16>, %outp: !tile.ptr<f32>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<24x5xi32>
  %ab = tile.splat %ap : !tile.ptr<f16> -> !tile.block<24x5x!tile.ptr<f16>>
  %aa = tile.addptr %ab, %offs : !tile.block<24x5x!tile.ptr<f16>>, !tile.block<24x5xi32>
  %a = tile.load %aa : !tile.block<24x5x!tile.ptr<f16>>
  %bt = tile.trans %a : !tile.block<24x5xf16> -> !tile.block<5x24xf16>
  %acc = tile.constant dense<1.0> : !tile.block<24x24xf32>
  %d = tile.dot %a, %bt, %acc : !tile.block<24x5xf16>, !tile.block<5x24xf16> -> !tile.block<24x24xf32>
  %i2 = tile.arange 0, 576 : !tile.block<576xi32>
  %o2 = tile.reshape %i2 : !tile.block<576xi32> -> !tile.block<24x24xi32>
  %ob = tile.splat %outp : !tile.ptr<f32> -> !tile.block<24x24x!tile.ptr<f32>>
  %oa = tile.addptr %ob, %o2 : !tile.block<24x24x!tile.ptr<f32>>, !tile.block<24x24xi32>
  tile.store %oa, %d : !tile.block<24x24x!tile.ptr<f32>>
  return
}

func.func @dot_bf16(%ap: !tile.ptr<bf16>, %outp: !tile.ptr<f32>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<24x5xi32>
  %ab = tile.splat %ap : !tile.ptr<bf16> -> !tile.block<24x5x!tile.ptr<bf16>>
  %aa = tile.addptr %ab, %offs : !tile.block<24x5x!tile.ptr<bf16>>, !tile.block<24x5xi32>
  %a = tile.load %aa : !tile.block<24x5x!tile.ptr<bf16>>
  %bt = tile.trans %a : !tile.block<24x5xbf16> -> !tile.block<5x24xbf16>
  %acc = tile.constant dense<1.0> : !tile.block<24x24xf32>
  %d = tile.dot %a, %bt, %acc : !tile.block<24x5xbf16>, !tile.block<5x24xbf16> -> !tile.block<24x24xf32>
  %i2 = tile.arange 0, 576 : !tile.block<576xi32>
  %o2 = tile.reshape %i2 : !tile.block<576xi32> -> !tile.block<24x24xi32>
  %ob = tile.splat %outp : !tile.ptr<f32> -> !tile.block<24x24x!tile.ptr<f32>>
  %oa = tile.addptr %ob, %o2 : !tile.block<24x24x!tile.ptr<f32>>, !tile.block<24x24xi32>
  tile.store %oa, %d : !tile.block<24x24x!tile.ptr<f32>>
  return
}

func.func @dot_f32(%ap: !tile.ptr<f32>, %outp: !tile.ptr<f32>) {
  %idx = tile.arange 0, 120 : !tile.block<120xi32>
  %offs = tile.reshape %idx : !tile.block<120xi32> -> !tile.block<24x5xi32>
  %ab = tile.splat %ap : !tile.ptr<f32> -> !tile.block<24x5x!tile.ptr<f32>>
  %aa = tile.addptr %ab, %offs : !tile.block<24x5x!tile.ptr<f32>>, !tile.block<24x5xi32>
  %a = tile.load %aa : !tile.block<24x5x!tile.ptr<f32>>
  %bt = tile.trans %a : !tile.block<24x5xf32> -> !tile.block<5x24xf32>
  %acc = tile.constant dense<1.0> : !tile.block<24x24xf32>
  %d = tile.dot %a, %bt, %acc : !tile.block<24x5xf32>, !tile.block<5x24xf32> -> !tile.block<24x24xf32>
  %i2 = tile.arange 0, 576 : !tile.block<576xi32>
  %o2 = tile.reshape %i2 : !tile.block<576xi32> -> !tile.block<24x24xi32>
  %ob = tile.splat %outp : !tile.ptr<f32> -> !tile.block<24x24x!tile.ptr<f32>>
  %oa = tile.addptr %ob, %o2 : !tile.block<24x24x!tile.ptr<f32>>, !tile.block<24x24xi32>
  tile.store %oa, %d : !tile.block<24x24x!tile.ptr<f32>>
  return
}

func.func @control_flow(%xp: !tile.ptr<f32>, %n: i32, %flag: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %idx = tile.arange 0, 100 : !tile.block<100xi32>
  %xb = tile.splat %xp : !tile.ptr<f32> -> !tile.block<100x!tile.ptr<f32>>
  %xa = tile.addptr %xb, %idx : !tile.block<100x!tile.ptr<f32>>, !tile.block<100xi32>
  %x = tile.load %xa : !tile.block<100x!tile.ptr<f32>>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (!tile.block<100xf32>) : i32 {
    %d = tile.addf %acc, %x : !tile.block<100xf32>
    scf.yield %d : !tile.block<100xf32>
  }
  %cond = arith.cmpi sgt, %flag, %c0 : i32
  %chosen = scf.if %cond -> (!tile.block<100xf32>) {
    %e = tile.exp %sum : !tile.block<100xf32>
    scf.yield %e : !tile.block<100xf32>
  } else {
    scf.yield %x : !tile.block<100xf32>
  }
  %res:2 = scf.while (%v = %chosen, %k = %c0) : (!tile.block<100xf32>, i32) -> (!tile.block<100xf32>, i32) {
    %more = arith.cmpi slt, %k, %n : i32
    scf.condition(%more) %v, %k : !tile.block<100xf32>, i32
  } do {
  ^bb0(%w: !tile.block<100xf32>, %j: i32):
    %half = tile.constant dense<0.5> : !tile.block<100xf32>
    %m = tile.mulf %w, %half : !tile.block<100xf32>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %m, %j1 : !tile.block<100xf32>, i32
  }
  %total = tile.reduce sum %res#0 {axis = 0 : i32} : !tile.block<100xf32> -> f32
  %tb = tile.splat %total : f32 -> !tile.block<100xf32>
  tile.store %xa, %tb : !tile.block<100x!tile.ptr<f32>>
  %s = tile.load %xp : !tile.ptr<f32>
  %pos = arith.cmpf ogt, %s, %total : f32
  %q = tile.addptr %xp, %n : !tile.ptr<f32>, i32
  tile.store %q, %s mask %pos : !tile.ptr<f32>
  %s2 = tile.load %q mask %pos other %total : !tile.ptr<f32>
  tile.store %xp, %s2 : !tile.ptr<f32>
  return
}

func.func @constants_and_programs(%xp: !tile.ptr<i32>) {
  %pid0 = tile.program_id 0 : i32
  %pid1 = tile.program_id 1 : i32
  %pid2 = tile.program_id 2 : i32
  %n0 = tile.num_programs 0 : i32
  %n1 = tile.num_programs 1 : i32
  %n2 = tile.num_programs 2 : i32
  %a = arith.addi %pid0, %pid1 : i32
  %b = arith.addi %pid2, %n0 : i32
  %c = arith.addi %n1, %n2 : i32
  %d = arith.addi %a, %b : i32
  %e = arith.addi %c, %d : i32
  %steps = tile.constant dense<[3, 1, 4, 1, 5, 9, 2, 6]> : !tile.block<8xi32>
  %eb = tile.splat %e : i32 -> !tile.block<8xi32>
  %v = tile.addi %steps, %eb : !tile.block<8xi32>
  %idx = tile.arange 0, 8 : !tile.block<8xi32>
  %xb = tile.splat %xp : !tile.ptr<i32> -> !tile.block<8x!tile.ptr<i32>>
  %xa = tile.addptr %xb, %idx : !tile.block<8x!tile.ptr<i32>>, !tile.block<8xi32>
  %m = tile.cmpi sgt, %v, %idx : !tile.block<8xi32>
  tile.store %xa, %v mask %m : !tile.block<8x!tile.ptr<i32>>
  return
}
