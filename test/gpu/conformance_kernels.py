"""Kernels of the GPU conformance suite (issue 5).

Written as Triton kernels (`import tile as triton; import tile.language as tl`).
"""
import tile as triton
import tile.language as tl


# -- elementwise ---------------------------------------------------------------

@triton.jit
def vec_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def copy(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


@triton.jit
def relu(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


@triton.jit
def leaky_relu(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.where(x >= 0, x, alpha * x), mask=mask)


@triton.jit
def sigmoid(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.sigmoid(x), mask=mask)


@triton.jit
def sigmoid_explicit(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, 1.0 / (1.0 + tl.exp(-x)), mask=mask)


@triton.jit
def cast(src_ptr, dst_ptr, n, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(src_ptr + offs, mask=mask)
    tl.store(dst_ptr + offs, x.to(DTYPE), mask=mask)


@triton.jit
def int_ops(a_ptr, b_ptr, s_ptr, div_ptr, mod_ptr, and_ptr, or_ptr, xor_ptr, shl_ptr,
            shr_ptr, min_ptr, max_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1)
    b = tl.load(b_ptr + offs, mask=mask, other=1)
    s = tl.load(s_ptr + offs, mask=mask, other=0)
    tl.store(div_ptr + offs, a // b, mask=mask)
    tl.store(mod_ptr + offs, a % b, mask=mask)
    tl.store(and_ptr + offs, a & b, mask=mask)
    tl.store(or_ptr + offs, a | b, mask=mask)
    tl.store(xor_ptr + offs, a ^ b, mask=mask)
    tl.store(shl_ptr + offs, a << s, mask=mask)
    tl.store(shr_ptr + offs, a >> s, mask=mask)
    tl.store(min_ptr + offs, tl.minimum(a, b), mask=mask)
    tl.store(max_ptr + offs, tl.maximum(a, b), mask=mask)


# -- 2-D tiles -----------------------------------------------------------------

@triton.jit
def matrix_add(a_ptr, b_ptr, c_ptr, M, N, stride_m, TILE_M: tl.constexpr,
               TILE_N: tl.constexpr):
    rows = tl.program_id(0) * TILE_M + tl.arange(0, TILE_M)
    cols = tl.program_id(1) * TILE_N + tl.arange(0, TILE_N)
    offsets = rows[:, None] * stride_m + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    a = tl.load(a_ptr + offsets, mask=mask, other=0.0)
    b = tl.load(b_ptr + offsets, mask=mask, other=0.0)
    tl.store(c_ptr + offsets, a + b, mask=mask)


@triton.jit
def row_reduce(x_ptr, out_ptr, n_cols, stride, OP: tl.constexpr, BLOCK: tl.constexpr):
    """One program per row: sum / max / min of the row."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    if OP == "sum":
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
        r = tl.sum(x, axis=0)
    elif OP == "max":
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
        r = tl.max(x, axis=0)
    else:
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=float("inf"))
        r = tl.min(x, axis=0)
    tl.store(out_ptr + row, r)


@triton.jit
def tile_reduce(x_ptr, out_ptr, M, N, stride, AXIS: tl.constexpr, OP: tl.constexpr,
                BM: tl.constexpr, BN: tl.constexpr):
    """One program, one BM x BN tile (masked to M x N): reduce along AXIS."""
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    ptrs = x_ptr + rows[:, None] * stride + cols[None, :]
    if OP == "sum":
        r = tl.sum(tl.load(ptrs, mask=mask, other=0.0), axis=AXIS)
    elif OP == "max":
        r = tl.max(tl.load(ptrs, mask=mask, other=-float("inf")), axis=AXIS)
    else:
        r = tl.min(tl.load(ptrs, mask=mask, other=float("inf")), axis=AXIS)
    if AXIS == 0:
        tl.store(out_ptr + cols, r, mask=cols < N)
    else:
        tl.store(out_ptr + rows, r, mask=rows < M)


@triton.jit
def softmax(out_ptr, in_ptr, n_cols, in_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    numerator = tl.exp(x)
    denominator = tl.sum(numerator, axis=0)
    tl.store(out_ptr + row * out_stride + cols, numerator / denominator, mask=mask)


@triton.jit
def cumsum_rows(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0)
    tl.store(out_ptr + row * stride + cols, tl.cumsum(x, axis=0), mask=mask)


@triton.jit
def cumsum_2d(x_ptr, out_ptr, M, N, stride, AXIS: tl.constexpr, BM: tl.constexpr,
              BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offsets = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, tl.cumsum(x, axis=AXIS), mask=mask)


@triton.jit
def rank3(in_ptr, out_ptr, sum_ptr, scale, D0: tl.constexpr, D1: tl.constexpr,
          D2: tl.constexpr):
    """Scale a D0 x D1 x D2 block (program p handles block p) and sum it along axis 1."""
    base = tl.program_id(0) * (D0 * D1 * D2)
    i = tl.arange(0, D0)[:, None, None]
    j = tl.arange(0, D1)[None, :, None]
    k = tl.arange(0, D2)[None, None, :]
    offsets = i * (D1 * D2) + j * D2 + k
    x = tl.load(in_ptr + base + offsets)
    tl.store(out_ptr + base + offsets, x * scale)
    s = tl.sum(x, axis=1)  # D0 x D2
    sum_base = tl.program_id(0) * (D0 * D2)
    tl.store(sum_ptr + sum_base + tl.arange(0, D0)[:, None] * D2 + tl.arange(0, D2)[None, :],
             s)


# -- matmul --------------------------------------------------------------------

@triton.jit
def matmul_static_k(a_ptr, b_ptr, c_ptr, M, N, stride_am, stride_ak, stride_bk, stride_bn,
                    stride_cm, K: tl.constexpr, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr):
    """C = A @ B as K outer products, unrolled with tl.static_range."""
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_m = offs_m < M
    mask_n = offs_n < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.static_range(K):
        a = tl.load(a_ptr + offs_m * stride_am + k * stride_ak, mask=mask_m, other=0.0)
        b = tl.load(b_ptr + k * stride_bk + offs_n * stride_bn, mask=mask_n, other=0.0)
        acc += a[:, None] * b[None, :]
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc, mask=mask_m[:, None] & mask_n[None, :])


@triton.jit
def matmul_loop_k(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """C = A @ B as K outer products in a runtime loop."""
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_m = offs_m < M
    mask_n = offs_n < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K):
        a = tl.load(a_ptr + offs_m * stride_am + k * stride_ak, mask=mask_m, other=0.0)
        b = tl.load(b_ptr + k * stride_bk + offs_n * stride_bn, mask=mask_n, other=0.0)
        acc += a[:, None] * b[None, :]
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc, mask=mask_m[:, None] & mask_n[None, :])


@triton.jit
def dot_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
               stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               BLOCK_K: tl.constexpr):
    """C = A @ B with tl.dot on BLOCK_M x BLOCK_K x BLOCK_N tiles, masked on M, N, K,
    any strides (transposed operands are plain strided views)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


# -- control flow on runtime values ----------------------------------------------

@triton.jit
def while_if(counts_ptr, x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Program p sums the first counts[p] rows of x (a `while` on a loaded value),
    then doubles the sum when counts[p] > 3 and negates it otherwise (`if`)."""
    pid = tl.program_id(0)
    count = tl.load(counts_ptr + pid)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    j = 0
    while j < count:
        acc += tl.load(x_ptr + j * n + offs, mask=mask, other=0.0)
        j += 1
    if count > 3:
        acc = acc * 2.0
    else:
        acc = -acc
    tl.store(out_ptr + pid * n + offs, acc, mask=mask)


@triton.jit
def early_exit(x_ptr, out_ptr, n, limit, BLOCK: tl.constexpr):
    """Programs at or past `limit` return early (a runtime `if` with a return);
    the others copy their slice times 3."""
    pid = tl.program_id(0)
    if pid >= limit:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 3.0, mask=mask)
