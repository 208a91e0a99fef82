"""Naive matmul: C = A @ B as a sum of K outer products, unrolled with tl.static_range."""
import tile
import tile.language as tl


@tile.jit
def matmul_naive(a_ptr, b_ptr, c_ptr, M, N, stride_am, stride_bk, stride_cm,
                 K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_m = offs_m < M
    mask_n = offs_n < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.static_range(K):
        a = tl.load(a_ptr + offs_m * stride_am + k, mask=mask_m, other=0.0)
        b = tl.load(b_ptr + k * stride_bk + offs_n, mask=mask_n, other=0.0)
        acc += a[:, None] * b[None, :]
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc, mask=mask_m[:, None] & mask_n[None, :])


CASES = [(matmul_naive, "*fp32,*fp32,*fp32,i32,i32,i32,i32,i32",
          {"K": 8, "BLOCK_M": 16, "BLOCK_N": 16})]

if __name__ == "__main__":
    kernel, signature, constexprs = CASES[0]
    print(tile.compile(kernel, signature, constexprs).asm["ptx"])
