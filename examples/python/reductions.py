"""sum / max / min of a ROWS x COLS tile along AXIS (0: per column, 1: per row)."""
import tile
import tile.language as tl


@tile.jit
def reduce_tile(in_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr,
                AXIS: tl.constexpr, OP: tl.constexpr):
    rows = tl.arange(0, ROWS)
    cols = tl.arange(0, COLS)
    x = tl.load(in_ptr + rows[:, None] * COLS + cols[None, :])
    if OP == "sum":
        r = tl.sum(x, axis=AXIS)
    elif OP == "max":
        r = tl.max(x, axis=AXIS)
    else:
        r = tl.min(x, axis=AXIS)
    if AXIS == 0:
        tl.store(out_ptr + cols, r)
    else:
        tl.store(out_ptr + rows, r)


CASES = [(reduce_tile, "*fp32,*fp32", {"ROWS": 16, "COLS": 32, "AXIS": axis, "OP": op})
         for op in ("sum", "max", "min") for axis in (0, 1)]

if __name__ == "__main__":
    for case in CASES:
        print(tile.compile(*case).asm["ptx"])
