"""A Triton program using Triton's random numbers, unchanged: test_random_triton.py
loads it once with Triton (where installed) and once with `triton` meaning tile,
and compares what the two compiled kernels produce."""
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
