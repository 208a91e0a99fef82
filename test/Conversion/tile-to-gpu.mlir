// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @tile_kernels
// CHECK: gpu.func @masked_add(%{{.*}}: !llvm.ptr<1> {tile.divisibility = 16 : i32}, %{{.*}}: !llvm.ptr<1> {tile.divisibility = 16 : i32}, %{{.*}}: i32 {tile.divisibility = 16 : i32}) kernel
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK-SAME: tile.num_warps = 4 : i32, tile.shared_bytes = 0 : i32, tile.threads = 128 : i32
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// Masked 128-bit loads keep `other` where the mask is off.
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.b32 $0, $6;{{.*}}@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b,r,r,r,r"
// CHECK: arith.addf
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$0 st.global.v4.b32 [$1], {$2, $3, $4, $5};", "b,l,r,r,r,r"
// CHECK: gpu.return
func.func @masked_add(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id 0 : i32
  %c512 = arith.constant 512 : i32
  %start = arith.muli %pid, %c512 : i32
  %r = tile.arange 0, 512 : !tile.block<512xi32>
  %s = tile.splat %start : i32 -> !tile.block<512xi32>
  %offs = tile.addi %s, %r : !tile.block<512xi32>
  %nb = tile.splat %n : i32 -> !tile.block<512xi32>
  %m = tile.cmpi slt, %offs, %nb : !tile.block<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  %zero = tile.constant dense<0.0> : !tile.block<512xf32>
  %v = tile.load %p mask %m other %zero : !tile.block<512x!tile.ptr<f32>>
  %w = tile.addf %v, %v : !tile.block<512xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %q = tile.addptr %ob, %offs : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  tile.store %q, %w mask %m : !tile.block<512x!tile.ptr<f32>>
  return
}

// -----

// Unmasked aligned accesses are plain vector loads and stores.
// CHECK-LABEL: gpu.func @unmasked
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @unmasked(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 512 : !tile.block<512xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<512x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<512x!tile.ptr<f32>>, !tile.block<512xi32>
  %v = tile.load %p : !tile.block<512x!tile.ptr<f32>>
  tile.store %p, %v : !tile.block<512x!tile.ptr<f32>>
  return
}

// -----

// A whole-block sum: registers, then butterfly shuffles across the warp,
// then one value per warp through shared memory.
// CHECK: llvm.mlir.global internal @tile_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x i8>
// CHECK-LABEL: gpu.func @block_sum
// CHECK-SAME: tile.shared_bytes = 32
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
func.func @block_sum(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.arange 0, 1000 : !tile.block<1000xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1000x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<1000x!tile.ptr<f32>>, !tile.block<1000xi32>
  %v = tile.load %p : !tile.block<1000x!tile.ptr<f32>>
  %s = tile.reduce sum %v {axis = 0 : i32} : !tile.block<1000xf32> -> f32
  tile.store %out, %s : !tile.ptr<f32>
  return
}

// -----

// Broadcasting an index function (the row offsets) costs no data movement:
// no barrier, no shared memory.
// CHECK-LABEL: gpu.func @broadcast_indices
// CHECK-SAME: tile.shared_bytes = 0
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @broadcast_indices(%x: !tile.ptr<f32>, %stride: i32) {
  %rows = tile.arange 0, 24 : !tile.block<24xi32>
  %cols = tile.arange 0, 40 : !tile.block<40xi32>
  %s = tile.splat %stride : i32 -> !tile.block<24xi32>
  %ro = tile.muli %rows, %s : !tile.block<24xi32>
  %r2 = tile.expand_dims %ro {axis = 1 : i32} : !tile.block<24xi32> -> !tile.block<24x1xi32>
  %rb = tile.broadcast %r2 : !tile.block<24x1xi32> -> !tile.block<24x40xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<40xi32> -> !tile.block<1x40xi32>
  %cb = tile.broadcast %c2 : !tile.block<1x40xi32> -> !tile.block<24x40xi32>
  %offs = tile.addi %rb, %cb : !tile.block<24x40xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<24x40x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<24x40x!tile.ptr<f32>>, !tile.block<24x40xi32>
  %v = tile.load %p : !tile.block<24x40x!tile.ptr<f32>>
  tile.store %p, %v : !tile.block<24x40x!tile.ptr<f32>>
  return
}

// -----

// Broadcasting computed data goes through shared memory.
// CHECK-LABEL: gpu.func @broadcast_data
// CHECK-SAME: tile.shared_bytes = 64
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
func.func @broadcast_data(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.arange 0, 16 : !tile.block<16xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
  %l = tile.load %p : !tile.block<16x!tile.ptr<f32>>
  %v = tile.exp %l : !tile.block<16xf32>
  %e = tile.expand_dims %v {axis = 1 : i32} : !tile.block<16xf32> -> !tile.block<16x1xf32>
  %b = tile.broadcast %e : !tile.block<16x1xf32> -> !tile.block<16x8xf32>
  %rows = tile.expand_dims %r {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  %c8 = tile.constant dense<8> : !tile.block<16x1xi32>
  %ro = tile.muli %rows, %c8 : !tile.block<16x1xi32>
  %rb = tile.broadcast %ro : !tile.block<16x1xi32> -> !tile.block<16x8xi32>
  %cols = tile.arange 0, 8 : !tile.block<8xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<8xi32> -> !tile.block<1x8xi32>
  %cb = tile.broadcast %c2 : !tile.block<1x8xi32> -> !tile.block<16x8xi32>
  %offs = tile.addi %rb, %cb : !tile.block<16x8xi32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<16x8x!tile.ptr<f32>>
  %q = tile.addptr %ob, %offs : !tile.block<16x8x!tile.ptr<f32>>, !tile.block<16x8xi32>
  tile.store %q, %b : !tile.block<16x8x!tile.ptr<f32>>
  return
}

// -----

// Loop-carried blocks become one iter_arg per register.
// CHECK-LABEL: gpu.func @loop
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32) : i32
func.func @loop(%x: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.constant dense<0.0> : !tile.block<256xf32>
  %r = tile.arange 0, 256 : !tile.block<256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<256x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<256x!tile.ptr<f32>>, !tile.block<256xi32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (!tile.block<256xf32>) : i32 {
    %v = tile.load %p : !tile.block<256x!tile.ptr<f32>>
    %s = tile.addf %a, %v : !tile.block<256xf32>
    scf.yield %s : !tile.block<256xf32>
  }
  tile.store %p, %acc : !tile.block<256x!tile.ptr<f32>>
  return
}

// -----

func.func private @helper(%x: i32) -> i32

func.func @calls_device_function(%x: i32) {
  // expected-error @below {{'func.call' op calls a device function; run the inliner before lowering}}
  %y = func.call @helper(%x) : (i32) -> i32
  return
}

// -----

// expected-error @below {{kernel 'returns_value' must not return values; store results through pointers}}
func.func @returns_value(%x: i32) -> i32 {
  return %x : i32
}

// -----

// Broadcasting loaded data whose address is a function of the index loads
// it again where it is needed (from L1) instead of exchanging it: no
// shared memory, and the original load is not emitted on its own.
// CHECK-LABEL: gpu.func @broadcast_reload
// CHECK-SAME: tile.shared_bytes = 0
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// CHECK-NOT: llvm.load
// CHECK: gpu.return
func.func @broadcast_reload(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.arange 0, 2 : !tile.block<2xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<2x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<2x!tile.ptr<f32>>, !tile.block<2xi32>
  %v = tile.load %p : !tile.block<2x!tile.ptr<f32>>
  %e = tile.expand_dims %v {axis = 1 : i32} : !tile.block<2xf32> -> !tile.block<2x1xf32>
  %b = tile.broadcast %e : !tile.block<2x1xf32> -> !tile.block<2x64xf32>
  %i = tile.arange 0, 128 : !tile.block<128xi32>
  %offs = tile.reshape %i : !tile.block<128xi32> -> !tile.block<2x64xi32>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<2x64x!tile.ptr<f32>>
  %q = tile.addptr %ob, %offs : !tile.block<2x64x!tile.ptr<f32>>, !tile.block<2x64xi32>
  tile.store %q, %b : !tile.block<2x64x!tile.ptr<f32>>
  return
}
