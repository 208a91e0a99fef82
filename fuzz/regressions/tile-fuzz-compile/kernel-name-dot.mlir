// vector_add.mlir: out[i] = x[i] + y[i] for i < n (f32), masked tail.
//
// Launch: 1-D grid (cdiv(n, 1024),), num_warps 4.
// Args:   x, y, out: f32 device pointers (16-byte aligned); n: number of elements (i32).
// Each program handles one BLOCK of 1024 consecutive elements.

func.func @"add.kernel"(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %n: i32) {
  %pid = tile.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tile.arange 0, 1024 : !tile.block<1024xi32>
  %start_b = tile.splat %start : i32 -> !tile.block<1024xi32>
  %offs = tile.addi %start_b, %range : !tile.block<1024xi32>
  %n_b = tile.splat %n : i32 -> !tile.block<1024xi32>
  %mask = tile.cmpi slt, %offs, %n_b : !tile.block<1024xi32>

  %x_base = tile.splat %x : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_base, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %xv = tile.load %x_ptrs mask %mask : !tile.block<1024x!tile.ptr<f32>>

  %y_base = tile.splat %y : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %y_base, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %yv = tile.load %y_ptrs mask %mask : !tile.block<1024x!tile.ptr<f32>>

  %sum = tile.addf %xv, %yv : !tile.block<1024xf32>

  %o_base = tile.splat %out : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %o_ptrs = tile.addptr %o_base, %offs : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %o_ptrs, %sum mask %mask : !tile.block<1024x!tile.ptr<f32>>
  return
}
