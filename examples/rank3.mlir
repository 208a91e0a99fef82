// rank3.mlir: a rank-3 block kernel over a contiguous A x B x C f32 array x.
// Program (i, j, k) handles the 4x8x16 block x[4i : 4i+4, 8j : 8j+8, 16k : 16k+16]:
//     y[a, b, c]    = x[a, b, c] * 2 + 1          (elementwise, stored)
//     r[j, a, c]    = sum over b in the block of x[a, b, c]   (reduction along the middle axis)
// masked on all three dimensions. With Tb = cdiv(B, 8), r is Tb x A x C (contiguous) and
// r.sum(0) == x.sum(1).
//
// Launch: 3-D grid (cdiv(A, 4), cdiv(B, 8), cdiv(C, 16)), num_warps 4.
// Args:   x, y, r: f32 device pointers (16-byte aligned); A, B, C: i32 extents
//         (x and y contiguous A x B x C, r contiguous Tb x A x C).

func.func @rank3(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %r: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %A: i32, %B: i32, %C: i32) {
  %pid_a = tile.program_id 0 : i32
  %pid_b = tile.program_id 1 : i32
  %pid_c = tile.program_id 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32

  // Indices along each dimension and their bounds.
  %a0 = arith.muli %pid_a, %c4 : i32
  %a0_b = tile.splat %a0 : i32 -> !tile.block<4xi32>
  %ar_a = tile.arange 0, 4 : !tile.block<4xi32>
  %ia = tile.addi %a0_b, %ar_a : !tile.block<4xi32>
  %A_b = tile.splat %A : i32 -> !tile.block<4xi32>
  %a_ok = tile.cmpi slt, %ia, %A_b : !tile.block<4xi32>

  %b0 = arith.muli %pid_b, %c8 : i32
  %b0_b = tile.splat %b0 : i32 -> !tile.block<8xi32>
  %ar_b = tile.arange 0, 8 : !tile.block<8xi32>
  %ib = tile.addi %b0_b, %ar_b : !tile.block<8xi32>
  %B_b = tile.splat %B : i32 -> !tile.block<8xi32>
  %b_ok = tile.cmpi slt, %ib, %B_b : !tile.block<8xi32>

  %c0 = arith.muli %pid_c, %c16 : i32
  %c0_b = tile.splat %c0 : i32 -> !tile.block<16xi32>
  %ar_c = tile.arange 0, 16 : !tile.block<16xi32>
  %ic = tile.addi %c0_b, %ar_c : !tile.block<16xi32>
  %C_b = tile.splat %C : i32 -> !tile.block<16xi32>
  %c_ok = tile.cmpi slt, %ic, %C_b : !tile.block<16xi32>

  // Offsets a * (B * C) + b * C + c, broadcast to 4x8x16.
  %BC = arith.muli %B, %C : i32
  %BC_b = tile.splat %BC : i32 -> !tile.block<4xi32>
  %a_off = tile.muli %ia, %BC_b : !tile.block<4xi32>
  %a_off2 = tile.expand_dims %a_off {axis = 1 : i32} : !tile.block<4xi32> -> !tile.block<4x1xi32>
  %a_off3 = tile.expand_dims %a_off2 {axis = 2 : i32} : !tile.block<4x1xi32> -> !tile.block<4x1x1xi32>
  %a_offB = tile.broadcast %a_off3 : !tile.block<4x1x1xi32> -> !tile.block<4x8x16xi32>
  %Cb8 = tile.splat %C : i32 -> !tile.block<8xi32>
  %b_off = tile.muli %ib, %Cb8 : !tile.block<8xi32>
  %b_off2 = tile.expand_dims %b_off {axis = 0 : i32} : !tile.block<8xi32> -> !tile.block<1x8xi32>
  %b_off3 = tile.expand_dims %b_off2 {axis = 2 : i32} : !tile.block<1x8xi32> -> !tile.block<1x8x1xi32>
  %b_offB = tile.broadcast %b_off3 : !tile.block<1x8x1xi32> -> !tile.block<4x8x16xi32>
  %c_off2 = tile.expand_dims %ic {axis = 0 : i32} : !tile.block<16xi32> -> !tile.block<1x16xi32>
  %c_off3 = tile.expand_dims %c_off2 {axis = 0 : i32} : !tile.block<1x16xi32> -> !tile.block<1x1x16xi32>
  %c_offB = tile.broadcast %c_off3 : !tile.block<1x1x16xi32> -> !tile.block<4x8x16xi32>
  %ab_off = tile.addi %a_offB, %b_offB : !tile.block<4x8x16xi32>
  %offs = tile.addi %ab_off, %c_offB : !tile.block<4x8x16xi32>

  // Mask a < A && b < B && c < C, broadcast to 4x8x16.
  %a_ok2 = tile.expand_dims %a_ok {axis = 1 : i32} : !tile.block<4xi1> -> !tile.block<4x1xi1>
  %a_ok3 = tile.expand_dims %a_ok2 {axis = 2 : i32} : !tile.block<4x1xi1> -> !tile.block<4x1x1xi1>
  %a_okB = tile.broadcast %a_ok3 : !tile.block<4x1x1xi1> -> !tile.block<4x8x16xi1>
  %b_ok2 = tile.expand_dims %b_ok {axis = 0 : i32} : !tile.block<8xi1> -> !tile.block<1x8xi1>
  %b_ok3 = tile.expand_dims %b_ok2 {axis = 2 : i32} : !tile.block<1x8xi1> -> !tile.block<1x8x1xi1>
  %b_okB = tile.broadcast %b_ok3 : !tile.block<1x8x1xi1> -> !tile.block<4x8x16xi1>
  %c_ok2 = tile.expand_dims %c_ok {axis = 0 : i32} : !tile.block<16xi1> -> !tile.block<1x16xi1>
  %c_ok3 = tile.expand_dims %c_ok2 {axis = 0 : i32} : !tile.block<1x16xi1> -> !tile.block<1x1x16xi1>
  %c_okB = tile.broadcast %c_ok3 : !tile.block<1x1x16xi1> -> !tile.block<4x8x16xi1>
  %ab_ok = tile.andi %a_okB, %b_okB : !tile.block<4x8x16xi1>
  %mask = tile.andi %ab_ok, %c_okB : !tile.block<4x8x16xi1>

  // Load, elementwise y = x * 2 + 1, store.
  %x_base = tile.splat %x : !tile.ptr<f32> -> !tile.block<4x8x16x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_base, %offs : !tile.block<4x8x16x!tile.ptr<f32>>, !tile.block<4x8x16xi32>
  %zero = tile.constant dense<0.0> : !tile.block<4x8x16xf32>
  %xv = tile.load %x_ptrs mask %mask other %zero : !tile.block<4x8x16x!tile.ptr<f32>>
  %two = tile.constant dense<2.0> : !tile.block<4x8x16xf32>
  %one = tile.constant dense<1.0> : !tile.block<4x8x16xf32>
  %x2 = tile.mulf %xv, %two : !tile.block<4x8x16xf32>
  %yv = tile.addf %x2, %one : !tile.block<4x8x16xf32>
  %y_base = tile.splat %y : !tile.ptr<f32> -> !tile.block<4x8x16x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %y_base, %offs : !tile.block<4x8x16x!tile.ptr<f32>>, !tile.block<4x8x16xi32>
  tile.store %y_ptrs, %yv mask %mask : !tile.block<4x8x16x!tile.ptr<f32>>

  // Sum along the middle axis: 4x8x16 -> 4x16, stored to r[pid_b, a, c].
  %s = tile.reduce sum %xv {axis = 1 : i32} : !tile.block<4x8x16xf32> -> !tile.block<4x16xf32>
  %AC = arith.muli %A, %C : i32
  %r_plane = arith.muli %pid_b, %AC : i32
  %r_plane_b = tile.splat %r_plane : i32 -> !tile.block<4x16xi32>
  %Cb4 = tile.splat %C : i32 -> !tile.block<4xi32>
  %ra_off = tile.muli %ia, %Cb4 : !tile.block<4xi32>
  %ra_off2 = tile.expand_dims %ra_off {axis = 1 : i32} : !tile.block<4xi32> -> !tile.block<4x1xi32>
  %ra_offB = tile.broadcast %ra_off2 : !tile.block<4x1xi32> -> !tile.block<4x16xi32>
  %rc_offB = tile.broadcast %c_off2 : !tile.block<1x16xi32> -> !tile.block<4x16xi32>
  %r_off0 = tile.addi %r_plane_b, %ra_offB : !tile.block<4x16xi32>
  %r_offs = tile.addi %r_off0, %rc_offB : !tile.block<4x16xi32>
  %a_ok2B = tile.broadcast %a_ok2 : !tile.block<4x1xi1> -> !tile.block<4x16xi1>
  %c_ok2B = tile.broadcast %c_ok2 : !tile.block<1x16xi1> -> !tile.block<4x16xi1>
  %r_mask = tile.andi %a_ok2B, %c_ok2B : !tile.block<4x16xi1>
  %r_base = tile.splat %r : !tile.ptr<f32> -> !tile.block<4x16x!tile.ptr<f32>>
  %r_ptrs = tile.addptr %r_base, %r_offs : !tile.block<4x16x!tile.ptr<f32>>, !tile.block<4x16xi32>
  tile.store %r_ptrs, %s mask %r_mask : !tile.block<4x16x!tile.ptr<f32>>
  return
}
