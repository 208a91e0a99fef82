// RUN: tile-opt %s -tile-launch-tensor-maps -split-input-file | FileCheck %s
// RUN: tile-opt %s -tile-launch-tensor-maps=chip=sm_90 -split-input-file | FileCheck %s --check-prefix=NOTMA

// Tutorial 06's descriptor: extents and strides that are products of the
// kernel's arguments and constants, a 16-byte aligned base. The map becomes
// the kernel's last argument with the recipe the launcher encodes it by;
// the load's box names that argument. Without TMA (sm_90) the load keeps
// its pointers only.
// CHECK-LABEL: func.func @products
// CHECK-SAME: %[[MAP:[^:]*]]: !tile.tensor_map {tile.tensor_map_recipe = {base = 0 : i64, name = "q.tensor_map", shape = {{\[}}[2, array<i64: 1, 2>], [64, array<i64>]], strides = {{\[}}[64, array<i64>], [1, array<i64>]]}}
// CHECK-NOT: tile.make_tensor_map
// CHECK: tile.load %{{.*}} tensor_map %[[MAP]][%{{.*}}, %{{.*}}]
// NOTMA-LABEL: func.func @products
// NOTMA-SAME: %{{[^:]*}}: i32) {
// NOTMA: tile.load %{{[^ ]*}} : !tile.block<64x64x!tile.ptr<f16>>
func.func @products(%q: !tile.ptr<f16> {tile.divisibility = 16 : i32} loc("q"),
                    %z: i32 loc("z"), %n: i32 loc("n")) {
  %c2 = arith.constant 2 : i32
  %c64 = arith.constant 64 : i32
  %c64_i64 = arith.constant 64 : i64
  %c1_i64 = arith.constant 1 : i64
  %zn = arith.muli %z, %n : i32
  %rows = arith.muli %zn, %c2 : i32
  %map = tile.make_tensor_map %q[%rows, %c64], [%c64_i64, %c1_i64] : !tile.ptr<f16>
  %p = tile.splat %q : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %c0 = arith.constant 0 : i32
  %a = tile.load %p tensor_map %map[%c0, %c0] : !tile.block<64x64x!tile.ptr<f16>>
  return
}

// -----

// A row stride that is an argument (i32, sign-extended): 16-byte multiple
// only because the argument is a multiple of 8 f16 elements. The name
// `x.tensor_map` is taken, so the map's gets a suffix.
// CHECK-LABEL: func.func @argument_stride
// CHECK-SAME: %{{[^:]*}}: !tile.tensor_map {tile.tensor_map_recipe = {base = 0 : i64, name = "x.tensor_map_1", shape = {{\[}}[1, array<i64: 1>], [1, array<i64: 2>]], strides = {{\[}}[1, array<i64: 3>], [1, array<i64>]]}}
func.func @argument_stride(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32} loc("x"),
                           %m: i32 loc("m"), %n: i32 loc("n"),
                           %stride: i32 {tile.divisibility = 8 : i32} loc("stride"),
                           %taken: i32 loc("x.tensor_map")) {
  %s = arith.extsi %stride : i32 to i64
  %c1_i64 = arith.constant 1 : i64
  %map = tile.make_tensor_map %x[%m, %n], [%s, %c1_i64] : !tile.ptr<f16>
  %p = tile.splat %x : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %c0 = arith.constant 0 : i32
  %a = tile.load %p tensor_map %map[%c0, %c0] : !tile.block<64x64x!tile.ptr<f16>>
  return
}

// -----

// Where TMA could not read the tensor, the loads and stores drop their
// boxes and keep their pointers, and the map stays for the lowering to
// drop: a base not known to be 16-byte aligned; a stride of 4 f16 elements
// (8 bytes); an extent that is not a product of arguments (program_id);
// a last stride that is not 1.
// CHECK-LABEL: func.func @unaligned_base
// CHECK-SAME: %{{[^:]*}}: i32)
// CHECK: tile.make_tensor_map
// CHECK: tile.load %{{[^ ]*}} : !tile.block<64x64x!tile.ptr<f16>>
// CHECK: tile.store %{{[^ ]*}}, %{{[^ ]*}} : !tile.block<64x64x!tile.ptr<f16>>
func.func @unaligned_base(%x: !tile.ptr<f16>, %m: i32) {
  %c64 = arith.constant 64 : i32
  %c64_i64 = arith.constant 64 : i64
  %c1_i64 = arith.constant 1 : i64
  %map = tile.make_tensor_map %x[%m, %c64], [%c64_i64, %c1_i64] : !tile.ptr<f16>
  %p = tile.splat %x : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %c0 = arith.constant 0 : i32
  %a = tile.load %p tensor_map %map[%c0, %c0] : !tile.block<64x64x!tile.ptr<f16>>
  tile.store %p, %a tensor_map %map[%c0, %c0] : !tile.block<64x64x!tile.ptr<f16>>
  return
}

// -----

// CHECK-LABEL: func.func @eight_byte_stride
// CHECK-SAME: %{{[^:]*}}: i32)
// CHECK: tile.load %{{[^ ]*}} : !tile.block<64x4x!tile.ptr<f16>>
func.func @eight_byte_stride(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32) {
  %c4 = arith.constant 4 : i32
  %c4_i64 = arith.constant 4 : i64
  %c1_i64 = arith.constant 1 : i64
  %map = tile.make_tensor_map %x[%m, %c4], [%c4_i64, %c1_i64] : !tile.ptr<f16>
  %p = tile.splat %x : !tile.ptr<f16> -> !tile.block<64x4x!tile.ptr<f16>>
  %c0 = arith.constant 0 : i32
  %a = tile.load %p tensor_map %map[%c0, %c0] : !tile.block<64x4x!tile.ptr<f16>>
  return
}

// -----

// CHECK-LABEL: func.func @program_extent
// CHECK-SAME: %{{[^:]*}}: i32)
// CHECK: tile.load %{{[^ ]*}} : !tile.block<64x64x!tile.ptr<f16>>
func.func @program_extent(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32) {
  %pid = tile.program_id 0 : i32
  %rows = arith.muli %pid, %m : i32
  %c64 = arith.constant 64 : i32
  %c64_i64 = arith.constant 64 : i64
  %c1_i64 = arith.constant 1 : i64
  %map = tile.make_tensor_map %x[%rows, %c64], [%c64_i64, %c1_i64] : !tile.ptr<f16>
  %p = tile.splat %x : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %c0 = arith.constant 0 : i32
  %a = tile.load %p tensor_map %map[%c0, %c0] : !tile.block<64x64x!tile.ptr<f16>>
  return
}

// -----

// CHECK-LABEL: func.func @strided_last
// CHECK-SAME: %{{[^:]*}}: i64)
// CHECK: tile.load %{{[^ ]*}} : !tile.block<64x64x!tile.ptr<f16>>
func.func @strided_last(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32,
                        %s: i64) {
  %c64 = arith.constant 64 : i32
  %c64_i64 = arith.constant 64 : i64
  %map = tile.make_tensor_map %x[%m, %c64], [%c64_i64, %s] : !tile.ptr<f16>
  %p = tile.splat %x : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %c0 = arith.constant 0 : i32
  %a = tile.load %p tensor_map %map[%c0, %c0] : !tile.block<64x64x!tile.ptr<f16>>
  return
}

// -----

// A block pointer advanced in a K loop carries its map through the loop
// unchanged: the box inside the loop names the new argument.
// CHECK-LABEL: func.func @loop_carried
// CHECK-SAME: %[[MAP:[^:]*]]: !tile.tensor_map {tile.tensor_map_recipe
// CHECK: scf.for
// CHECK: tile.load %{{.*}} tensor_map %[[MAP]][%{{.*}}, %{{.*}}]
func.func @loop_carried(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32,
                        %k: i32) {
  %c64 = arith.constant 64 : i32
  %c64_i64 = arith.constant 64 : i64
  %c1_i64 = arith.constant 1 : i64
  %map = tile.make_tensor_map %x[%m, %c64], [%c64_i64, %c1_i64] : !tile.ptr<f16>
  %p = tile.splat %x : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %last = scf.for %i = %c0 to %k step %c1 iter_args(%carried = %map) -> (!tile.tensor_map) : i32 {
    %a = tile.load %p tensor_map %carried[%i, %c0] : !tile.block<64x64x!tile.ptr<f16>>
    scf.yield %carried : !tile.tensor_map
  }
  return
}

// -----

// A device function has no launch to encode its maps at: its loads keep
// their pointers.
// CHECK-LABEL: func.func private @device_function
// CHECK-SAME: %{{[^:]*}}: i32)
// CHECK: tile.load %{{[^ ]*}} : !tile.block<64x64x!tile.ptr<f16>>
func.func private @device_function(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32) {
  %c64 = arith.constant 64 : i32
  %c64_i64 = arith.constant 64 : i64
  %c1_i64 = arith.constant 1 : i64
  %map = tile.make_tensor_map %x[%m, %c64], [%c64_i64, %c1_i64] : !tile.ptr<f16>
  %p = tile.splat %x : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %c0 = arith.constant 0 : i32
  %a = tile.load %p tensor_map %map[%c0, %c0] : !tile.block<64x64x!tile.ptr<f16>>
  return
}
