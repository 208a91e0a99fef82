// RUN: tile-opt %s -tile-assign-layouts -convert-tile-to-gpu | FileCheck %s
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %s | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ tile-translate --tile-to-ptx --chip=sm_90a %s -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.o %}
// sm_80 has every atomic here but the bf16 add, which is an error there.
// RUN: sed -e '/BF16-BEGIN$/,/BF16-END$/d' %s > %t.sm80.mlir
// RUN: tile-translate --tile-to-ptx --chip=sm_80 %t.sm80.mlir -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=PTX80 < %t.sm80.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.o %}
// RUN: not tile-translate --tile-to-ptx --chip=sm_80 %s 2>&1 | FileCheck %s --check-prefix=SM80

// PTX80: .target sm_80
// PTX80-COUNT-7: .entry
// PTX80-NOT: bf16

// A histogram: one atomic per element (no layout repeats an element here),
// predicated on the mask, its old value 0 where the mask is off.
// CHECK-LABEL: gpu.func @histogram
// CHECK-SAME: tile.shared_bytes = 0
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.b32 $0, 0;\0A\09@$1 atom.global.acq_rel.gpu.add.u32 $0, [$2], $3;", "=r,b,l,r"
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// PTX-LABEL: .entry histogram
// PTX: @%p{{[0-9]+}} atom.global.acq_rel.gpu.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
func.func @histogram(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %bins: !tile.ptr<i32>, %old: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %n: i32) {
  %pid = tile.program_id 0 : i32
  %c128 = arith.constant 128 : i32
  %start = arith.muli %pid, %c128 : i32
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %s = tile.splat %start : i32 -> !tile.block<128xi32>
  %offs = tile.addi %s, %r : !tile.block<128xi32>
  %nb = tile.splat %n : i32 -> !tile.block<128xi32>
  %m = tile.cmpi slt, %offs, %nb : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<i32> -> !tile.block<128x!tile.ptr<i32>>
  %xp = tile.addptr %xb, %offs : !tile.block<128x!tile.ptr<i32>>, !tile.block<128xi32>
  %idx = tile.load %xp mask %m : !tile.block<128x!tile.ptr<i32>>
  %bb = tile.splat %bins : !tile.ptr<i32> -> !tile.block<128x!tile.ptr<i32>>
  %bp = tile.addptr %bb, %idx : !tile.block<128x!tile.ptr<i32>>, !tile.block<128xi32>
  %one = tile.constant dense<1> : !tile.block<128xi32>
  %prev = tile.atomic_rmw add acq_rel gpu %bp, %one mask %m : !tile.block<128x!tile.ptr<i32>>
  %ob = tile.splat %old : !tile.ptr<i32> -> !tile.block<128x!tile.ptr<i32>>
  %op = tile.addptr %ob, %offs : !tile.block<128x!tile.ptr<i32>>, !tile.block<128xi32>
  tile.store %op, %prev mask %m : !tile.block<128x!tile.ptr<i32>>
  return
}

// 16 elements over 128 threads: each element is held by 8 threads, and only
// the one whose repeated thread-id bits are 0 applies it. The old values
// reach the other copies through shared memory, between two barriers.
// CHECK-LABEL: gpu.func @replicated
// CHECK-SAME: tile.shared_bytes = 64
// Lanes 0-15 of warp 0 own the elements (thread-id bits 4-6 repeat them).
// CHECK: %[[OWNERS:.*]] = arith.andi %{{.*}}, %c112_i32
// CHECK: %[[OWNED:.*]] = arith.cmpi eq, %[[OWNERS]]
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.b32 $0, 0;\0A\09@$1 atom.global.relaxed.cta.add.f32 $0, [$2], $3;", "=r,b,l,r" %[[OWNED]],
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// PTX-LABEL: .entry replicated
// PTX: atom.global.relaxed.cta.add.f32
// PTX: bar.sync
func.func @replicated(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 16 : !tile.block<16xi32>
  %pb = tile.splat %p : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  %pp = tile.addptr %pb, %r : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
  %v = tile.constant dense<2.0> : !tile.block<16xf32>
  %prev = tile.atomic_rmw add relaxed cta %pp, %v : !tile.block<16x!tile.ptr<f32>>
  %ob = tile.splat %out : !tile.ptr<f32> -> !tile.block<16x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r : !tile.block<16x!tile.ptr<f32>>, !tile.block<16xi32>
  tile.store %op, %prev : !tile.block<16x!tile.ptr<f32>>
  return
}

// A scalar atomic is one per program: thread 0 does it, and its old value
// reaches every thread through shared memory.
// CHECK-LABEL: gpu.func @counter
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.b32 $0, 0;\0A\09@$1 atom.global.acq_rel.gpu.add.u32 $0, [$2], $3;", "=r,b,l,r" %[[FIRST]],
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// An unused old value is not shared.
// CHECK: "mov.b32 $0, 0;\0A\09@$1 atom.global.acq_rel.gpu.max.s32 $0, [$2], $3;"
// CHECK-NEXT: gpu.return
func.func @counter(%c: !tile.ptr<i32>, %out: !tile.ptr<i32>) {
  %one = arith.constant 1 : i32
  %prev = tile.atomic_rmw add acq_rel gpu %c, %one : !tile.ptr<i32>
  %pid = tile.program_id 0 : i32
  %o = tile.addptr %out, %pid : !tile.ptr<i32>, i32
  tile.store %o, %prev : !tile.ptr<i32>
  %m = tile.atomic_rmw max acq_rel gpu %c, %pid : !tile.ptr<i32>
  return
}

// Float max and min are a signed integer atomic where the value's sign bit
// is clear and an unsigned one where it is set.
// CHECK-LABEL: gpu.func @float_extremes
// CHECK: arith.cmpi slt
// CHECK: "mov.b32 $0, 0;\0A\09@$1 atom.global.acq_rel.gpu.max.s32 $0, [$2], $3;"
// CHECK: "mov.b32 $0, 0;\0A\09@$1 atom.global.acq_rel.gpu.min.u32 $0, [$2], $3;"
// CHECK: arith.select
// CHECK: "mov.b64 $0, 0;\0A\09@$1 atom.global.acq_rel.gpu.min.s64 $0, [$2], $3;", "=l,b,l,l"
// CHECK: "mov.b64 $0, 0;\0A\09@$1 atom.global.acq_rel.gpu.max.u64 $0, [$2], $3;", "=l,b,l,l"
// PTX-LABEL: .entry float_extremes
// PTX: atom.global.acq_rel.gpu.max.s32
// PTX: atom.global.acq_rel.gpu.min.u32
// PTX: atom.global.acq_rel.gpu.min.s64
// PTX: atom.global.acq_rel.gpu.max.u64
func.func @float_extremes(%p: !tile.ptr<f32>, %x: f32, %q: !tile.ptr<f64>, %y: f64) {
  %a = tile.atomic_rmw max acq_rel gpu %p, %x : !tile.ptr<f32>
  tile.store %p, %a : !tile.ptr<f32>
  %b = tile.atomic_rmw min acq_rel gpu %q, %y : !tile.ptr<f64>
  tile.store %q, %b : !tile.ptr<f64>
  return
}

// Every other kind, sem and scope, on 32- and 64-bit elements.
// CHECK-LABEL: gpu.func @kinds
// CHECK: atom.global.acquire.sys.and.b32
// CHECK: atom.global.release.gpu.or.b64
// CHECK: atom.global.relaxed.cta.xor.b32
// CHECK: atom.global.acq_rel.gpu.exch.b32
// CHECK: atom.global.acq_rel.gpu.exch.b64
// CHECK: atom.global.acq_rel.gpu.min.u32
// CHECK: atom.global.acq_rel.gpu.max.u64
// CHECK: atom.global.acq_rel.gpu.add.u64
// CHECK: atom.global.acq_rel.gpu.add.f64
// PTX-LABEL: .entry kinds
// PTX: atom.global.acquire.sys.and.b32
// PTX: atom.global.release.gpu.or.b64
// PTX: atom.global.relaxed.cta.xor.b32
// PTX: atom.global.acq_rel.gpu.exch.b32
// PTX: atom.global.acq_rel.gpu.exch.b64
// PTX: atom.global.acq_rel.gpu.min.u32
// PTX: atom.global.acq_rel.gpu.max.u64
// PTX: atom.global.acq_rel.gpu.add.u64
// PTX: atom.global.acq_rel.gpu.add.f64
func.func @kinds(%p: !tile.ptr<i32>, %x: i32, %q: !tile.ptr<i64>, %y: i64, %f: !tile.ptr<f32>, %g: f32, %d: !tile.ptr<f64>, %e: f64) {
  %0 = tile.atomic_rmw and acquire sys %p, %x : !tile.ptr<i32>
  %1 = tile.atomic_rmw or release gpu %q, %y : !tile.ptr<i64>
  %2 = tile.atomic_rmw xor relaxed cta %p, %0 : !tile.ptr<i32>
  %3 = tile.atomic_rmw xchg acq_rel gpu %f, %g : !tile.ptr<f32>
  %4 = tile.atomic_rmw xchg acq_rel gpu %d, %e : !tile.ptr<f64>
  %5 = tile.atomic_rmw umin acq_rel gpu %p, %2 : !tile.ptr<i32>
  %6 = tile.atomic_rmw umax acq_rel gpu %q, %1 : !tile.ptr<i64>
  %7 = tile.atomic_rmw add acq_rel gpu %q, %6 : !tile.ptr<i64>
  %8 = tile.atomic_rmw add acq_rel gpu %d, %4 : !tile.ptr<f64>
  tile.store %p, %5 : !tile.ptr<i32>
  tile.store %q, %7 : !tile.ptr<i64>
  tile.store %f, %3 : !tile.ptr<f32>
  tile.store %d, %8 : !tile.ptr<f64>
  return
}

// Compare-and-swap of 16-, 32- and 64-bit elements, a block of them too.
// CHECK-LABEL: gpu.func @cas
// CHECK: "mov.b16 $0, 0;\0A\09@$1 atom.global.acq_rel.gpu.cas.b16 $0, [$2], $3, $4;", "=h,b,l,h,h"
// CHECK: "mov.b32 $0, 0;\0A\09@$1 atom.global.relaxed.gpu.cas.b32 $0, [$2], $3, $4;", "=r,b,l,r,r"
// CHECK: "mov.b64 $0, 0;\0A\09@$1 atom.global.acq_rel.sys.cas.b64 $0, [$2], $3, $4;", "=l,b,l,l,l"
// CHECK: "atom.global.acq_rel.gpu.cas.b32 $0, [$1], $2, $3;", "=r,l,r,r"
// PTX-LABEL: .entry cas
// PTX: atom.global.acq_rel.gpu.cas.b16
// PTX: atom.global.relaxed.gpu.cas.b32
// PTX: atom.global.acq_rel.sys.cas.b64
func.func @cas(%h: !tile.ptr<f16>, %a: f16, %b: f16, %p: !tile.ptr<i32>, %x: i32, %q: !tile.ptr<f64>, %y: f64, %ps: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %0 = tile.atomic_cas acq_rel gpu %h, %a, %b : !tile.ptr<f16>
  tile.store %h, %0 : !tile.ptr<f16>
  %1 = tile.atomic_cas relaxed gpu %p, %x, %x : !tile.ptr<i32>
  tile.store %p, %1 : !tile.ptr<i32>
  %2 = tile.atomic_cas acq_rel sys %q, %y, %y : !tile.ptr<f64>
  tile.store %q, %2 : !tile.ptr<f64>
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %pb = tile.splat %ps : !tile.ptr<i32> -> !tile.block<128x!tile.ptr<i32>>
  %pp = tile.addptr %pb, %r : !tile.block<128x!tile.ptr<i32>>, !tile.block<128xi32>
  %zero = tile.constant dense<0> : !tile.block<128xi32>
  %3 = tile.atomic_cas acq_rel gpu %pp, %zero, %r : !tile.block<128x!tile.ptr<i32>>
  tile.store %pp, %3 : !tile.block<128x!tile.ptr<i32>>
  return
}

// CHECK-LABEL: gpu.func @half_add
// CHECK: atom.global.acq_rel.gpu.add.noftz.f16 $0, [$2], $3;", "=h,b,l,h"
// PTX-LABEL: .entry half_add
// PTX: atom.global.acq_rel.gpu.add.noftz.f16 %rs{{[0-9]+}}
func.func @half_add(%p: !tile.ptr<f16>, %x: f16) {
  %0 = tile.atomic_rmw add acq_rel gpu %p, %x : !tile.ptr<f16>
  tile.store %p, %0 : !tile.ptr<f16>
  return
}

// BF16-BEGIN
// bf16 add needs sm_90.
// CHECK-LABEL: gpu.func @bf16_add
// CHECK: atom.global.acq_rel.gpu.add.noftz.bf16 $0, [$2], $3;", "=h,b,l,h"
// PTX-LABEL: .entry bf16_add
// PTX: atom.global.acq_rel.gpu.add.noftz.bf16
// SM80: atomics.mlir:[[@LINE+2]]:8: error: 'tile.atomic_rmw' op adds bf16, which needs sm_90 or later (PTX atom.add.noftz.bf16); the chip is sm_80
func.func @bf16_add(%p: !tile.ptr<bf16>, %x: bf16) {
  %0 = tile.atomic_rmw add acq_rel gpu %p, %x : !tile.ptr<bf16>
  tile.store %p, %0 : !tile.ptr<bf16>
  return
}
// BF16-END
