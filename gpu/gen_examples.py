#!/usr/bin/env python3
"""Generate the parametric seed kernels in examples/ (matrix add, naive matmul).

The kernels are plain tile IR; this script only saves typing for the variants
(tile shapes, the unrolled K loop of the naive matmul). Usage:

    python3 gpu/gen_examples.py                # rewrite the checked-in examples
    python3 gpu/gen_examples.py --matmul-k 512 -o /tmp/matmul_k512.mlir
"""
from __future__ import annotations

import argparse
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DIV16 = " {tile.divisibility = 16 : i32}"


def _blk(shape: tuple[int, ...], elem: str) -> str:
    return "!tile.block<" + "x".join(str(d) for d in shape) + "x" + elem + ">"


def _range_1d(name: str, pid_axis: int, size: int) -> list[str]:
    """Lines computing %<name> = pid * size + arange(size) as a block of i32."""
    b = _blk((size,), "i32")
    return [
        f"  %pid_{name} = tile.program_id {pid_axis} : i32",
        f"  %c{size}_{name} = arith.constant {size} : i32",
        f"  %{name}0 = arith.muli %pid_{name}, %c{size}_{name} : i32",
        f"  %ar_{name} = tile.arange 0, {size} : {b}",
        f"  %{name}0_b = tile.splat %{name}0 : i32 -> {b}",
        f"  %{name} = tile.addi %{name}0_b, %ar_{name} : {b}",
    ]


def _bound_1d(name: str, size: int, bound: str) -> list[str]:
    """Lines computing %<name>_ok = %<name> < %<bound>."""
    b = _blk((size,), "i32")
    return [
        f"  %{bound}_b{size} = tile.splat %{bound} : i32 -> {b}",
        f"  %{name}_ok = tile.cmpi slt, %{name}, %{bound}_b{size} : {b}",
    ]


def _to_2d(name: str, bm: int, bn: int, elem: str, axis: int) -> list[str]:
    """Broadcast the rank-1 %<name> to bm x bn: rows (axis=0 of the tile) or columns."""
    if axis == 0:  # x[:, None]
        src, mid = (bm,), (bm, 1)
        expand = 1
    else:  # x[None, :]
        src, mid = (bn,), (1, bn)
        expand = 0
    return [
        f"  %{name}_e = tile.expand_dims %{name} {{axis = {expand} : i32}} : "
        f"{_blk(src, elem)} -> {_blk(mid, elem)}",
        f"  %{name}_2d = tile.broadcast %{name}_e : {_blk(mid, elem)} -> {_blk((bm, bn), elem)}",
    ]


def matrix_add(bm: int, bn: int, strides_div16: bool) -> str:
    i32 = _blk((bm, bn), "i32")
    f32 = _blk((bm, bn), "f32")
    pb = _blk((bm, bn), "!tile.ptr<f32>")
    sdiv = DIV16 if strides_div16 else ""
    note = ("row strides are multiples of 16 elements (tile.divisibility)" if strides_div16
            else "row strides may be any value")
    lines = [
        f"// matrix_add_{bm}x{bn}.mlir: out[i, j] = x[i, j] + y[i, j] for an M x N f32 matrix,",
        f"// one {bm}x{bn} tile per program, masked on both dimensions.",
        "//",
        f"// Launch: 2-D grid (cdiv(M, {bm}), cdiv(N, {bn})), num_warps 4.",
        "// Args:   x, y, out: f32 device pointers (16-byte aligned); M, N: i32 extents;",
        "//         stride_x, stride_y, stride_out: i32 row strides in elements (column stride 1);",
        f"//         {note}.",
        "",
        f"func.func @matrix_add_{bm}x{bn}(",
        f"    %x: !tile.ptr<f32>{DIV16}, %y: !tile.ptr<f32>{DIV16},",
        f"    %out: !tile.ptr<f32>{DIV16}, %M: i32, %N: i32,",
        f"    %stride_x: i32{sdiv}, %stride_y: i32{sdiv}, %stride_out: i32{sdiv}) {{",
    ]
    lines += _range_1d("rows", 0, bm) + _range_1d("cols", 1, bn)
    lines += _bound_1d("rows", bm, "M") + _bound_1d("cols", bn, "N")
    lines += _to_2d("rows_ok", bm, bn, "i1", 0) + _to_2d("cols_ok", bm, bn, "i1", 1)
    lines.append(f"  %mask = tile.andi %rows_ok_2d, %cols_ok_2d : {_blk((bm, bn), 'i1')}")
    lines += _to_2d("rows", bm, bn, "i32", 0) + _to_2d("cols", bm, bn, "i32", 1)
    for t in ("x", "y", "out"):
        lines += [
            f"  %stride_{t}_b = tile.splat %stride_{t} : i32 -> {i32}",
            f"  %{t}_roff = tile.muli %rows_2d, %stride_{t}_b : {i32}",
            f"  %{t}_off = tile.addi %{t}_roff, %cols_2d : {i32}",
            f"  %{t}_base = tile.splat %{t} : !tile.ptr<f32> -> {pb}",
            f"  %{t}_ptrs = tile.addptr %{t}_base, %{t}_off : {pb}, {i32}",
        ]
    lines += [
        f"  %xv = tile.load %x_ptrs mask %mask : {pb}",
        f"  %yv = tile.load %y_ptrs mask %mask : {pb}",
        f"  %sum = tile.addf %xv, %yv : {f32}",
        f"  tile.store %out_ptrs, %sum mask %mask : {pb}",
        "  return",
        "}",
    ]
    return "\n".join(lines) + "\n"


def matmul_naive(k: int, bm: int = 32, bn: int = 64) -> str:
    f32 = _blk((bm, bn), "f32")
    pa, pbk = _blk((bm,), "!tile.ptr<f32>"), _blk((bn,), "!tile.ptr<f32>")
    pc = _blk((bm, bn), "!tile.ptr<f32>")
    i32 = _blk((bm, bn), "i32")
    lines = [
        f"// matmul_naive.mlir: C[M, N] = A[M, K] @ B[K, N] in f32 with K = {k} static,",
        "// the K loop fully unrolled into per-k outer products",
        "//     acc += a[:, None] * b[None, :]   (a = A[rows, k], b = B[k, cols]),",
        f"// one {bm}x{bn} tile of C per program, masked on M and N.",
        "// (Generated by gpu/gen_examples.py; regenerate rather than edit.)",
        "//",
        f"// Launch: 2-D grid (cdiv(M, {bm}), cdiv(N, {bn})), num_warps 4.",
        "// Args:   a, b, c: f32 device pointers (16-byte aligned); M, N: i32 extents;",
        "//         stride_am, stride_bk, stride_cm: i32 row strides in elements of A, B, C",
        f"//         (column strides 1; A has exactly K = {k} columns to read, B {k} rows).",
        "",
        "func.func @matmul_naive(",
        f"    %a: !tile.ptr<f32>{DIV16}, %b: !tile.ptr<f32>{DIV16},",
        f"    %c: !tile.ptr<f32>{DIV16}, %M: i32, %N: i32,",
        "    %stride_am: i32, %stride_bk: i32, %stride_cm: i32) {",
    ]
    lines += _range_1d("rows", 0, bm) + _range_1d("cols", 1, bn)
    lines += _bound_1d("rows", bm, "M") + _bound_1d("cols", bn, "N")
    bi32m, bi32n = _blk((bm,), "i32"), _blk((bn,), "i32")
    lines += [
        # Row pointers of A (column 0) and column pointers of B (row 0).
        f"  %stride_am_b = tile.splat %stride_am : i32 -> {bi32m}",
        f"  %a_roff = tile.muli %rows, %stride_am_b : {bi32m}",
        f"  %a_base = tile.splat %a : !tile.ptr<f32> -> {pa}",
        f"  %a_rows = tile.addptr %a_base, %a_roff : {pa}, {bi32m}",
        f"  %b_base = tile.splat %b : !tile.ptr<f32> -> {pbk}",
        f"  %b_cols = tile.addptr %b_base, %cols : {pbk}, {bi32n}",
        f"  %acc0 = tile.constant dense<0.0> : {f32}",
    ]
    for kk in range(k):
        lines += [
            f"  // k = {kk}",
            f"  %ka{kk} = tile.constant dense<{kk}> : {bi32m}",
            f"  %pa{kk} = tile.addptr %a_rows, %ka{kk} : {pa}, {bi32m}",
            f"  %va{kk} = tile.load %pa{kk} mask %rows_ok : {pa}",
            f"  %c{kk} = arith.constant {kk} : i32",
            f"  %kb{kk} = arith.muli %c{kk}, %stride_bk : i32",
            f"  %kbb{kk} = tile.splat %kb{kk} : i32 -> {bi32n}",
            f"  %pb{kk} = tile.addptr %b_cols, %kbb{kk} : {pbk}, {bi32n}",
            f"  %vb{kk} = tile.load %pb{kk} mask %cols_ok : {pbk}",
            f"  %ea{kk} = tile.expand_dims %va{kk} {{axis = 1 : i32}} : "
            f"{_blk((bm,), 'f32')} -> {_blk((bm, 1), 'f32')}",
            f"  %ba{kk} = tile.broadcast %ea{kk} : {_blk((bm, 1), 'f32')} -> {f32}",
            f"  %eb{kk} = tile.expand_dims %vb{kk} {{axis = 0 : i32}} : "
            f"{_blk((bn,), 'f32')} -> {_blk((1, bn), 'f32')}",
            f"  %bb{kk} = tile.broadcast %eb{kk} : {_blk((1, bn), 'f32')} -> {f32}",
            f"  %prod{kk} = tile.mulf %ba{kk}, %bb{kk} : {f32}",
            f"  %acc{kk + 1} = tile.addf %acc{kk}, %prod{kk} : {f32}",
        ]
    lines += _to_2d("rows_ok", bm, bn, "i1", 0) + _to_2d("cols_ok", bm, bn, "i1", 1)
    lines.append(f"  %mask = tile.andi %rows_ok_2d, %cols_ok_2d : {_blk((bm, bn), 'i1')}")
    lines += _to_2d("rows", bm, bn, "i32", 0) + _to_2d("cols", bm, bn, "i32", 1)
    lines += [
        f"  %stride_cm_b = tile.splat %stride_cm : i32 -> {i32}",
        f"  %c_roff = tile.muli %rows_2d, %stride_cm_b : {i32}",
        f"  %c_off = tile.addi %c_roff, %cols_2d : {i32}",
        f"  %c_base = tile.splat %c : !tile.ptr<f32> -> {pc}",
        f"  %c_ptrs = tile.addptr %c_base, %c_off : {pc}, {i32}",
        f"  tile.store %c_ptrs, %acc{k} mask %mask : {pc}",
        "  return",
        "}",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matmul-k", type=int, default=None,
                        help="only write the naive matmul with this K (to -o)")
    parser.add_argument("-o", "--output", type=Path, default=None)
    args = parser.parse_args()
    if args.matmul_k is not None:
        out = args.output or EXAMPLES / f"matmul_naive_k{args.matmul_k}.mlir"
        out.write_text(matmul_naive(args.matmul_k))
        return
    (EXAMPLES / "matrix_add_16x32.mlir").write_text(matrix_add(16, 32, strides_div16=True))
    (EXAMPLES / "matrix_add_24x40.mlir").write_text(matrix_add(24, 40, strides_div16=False))
    (EXAMPLES / "matmul_naive.mlir").write_text(matmul_naive(128))


if __name__ == "__main__":
    main()
