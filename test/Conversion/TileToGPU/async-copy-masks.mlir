// RUN: tile-opt %s -tile-pipeline-loops=num-stages=3 -tile-assign-layouts="chip=sm_90a num-warps=8" -tile-async-dot-operands -convert-tile-to-gpu | FileCheck %s
// RUN: tile-opt %s -tile-pipeline-loops=num-stages=3 -tile-assign-layouts="chip=sm_90a num-warps=8" -tile-async-dot-operands -convert-tile-to-gpu | grep -oE 'gpu.func @[a-z_]+|ld.global.b16|llvm.store [^!]*!llvm.ptr<3>' | tr '\n' ' ' | FileCheck %s --check-prefix=ORDER
// RUN: tile-opt %s -tile-pipeline-loops=num-stages=3 -tile-assign-layouts="chip=sm_90a num-warps=8" -tile-async-dot-operands | FileCheck %s --check-prefix=RING

// Copies into a wgmma ring from pointers without alignment facts go one
// element at a time through registers. Where the copy's mask is off (the
// pipeliner masks off the copies of iterations past the loop's end), the
// element must not be read: the address may lie past any allocation.
// Triton's tutorial 08 (grouped GEMM, pointers loaded from a table) read
// them and hit an illegal address on the H200. Each element's load is
// behind its mask (a predicated PTX load), and zero is stored where the
// mask is off. Every read of a copy is issued before its first store, so
// that their latencies overlap (a store after each read waited for it).
// CHECK-LABEL: gpu.func @narrow_ring_loop
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[OTHER:.*]] = llvm.bitcast %[[ZERO]] : f16 to i16
// CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}"mov.b16 $0, $3;\0A\09@$2 ld.global.b16 $0, [$1];", "=h,l,b,h" %{{.*}}, %{{.*}}, %[[OTHER]]
// CHECK-NOT: arith.select {{.*}} : f16
// In the loop, the carried block's registers are stored after the dot's
// wait and barrier (the slot's last reader is done in every warp); the
// next iteration's dot sees them through the proxy fence.
// CHECK: scf.for
// CHECK: "fence.proxy.async.shared::cta;"
// CHECK: wgmma.mma_async
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK-NEXT: gpu.barrier
// CHECK: llvm.store %arg{{[0-9]+}}, %{{.*}} : f16, !llvm.ptr<3>
// ORDER: gpu.func @narrow_ring_loop {{(ld.global.b16 ){32}(llvm.store [^!]*!llvm.ptr<3> ){32}[ ]?}}
//
// In the loop, such a copy's block is loaded an iteration before it is
// stored (tile.ring_store): the prologue's last stage is loaded into
// registers and carried, each iteration stores the carried block into the
// slot before the next copy's and loads the next one, so the reads' latency
// hides behind the next iteration's dot. An empty group keeps the count the
// waits expect. (A, masked, goes the same way; B is checked.)
// RING-LABEL: func.func @narrow_ring_loop
// RING: %[[RB:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<64x128xf16>>
// RING: tile.async_copy %{{.*}}, %[[RB]][%{{.*}}] mask %{{.*}} : !tile.block<64x128x!tile.ptr<f16>, #{{.*}}>, !tile.ring<3, !tile.block<64x128xf16>>
// RING: %[[B1:.*]] = tile.load %{{.*}} mask %{{.*}} : !tile.block<64x128x!tile.ptr<f16>, #{{.*}}>
// RING-NEXT: tile.async_commit_group
// RING: scf.for {{.*}}%[[CARRIED:arg[0-9]+]] = %[[B1]], %[[NEXT:arg[0-9]+]] = %c2_i32
// RING: tile.ring_dot
// RING: tile.ring_store %{{.*}} : !tile.block<128x64xf16, #{{.*}}>, !tile.ring<3, !tile.block<128x64xf16>>
// RING: %[[WRAPS:.*]] = arith.cmpi eq, %[[NEXT]], %{{.*}} : i32
// RING: %[[DOWN:.*]] = arith.subi %[[NEXT]], %{{.*}} : i32
// RING-NEXT: %[[PREV:.*]] = arith.select %[[WRAPS]], %c2{{.*}}, %[[DOWN]] : i32
// RING-NEXT: tile.ring_store %[[CARRIED]], %[[RB]][%[[PREV]]] : !tile.block<64x128xf16, #{{.*}}>, !tile.ring<3, !tile.block<64x128xf16>>
// RING-NEXT: tile.async_commit_group
// RING-NEXT: %[[NEWEST:.*]] = tile.load %{{.*}} mask %{{.*}} : !tile.block<64x128x!tile.ptr<f16>, #{{.*}}>
// RING-NOT: tile.async_copy
// RING: scf.yield {{.*}}, %[[PREV]], %[[NEWEST]], %{{.*}}, %{{.*}} :
func.func @narrow_ring_loop(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %limit: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %tileStep = arith.constant 8192 : i32
  %ra = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ia = tile.reshape %ra : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %ib = tile.reshape %ra : !tile.block<8192xi32> -> !tile.block<64x128xi32>
  %abase = tile.splat %a : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %ap = tile.addptr %abase, %ia : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %bbase = tile.splat %b : !tile.ptr<f16> -> !tile.block<64x128x!tile.ptr<f16>>
  %bp = tile.addptr %bbase, %ib : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
  %lim = tile.splat %limit : i32 -> !tile.block<128x64xi32>
  %mask = tile.cmpi slt, %ia, %lim : !tile.block<128x64xi32>
  %zero16 = tile.constant dense<0.0> : !tile.block<128x64xf16>
  %zero = tile.constant dense<0.0> : !tile.block<128x128xf32>
  %stepA = tile.splat %tileStep : i32 -> !tile.block<128x64xi32>
  %stepB = tile.splat %tileStep : i32 -> !tile.block<64x128xi32>
  %acc:3 = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %zero, %pa = %ap, %pb = %bp) -> (!tile.block<128x128xf32>, !tile.block<128x64x!tile.ptr<f16>>, !tile.block<64x128x!tile.ptr<f16>>) : i32 {
    %va = tile.load %pa mask %mask other %zero16 : !tile.block<128x64x!tile.ptr<f16>>
    %vb = tile.load %pb : !tile.block<64x128x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %sum : !tile.block<128x64xf16>, !tile.block<64x128xf16> -> !tile.block<128x128xf32>
    %pa2 = tile.addptr %pa, %stepA : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
    %pb2 = tile.addptr %pb, %stepB : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
    scf.yield %d, %pa2, %pb2 : !tile.block<128x128xf32>, !tile.block<128x64x!tile.ptr<f16>>, !tile.block<64x128x!tile.ptr<f16>>
  }
  %rc = tile.arange 0, 16384 : !tile.block<16384xi32>
  %ic = tile.reshape %rc : !tile.block<16384xi32> -> !tile.block<128x128xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x128x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ic : !tile.block<128x128x!tile.ptr<f32>>, !tile.block<128x128xi32>
  tile.store %cp, %acc#0 : !tile.block<128x128x!tile.ptr<f32>>
  return
}

// The accumulator starts from a loaded block (C = D + A @ B): its conversion
// to the wgmma layout goes through the scratch space the rings then take, so
// a barrier separates the conversion's last reads from the prologue's first
// copy into a ring.
// PTX-LABEL: .entry ring_loop_loaded_acc
// PTX: ld.shared
// PTX-NOT: cp.async
// PTX: bar.sync
// PTX: cp.async.cg.shared.global
