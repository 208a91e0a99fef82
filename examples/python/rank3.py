"""A rank-3 block: scale a D0 x D1 x D2 block and sum it along the middle axis."""
import tile
import tile.language as tl


@tile.jit
def rank3(in_ptr, out_ptr, sum_ptr, scale, D0: tl.constexpr, D1: tl.constexpr,
          D2: tl.constexpr):
    i = tl.arange(0, D0)[:, None, None]
    j = tl.arange(0, D1)[None, :, None]
    k = tl.arange(0, D2)[None, None, :]
    offsets = i * (D1 * D2) + j * D2 + k
    x = tl.load(in_ptr + offsets)
    tl.store(out_ptr + offsets, x * scale)
    s = tl.sum(x, axis=1)  # D0 x D2
    tl.store(sum_ptr + tl.arange(0, D0)[:, None] * D2 + tl.arange(0, D2)[None, :], s)


CASES = [(rank3, "*fp32,*fp32,*fp32,fp32", {"D0": 2, "D1": 4, "D2": 8})]

if __name__ == "__main__":
    print(tile.compile(*CASES[0]).asm["ptx"])
