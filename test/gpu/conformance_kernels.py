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


@triton.jit
def nan_min_max(x_ptr, y_ptr, mx_ptr, mn_ptr, mxa_ptr, mna_ptr, cl_ptr, cla_ptr, rmax_ptr,
                rmin_ptr, amax_ptr, amin_ptr, best_ptr, M: tl.constexpr, N: tl.constexpr):
    """Float min/max where operands are NaN: elementwise with Triton's default
    (the other operand) and with PropagateNan.ALL, clamp both ways, row
    reductions, argmax/argmin, and a running max carried through a loop."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(mx_ptr + offs, tl.maximum(x, y))
    tl.store(mn_ptr + offs, tl.minimum(x, y))
    tl.store(mxa_ptr + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(mna_ptr + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(cl_ptr + offs, tl.clamp(x, -0.5, 0.5))
    tl.store(cla_ptr + offs, tl.clamp(x, -0.5, 0.5, propagate_nan=tl.PropagateNan.ALL))
    rows = tl.arange(0, M)
    tl.store(rmax_ptr + rows, tl.max(x, 1))
    tl.store(rmin_ptr + rows, tl.min(x, 1))
    tl.store(amax_ptr + rows, tl.argmax(x, 1))
    tl.store(amin_ptr + rows, tl.argmin(x, 1))
    best = -float("inf")
    for r in range(M):
        best = tl.maximum(best, tl.max(tl.load(x_ptr + r * N + tl.arange(0, N))))
    tl.store(best_ptr, best)


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
               BLOCK_K: tl.constexpr, INPUT_PRECISION: tl.constexpr = "tf32"):
    """C = A @ B with tl.dot on BLOCK_M x BLOCK_K x BLOCK_N tiles, masked on M, N, K,
    any strides (transposed operands are plain strided views); f32 inputs read
    as INPUT_PRECISION says (Triton's default: tf32)."""
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
        acc = tl.dot(a, b, acc, input_precision=INPUT_PRECISION)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def dot_acc_epilogue(a_ptr, b_ptr, d_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """C = leaky_relu(D + A @ B) stored as f16, row-major: the accumulator starts
    from D, the K loop chains it through `acc=`, the epilogue runs on the result."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_c = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    acc = tl.load(d_ptr + offs_m[:, None] * N + offs_n[None, :], mask=mask_c, other=0.0)
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + offs_n[None, :],
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc=acc)
    acc = tl.where(acc > 0, acc, acc * 0.01)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16), mask=mask_c)


@triton.jit
def attention_fwd(Q, K, V, Out, sm_scale, N_CTX, HEAD_DIM: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    """FlashAttention-2 forward over contiguous (batch * heads, N_CTX, HEAD_DIM)
    q, k, v: a dot chain (q @ k^T, then p @ v onto the rescaled accumulator), row
    max and sum of the scores, exp2; any N_CTX (masked tails), causal or not."""
    start_m = tl.program_id(0)
    head = tl.program_id(1) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    rows = offs_m[:, None] < N_CTX
    q = tl.load(Q + head + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=rows, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    end = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in range(0, end, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + head + cols[None, :] * HEAD_DIM + offs_d[:, None],
                    mask=cols[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k)
        keep = cols[None, :] < N_CTX
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(keep, qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + head + cols[:, None] * HEAD_DIM + offs_d[None, :],
                    mask=cols[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_ij
    tl.store(Out + head + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             (acc / l_i[:, None]).to(Out.dtype.element_ty), mask=rows)


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


@triton.jit
def hinted_copy(src_ptr, dst_ptr, start, n, BLOCK: tl.constexpr):
    """Copies [start, n) with Triton's vectorization hint on the offsets:
    the caller promises start is a multiple of 8 (the launcher only knows
    multiples of 16), so accesses may be 8 elements wide."""
    offs = start + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, 8), 8)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)

# -- early exits, casts, libdevice and cache hints (issue 14) --------------------

@triton.jit
def find_first_above(x_ptr, out_ptr, n_cols, threshold):
    """out[p] = the first column of row p above `threshold`, or -1 (`break`)."""
    row = tl.program_id(0)
    found = -1
    for i in range(0, n_cols):
        if tl.load(x_ptr + row * n_cols + i) > threshold:
            found = i
            break
    tl.store(out_ptr + row, found)


@triton.jit
def first_negative(row_ptr, n_cols):
    i = 0
    while i < n_cols:
        if tl.load(row_ptr + i) < 0.0:
            return i
        i += 1
    return n_cols


@triton.jit
def skip_and_return(x_ptr, sum_ptr, first_ptr, n_cols):
    """sum[p]: the positive elements of row p (`continue`); first[p]: the
    first negative one's column (a `return` from a `while`), or n_cols."""
    row = tl.program_id(0)
    acc = 0.0
    for i in range(0, n_cols):
        v = tl.load(x_ptr + row * n_cols + i)
        if v <= 0.0:
            continue
        acc += v
    tl.store(sum_ptr + row, acc)
    tl.store(first_ptr + row, first_negative(x_ptr + row * n_cols, n_cols))


@triton.jit
def erf(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.math.erf(tl.load(x_ptr + offs, mask=mask)), mask=mask)


@triton.jit
def precise_math(x_ptr, y_ptr, rint_ptr, sqrt_ptr, div_ptr, n, BLOCK: tl.constexpr):
    """Correctly rounded: bit-exact with torch's f32 results."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(rint_ptr + offs, tl.extra.cuda.libdevice.rint(x * 4.0), mask=mask)
    tl.store(sqrt_ptr + offs, tl.math.sqrt_rn(tl.abs(x)), mask=mask)
    tl.store(div_ptr + offs, tl.math.div_rn(x, y), mask=mask)


@triton.jit
def bits_and_casts(x_ptr, a_ptr, bits_ptr, hi_ptr, rtz_ptr, big_ptr, n, BLOCK: tl.constexpr):
    """bits: x's bits as int32; hi: umulhi(a, a); rtz: x to fp16 toward zero;
    big: (x * 2^30 + 2^31) to uint32 (past int32's range), widened to int64."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    a = tl.load(a_ptr + offs, mask=mask)
    tl.store(bits_ptr + offs, x.to(tl.int32, bitcast=True), mask=mask)
    tl.store(hi_ptr + offs, tl.math.umulhi(a, a), mask=mask)
    tl.store(rtz_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"), mask=mask)
    big = (tl.abs(x) * 1073741824.0 + 2147483648.0).to(tl.uint32)
    tl.store(big_ptr + offs, big.to(tl.int64), mask=mask)


@triton.jit
def copy_with_hints(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(src_ptr + offs, mask=mask, cache_modifier=".cg")
    y = tl.load(src_ptr + offs, mask=mask, eviction_policy="evict_last")
    tl.store(dst_ptr + offs, x + y, mask=mask, cache_modifier=".cs")
    tl.store(dst_ptr + n + offs, x, mask=mask, eviction_policy="evict_first")
    tl.store(dst_ptr + 2 * n + offs, tl.load(src_ptr + offs, mask=mask, volatile=True),
             mask=mask, volatile=True)


# -- atomics -------------------------------------------------------------------
# Each kernel's results are independent of the order programs and lanes run in
# (commutative updates, distinct addresses, or a cas whose winner is counted,
# not named).

@triton.jit
def histogram(x_ptr, bins_ptr, n, BLOCK: tl.constexpr):
    """bins[x[i]] += 1: duplicates within a block and across programs."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_add(bins_ptr + x, 1, mask=mask)


@triton.jit
def float_histogram(x_ptr, bins_ptr, n, BLOCK: tl.constexpr):
    """bins[x[i]] += 1.0 in the bins' float type (exact while counts stay small)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    one = tl.full((BLOCK,), 1.0, bins_ptr.dtype.element_ty)
    tl.atomic_add(bins_ptr + x, one, mask=mask)


@triton.jit
def masked_add_old(t_ptr, v_ptr, old_ptr, n, BLOCK: tl.constexpr):
    """t[i] += v[i] where i < n and v[i] > 0; old[i] is what t[i] held (0 where
    the mask is off): each address once, so the old values are determined."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    v = tl.load(v_ptr + offs, mask=inside, other=0.0)
    old = tl.atomic_add(t_ptr + offs, v, mask=inside & (v > 0))
    tl.store(old_ptr + offs, old, mask=inside)


@triton.jit
def replicated_old(t_ptr, v_ptr, out_ptr, BLOCK: tl.constexpr, WIDTH: tl.constexpr):
    """A block smaller than the program's threads (elements repeated across
    threads): each element applied once, and the old values, broadcast to
    out[i, :], right in every thread that holds them."""
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_add(t_ptr + offs, tl.load(v_ptr + offs))
    cols = tl.arange(0, WIDTH)
    tl.store(out_ptr + offs[:, None] * WIDTH + cols[None, :],
             old[:, None] + tl.zeros((BLOCK, WIDTH), old.dtype))


@triton.jit
def counter(count_ptr, seen_ptr, WIDTH: tl.constexpr):
    """One atomic per program on a scalar: count ends at the number of
    programs, and each program's old value (0, 1, ...: distinct) marks its row
    of `seen` from every thread."""
    old = tl.atomic_add(count_ptr, 1)
    tl.store(seen_ptr + old * WIDTH + tl.arange(0, WIDTH), 1)


@triton.jit
def extremes(x_ptr, mx_ptr, mn_ptr, n, BINS: tl.constexpr, BLOCK: tl.constexpr):
    """mx[i % BINS] = max(mx, x[i]), mn likewise with min."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_max(mx_ptr + offs % BINS, x, mask=mask)
    tl.atomic_min(mn_ptr + offs % BINS, x, mask=mask, sem="relaxed")


@triton.jit
def bitwise_atomics(x_ptr, a_ptr, o_ptr, e_ptr, n, BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_and(a_ptr + offs % BINS, x, mask=mask)
    tl.atomic_or(o_ptr + offs % BINS, x, mask=mask, scope="cta")
    tl.atomic_xor(e_ptr + offs % BINS, x, mask=mask, sem="release")


@triton.jit
def exchange(t_ptr, v_ptr, old_ptr, n, BLOCK: tl.constexpr):
    """old[i] = t[i]; t[i] = v[i]."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    old = tl.atomic_xchg(t_ptr + offs, tl.load(v_ptr + offs, mask=mask), mask=mask)
    tl.store(old_ptr + offs, old, mask=mask)


@triton.jit
def cas_slots(t_ptr, cmp_ptr, v_ptr, old_ptr, BLOCK: tl.constexpr):
    """Each lane's own slot: t[i] = v[i] if t[i] == cmp[i]; old[i] = t[i]
    before (tl.atomic_cas has no mask: the arrays are whole blocks)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    old = tl.atomic_cas(t_ptr + offs, tl.load(cmp_ptr + offs), tl.load(v_ptr + offs))
    tl.store(old_ptr + offs, old)


@triton.jit
def cas_program_slot(t_ptr, cmp_ptr, v_ptr, old_ptr):
    """Program p's own scalar slot: t[p] = v[p] if t[p] == cmp[p]."""
    pid = tl.program_id(0)
    old = tl.atomic_cas(t_ptr + pid, tl.load(cmp_ptr + pid), tl.load(v_ptr + pid))
    tl.store(old_ptr + pid, old)


@triton.jit
def cas_one_winner(lock_ptr, wins_ptr, losses_ptr):
    """Every program swaps the shared lock from 0 to 1: exactly one sees 0."""
    prev = tl.atomic_cas(lock_ptr, 0, 1)
    tl.atomic_add(wins_ptr, 1, mask=prev == 0)
    tl.atomic_add(losses_ptr, 1, mask=prev == 1)


# -- random numbers (Triton's Philox) ------------------------------------------

@triton.jit
def philox_streams(seed, base, i0_ptr, i1_ptr, i2_ptr, i3_ptr, u_ptr, n, BLOCK: tl.constexpr):
    """tl.randint4x's four words (as int32 bits) and tl.rand for the offsets
    base + i: bit-exact with Triton."""
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = idx < n
    offs = base + idx
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    tl.store(i0_ptr + idx, r0.to(tl.int32, bitcast=True), mask=mask)
    tl.store(i1_ptr + idx, r1.to(tl.int32, bitcast=True), mask=mask)
    tl.store(i2_ptr + idx, r2.to(tl.int32, bitcast=True), mask=mask)
    tl.store(i3_ptr + idx, r3.to(tl.int32, bitcast=True), mask=mask)
    tl.store(u_ptr + idx, tl.rand(seed, offs), mask=mask)


@triton.jit
def philox_normal(seed, base, z_ptr, k_ptr, n, BLOCK: tl.constexpr):
    """tl.randn (f32 log/sqrt/cos/sin) and tl.randint with 7 rounds."""
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = idx < n
    offs = base + idx
    tl.store(z_ptr + idx, tl.randn(seed, offs), mask=mask)
    tl.store(k_ptr + idx, tl.randint(seed, offs, 7).to(tl.int32, bitcast=True), mask=mask)


@triton.jit
def flip_both(x_ptr, rows_ptr, cols_ptr, M: tl.constexpr, N: tl.constexpr):
    """One M x N tile reversed along its rows and along its columns."""
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    tl.store(rows_ptr + rows * N + cols, tl.flip(x, 0))
    tl.store(cols_ptr + rows * N + cols, x.flip())


@triton.jit
def join_split_cat(x_ptr, y_ptr, j_ptr, s_ptr, i_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr):
    """tl.join of two M x N tiles (M x N x 2), split back (the second half
    stored), tl.interleave (M x 2N) and tl.cat (2M x N)."""
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    y = tl.load(y_ptr + rows * N + cols)
    j = tl.join(x, y)
    tl.store(j_ptr + (rows * N + cols)[:, :, None] * 2 + tl.arange(0, 2)[None, None, :], j)
    _, second = tl.split(j)
    tl.store(s_ptr + rows * N + cols, second)
    tl.store(i_ptr + rows * 2 * N + tl.arange(0, 2 * N)[None, :], tl.interleave(x, y))
    tl.store(c_ptr + tl.arange(0, 2 * M)[:, None] * N + cols, tl.cat(x, y, can_reorder=True))


@triton.jit
def sort_rows(x_ptr, up_ptr, down_ptr, M: tl.constexpr, N: tl.constexpr):
    """Each row of one M x N tile sorted ascending and descending (tl.sort)."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(up_ptr + offs, tl.sort(x))
    tl.store(down_ptr + offs, tl.sort(x, descending=True))


@triton.jit
def topk_rows(x_ptr, top_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """The K largest of each row of one M x N tile, largest first (tl.topk)."""
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(top_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], tl.topk(x, K))


@triton.jit
def prod_and_xor(x_ptr, prod_ptr, rprod_ptr, xor_ptr, M: tl.constexpr, N: tl.constexpr):
    """Row-wise cumprod (forward, and column-wise reverse) and row xor_sum of
    one M x N tile."""
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    tl.store(prod_ptr + rows * N + cols, tl.cumprod(x, 1))
    tl.store(rprod_ptr + rows * N + cols, tl.cumprod(x, 0, reverse=True))
    tl.store(xor_ptr + tl.arange(0, M), tl.xor_sum(x, 1))


# -- dots of several batch dimensions (Triton's test_dot_multidim) --------------

@triton.jit
def multidim_dot(x_ptr, y_ptr, z_ptr, RANK: tl.constexpr, TRANS_A: tl.constexpr,
                 TRANS_B: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 256 << RANK)).reshape([2] * (RANK - 2) + [32, 32])
    y = tl.load(y_ptr + tl.arange(0, 256 << RANK)).reshape([2] * (RANK - 2) + [32, 32])
    if TRANS_A:
        x = tl.trans(x)
    if TRANS_B:
        y = tl.trans(y)
    z = tl.dot(x, y)
    tl.store(z_ptr + tl.arange(0, 256 << RANK), z.reshape([256 << RANK]))
