// matrix_add_24x40.mlir: out[i, j] = x[i, j] + y[i, j] for an M x N f32 matrix,
// one 24x40 tile per program, masked on both dimensions.
//
// Launch: 2-D grid (cdiv(M, 24), cdiv(N, 40)), num_warps 4.
// Args:   x, y, out: f32 device pointers (16-byte aligned); M, N: i32 extents;
//         stride_x, stride_y, stride_out: i32 row strides in elements (column stride 1);
//         row strides may be any value.

func.func @matrix_add_24x40(
    %x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
    %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %M: i32, %N: i32,
    %stride_x: i32, %stride_y: i32, %stride_out: i32) {
  %pid_rows = tile.program_id 0 : i32
  %c24_rows = arith.constant 24 : i32
  %rows0 = arith.muli %pid_rows, %c24_rows : i32
  %ar_rows = tile.arange 0, 24 : !tile.block<24xi32>
  %rows0_b = tile.splat %rows0 : i32 -> !tile.block<24xi32>
  %rows = tile.addi %rows0_b, %ar_rows : !tile.block<24xi32>
  %pid_cols = tile.program_id 1 : i32
  %c40_cols = arith.constant 40 : i32
  %cols0 = arith.muli %pid_cols, %c40_cols : i32
  %ar_cols = tile.arange 0, 40 : !tile.block<40xi32>
  %cols0_b = tile.splat %cols0 : i32 -> !tile.block<40xi32>
  %cols = tile.addi %cols0_b, %ar_cols : !tile.block<40xi32>
  %M_b24 = tile.splat %M : i32 -> !tile.block<24xi32>
  %rows_ok = tile.cmpi slt, %rows, %M_b24 : !tile.block<24xi32>
  %N_b40 = tile.splat %N : i32 -> !tile.block<40xi32>
  %cols_ok = tile.cmpi slt, %cols, %N_b40 : !tile.block<40xi32>
  %rows_ok_e = tile.expand_dims %rows_ok {axis = 1 : i32} : !tile.block<24xi1> -> !tile.block<24x1xi1>
  %rows_ok_2d = tile.broadcast %rows_ok_e : !tile.block<24x1xi1> -> !tile.block<24x40xi1>
  %cols_ok_e = tile.expand_dims %cols_ok {axis = 0 : i32} : !tile.block<40xi1> -> !tile.block<1x40xi1>
  %cols_ok_2d = tile.broadcast %cols_ok_e : !tile.block<1x40xi1> -> !tile.block<24x40xi1>
  %mask = tile.andi %rows_ok_2d, %cols_ok_2d : !tile.block<24x40xi1>
  %rows_e = tile.expand_dims %rows {axis = 1 : i32} : !tile.block<24xi32> -> !tile.block<24x1xi32>
  %rows_2d = tile.broadcast %rows_e : !tile.block<24x1xi32> -> !tile.block<24x40xi32>
  %cols_e = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<40xi32> -> !tile.block<1x40xi32>
  %cols_2d = tile.broadcast %cols_e : !tile.block<1x40xi32> -> !tile.block<24x40xi32>
  %stride_x_b = tile.splat %stride_x : i32 -> !tile.block<24x40xi32>
  %x_roff = tile.muli %rows_2d, %stride_x_b : !tile.block<24x40xi32>
  %x_off = tile.addi %x_roff, %cols_2d : !tile.block<24x40xi32>
  %x_base = tile.splat %x : !tile.ptr<f32> -> !tile.block<24x40x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_base, %x_off : !tile.block<24x40x!tile.ptr<f32>>, !tile.block<24x40xi32>
  %stride_y_b = tile.splat %stride_y : i32 -> !tile.block<24x40xi32>
  %y_roff = tile.muli %rows_2d, %stride_y_b : !tile.block<24x40xi32>
  %y_off = tile.addi %y_roff, %cols_2d : !tile.block<24x40xi32>
  %y_base = tile.splat %y : !tile.ptr<f32> -> !tile.block<24x40x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %y_base, %y_off : !tile.block<24x40x!tile.ptr<f32>>, !tile.block<24x40xi32>
  %stride_out_b = tile.splat %stride_out : i32 -> !tile.block<24x40xi32>
  %out_roff = tile.muli %rows_2d, %stride_out_b : !tile.block<24x40xi32>
  %out_off = tile.addi %out_roff, %cols_2d : !tile.block<24x40xi32>
  %out_base = tile.splat %out : !tile.ptr<f32> -> !tile.block<24x40x!tile.ptr<f32>>
  %out_ptrs = tile.addptr %out_base, %out_off : !tile.block<24x40x!tile.ptr<f32>>, !tile.block<24x40xi32>
  %xv = tile.load %x_ptrs mask %mask : !tile.block<24x40x!tile.ptr<f32>>
  %yv = tile.load %y_ptrs mask %mask : !tile.block<24x40x!tile.ptr<f32>>
  %sum = tile.addf %xv, %yv : !tile.block<24x40xf32>
  tile.store %out_ptrs, %sum mask %mask : !tile.block<24x40x!tile.ptr<f32>>
  return
}
