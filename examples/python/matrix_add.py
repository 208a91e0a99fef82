"""2-D matrix add on TILE_M x TILE_N tiles; the tile need not be a power of two
(16x32 and 24x40 both work)."""
import tile
import tile.language as tl


@tile.jit
def matrix_add(a_ptr, b_ptr, c_ptr, M, N, stride_m, TILE_M: tl.constexpr, TILE_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * TILE_M + tl.arange(0, TILE_M)
    cols = pid_n * TILE_N + tl.arange(0, TILE_N)
    offsets = rows[:, None] * stride_m + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    a = tl.load(a_ptr + offsets, mask=mask, other=0.0)
    b = tl.load(b_ptr + offsets, mask=mask, other=0.0)
    tl.store(c_ptr + offsets, a + b, mask=mask)


SIGNATURE = "*fp32,*fp32,*fp32,i32,i32,i32"
CASES = [(matrix_add, SIGNATURE, {"TILE_M": 16, "TILE_N": 32}),
         (matrix_add, SIGNATURE, {"TILE_M": 24, "TILE_N": 40})]

if __name__ == "__main__":
    for _, signature, constexprs in CASES:
        print(tile.compile(matrix_add, signature, constexprs).asm["ptx"])
