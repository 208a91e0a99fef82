// RUN: tile-opt %s -tile-assign-layouts="chip=sm_90a num-warps=8" -convert-tile-to-gpu | FileCheck %s
// RUN: tile-opt %s -tile-assign-layouts="chip=sm_90a num-warps=8" | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-translate --tile-to-ptx --chip=sm_90a --num-warps=8 %s | FileCheck %s --check-prefix=PTX
// RUN: tile-translate --tile-to-cubin --chip=sm_90a --num-warps=8 %s -o %t.cubin
// RUN: %if ptxas %{ tile-translate --tile-to-ptx --chip=sm_90a --num-warps=8 %s -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ptx -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// A 128x128x64 f16 dot over 8 warps on sm_90a gets the wgmma accumulator
// layout: two warpgroups of 64 rows, one m64n128k16 column tile each. The
// operands are staged in shared memory (128-byte swizzled rows, 16-byte
// vector stores), fenced for the async proxy, and each warpgroup issues 4
// wgmma (64 deep), then commits and waits.

// LAYOUT: #[[MMA:.*]] = #tile.mma<version = 3, warps = [8, 1], instr = [16, 128, 16]>
// LAYOUT: tile.dot {{.*}} -> !tile.block<128x128xf32, #[[MMA]]>
// The compile's occupancy search leaves kernels on the tensor cores alone:
// CHECK-LABEL: gpu.func @wgmma
// CHECK-SAME: tile.shared_bytes = 65536 : i32, tile.tensor_cores,
// CHECK: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK: "fence.proxy.async.shared::cta;"
// CHECK: gpu.barrier
// CHECK: "wgmma.fence.sync.aligned;"
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// PTX: .target sm_90a
// PTX: fence.proxy.async.shared::cta;
// PTX: wgmma.fence.sync.aligned;
// Each K step's descriptors are the first step's start address fields plus
// one constant (the other fields and the step's offset), added in `add.s64`s
// that LLVM cannot turn into `or`s: ptxas keeps them in uniform registers.
// PTX: add.s64 [[B0:%rd[0-9]+]], [[B:%rd[0-9]+]], 4611686293338849280;
// PTX: add.s64 [[A0:%rd[0-9]+]], [[A:%rd[0-9]+]], 4611686293372403712;
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, [[A0]], [[B0]], 0,
// PTX: add.s64 [[B1:%rd[0-9]+]], [[B]], 4611686293338849408;
// PTX: add.s64 [[A1:%rd[0-9]+]], [[A]], 4611686293372403714;
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, [[A1]], [[B1]], p,
// PTX-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned 0;
func.func @wgmma(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rows = tile.arange 0, 128 : !tile.block<128xi32>
  %ks = tile.arange 0, 64 : !tile.block<64xi32>
  %c64 = tile.constant dense<64> : !tile.block<128x1xi32>
  %r2 = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<128xi32> -> !tile.block<128x1xi32>
  %r3 = tile.muli %r2, %c64 : !tile.block<128x1xi32>
  %r4 = tile.broadcast %r3 : !tile.block<128x1xi32> -> !tile.block<128x64xi32>
  %k2 = tile.expand_dims %ks {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %k3 = tile.broadcast %k2 : !tile.block<1x64xi32> -> !tile.block<128x64xi32>
  %ai = tile.addi %r4, %k3 : !tile.block<128x64xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %ai : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %av = tile.load %ap : !tile.block<128x64x!tile.ptr<f16>>
  %c128 = tile.constant dense<128> : !tile.block<64x1xi32>
  %kr = tile.expand_dims %ks {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %kr2 = tile.muli %kr, %c128 : !tile.block<64x1xi32>
  %kr3 = tile.broadcast %kr2 : !tile.block<64x1xi32> -> !tile.block<64x128xi32>
  %n2 = tile.expand_dims %rows {axis = 0 : i32} : !tile.block<128xi32> -> !tile.block<1x128xi32>
  %n3 = tile.broadcast %n2 : !tile.block<1x128xi32> -> !tile.block<64x128xi32>
  %bi = tile.addi %kr3, %n3 : !tile.block<64x128xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> !tile.block<64x128x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %bi : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
  %bv = tile.load %bp : !tile.block<64x128x!tile.ptr<f16>>
  %zero = tile.constant dense<0.0> : !tile.block<128x128xf32>
  %d = tile.dot %av, %bv, %zero : !tile.block<128x64xf16>, !tile.block<64x128xf16> -> !tile.block<128x128xf32>
  %c128b = tile.constant dense<128> : !tile.block<128x1xi32>
  %cr = tile.muli %r2, %c128b : !tile.block<128x1xi32>
  %cr2 = tile.broadcast %cr : !tile.block<128x1xi32> -> !tile.block<128x128xi32>
  %cn = tile.broadcast %n2 : !tile.block<1x128xi32> -> !tile.block<128x128xi32>
  %ci = tile.addi %cr2, %cn : !tile.block<128x128xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x128x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ci : !tile.block<128x128x!tile.ptr<f32>>, !tile.block<128x128xi32>
  tile.store %cp, %d : !tile.block<128x128x!tile.ptr<f32>>
  return
}

// B read K-major (its columns contiguous: b^T row-major, as `x @ w.T` reads a
// weight): staged transposed, so its runs are 16-byte stores as A's are, and
// wgmma reads it without the B transpose flag.
// CHECK-LABEL: gpu.func @wgmma_k_major_b
// CHECK-NOT: llvm.store {{.*}} : f16, !llvm.ptr<3>
// CHECK: "fence.proxy.async.shared::cta;"
// The first K step onto the zero accumulator overwrites the registers
// (scale-d 0) without reading them: no tied inputs, nothing moved into them
// between the fence and the instruction; the rest accumulate.
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, $65, 0, 1, 1, 0, 0;{{.*}}", "{{(=f,)+}}l,l" {{[^,]*}}, {{[^,]*}} : (i64, i64) ->
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
// PTX-LABEL: .entry wgmma_k_major_b
// PTX-NOT: st.shared.b16
// PTX: wgmma.fence.sync.aligned;
func.func @wgmma_k_major_b(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %rows = tile.arange 0, 128 : !tile.block<128xi32>
  %ks = tile.arange 0, 64 : !tile.block<64xi32>
  %c64 = tile.constant dense<64> : !tile.block<128x1xi32>
  %r2 = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<128xi32> -> !tile.block<128x1xi32>
  %r3 = tile.muli %r2, %c64 : !tile.block<128x1xi32>
  %r4 = tile.broadcast %r3 : !tile.block<128x1xi32> -> !tile.block<128x64xi32>
  %k2 = tile.expand_dims %ks {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %k3 = tile.broadcast %k2 : !tile.block<1x64xi32> -> !tile.block<128x64xi32>
  %ai = tile.addi %r4, %k3 : !tile.block<128x64xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %ai : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %av = tile.load %ap : !tile.block<128x64x!tile.ptr<f16>>
  %kr = tile.expand_dims %ks {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %kr3 = tile.broadcast %kr : !tile.block<64x1xi32> -> !tile.block<64x128xi32>
  %c64n = tile.constant dense<64> : !tile.block<1x128xi32>
  %n2 = tile.expand_dims %rows {axis = 0 : i32} : !tile.block<128xi32> -> !tile.block<1x128xi32>
  %n64 = tile.muli %n2, %c64n : !tile.block<1x128xi32>
  %n3 = tile.broadcast %n64 : !tile.block<1x128xi32> -> !tile.block<64x128xi32>
  %bi = tile.addi %kr3, %n3 : !tile.block<64x128xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> !tile.block<64x128x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %bi : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
  %bv = tile.load %bp : !tile.block<64x128x!tile.ptr<f16>>
  %zero = tile.constant dense<0.0> : !tile.block<128x128xf32>
  %d = tile.dot %av, %bv, %zero : !tile.block<128x64xf16>, !tile.block<64x128xf16> -> !tile.block<128x128xf32>
  %c128b = tile.constant dense<128> : !tile.block<128x1xi32>
  %cr = tile.muli %r2, %c128b : !tile.block<128x1xi32>
  %cr2 = tile.broadcast %cr : !tile.block<128x1xi32> -> !tile.block<128x128xi32>
  %n2c = tile.expand_dims %rows {axis = 0 : i32} : !tile.block<128xi32> -> !tile.block<1x128xi32>
  %cn = tile.broadcast %n2c : !tile.block<1x128xi32> -> !tile.block<128x128xi32>
  %ci = tile.addi %cr2, %cn : !tile.block<128x128xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x128x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ci : !tile.block<128x128x!tile.ptr<f32>>, !tile.block<128x128xi32>
  tile.store %cp, %d : !tile.block<128x128x!tile.ptr<f32>>
  return
}

// A dot chain, as attention's p @ v: the first product, converted to f16,
// stays in the accumulator layout, which is how wgmma reads an A operand from
// registers: the second dot stages only B and its wgmma takes A as four
// 32-bit registers (pairs of f16), not a descriptor.
// LAYOUT-LABEL: func.func @wgmma_chain
// LAYOUT: %[[P:.*]] = tile.cast {{.*}} to !tile.block<128x64xf16, #[[MMA64:.*]]>
// LAYOUT: tile.dot %[[P]], {{.*}} : !tile.block<128x64xf16, #[[MMA64]]>
// PTX-LABEL: .entry wgmma_chain
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 0, 1, 1, 0, 1;
// PTX-COUNT-3: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 1;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 0, 1, 1, 1;
// PTX-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
func.func @wgmma_chain(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %i8k = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ia = tile.reshape %i8k : !tile.block<8192xi32> -> !tile.block<128x64xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %ia : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
  %av = tile.load %ap : !tile.block<128x64x!tile.ptr<f16>>
  %i4k = tile.arange 0, 4096 : !tile.block<4096xi32>
  %ib = tile.reshape %i4k : !tile.block<4096xi32> -> !tile.block<64x64xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %ib : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
  %bv = tile.load %bp : !tile.block<64x64x!tile.ptr<f16>>
  %zero = tile.constant dense<0.0> : !tile.block<128x64xf32>
  %s = tile.dot %av, %bv, %zero : !tile.block<128x64xf16>, !tile.block<64x64xf16> -> !tile.block<128x64xf32>
  %p = tile.cast %s : !tile.block<128x64xf32> to !tile.block<128x64xf16>
  %iv = tile.reshape %i8k : !tile.block<8192xi32> -> !tile.block<64x128xi32>
  %vb = tile.splat %v : !tile.ptr<f16> -> !tile.block<64x128x!tile.ptr<f16>>
  %vp = tile.addptr %vb, %iv : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
  %vv = tile.load %vp : !tile.block<64x128x!tile.ptr<f16>>
  %zero2 = tile.constant dense<0.0> : !tile.block<128x128xf32>
  %o = tile.dot %p, %vv, %zero2 : !tile.block<128x64xf16>, !tile.block<64x128xf16> -> !tile.block<128x128xf32>
  %i16k = tile.arange 0, 16384 : !tile.block<16384xi32>
  %ic = tile.reshape %i16k : !tile.block<16384xi32> -> !tile.block<128x128xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<128x128x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ic : !tile.block<128x128x!tile.ptr<f32>>, !tile.block<128x128xi32>
  tile.store %cp, %o : !tile.block<128x128x!tile.ptr<f32>>
  return
}

// In a K loop whose accumulator only the next iteration's dot reads, the
// group commits without waiting: the loads after the dot overlap the math.
// The next dot waits before its barrier overwrites the operands in shared
// memory, and the loop's end waits before the result is stored.
// The loop runs inside `if (lower < upper)`, whose then-branch waits, so the
// path that skips the loop joins after the wait (ptxas would serialize every
// wgmma otherwise).
// CHECK-LABEL: gpu.func @wgmma_loop
// CHECK: %[[RUNS:.*]] = arith.cmpi slt
// CHECK: scf.if %[[RUNS]]
// CHECK: scf.for
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK-NEXT: gpu.barrier
// CHECK: "wgmma.commit_group.sync.aligned;"
// CHECK-NOT: wgmma.wait_group
// CHECK: llvm.load {{.*}} -> vector<8xf16>
// CHECK-NOT: wgmma.wait_group
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: llvm.inline_asm {{.*}}"wgmma.wait_group.sync.aligned 0;"
// CHECK: scf.yield
// CHECK: } else {
// CHECK-NEXT: scf.yield
// CHECK-NOT: wgmma.wait_group
// CHECK: llvm.store
// No wgmma is serialized (ptxas's C7515 "Potential Performance Loss").
// PTXAS-NOT: C7515
// PTXAS: Compiling entry function 'wgmma_loop'
// PTXAS-NOT: C7515
// Compiled whole (pipelined), the one load that is both operands goes
// through one ring, which both read: the previous group is waited for after
// this one commits, before the copies that overwrite its slot.
// PTX-LABEL: .entry wgmma_loop
// PTX: cp.async.wait_group 1;
// PTX: wgmma.commit_group.sync.aligned;
// PTX-NEXT: // end inline asm
// PTX-NEXT: // begin inline asm
// PTX-NEXT: wgmma.wait_group.sync.aligned 1;
// PTX: cp.async.cg.shared.global
// PTX: wgmma.wait_group.sync.aligned 0;
func.func @wgmma_loop(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.arange 0, 4096 : !tile.block<4096xi32>
  %i = tile.reshape %r : !tile.block<4096xi32> -> !tile.block<64x64xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %i : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
  %zero = tile.constant dense<0.0> : !tile.block<64x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %zero) -> (!tile.block<64x64xf32>) : i32 {
    %v = tile.load %ap : !tile.block<64x64x!tile.ptr<f16>>
    %d = tile.dot %v, %v, %sum : !tile.block<64x64xf16>, !tile.block<64x64xf16> -> !tile.block<64x64xf32>
    %w = tile.load %ap : !tile.block<64x64x!tile.ptr<f16>>
    scf.yield %d : !tile.block<64x64xf32>
  }
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %i : !tile.block<64x64x!tile.ptr<f32>>, !tile.block<64x64xi32>
  tile.store %cp, %acc : !tile.block<64x64x!tile.ptr<f32>>
  return
}
