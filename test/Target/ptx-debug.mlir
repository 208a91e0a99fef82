// tile.print reaches the PTX as calls of vprintf, tile.assert as a call of
// __assertfail with the file and line of the assertion; ptxas takes both
// (the CUDA driver provides the two functions).
// RUN: tile-translate --tile-to-ptx %s | FileCheck %s
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-DAG: .extern .func  (.param .b32 func_retval0) vprintf
// CHECK-DAG: .extern .func __assertfail
// The message ("x is too big"), file ("kernel.py") and function (the
// kernel, "debugging") are strings in the module.
// CHECK-DAG: .global .align 1 .b8 assert_message_0[13] = {120, 32, 105, 115, 32, 116, 111, 111, 32, 98, 105, 103};
// CHECK-DAG: .global .align 1 .b8 assert_file_0[10] = {107, 101, 114, 110, 101, 108, 46, 112, 121};
// CHECK-DAG: .global .align 1 .b8 assert_func_0[10] = {100, 101, 98, 117, 103, 103, 105, 110, 103};
// CHECK-LABEL: .entry debugging(
// CHECK: call.uni (retval0), vprintf
// CHECK: call.uni __assertfail
func.func @debugging(%x: !tile.ptr<f32>) {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %p : !tile.block<128x!tile.ptr<f32>>
  tile.print " x: " %v {is_signed = array<i1: true>} : !tile.block<128xf32>
  %limit = tile.constant dense<100.0> : !tile.block<128xf32>
  %ok = tile.cmpf olt, %v, %limit : !tile.block<128xf32>
  tile.assert %ok, "x is too big" : !tile.block<128xi1> loc("kernel.py":7:5)
  return
}
