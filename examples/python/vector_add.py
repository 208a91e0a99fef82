"""Vector add: out[i] = x[i] + y[i], one BLOCK-wide slice per program."""
import tile
import tile.language as tl


@tile.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


CASES = [(vector_add, "*fp32,*fp32,*fp32,i32", {"BLOCK": 1024})]

if __name__ == "__main__":
    print(tile.compile(vector_add, "*fp32,*fp32,*fp32,i32", {"BLOCK": 1024}).asm["ptx"])
