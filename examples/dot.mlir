// dot.mlir: C[M, N] = A[M, K] @ B[K, N] with A, B in f16 and C in f32, K <= 16,
// one tile.dot of a 32x16 block of A by a 16x64 block of B with an f32
// accumulator per program; loads masked on M, N and K (masked elements load 0
// so they add nothing to the products), the store masked on M and N.
//
// Launch: 2-D grid (cdiv(M, 32), cdiv(N, 64)), num_warps 4.
// Args:   a, b: f16 device pointers, c: f32 device pointer (all 16-byte aligned);
//         M, N, K: i32 extents (1 <= K <= 16);
//         stride_am, stride_bk, stride_cm: i32 row strides in elements (column strides 1).

func.func @dot(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
               %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
               %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
               %M: i32, %N: i32, %K: i32,
               %stride_am: i32, %stride_bk: i32, %stride_cm: i32) {
  %pid_m = tile.program_id 0 : i32
  %pid_n = tile.program_id 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %row0 = arith.muli %pid_m, %c32 : i32
  %col0 = arith.muli %pid_n, %c64 : i32

  %ar_m = tile.arange 0, 32 : !tile.block<32xi32>
  %row0_b = tile.splat %row0 : i32 -> !tile.block<32xi32>
  %rows = tile.addi %row0_b, %ar_m : !tile.block<32xi32>
  %M_b = tile.splat %M : i32 -> !tile.block<32xi32>
  %rows_ok = tile.cmpi slt, %rows, %M_b : !tile.block<32xi32>
  %ar_n = tile.arange 0, 64 : !tile.block<64xi32>
  %col0_b = tile.splat %col0 : i32 -> !tile.block<64xi32>
  %cols = tile.addi %col0_b, %ar_n : !tile.block<64xi32>
  %N_b = tile.splat %N : i32 -> !tile.block<64xi32>
  %cols_ok = tile.cmpi slt, %cols, %N_b : !tile.block<64xi32>
  %ks = tile.arange 0, 16 : !tile.block<16xi32>
  %K_b = tile.splat %K : i32 -> !tile.block<16xi32>
  %ks_ok = tile.cmpi slt, %ks, %K_b : !tile.block<16xi32>

  // A block: a + rows[:, None] * stride_am + ks[None, :], 32x16.
  %sam_b = tile.splat %stride_am : i32 -> !tile.block<32xi32>
  %a_roff = tile.muli %rows, %sam_b : !tile.block<32xi32>
  %a_roff_e = tile.expand_dims %a_roff {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %a_roff_2d = tile.broadcast %a_roff_e : !tile.block<32x1xi32> -> !tile.block<32x16xi32>
  %ks_row = tile.expand_dims %ks {axis = 0 : i32} : !tile.block<16xi32> -> !tile.block<1x16xi32>
  %ks_row_2d = tile.broadcast %ks_row : !tile.block<1x16xi32> -> !tile.block<32x16xi32>
  %a_offs = tile.addi %a_roff_2d, %ks_row_2d : !tile.block<32x16xi32>
  %rows_ok_e = tile.expand_dims %rows_ok {axis = 1 : i32} : !tile.block<32xi1> -> !tile.block<32x1xi1>
  %rows_ok_a = tile.broadcast %rows_ok_e : !tile.block<32x1xi1> -> !tile.block<32x16xi1>
  %ks_ok_row = tile.expand_dims %ks_ok {axis = 0 : i32} : !tile.block<16xi1> -> !tile.block<1x16xi1>
  %ks_ok_a = tile.broadcast %ks_ok_row : !tile.block<1x16xi1> -> !tile.block<32x16xi1>
  %a_mask = tile.andi %rows_ok_a, %ks_ok_a : !tile.block<32x16xi1>
  %a_base = tile.splat %a : !tile.ptr<f16> -> !tile.block<32x16x!tile.ptr<f16>>
  %a_ptrs = tile.addptr %a_base, %a_offs : !tile.block<32x16x!tile.ptr<f16>>, !tile.block<32x16xi32>
  %a_zero = tile.constant dense<0.0> : !tile.block<32x16xf16>
  %av = tile.load %a_ptrs mask %a_mask other %a_zero : !tile.block<32x16x!tile.ptr<f16>>

  // B block: b + ks[:, None] * stride_bk + cols[None, :], 16x64.
  %sbk_b = tile.splat %stride_bk : i32 -> !tile.block<16xi32>
  %b_roff = tile.muli %ks, %sbk_b : !tile.block<16xi32>
  %b_roff_e = tile.expand_dims %b_roff {axis = 1 : i32} : !tile.block<16xi32> -> !tile.block<16x1xi32>
  %b_roff_2d = tile.broadcast %b_roff_e : !tile.block<16x1xi32> -> !tile.block<16x64xi32>
  %cols_e = tile.expand_dims %cols {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
  %cols_b2d = tile.broadcast %cols_e : !tile.block<1x64xi32> -> !tile.block<16x64xi32>
  %b_offs = tile.addi %b_roff_2d, %cols_b2d : !tile.block<16x64xi32>
  %ks_ok_col = tile.expand_dims %ks_ok {axis = 1 : i32} : !tile.block<16xi1> -> !tile.block<16x1xi1>
  %ks_ok_b = tile.broadcast %ks_ok_col : !tile.block<16x1xi1> -> !tile.block<16x64xi1>
  %cols_ok_e = tile.expand_dims %cols_ok {axis = 0 : i32} : !tile.block<64xi1> -> !tile.block<1x64xi1>
  %cols_ok_b = tile.broadcast %cols_ok_e : !tile.block<1x64xi1> -> !tile.block<16x64xi1>
  %b_mask = tile.andi %ks_ok_b, %cols_ok_b : !tile.block<16x64xi1>
  %b_base = tile.splat %b : !tile.ptr<f16> -> !tile.block<16x64x!tile.ptr<f16>>
  %b_ptrs = tile.addptr %b_base, %b_offs : !tile.block<16x64x!tile.ptr<f16>>, !tile.block<16x64xi32>
  %b_zero = tile.constant dense<0.0> : !tile.block<16x64xf16>
  %bv = tile.load %b_ptrs mask %b_mask other %b_zero : !tile.block<16x64x!tile.ptr<f16>>

  // The product, accumulated in f32.
  %acc = tile.constant dense<0.0> : !tile.block<32x64xf32>
  %cv = tile.dot %av, %bv, %acc : !tile.block<32x16xf16>, !tile.block<16x64xf16> -> !tile.block<32x64xf32>

  // Store C[rows, cols], masked on M and N.
  %scm_b = tile.splat %stride_cm : i32 -> !tile.block<32xi32>
  %c_roff = tile.muli %rows, %scm_b : !tile.block<32xi32>
  %c_roff_e = tile.expand_dims %c_roff {axis = 1 : i32} : !tile.block<32xi32> -> !tile.block<32x1xi32>
  %c_roff_2d = tile.broadcast %c_roff_e : !tile.block<32x1xi32> -> !tile.block<32x64xi32>
  %cols_c2d = tile.broadcast %cols_e : !tile.block<1x64xi32> -> !tile.block<32x64xi32>
  %c_offs = tile.addi %c_roff_2d, %cols_c2d : !tile.block<32x64xi32>
  %rows_ok_c = tile.broadcast %rows_ok_e : !tile.block<32x1xi1> -> !tile.block<32x64xi1>
  %cols_ok_c = tile.broadcast %cols_ok_e : !tile.block<1x64xi1> -> !tile.block<32x64xi1>
  %c_mask = tile.andi %rows_ok_c, %cols_ok_c : !tile.block<32x64xi1>
  %c_base = tile.splat %c : !tile.ptr<f32> -> !tile.block<32x64x!tile.ptr<f32>>
  %c_ptrs = tile.addptr %c_base, %c_offs : !tile.block<32x64x!tile.ptr<f32>>, !tile.block<32x64xi32>
  tile.store %c_ptrs, %cv mask %c_mask : !tile.block<32x64x!tile.ptr<f32>>
  return
}
