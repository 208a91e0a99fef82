"""Row softmax: one program per row, the row held in one block."""
import tile
import tile.language as tl


@tile.jit
def softmax(out_ptr, in_ptr, n_cols, in_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    numerator = tl.exp(x)
    denominator = tl.sum(numerator, axis=0)
    tl.store(out_ptr + row * out_stride + cols, numerator / denominator, mask=mask)


CASES = [(softmax, "*fp32,*fp32,i32,i32,i32", {"BLOCK": 1024}),
         (softmax, "*fp32,*fp32,i32,i32,i32", {"BLOCK": 96})]

if __name__ == "__main__":
    print(tile.compile(*CASES[0]).asm["ptx"])
