// cumsum.mlir: row-wise inclusive prefix sum of an n_rows x n_cols f32 matrix,
//     out[r, j] = x[r, 0] + x[r, 1] + ... + x[r, j],
// with tile.scan; one program per row, the row one BLOCK of 1024 >= n_cols
// columns, masked (padding loads 0, which the prefix of real columns never sees).
//
// Launch: 1-D grid (n_rows,), num_warps 4.
// Args:   out, x: f32 device pointers (16-byte aligned);
//         out_row_stride, x_row_stride: i32 row strides in elements (column stride 1);
//         n_cols: i32, 1 <= n_cols <= 1024.

func.func @cumsum(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                  %x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                  %out_row_stride: i32, %x_row_stride: i32, %n_cols: i32) {
  %row = tile.program_id 0 : i32
  %cols = tile.arange 0, 1024 : !tile.block<1024xi32>
  %n_b = tile.splat %n_cols : i32 -> !tile.block<1024xi32>
  %mask = tile.cmpi slt, %cols, %n_b : !tile.block<1024xi32>

  %x_row_off = arith.muli %row, %x_row_stride : i32
  %x_row = tile.addptr %x, %x_row_off : !tile.ptr<f32>, i32
  %x_row_b = tile.splat %x_row : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_row_b, %cols : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %zero = tile.constant dense<0.0> : !tile.block<1024xf32>
  %xv = tile.load %x_ptrs mask %mask other %zero : !tile.block<1024x!tile.ptr<f32>>

  %sums = tile.scan sum %xv {axis = 0 : i32} : !tile.block<1024xf32>

  %o_row_off = arith.muli %row, %out_row_stride : i32
  %o_row = tile.addptr %out, %o_row_off : !tile.ptr<f32>, i32
  %o_row_b = tile.splat %o_row : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %o_ptrs = tile.addptr %o_row_b, %cols : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %o_ptrs, %sums mask %mask : !tile.block<1024x!tile.ptr<f32>>
  return
}
