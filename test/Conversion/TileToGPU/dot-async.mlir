// RUN: tile-opt %s -tile-pipeline-loops=num-stages=3 -tile-assign-layouts="chip=sm_90a num-warps=8" -tile-async-dot-operands | FileCheck %s --check-prefix=RING
// RUN: tile-opt %s -tile-pipeline-loops=num-stages=2 -tile-assign-layouts="chip=sm_90a num-warps=8" -tile-async-dot-operands | FileCheck %s --check-prefix=TWO
// RUN: tile-opt %s -tile-pipeline-loops=num-stages=3 -tile-assign-layouts="chip=sm_90 num-warps=8" -tile-async-dot-operands | FileCheck %s --check-prefix=SYNC
// RUN: tile-translate --tile-to-ptx --chip=sm_80 --num-warps=8 --num-stages=3 %s | FileCheck %s --check-prefix=SYNC-PTX
// RUN: %if ptxas %{ tile-translate --tile-to-ptx --chip=sm_80 --num-warps=8 --num-stages=3 %s -o %t80.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t80.ptx -o %t80.o %}
// RUN: tile-translate --tile-to-ptx --chip=sm_90a --num-warps=8 --num-stages=3 %s | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ tile-translate --tile-to-ptx --chip=sm_90a --num-warps=8 --num-stages=3 %s -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ptx -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ptx -o %t.o 2>&1 | FileCheck %s --check-prefix=SHARED %}

// A pipelined K loop of a wgmma dot: its operands go from global to shared
// memory by cp.async into rings of num_stages slots, never through
// registers. The prologue fills slots 0 and 1 (one commit group per copy;
// masked by the pipeliner where the loop may be shorter);
// the body waits until its iteration's copies are done (the 2 copies of the
// iteration after it may still fly), multiplies the slots the carried
// indices name, and copies iteration k + 2 into the slot the counter names.
// RING-LABEL: func.func @ring_loop
// RING-DAG: %[[RA:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<128x64xf16>>
// RING-DAG: %[[RB:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<64x128xf16>>
// RING: tile.async_copy %{{.*}}, %[[RA]][%{{.*}}] mask %{{.*}} :
// RING-NEXT: tile.async_commit_group
// RING: tile.async_copy %{{.*}}, %[[RB]][%{{.*}}] mask
// RING-NEXT: tile.async_commit_group
// RING: tile.async_copy %{{.*}}, %[[RA]]
// RING: tile.async_copy %{{.*}}, %[[RB]]
// RING: scf.for {{.*}} iter_args({{.*}}) -> ({{.*}}i32, i32, i32, i32, i32) : i32 {
// RING-NOT: tile.load
// RING: tile.async_wait {pending = 2 : i32}
// RING-NEXT: tile.ring_dot %[[RA]][%{{.*}}], %[[RB]][%{{.*}}], %{{.*}} : !tile.ring<3, !tile.block<128x64xf16>>, !tile.ring<3, !tile.block<64x128xf16>> -> !tile.block<128x128xf32, #mma>
// RING-NOT: tile.load
// RING: tile.async_copy %{{.*}}, %[[RA]][%[[NEXT:.*]]] mask
// RING: tile.async_copy %{{.*}}, %[[RB]][%[[NEXT]]] mask
// RING: arith.select
// RING: scf.yield
// RING: tile.async_wait {pending = 0 : i32}

// Two stages: nothing may stay in flight at the dot.
// TWO: tile.ring_alloc : !tile.ring<2, !tile.block<128x64xf16>>
// TWO: tile.async_wait {pending = 0 : i32}
// TWO-NEXT: tile.ring_dot

// Without wgmma (sm_90 without its `a` features, and sm_80) the dot runs
// on mma.sync, and reads both operands from the same rings: each warp
// loads its fragments from the slots with ldmatrix after the wait and the
// barrier, which also orders every warp's reads of the previous slots
// before the copies that overwrite them.
// SYNC-LABEL: func.func @ring_loop
// SYNC: tile.async_wait {pending = 2 : i32}
// SYNC-NEXT: tile.ring_dot %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : !tile.ring<3, !tile.block<128x64xf16>>, !tile.ring<3, !tile.block<64x128xf16>> -> !tile.block<128x128xf32, #mma>
// SYNC-PTX-LABEL: .entry ring_loop
// SYNC-PTX: cp.async.wait_group 2;
// SYNC-PTX: bar.sync 0;
// SYNC-PTX-NOT: st.shared
// SYNC-PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SYNC-PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// SYNC-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SYNC-PTX-NOT: bar.sync
// SYNC-PTX: cp.async.cg.shared.global
// SYNC-PTX: cp.async.wait_group 0;

// PTX-LABEL: .entry ring_loop
// PTX: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// PTX: cp.async.commit_group;
// In the loop the previous iteration's wgmma group runs on into this one's:
// no wgmma wait before the dot, wait_group 1 after its commit, then a barrier
// before the copies overwrite the slots that group read. cp.async copies
// need no proxy fence before wgmma reads them (as in CUTLASS's and Triton's
// cp.async mainloops): the wait and the barrier order them.
// PTX: cp.async.wait_group 2;
// PTX-NOT: fence.proxy.async
// PTX-NOT: wgmma.wait_group
// PTX: bar.sync
// PTX-NOT: wgmma.wait_group
// PTX: wgmma.mma_async
// PTX-NOT: st.shared
// PTX: wgmma.commit_group.sync.aligned;
// PTX-NOT: cp.async
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX-NOT: cp.async
// PTX: bar.sync
// PTX: cp.async.cg.shared.global
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: cp.async.wait_group 0;
// PTXAS-NOT: C7515
// PTXAS: Compiling entry function 'ring_loop'
// PTXAS-NOT: C7515
func.func @ring_loop(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %limit: i32 {tile.divisibility = 16 : i32}) {
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
// The product rounded to f16 for its store (tutorial 03's epilogue): two
// elements to a word by one cvt.rn.f16x2.f32 in the block of the store, and
// the accumulator's fragments written to shared memory by stmatrix (16
// bytes a lane, not a store per word), read back as 16-byte rows for the
// global stores. Without sm_90's stmatrix (sm_80) the words are stored.
// PTX-LABEL: .entry ring_loop_f16_result
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: cvt.rn.f16x2.f32
// PTX-NOT: st.shared
// PTX: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// PTX-NOT: st.shared
// PTX: bar.sync
// PTX: ld.shared.v4.b32
// PTX: st.global.v4.b32
// SYNC-PTX-LABEL: .entry ring_loop_f16_result
// SYNC-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SYNC-PTX-NOT: stmatrix
// SYNC-PTX: st.shared.b32
// SYNC-PTX-NOT: stmatrix
func.func @ring_loop_f16_result(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32, %limit: i32 {tile.divisibility = 16 : i32}) {
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
  %cb = tile.splat %c : !tile.ptr<f16> -> !tile.block<128x128x!tile.ptr<f16>>
  %cp = tile.addptr %cb, %ic : !tile.block<128x128x!tile.ptr<f16>>, !tile.block<128x128xi32>
  %half = tile.cast %acc#0 : !tile.block<128x128xf32> to !tile.block<128x128xf16>
  tile.store %cp, %half : !tile.block<128x128x!tile.ptr<f16>>
  return
}


// B's base has no known alignment: its runs are copied an element at a time,
// loaded and stored from registers (generic-proxy writes), so the dot keeps
// the proxy fence before the tensor cores read the slots.
// PTX-LABEL: .entry ring_loop_unaligned_b
// PTX: cp.async.wait_group 2;
// PTX: fence.proxy.async.shared::cta;
// PTX: bar.sync
// PTX: wgmma.mma_async
// PTX: st.shared.b16
func.func @ring_loop_unaligned_b(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16>, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
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
  %zero = tile.constant dense<0.0> : !tile.block<128x128xf32>
  %stepA = tile.splat %tileStep : i32 -> !tile.block<128x64xi32>
  %stepB = tile.splat %tileStep : i32 -> !tile.block<64x128xi32>
  %acc:3 = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %zero, %pa = %ap, %pb = %bp) -> (!tile.block<128x128xf32>, !tile.block<128x64x!tile.ptr<f16>>, !tile.block<64x128x!tile.ptr<f16>>) : i32 {
    %va = tile.load %pa : !tile.block<128x64x!tile.ptr<f16>>
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
func.func @ring_loop_loaded_acc(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ia = tile.reshape %ra : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %ib = tile.reshape %ra : !tile.block<8192xi32> -> !tile.block<64x128xi32>
  %abase = tile.splat %a : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %ap = tile.addptr %abase, %ia : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %bbase = tile.splat %b : !tile.ptr<f16> -> !tile.block<64x128x!tile.ptr<f16>>
  %bp = tile.addptr %bbase, %ib : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
  %rc = tile.arange 0, 16384 : !tile.block<16384xi32>
  %ic = tile.reshape %rc : !tile.block<16384xi32> -> !tile.block<128x128xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x128x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ic : !tile.block<128x128x!tile.ptr<f32>>, !tile.block<128x128xi32>
  %init = tile.load %cp : !tile.block<128x128x!tile.ptr<f32>>
  %step = arith.constant 8192 : i32
  %stepA = tile.splat %step : i32 -> !tile.block<128x64xi32>
  %stepB = tile.splat %step : i32 -> !tile.block<64x128xi32>
  %acc:3 = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %init, %pa = %ap, %pb = %bp) -> (!tile.block<128x128xf32>, !tile.block<128x64x!tile.ptr<f16>>, !tile.block<64x128x!tile.ptr<f16>>) : i32 {
    %va = tile.load %pa : !tile.block<128x64x!tile.ptr<f16>>
    %vb = tile.load %pb : !tile.block<64x128x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %sum : !tile.block<128x64xf16>, !tile.block<64x128xf16> -> !tile.block<128x128xf32>
    %pa2 = tile.addptr %pa, %stepA : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
    %pb2 = tile.addptr %pb, %stepB : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
    scf.yield %d, %pa2, %pb2 : !tile.block<128x128xf32>, !tile.block<128x64x!tile.ptr<f16>>, !tile.block<64x128x!tile.ptr<f16>>
  }
  tile.store %cp, %acc#0 : !tile.block<128x128x!tile.ptr<f32>>
  return
}

// A loaded before the loop (attention's q): one copy into a ring of one
// slot, before the loop (the oldest commit group, complete at the first
// iteration's wait), from which wgmma reads it every iteration, as Triton's
// loop does; held in registers instead (converted once to the accumulator
// layout), it took 16 to 32 registers per thread through the loop, which
// cost attention at head dim 64 its second block per SM. B streams through
// a ring, by cp.async.
// RING-LABEL: func.func @ring_b_register_a
// RING-DAG: %[[RB:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<64x128xf16>>
// RING-DAG: %[[QA:.*]] = tile.ring_alloc : !tile.ring<1, !tile.block<128x64xf16>>
// RING-NOT: tile.convert_layout
// RING: tile.async_copy %{{.*}}, %[[QA]][%{{.*}}] : !tile.block<128x64x!tile.ptr<f16>, #{{.*}}>, !tile.ring<1, !tile.block<128x64xf16>>
// RING-NEXT: tile.async_commit_group
// RING: scf.for
// RING: tile.async_wait {pending = 1 : i32}
// RING-NEXT: tile.ring_dot %[[QA]][%{{.*}}], %[[RB]][%{{.*}}], %{{.*}} : !tile.ring<1, !tile.block<128x64xf16>>, !tile.ring<3, !tile.block<64x128xf16>> -> !tile.block<128x128xf32, #{{.*}}>
// PTX-LABEL: .entry ring_b_register_a
// PTX-NOT: ld.global
// PTX: cp.async.cg.shared.global
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}},
// PTX: wgmma.wait_group.sync.aligned 0;
func.func @ring_b_register_a(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ia = tile.reshape %ra : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %ib = tile.reshape %ra : !tile.block<8192xi32> -> !tile.block<64x128xi32>
  %abase = tile.splat %a : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %ap = tile.addptr %abase, %ia : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %q = tile.load %ap : !tile.block<128x64x!tile.ptr<f16>>
  %bbase = tile.splat %b : !tile.ptr<f16> -> !tile.block<64x128x!tile.ptr<f16>>
  %bp = tile.addptr %bbase, %ib : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
  %zero = tile.constant dense<0.0> : !tile.block<128x128xf32>
  %step = arith.constant 8192 : i32
  %stepB = tile.splat %step : i32 -> !tile.block<64x128xi32>
  %acc:2 = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %zero, %pb = %bp) -> (!tile.block<128x128xf32>, !tile.block<64x128x!tile.ptr<f16>>) : i32 {
    %vb = tile.load %pb : !tile.block<64x128x!tile.ptr<f16>>
    %d = tile.dot %q, %vb, %sum : !tile.block<128x64xf16>, !tile.block<64x128xf16> -> !tile.block<128x128xf32>
    %pb2 = tile.addptr %pb, %stepB : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
    scf.yield %d, %pb2 : !tile.block<128x128xf32>, !tile.block<64x128x!tile.ptr<f16>>
  }
  %rc = tile.arange 0, 16384 : !tile.block<16384xi32>
  %ic = tile.reshape %rc : !tile.block<16384xi32> -> !tile.block<128x128xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x128x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ic : !tile.block<128x128x!tile.ptr<f32>>, !tile.block<128x128xi32>
  tile.store %cp, %acc#0 : !tile.block<128x128x!tile.ptr<f32>>
  return
}

// B read K-major (`x @ w.T`): its ring's slots are stored transposed, so the
// copies stay 16-byte cp.async (not 2-byte synchronous loads and stores),
// and wgmma reads B without its transpose flag.
// PTX-LABEL: .entry ring_loop_k_major_b
// PTX-NOT: st.shared.b16
// PTX: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// PTX-NOT: st.shared.b16
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
// PTX-NOT: st.shared.b16
// PTX: wgmma.wait_group.sync.aligned 0;
func.func @ring_loop_k_major_b(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ra = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ia = tile.reshape %ra : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %ib = tile.reshape %ra : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %ibt = tile.trans %ib : !tile.block<128x64xi32> -> !tile.block<64x128xi32>
  %abase = tile.splat %a : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %ap = tile.addptr %abase, %ia : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %bbase = tile.splat %b : !tile.ptr<f16> -> !tile.block<64x128x!tile.ptr<f16>>
  %bp = tile.addptr %bbase, %ibt : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
  %zero = tile.constant dense<0.0> : !tile.block<128x128xf32>
  %step = arith.constant 8192 : i32
  %stepA = tile.splat %step : i32 -> !tile.block<128x64xi32>
  %stepB = tile.splat %step : i32 -> !tile.block<64x128xi32>
  %acc:3 = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %zero, %pa = %ap, %pb = %bp) -> (!tile.block<128x128xf32>, !tile.block<128x64x!tile.ptr<f16>>, !tile.block<64x128x!tile.ptr<f16>>) : i32 {
    %va = tile.load %pa : !tile.block<128x64x!tile.ptr<f16>>
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

// Attention's loop: q @ k^T (q from its one-slot ring, K from a ring), the softmax on
// its accumulator, then p @ v onto the rescaled accumulator (p in
// registers, V from a ring). One wait and one barrier make both dots'
// slots visible (no copy is committed between the dots). The second
// product keeps running into the next iteration: the first dot's wait
// retires it and the accumulator it writes is read only after that wait
// (threaded through it); a barrier before the copies, which overwrite the
// slots it read, tells every warp so, as Triton's loop does.
// RING-LABEL: func.func @attention_loop
// RING: scf.for
// RING: tile.async_wait {pending = 2 : i32}
// RING-NEXT: tile.ring_dot
// RING-NOT: tile.async_wait
// RING: tile.ring_dot
// RING: tile.async_copy
// PTX-LABEL: .entry attention_loop
// PTX: cp.async.wait_group 2;
// PTX-NOT: fence.proxy.async
// PTX: bar.sync 0;
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX-NOT: bar.sync
// PTX-NOT: fence.proxy.async
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned;
// PTX-NOT: wgmma.wait_group
// PTX: bar.sync 0;
// PTX-NOT: wgmma.wait_group
// PTX: cp.async.cg.shared.global
// PTX: bra {{.*}}$L__BB
// PTX: wgmma.wait_group.sync.aligned 0;
func.func @attention_loop(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg4: i32 {tile.divisibility = 16 : i32}) {
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

// Two K loops one after the other reading one q (tutorial 06's causal
// stages): q's one-slot ring is live across both, and the second loop's
// rings take the first loop's bytes, so a barrier (after every warp's last
// wgmma of the first loop) precedes the second loop's first copy: without
// it a warp's copies would overwrite slots other warps' wgmma still read.
// PTX-LABEL: .entry two_stage_loops
// PTX: bra {{.*}}$L__BB
// PTX: cp.async.wait_group 0;
// PTX-NOT: cp.async.cg
// PTX: bar.sync 0;
// PTX: cp.async.cg.shared.global
func.func @two_stage_loops(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32 {tile.divisibility = 16 : i32}) {
  %0 = tile.constant dense<64> : !tile.block<1x64xi32>
  %1 = tile.constant dense<64> : !tile.block<128x1xi32>
  %c2_i32 = arith.constant 2 : i32
  %c0_i32 = arith.constant 0 : i32
  %2 = tile.constant dense<0.000000e+00> : !tile.block<128x64xf32>
  %c64_i32 = arith.constant 64 : i32
  %3 = tile.arange 0, 128 : !tile.block<128xi32>
  %4 = tile.arange 0, 64 : !tile.block<64xi32>
  %5 = tile.expand_dims %3 {axis = 1 : i32} : !tile.block<128xi32> -> !tile.block<128x1xi32>
  %6 = tile.muli %5, %1 : !tile.block<128x1xi32>
  %7 = tile.splat %arg0 : !tile.ptr<f16> -> !tile.block<128x1x!tile.ptr<f16>>
  %8 = tile.addptr %7, %6 : !tile.block<128x1x!tile.ptr<f16>>, !tile.block<128x1xi32>
  %9 = tile.expand_dims %4 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %10 = tile.broadcast %8 : !tile.block<128x1x!tile.ptr<f16>> -> !tile.block<128x64x!tile.ptr<f16>>
  %11 = tile.broadcast %9 : !tile.block<1x64xi32> -> !tile.block<128x64xi32>
  %12 = tile.addptr %10, %11 : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %13 = tile.load %12 : !tile.block<128x64x!tile.ptr<f16>>
  %14 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %2) -> (!tile.block<128x64xf32>)  : i32 {
    %21 = tile.splat %arg4 : i32 -> !tile.block<64xi32>
    %22 = tile.addi %21, %4 : !tile.block<64xi32>
    %23 = tile.expand_dims %22 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
    %24 = tile.muli %23, %0 : !tile.block<1x64xi32>
    %25 = tile.splat %arg1 : !tile.ptr<f16> -> !tile.block<1x64x!tile.ptr<f16>>
    %26 = tile.addptr %25, %24 : !tile.block<1x64x!tile.ptr<f16>>, !tile.block<1x64xi32>
    %27 = tile.expand_dims %4 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
    %28 = tile.broadcast %26 : !tile.block<1x64x!tile.ptr<f16>> -> !tile.block<64x64x!tile.ptr<f16>>
    %29 = tile.broadcast %27 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
    %30 = tile.addptr %28, %29 : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
    %31 = tile.load %30 : !tile.block<64x64x!tile.ptr<f16>>
    %32 = tile.dot %13, %31, %2 : !tile.block<128x64xf16>, !tile.block<64x64xf16> -> !tile.block<128x64xf32>
    %33 = tile.addf %arg5, %32 : !tile.block<128x64xf32>
    scf.yield %33 : !tile.block<128x64xf32>
  }
  %15 = arith.muli %arg3, %c2_i32 : i32
  %16 = scf.for %arg4 = %arg3 to %15 step %c64_i32 iter_args(%arg5 = %14) -> (!tile.block<128x64xf32>)  : i32 {
    %21 = tile.splat %arg4 : i32 -> !tile.block<64xi32>
    %22 = tile.addi %21, %4 : !tile.block<64xi32>
    %23 = tile.expand_dims %22 {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
    %24 = tile.muli %23, %0 : !tile.block<1x64xi32>
    %25 = tile.splat %arg1 : !tile.ptr<f16> -> !tile.block<1x64x!tile.ptr<f16>>
    %26 = tile.addptr %25, %24 : !tile.block<1x64x!tile.ptr<f16>>, !tile.block<1x64xi32>
    %27 = tile.expand_dims %4 {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
    %28 = tile.broadcast %26 : !tile.block<1x64x!tile.ptr<f16>> -> !tile.block<64x64x!tile.ptr<f16>>
    %29 = tile.broadcast %27 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
    %30 = tile.addptr %28, %29 : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
    %31 = tile.load %30 : !tile.block<64x64x!tile.ptr<f16>>
    %32 = tile.dot %13, %31, %2 : !tile.block<128x64xf16>, !tile.block<64x64xf16> -> !tile.block<128x64xf32>
    %33 = tile.addf %arg5, %32 : !tile.block<128x64xf32>
    scf.yield %33 : !tile.block<128x64xf32>
  }
  %17 = tile.splat %arg2 : !tile.ptr<f32> -> !tile.block<128x1x!tile.ptr<f32>>
  %18 = tile.addptr %17, %6 : !tile.block<128x1x!tile.ptr<f32>>, !tile.block<128x1xi32>
  %19 = tile.broadcast %18 : !tile.block<128x1x!tile.ptr<f32>> -> !tile.block<128x64x!tile.ptr<f32>>
  %20 = tile.addptr %19, %11 : !tile.block<128x64x!tile.ptr<f32>>, !tile.block<128x64xi32>
  tile.store %20, %16 : !tile.block<128x64x!tile.ptr<f32>>
  return
}

// One load read by two dots, as B and transposed as B (attention's backward:
// k @ q^T, then ds^T @ q): both read one ring, the second through a
// transposed view of its slots (16-bit elements, which wgmma reads either
// way round), so the block is neither carried in registers through the
// pipeline nor staged again for each dot.
// RING-LABEL: func.func @ring_shared_by_two_dots
// RING: %[[Q:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<64x16xf16>>
// RING-NOT: tile.ring_alloc : !tile.ring<3
// RING: scf.for
// RING-NOT: tile.dot
// RING: tile.ring_dot %{{.*}}[%{{.*}}], %[[Q]][%[[SLOT:.*]]], %{{.*}} : !tile.ring<1, !tile.block<128x64xf16>>, !tile.ring<3, !tile.block<64x16xf16>> -> !tile.block<128x16xf32, #{{.*}}>
// RING: tile.ring_dot %{{.*}}, %[[Q]][%[[SLOT]]], %{{.*}} {b_transposed} : !tile.block<128x16xf16, #{{.*}}>, !tile.ring<3, !tile.block<64x16xf16>> -> !tile.block<128x64xf32, #{{.*}}>
// RING-NOT: tile.dot
// RING: scf.yield
// PTX-LABEL: .entry ring_shared_by_two_dots
// PTX-NOT: ld.global
// PTX: cp.async.cg.shared.global
// PTX: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// SHARED: Compiling entry function 'ring_shared_by_two_dots'
// SHARED-NOT: C7515
// SHARED: 0 bytes spill stores, 0 bytes spill loads
func.func @ring_shared_by_two_dots(%k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rk = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ik = tile.reshape %rk : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %kb = tile.splat %k : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %kp = tile.addptr %kb, %ik : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %kk = tile.load %kp : !tile.block<128x64x!tile.ptr<f16>>
  %rq = tile.arange 0, 1024 : !tile.block<1024xi32>
  %iq = tile.reshape %rq : !tile.block<1024xi32> -> !tile.block<64x16xi32>
  %qb = tile.splat %q : !tile.ptr<f16> -> !tile.block<64x16x!tile.ptr<f16>>
  %qp = tile.addptr %qb, %iq : !tile.block<64x16x!tile.ptr<f16>>, !tile.block<64x16xi32>
  %zero16 = tile.constant dense<0.0> : !tile.block<128x16xf32>
  %zero = tile.constant dense<0.0> : !tile.block<128x64xf32>
  %step = arith.constant 1024 : i32
  %stepQ = tile.splat %step : i32 -> !tile.block<64x16xi32>
  %acc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero, %pq = %qp) -> (!tile.block<128x64xf32>, !tile.block<64x16x!tile.ptr<f16>>) : i32 {
    %qt = tile.load %pq : !tile.block<64x16x!tile.ptr<f16>>
    %s = tile.dot %kk, %qt, %zero16 : !tile.block<128x64xf16>, !tile.block<64x16xf16> -> !tile.block<128x16xf32>
    %p = tile.cast %s : !tile.block<128x16xf32> to !tile.block<128x16xf16>
    %qq = tile.trans %qt : !tile.block<64x16xf16> -> !tile.block<16x64xf16>
    %d = tile.dot %p, %qq, %sum : !tile.block<128x16xf16>, !tile.block<16x64xf16> -> !tile.block<128x64xf32>
    %pq2 = tile.addptr %pq, %stepQ : !tile.block<64x16x!tile.ptr<f16>>, !tile.block<64x16xi32>
    scf.yield %d, %pq2 : !tile.block<128x64xf32>, !tile.block<64x16x!tile.ptr<f16>>
  }
  %rc = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ic = tile.reshape %rc : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x64x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ic : !tile.block<128x64x!tile.ptr<f32>>, !tile.block<128x64xi32>
  tile.store %cp, %acc#0 : !tile.block<128x64x!tile.ptr<f32>>
  return
}

// Attention's backward: dV's dot accumulates across iterations, and dP's dot
// (independent of it) is issued while dV's group is still in flight; the wait
// for dP's result covers both, so the tensor cores do not drain in between.
// PTX-LABEL: .entry independent_dots_overlap
// PTX: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned;
// PTX-NOT: wgmma.wait_group
// PTX: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned;
// PTX-NOT: wgmma.mma_async
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
func.func @independent_dots_overlap(%k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rk = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ik = tile.reshape %rk : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %kb = tile.splat %k : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %kp = tile.addptr %kb, %ik : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %kk = tile.load %kp : !tile.block<128x64x!tile.ptr<f16>>
  %step64 = tile.constant dense<8192> : !tile.block<128x64xi32>
  %vp = tile.addptr %kp, %step64 : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %vv = tile.load %vp : !tile.block<128x64x!tile.ptr<f16>>
  %rq = tile.arange 0, 1024 : !tile.block<1024xi32>
  %iq = tile.reshape %rq : !tile.block<1024xi32> -> !tile.block<64x16xi32>
  %qb = tile.splat %q : !tile.ptr<f16> -> !tile.block<64x16x!tile.ptr<f16>>
  %qp = tile.addptr %qb, %iq : !tile.block<64x16x!tile.ptr<f16>>, !tile.block<64x16xi32>
  %zero16 = tile.constant dense<0.0> : !tile.block<128x16xf32>
  %zero = tile.constant dense<0.0> : !tile.block<128x64xf32>
  %step = arith.constant 1024 : i32
  %stepQ = tile.splat %step : i32 -> !tile.block<64x16xi32>
  %acc:3 = scf.for %i = %c0 to %n step %c1 iter_args(%dv = %zero, %dk = %zero, %pq = %qp) -> (!tile.block<128x64xf32>, !tile.block<128x64xf32>, !tile.block<64x16x!tile.ptr<f16>>) : i32 {
    %qt = tile.load %pq : !tile.block<64x16x!tile.ptr<f16>>
    %s = tile.dot %kk, %qt, %zero16 : !tile.block<128x64xf16>, !tile.block<64x16xf16> -> !tile.block<128x16xf32>
    %p = tile.cast %s : !tile.block<128x16xf32> to !tile.block<128x16xf16>
    %qq = tile.trans %qt : !tile.block<64x16xf16> -> !tile.block<16x64xf16>
    %dv2 = tile.dot %p, %qq, %dv : !tile.block<128x16xf16>, !tile.block<16x64xf16> -> !tile.block<128x64xf32>
    %t = tile.dot %vv, %qt, %zero16 : !tile.block<128x64xf16>, !tile.block<64x16xf16> -> !tile.block<128x16xf32>
    %ds = tile.mulf %s, %t : !tile.block<128x16xf32>
    %dsh = tile.cast %ds : !tile.block<128x16xf32> to !tile.block<128x16xf16>
    %qq2 = tile.trans %qt : !tile.block<64x16xf16> -> !tile.block<16x64xf16>
    %dk2 = tile.dot %dsh, %qq2, %dk : !tile.block<128x16xf16>, !tile.block<16x64xf16> -> !tile.block<128x64xf32>
    %pq2 = tile.addptr %pq, %stepQ : !tile.block<64x16x!tile.ptr<f16>>, !tile.block<64x16xi32>
    scf.yield %dv2, %dk2, %pq2 : !tile.block<128x64xf32>, !tile.block<128x64xf32>, !tile.block<64x16x!tile.ptr<f16>>
  }
  %sum = tile.addf %acc#0, %acc#1 : !tile.block<128x64xf32>
  %rc = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ic = tile.reshape %rc : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x64x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ic : !tile.block<128x64x!tile.ptr<f32>>, !tile.block<128x64xi32>
  tile.store %cp, %sum : !tile.block<128x64x!tile.ptr<f32>>
  return
}

// Attention backward's row statistics (`m`, read as `exp2(s - m[None, :])`
// after the first dot): pipelined with the dot operands and copied into a
// ring of their own, 4 bytes per element from the thread that owns it, in
// the same commit groups the wait counts (two copies an iteration); the
// body reads its slot after the first dot's wait and barrier, straight
// into the slice of the product's layout that expand_dims needs, in 8-byte
// vectors, and carries no statistics in registers through the stages.
// RING-LABEL: func.func @row_statistics_ring
// RING-DAG: %[[M:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<32xf32>>
// RING-DAG: %[[Q:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<64x32xf16>>
// RING: tile.async_copy %{{.*}}, %[[M]][%{{.*}}] mask %{{.*}} : !tile.block<32x!tile.ptr<f32>, #{{.*}}>, !tile.ring<3, !tile.block<32xf32>>
// RING-NEXT: tile.async_commit_group
// RING: scf.for {{.*}} -> (!tile.block<128x64xf32, #{{.*}}>, !tile.block<64x32x!tile.ptr<f16>, #{{.*}}>, !tile.block<32x!tile.ptr<f32>, #{{.*}}>, i32, i32, i32, i32, i32, i32) : i32 {
// RING-NOT: tile.load
// RING: tile.async_wait {pending = 2 : i32}
// RING-NEXT: tile.ring_dot
// RING-NEXT: %[[ROW:.*]] = tile.ring_load %[[M]][%{{.*}}] : !tile.ring<3, !tile.block<32xf32>> -> !tile.block<32xf32, #[[SLICE:.*]]>
// RING-NEXT: tile.expand_dims %[[ROW]] {axis = 0 : i32} : !tile.block<32xf32, #[[SLICE]]> -> !tile.block<1x32xf32, #[[MMA:.*]]>
// RING-NEXT: tile.broadcast %{{.*}} : !tile.block<1x32xf32, #[[MMA]]> -> !tile.block<128x32xf32, #[[MMA]]>
// RING: tile.ring_dot
// RING: tile.async_copy %{{.*}}, %[[M]][%{{.*}}] mask
// RING: scf.yield
// PTX-LABEL: .entry row_statistics_ring
// PTX-NOT: ld.global
// PTX: cp.async.ca.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 4, %r{{[0-9]+}};
// PTX: cp.async.wait_group 2;
// PTX: bar.sync 0;
// PTX: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// PTX: ld.shared.v2.b32
// PTX: ld.shared.v2.b32
// PTX: ld.shared.v2.b32
// PTX: ld.shared.v2.b32
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
func.func @row_statistics_ring(%k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rk = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ik = tile.reshape %rk : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %kb = tile.splat %k : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %kp = tile.addptr %kb, %ik : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %kk = tile.load %kp : !tile.block<128x64x!tile.ptr<f16>>
  %rq = tile.arange 0, 2048 : !tile.block<2048xi32>
  %iq = tile.reshape %rq : !tile.block<2048xi32> -> !tile.block<64x32xi32>
  %qb = tile.splat %q : !tile.ptr<f16> -> !tile.block<64x32x!tile.ptr<f16>>
  %qp = tile.addptr %qb, %iq : !tile.block<64x32x!tile.ptr<f16>>, !tile.block<64x32xi32>
  %rm = tile.arange 0, 32 : !tile.block<32xi32>
  %mb = tile.splat %m : !tile.ptr<f32> -> !tile.block<32x!tile.ptr<f32>>
  %mp = tile.addptr %mb, %rm : !tile.block<32x!tile.ptr<f32>>, !tile.block<32xi32>
  %zero32 = tile.constant dense<0.0> : !tile.block<128x32xf32>
  %zero = tile.constant dense<0.0> : !tile.block<128x64xf32>
  %step = arith.constant 2048 : i32
  %stepQ = tile.splat %step : i32 -> !tile.block<64x32xi32>
  %stepM = tile.constant dense<32> : !tile.block<32xi32>
  %acc:3 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero, %pq = %qp, %pm = %mp) -> (!tile.block<128x64xf32>, !tile.block<64x32x!tile.ptr<f16>>, !tile.block<32x!tile.ptr<f32>>) : i32 {
    %qt = tile.load %pq : !tile.block<64x32x!tile.ptr<f16>>
    %mv = tile.load %pm : !tile.block<32x!tile.ptr<f32>>
    %s = tile.dot %kk, %qt, %zero32 : !tile.block<128x64xf16>, !tile.block<64x32xf16> -> !tile.block<128x32xf32>
    %m2 = tile.expand_dims %mv {axis = 0 : i32} : !tile.block<32xf32> -> !tile.block<1x32xf32>
    %m3 = tile.broadcast %m2 : !tile.block<1x32xf32> -> !tile.block<128x32xf32>
    %d = tile.subf %s, %m3 : !tile.block<128x32xf32>
    %e = tile.exp2 %d : !tile.block<128x32xf32>
    %p = tile.cast %e : !tile.block<128x32xf32> to !tile.block<128x32xf16>
    %qq = tile.trans %qt : !tile.block<64x32xf16> -> !tile.block<32x64xf16>
    %d2 = tile.dot %p, %qq, %sum : !tile.block<128x32xf16>, !tile.block<32x64xf16> -> !tile.block<128x64xf32>
    %pq2 = tile.addptr %pq, %stepQ : !tile.block<64x32x!tile.ptr<f16>>, !tile.block<64x32xi32>
    %pm2 = tile.addptr %pm, %stepM : !tile.block<32x!tile.ptr<f32>>, !tile.block<32xi32>
    scf.yield %d2, %pq2, %pm2 : !tile.block<128x64xf32>, !tile.block<64x32x!tile.ptr<f16>>, !tile.block<32x!tile.ptr<f32>>
  }
  %rc = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ic = tile.reshape %rc : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x64x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ic : !tile.block<128x64x!tile.ptr<f32>>, !tile.block<128x64xi32>
  tile.store %cp, %acc#0 : !tile.block<128x64x!tile.ptr<f32>>
  return
}
