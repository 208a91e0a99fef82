// softmax.mlir: row softmax of an n_rows x n_cols f32 matrix,
//     out[r, :] = exp(x[r, :] - max(x[r, :])) / sum(exp(x[r, :] - max(x[r, :]))),
// one program per row; a row is one BLOCK of 1024 >= n_cols columns, masked with
// other = -inf so that the padding neither wins the max nor adds to the sum.
//
// Launch: 1-D grid (n_rows,), num_warps 4.
// Args:   out, x: f32 device pointers (16-byte aligned);
//         out_row_stride, x_row_stride: i32 row strides in elements (column stride 1);
//         n_cols: i32, 1 <= n_cols <= 1024.

func.func @softmax(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %out_row_stride: i32, %x_row_stride: i32, %n_cols: i32) {
  %row = tile.program_id 0 : i32
  %cols = tile.arange 0, 1024 : !tile.block<1024xi32>
  %n_b = tile.splat %n_cols : i32 -> !tile.block<1024xi32>
  %mask = tile.cmpi slt, %cols, %n_b : !tile.block<1024xi32>

  // Load the row, -inf where masked.
  %x_row_off = arith.muli %row, %x_row_stride : i32
  %x_row = tile.addptr %x, %x_row_off : !tile.ptr<f32>, i32
  %x_row_b = tile.splat %x_row : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_row_b, %cols : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  %neg_inf = tile.constant dense<0xFF800000> : !tile.block<1024xf32>
  %xv = tile.load %x_ptrs mask %mask other %neg_inf : !tile.block<1024x!tile.ptr<f32>>

  // Subtract the row maximum for stability, exponentiate, normalize.
  %max = tile.reduce max %xv {axis = 0 : i32} : !tile.block<1024xf32> -> f32
  %max_b = tile.splat %max : f32 -> !tile.block<1024xf32>
  %shifted = tile.subf %xv, %max_b : !tile.block<1024xf32>
  %num = tile.exp %shifted : !tile.block<1024xf32>
  %den = tile.reduce sum %num {axis = 0 : i32} : !tile.block<1024xf32> -> f32
  %den_b = tile.splat %den : f32 -> !tile.block<1024xf32>
  %y = tile.divf %num, %den_b : !tile.block<1024xf32>

  %o_row_off = arith.muli %row, %out_row_stride : i32
  %o_row = tile.addptr %out, %o_row_off : !tile.ptr<f32>, i32
  %o_row_b = tile.splat %o_row : !tile.ptr<f32> -> !tile.block<1024x!tile.ptr<f32>>
  %o_ptrs = tile.addptr %o_row_b, %cols : !tile.block<1024x!tile.ptr<f32>>, !tile.block<1024xi32>
  tile.store %o_ptrs, %y mask %mask : !tile.block<1024x!tile.ptr<f32>>
  return
}
