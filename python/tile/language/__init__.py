"""`tile.language`: Triton's kernel language (`import tile.language as tl`)."""
import builtins as _builtins

from . import core as _core
from .core import *  # noqa: F401,F403 - the builtins, Triton's names
from .core import builtin, is_builtin, range, static_range  # noqa: F401
from .semantic import tensor  # noqa: F401
from .types import (  # noqa: F401
    block_type, const, constexpr, dtype, pointer_type,
    int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    float16, bfloat16, float32, float64, float8e4nv, float8e5,
)

# Triton's aliases.
bool_ = int1  # noqa: F405
half = float16
float = float32  # noqa: A001 - Triton exports tl.float
double = float64
pi32_t = pointer_type(int32)

# `tl.math.exp(...)`, the precise and fast variants, and libdevice.
from . import extra, math  # noqa: E402,F401
from .math import (  # noqa: E402,F401
    div_rn, erf, extern_elementwise, fdiv, rint, sqrt_rn, umulhi)

# Builtins written with the others, as @jit functions (core.library_builtin).
from .random import (  # noqa: E402,F401
    pair_uniform_to_normal, philox, philox_impl, rand, rand4x, randint, randint4x, randn,
    randn4x, uint_to_uniform_float)
from .scaled import dot_scaled  # noqa: E402,F401
from .standard import (cat, cumprod, flip, interleave, join, sort,  # noqa: E402,F401
                       split, squeeze, swizzle2d, topk, unsqueeze, xor_sum)
# Tensor descriptors and block pointers (loads and stores of them are @jit
# functions too).
from .descriptors import (advance, load_tensor_descriptor, make_block_ptr,  # noqa: E402,F401
                          make_tensor_descriptor, store_tensor_descriptor, tensor_descriptor)

# Tuples are Python tuples in a kernel (`tl.tuple([a, b])`, tuple arguments
# and returns, `t[i] = v`).
tuple = _builtins.tuple  # noqa: A001


def constexpr_function(fn):  # type: ignore[no-untyped-def]
    """Triton's `@tl.constexpr_function`: a plain Python function a kernel
    calls on compile-time values. Plain functions already run at compile time
    in tile (on runtime values they are an error), so this returns `fn`."""
    return fn
