"""`tile.language`: Triton's kernel language (`import tile.language as tl`)."""
import builtins as _builtins

from . import core as _core
from .core import *  # noqa: F401,F403 - the builtins, Triton's names
from .core import builtin, is_builtin, range, static_range  # noqa: F401
from .semantic import tensor  # noqa: F401
from .types import (  # noqa: F401
    block_type, const, constexpr, constexpr_type, dtype, pointer_type, void,
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
from .standard import (bitonic_merge, cat, cumprod, flip, interleave,  # noqa: E402,F401
                       join, reduce_or, softmax, sort, split, squeeze, swizzle2d, topk,
                       unsqueeze, xor_sum)
# Tensor descriptors and block pointers (loads and stores of them are @jit
# functions too).
from .descriptors import (advance, load_tensor_descriptor, make_block_ptr,  # noqa: E402,F401
                          make_tensor_descriptor, store_tensor_descriptor, tensor_descriptor)

# Triton's name for the most elements a block may have (tile's limit).
from .types import MAX_BLOCK_ELEMENTS as TRITON_MAX_TENSOR_NUMEL  # noqa: E402,F401
from . import target_info  # noqa: E402,F401

# Tuples are Python tuples in a kernel (`tl.tuple([a, b])`, tuple arguments
# and returns, `t[i] = v`).
tuple = _builtins.tuple  # noqa: A001


def constexpr_function(fn):  # type: ignore[no-untyped-def]
    """Triton's `@tl.constexpr_function`: a plain Python function a kernel
    calls on compile-time values. Plain functions already run at compile time
    in tile (on runtime values they are an error), so this returns `fn`."""
    return fn


# Triton's tensor methods (its `@_tensor_member_fn` functions, and the
# `logical_and`/`logical_or` methods), tile's `atomic_load`/`atomic_store`
# and `topk`: `x.name(*args)` is `tl.name(x, *args)`. The interpreter gives
# its values the same methods (interpreter/language.py); block pointers have
# `advance` (descriptors.py).
def _set_tensor_methods() -> None:
    from .standard import logical_and, logical_or
    names = ("cast", "item", "sum", "max", "min", "argmax", "argmin", "reshape", "view",
             "ravel", "trans", "permute", "broadcast_to", "expand_dims", "split", "cumsum",
             "cumprod", "xor_sum", "reduce_or", "reduce", "associative_scan", "histogram",
             "gather", "flip", "sort", "topk", "exp", "exp2", "log", "log2", "sqrt",
             "sqrt_rn", "rsqrt", "abs", "sin", "cos", "floor", "ceil", "erf", "sigmoid",
             "softmax", "cdiv", "store", "atomic_add", "atomic_max", "atomic_min",
             "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas",
             "atomic_load", "atomic_store")
    namespace = globals()
    methods = {name: namespace[name] for name in names}
    methods.update(to=_core._tensor_to, logical_and=logical_and, logical_or=logical_or)
    for name, fn in methods.items():
        setattr(tensor, name, fn)


_set_tensor_methods()
