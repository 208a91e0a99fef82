// Offsets from a runtime value the compiler knows nothing about stay scalar;
// Triton's vectorization hint (tile.hint, from tl.multiple_of and
// tl.max_contiguous) makes them 128-bit. A hint is the identity at run time:
// on a scalar and on an index function it lowers to its operand. So does an
// assumption (tl.assume's llvm.intr.assume) that an offset is non-negative,
// which lets `(start + arange) % n` keep its runs.
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry unhinted(
// CHECK-NOT: .v4
// CHECK: ld.global.b32
// CHECK-NOT: .v4
// CHECK: st.global.b32
// CHECK-NOT: .v4
// CHECK-LABEL: .entry hinted(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK-LABEL: .entry hinted_scalar(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// Offsets loaded from memory (held in registers, not an index function):
// the gather through them is 128-bit too, and needs only the first offset
// of each run.
// CHECK-LABEL: .entry hinted_loaded(
// CHECK-COUNT-2: ld.global.b32
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK-LABEL: .entry wrapped(
// CHECK-NOT: .v4
// CHECK: ld.global.b32
// CHECK-NOT: .v4
// CHECK-LABEL: .entry wrapped_assumed(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32

func.func @unhinted(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %start: i32) {
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %s = tile.splat %start : i32 -> !tile.block<1024xi32>
  %offs = tile.addi %s, %r : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p : !tile.block<1024x!tile.ptr<f32>>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %q = tile.addptr %yb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %q, %v : !tile.block<1024x!tile.ptr<f32>>
  return
}

func.func @hinted(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                  %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %start: i32) {
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %s = tile.splat %start : i32 -> !tile.block<1024xi32>
  %o = tile.addi %s, %r : !tile.block<1024xi32>
  %m = tile.hint %o divisibility [16] : !tile.block<1024xi32>
  %offs = tile.hint %m contiguity [16] : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p : !tile.block<1024x!tile.ptr<f32>>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %q = tile.addptr %yb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %q, %v : !tile.block<1024x!tile.ptr<f32>>
  return
}

func.func @hinted_scalar(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %start: i32) {
  %aligned = tile.hint %start divisibility [16] : i32
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %s = tile.splat %aligned : i32 -> !tile.block<1024xi32>
  %offs = tile.addi %s, %r : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p : !tile.block<1024x!tile.ptr<f32>>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %q = tile.addptr %yb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %q, %v : !tile.block<1024x!tile.ptr<f32>>
  return
}

func.func @hinted_loaded(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %idx: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                         %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %ib = tile.splat %idx : !tile.ptr<i32> -> !tile.block<1024x!tile.ptr<i32>>
  %ip = tile.addptr %ib, %r : !tile.block<1024x!tile.ptr<i32>>, !tile.block<1024xi32>
  %o = tile.load %ip : !tile.block<1024x!tile.ptr<i32>>
  %offs = tile.hint %o divisibility [16] contiguity [16] : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p : !tile.block<1024x!tile.ptr<f32>>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %q = tile.addptr %yb, %r : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %q, %v : !tile.block<1024x!tile.ptr<f32>>
  return
}

func.func @wrapped(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %block: i32,
                    %n: i32 {tile.divisibility = 16 : i32}) {
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %block, %c1024 : i32
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %s = tile.splat %start : i32 -> !tile.block<1024xi32>
  %o = tile.addi %s, %r : !tile.block<1024xi32>
  %ns = tile.splat %n : i32 -> !tile.block<1024xi32>
  %offs = tile.remsi %o, %ns : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p : !tile.block<1024x!tile.ptr<f32>>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %q = tile.addptr %yb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %q, %v : !tile.block<1024x!tile.ptr<f32>>
  return
}

func.func @wrapped_assumed(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %block: i32,
                    %n: i32 {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %positive = arith.cmpi sge, %block, %c0 : i32
  llvm.intr.assume %positive : i1
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %block, %c1024 : i32
  %r = tile.arange 0, 1024 : !tile.block<1024xi32>
  %s = tile.splat %start : i32 -> !tile.block<1024xi32>
  %o = tile.addi %s, %r : !tile.block<1024xi32>
  %ns = tile.splat %n : i32 -> !tile.block<1024xi32>
  %offs = tile.remsi %o, %ns : !tile.block<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %p = tile.addptr %xb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %v = tile.load %p : !tile.block<1024x!tile.ptr<f32>>
  %yb = tile.splat %y : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %q = tile.addptr %yb, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %q, %v : !tile.block<1024x!tile.ptr<f32>>
  return
}
