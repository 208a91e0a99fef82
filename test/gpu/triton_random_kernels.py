"""A Triton program using Triton's random numbers, its sort and its NaN
handling in min/max, unchanged:
test_random_triton.py loads it once with Triton (where installed) and once with
`triton` meaning tile, and compares what the two compiled kernels produce;
test/python/test_random.py does the same through both interpreters."""
import triton
import triton.language as tl


@triton.jit
def random_streams(seed, base, words_ptr, uniform_ptr, normal_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = idx < n
    offsets = base + idx
    r0, r1, r2, r3 = tl.randint4x(seed, offsets)
    tl.store(words_ptr + idx * 4, r0.to(tl.int32, bitcast=True), mask=mask)
    tl.store(words_ptr + idx * 4 + 1, r1.to(tl.int32, bitcast=True), mask=mask)
    tl.store(words_ptr + idx * 4 + 2, r2.to(tl.int32, bitcast=True), mask=mask)
    tl.store(words_ptr + idx * 4 + 3, r3.to(tl.int32, bitcast=True), mask=mask)
    tl.store(uniform_ptr + idx, tl.rand(seed, offsets), mask=mask)
    tl.store(normal_ptr + idx, tl.randn(seed, offsets), mask=mask)


@triton.jit
def sort_rows(x_ptr, up_ptr, down_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(up_ptr + offs, tl.sort(x))
    tl.store(down_ptr + offs, tl.sort(x, descending=True))


@triton.jit
def topk_rows(x_ptr, top_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(top_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], tl.topk(x, K))


@triton.jit
def min_max_nan(x_ptr, y_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, tl.maximum(x, y))
    tl.store(out_ptr + M * N + offs, tl.minimum(x, y))
    tl.store(out_ptr + 2 * M * N + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(out_ptr + 3 * M * N + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL))
    # Not symmetric: Triton's sm_90 clip pattern (min.xorsign.abs for
    # clamp(x, -c, c)) gives +-c for a NaN x, its generic path -0.5 as tile.
    tl.store(out_ptr + 4 * M * N + offs, tl.clamp(x, -0.5, 0.75))
    rows = tl.arange(0, M)
    tl.store(out_ptr + 5 * M * N + rows, tl.max(x, 1))
    tl.store(out_ptr + 5 * M * N + M + rows, tl.min(x, 1))
