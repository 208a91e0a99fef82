"""@tile.jit device functions used by other tests' kernels (module-level, as
kernels must be defined in files)."""
import tile
import tile.language as tl


@tile.jit
def scaled(x, factor):
    return x * factor


@tile.jit
def activation(x, KIND: tl.constexpr):
    if KIND == "relu":
        return tl.maximum(x, 0.0)
    else:
        return x


@tile.jit
def multiply(a, b):
    return a * b


@tile.jit
def max_combine(a, b):
    return tl.maximum(a, b)
