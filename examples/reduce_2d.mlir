// reduce_2d.mlir: sum, max and min of 32x64 tiles of an M x N f32 matrix x,
// along axis 0 and along axis 1 (six outputs), masked on both dimensions.
// Program (i, j) loads the tile x[32i : 32i+32, 64j : 64j+64] and writes
//     sum0[i, c], max0[i, c], min0[i, c]  = reduction over the tile's rows, c in its columns
//     sum1[r, j], max1[r, j], min1[r, j]  = reduction over the tile's columns, r in its rows
// so with Tm = cdiv(M, 32), Tn = cdiv(N, 64):
//     sum0/max0/min0 are Tm x N (row stride N), sum1/max1/min1 are M x Tn (row stride Tn),
// and the full reductions are sum0.sum(0), max0.amax(0), ... (only the in-range
// elements of x take part: masked elements count as 0 / -inf / +inf).
//
// Launch: 2-D grid (Tm, Tn) = (cdiv(M, 32), cdiv(N, 64)), num_warps 4.
// Args:   x, sum0, max0, min0, sum1, max1, min1: f32 device pointers (16-byte aligned);
//         M, N: i32 extents; stride_x: i32 row stride of x in elements (column stride 1).

func.func @reduce_2d(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %sum0: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %max0: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %min0: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %sum1: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %max1: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %min1: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %M: i32, %N: i32, %stride_x: i32) {
  %pid_m = tile.program_id 0 : i32
  %pid_n = tile.program_id 1 : i32
  %tiles_n = tile.num_programs 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %row0 = arith.muli %pid_m, %c32 : i32
  %col0 = arith.muli %pid_n, %c64 : i32

  // rows = row0 + arange(32), cols = col0 + arange(64), and their bounds.
  %ar_m = tile.arange 0, 32 : !tile.block<32xi32>
  %row0_b = tile.splat %row0 : i32 -> !tile.block<32xi32>
  %rows = tile.addi %row0_b, %ar_m : !tile.block<32xi32>
  %ar_n = tile.arange 0, 64 : !tile.block<64xi32>
  %col0_b = tile.splat %col0 : i32 -> !tile.block<64xi32>
  %cols = tile.addi %col0_b, %ar_n : !tile.block<64xi32>
  %M_b = tile.splat %M : i32 -> !tile.block<32xi32>
  %rows_ok = tile.cmpi slt, %rows, %M_b : !tile.block<32xi32>
  %N_b = tile.splat %N : i32 -> !tile.block<64xi32>
  %cols_ok = tile.cmpi slt, %cols, %N_b : !tile.block<64xi32>

  // 2-D mask and offsets rows[:, None] * stride_x + cols[None, :].
  %rows_ok_e = tile.expand_dims %rows_ok {axis = 1 : i32} : !tile.block<32xi1> -> !tile.block<32x1xi1>
  %rows_ok_2d = tile.broadcast %rows_ok_e : !tile.block<32x1xi1> -> !tile.block<32x64xi1>
  %cols_ok_e = tile.expand_dims %cols_ok {axis = 0 : i32} : !tile.block<64xi1> -> !tile.block<1x64xi1>
  %cols_ok_2d = tile.broadcast %cols_ok_e : !tile.block<1x64xi1> -> !tile.block<32x64xi1>
  %mask = tile.andi %rows_ok_2d, %cols_ok_2d : !tile.block<32x64xi1>
  %stride_b = tile.splat %stride_x : i32 -> !tile.block<32xi32>
  %row_off = tile.muli %rows, %stride_b : !tile.block<32xi32>
  %row_off_e = tile.expand_dims %row_off {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %row_off_2d = tile.broadcast %row_off_e : !tile.block<32x1xi32> -> !tile.block<32x64xi32>
  %cols_e = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %cols_2d = tile.broadcast %cols_e : !tile.block<1x64xi32> -> !tile.block<32x64xi32>
  %offs = tile.addi %row_off_2d, %cols_2d : !tile.block<32x64xi32>
  %x_base = tile.splat %x : !tile.ptr<f32> -> !tile.block<32x64x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_base, %offs : !tile.block<32x64x!tile.ptr<f32>>, !tile.block<32x64xi32>

  // One load; the identities of max and min replace the masked elements.
  %zero = tile.constant dense<0.0> : !tile.block<32x64xf32>
  %neg_inf = tile.constant dense<0xFF800000> : !tile.block<32x64xf32>
  %pos_inf = tile.constant dense<0x7F800000> : !tile.block<32x64xf32>
  %xs = tile.load %x_ptrs mask %mask other %zero : !tile.block<32x64x!tile.ptr<f32>>
  %xmax = tile.select %mask, %xs, %neg_inf : !tile.block<32x64xf32>
  %xmin = tile.select %mask, %xs, %pos_inf : !tile.block<32x64xf32>

  // Along axis 0 (over rows): one value per column.
  %s0 = tile.reduce sum %xs {axis = 0 : i32} : !tile.block<32x64xf32> -> !tile.block<64xf32>
  %mx0 = tile.reduce max %xmax {axis = 0 : i32} : !tile.block<32x64xf32> -> !tile.block<64xf32>
  %mn0 = tile.reduce min %xmin {axis = 0 : i32} : !tile.block<32x64xf32> -> !tile.block<64xf32>
  // Along axis 1 (over columns): one value per row.
  %s1 = tile.reduce sum %xs {axis = 1 : i32} : !tile.block<32x64xf32> -> !tile.block<32xf32>
  %mx1 = tile.reduce max %xmax {axis = 1 : i32} : !tile.block<32x64xf32> -> !tile.block<32xf32>
  %mn1 = tile.reduce min %xmin {axis = 1 : i32} : !tile.block<32x64xf32> -> !tile.block<32xf32>

  // Axis-0 results go to out0[pid_m, cols] = out0 + pid_m * N + cols.
  %o0_row = arith.muli %pid_m, %N : i32
  %o0_row_b = tile.splat %o0_row : i32 -> !tile.block<64xi32>
  %o0_offs = tile.addi %o0_row_b, %cols : !tile.block<64xi32>
  %sum0_b = tile.splat %sum0 : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %sum0_p = tile.addptr %sum0_b, %o0_offs : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  tile.store %sum0_p, %s0 mask %cols_ok : !tile.block<64x!tile.ptr<f32>>
  %max0_b = tile.splat %max0 : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %max0_p = tile.addptr %max0_b, %o0_offs : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  tile.store %max0_p, %mx0 mask %cols_ok : !tile.block<64x!tile.ptr<f32>>
  %min0_b = tile.splat %min0 : !tile.ptr<f32> -> !tile.block<64x!tile.ptr<f32>>
  %min0_p = tile.addptr %min0_b, %o0_offs : !tile.block<64x!tile.ptr<f32>>, !tile.block<64xi32>
  tile.store %min0_p, %mn0 mask %cols_ok : !tile.block<64x!tile.ptr<f32>>

  // Axis-1 results go to out1[rows, pid_n] = out1 + rows * tiles_n + pid_n.
  %tn_b = tile.splat %tiles_n : i32 -> !tile.block<32xi32>
  %o1_roff = tile.muli %rows, %tn_b : !tile.block<32xi32>
  %pid_n_b = tile.splat %pid_n : i32 -> !tile.block<32xi32>
  %o1_offs = tile.addi %o1_roff, %pid_n_b : !tile.block<32xi32>
  %sum1_b = tile.splat %sum1 : !tile.ptr<f32> -> !tile.block<32x!tile.ptr<f32>>
  %sum1_p = tile.addptr %sum1_b, %o1_offs : !tile.block<32x!tile.ptr<f32>>, !tile.block<32xi32>
  tile.store %sum1_p, %s1 mask %rows_ok : !tile.block<32x!tile.ptr<f32>>
  %max1_b = tile.splat %max1 : !tile.ptr<f32> -> !tile.block<32x!tile.ptr<f32>>
  %max1_p = tile.addptr %max1_b, %o1_offs : !tile.block<32x!tile.ptr<f32>>, !tile.block<32xi32>
  tile.store %max1_p, %mx1 mask %rows_ok : !tile.block<32x!tile.ptr<f32>>
  %min1_b = tile.splat %min1 : !tile.ptr<f32> -> !tile.block<32x!tile.ptr<f32>>
  %min1_p = tile.addptr %min1_b, %o1_offs : !tile.block<32x!tile.ptr<f32>>, !tile.block<32xi32>
  tile.store %min1_p, %mn1 mask %rows_ok : !tile.block<32x!tile.ptr<f32>>
  return
}
