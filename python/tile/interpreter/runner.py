"""Running a kernel in the interpreter: arguments, the Python function with
`tile.language` rebound, the grid, and errors located in the user's source."""
from __future__ import annotations

import types
from typing import Any, Callable, Mapping, Sequence

import numpy as np

import tile as _tile_package

from .. import language as _tl
from ..compiler.options import debug_enabled
from ..errors import TileError
from ..language import core as C
from ..language.types import dtype_from_signature, is_named_tuple, unwrap
from ..runtime.jit import JITFunction
from ..language import types as T
from ..language.descriptors import BlockShape, tensor_descriptor
from ..compiler.options import (check_extern_libs, check_maxnreg, check_num_ctas,
                                check_num_warps)
from ..runtime.launch import (LAUNCH_OPTIONS, argument_type, compile_time_argument,
                              compile_time_value, bind_arguments, descriptor_type,
                              kernel_arguments, normalize_grid, parameter_type)
from ..tools.tensor_descriptor import TensorDescriptor
from . import language as L
from .errors import InterpreterError
from .memory import HostArrays, is_torch_tensor
from .program import Launch, current, running
from .values import constant, python_value



class _TilePackage(types.ModuleType):
    """`tile` (imported as `triton`) for interpreted code: `.language` is the
    interpreter's; everything else is the real package."""

    def __init__(self) -> None:
        super().__init__("tile", _tile_package.__doc__)
        self.language = L.namespace

    def __getattr__(self, name: str) -> Any:
        return getattr(_tile_package, name)


class InterpretedJIT:
    """A @jit function called from interpreted code: its Python function, run
    with the interpreter's `tile.language`."""

    def __init__(self, session: "Session", jit: JITFunction) -> None:
        self.session = session
        self.jit = jit
        self.__name__ = jit.__name__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # As compiled (and Triton): a callee's tl.constexpr annotations take
        # runtime values too.
        return self.session.function(self.jit)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"InterpretedJIT({self.jit!r})"


def callable_jit(fn: Any) -> InterpretedJIT | None:
    """A combine function (a @jit function, as passed to tl.reduce) made callable."""
    if isinstance(fn, InterpretedJIT):
        return fn
    if isinstance(fn, JITFunction):
        return current().session.wrap(fn)
    return None


class Session:
    """The functions of one launch, with their globals and closures rebound:
    `tile.language` (under any name) to the interpreter's, @jit functions to
    their interpreted selves, and `range`/`min`/`max` to their kernel meaning."""

    def __init__(self) -> None:
        self.codes: set[types.CodeType] = set()
        self._functions: dict[JITFunction, Callable[..., Any]] = {}
        self._wrappers: dict[JITFunction, InterpretedJIT] = {}
        self._globals: dict[int, dict[str, Any]] = {}
        self._tile = _TilePackage()

    def wrap(self, jit: JITFunction) -> InterpretedJIT:
        found = self._wrappers.get(jit)
        if found is None:
            found = self._wrappers[jit] = InterpretedJIT(self, jit)
        return found

    def translate(self, value: Any) -> Any:
        if value is _tl or value is C:
            return L.namespace
        if value is _tl.math:
            return L.namespace.math
        if value is _tl.extra:
            return L.namespace.extra
        if value is _tl.extra.cuda:
            return L.namespace.extra.cuda
        if value is _tl.extra.cuda.libdevice or value is _tl.extra.libdevice:
            return L.namespace.extra.libdevice
        if value is _tile_package:
            return self._tile
        if isinstance(value, JITFunction):
            return self.wrap(value)
        if value is _tl.range:
            return L.range
        if value is _tl.static_range:
            return L.static_range
        if C.is_builtin(value):
            return L.counterpart(value)
        return value

    def _namespace(self, module_globals: dict[str, Any]) -> dict[str, Any]:
        found = self._globals.get(id(module_globals))
        if found is None:
            found = {name: self.translate(value) for name, value in module_globals.items()}
            for name, value in L.PYTHON_BUILTINS.items():
                found.setdefault(name, value)
            self._globals[id(module_globals)] = found
        return found

    def function(self, jit: JITFunction) -> Callable[..., Any]:
        fn = self._functions.get(jit)
        if fn is None:
            raw = jit.fn
            cells = []
            for cell in raw.__closure__ or ():
                try:
                    cells.append(types.CellType(self.translate(cell.cell_contents)))
                except ValueError:  # not assigned yet
                    cells.append(cell)
            fn = types.FunctionType(raw.__code__, self._namespace(raw.__globals__),
                                    raw.__name__, raw.__defaults__, tuple(cells) or None)
            fn.__kwdefaults__ = raw.__kwdefaults__
            self.codes.add(raw.__code__)
            self._functions[jit] = fn
        return fn

    def located(self, exc: TileError, launch: Launch) -> InterpreterError:
        """`exc` at the innermost line of interpreted code in its traceback."""
        frames = []
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code in self.codes:
                frames.append(tb)
            tb = tb.tb_next
        message = f"{exc} (in program {launch.program})"
        if not frames:
            return InterpreterError(message)
        sites = [_position(tb) for tb in frames]
        filename, line, col = sites[-1]
        callers = [f"{f}:{l}:{c}" for f, l, c in reversed(sites[:-1])]
        return InterpreterError(message, filename, line, col, callers)


def _attribute_error(exc: AttributeError) -> TileError:
    """A TileError (to be located) for a missing builtin of the interpreted
    language, as the compiler reports it, or for `.to`/`.dtype` of a Python
    number; `exc` itself otherwise."""
    owner = getattr(exc, "obj", None)
    if isinstance(owner, types.ModuleType) and owner in L.modules():
        error = TileError(f"AttributeError: {exc}")
    elif exc.name in ("to", "dtype") and isinstance(owner, (bool, int, float)):
        # The compiler gives Python numbers these attributes; Python does not.
        error = TileError(f"({owner!r}).{exc.name} works compiled only: the interpreter runs "
                          f"the kernel as Python, where a Python {type(owner).__name__} has no "
                          f"attribute '{exc.name}'; write tl.cast({owner!r}, dtype)")
    else:
        raise exc
    return error.with_traceback(exc.__traceback__)


def _position(tb: types.TracebackType) -> tuple[str, int, int]:
    code = tb.tb_frame.f_code
    col = None
    positions = list(code.co_positions())
    if 0 <= tb.tb_lasti // 2 < len(positions):
        col = positions[tb.tb_lasti // 2][2]
    return code.co_filename, tb.tb_lineno, (col or 0) + 1


class _NumpyProbe:
    """What `argument_type` looks at, for a NumPy array."""

    def __init__(self, array: np.ndarray) -> None:
        self.dtype = array.dtype

    def data_ptr(self) -> int:
        return 0


def _runtime_argument(host: HostArrays, name: str, value: Any, jit: Any = None,
                      compile_time: Callable[[Any], Any] | None = None) -> Any:
    """A runtime argument as the compiled kernel receives it: tuples element by
    element (their compile-time elements through `compile_time`), a
    TensorDescriptor as a tl.tensor_descriptor of its parts."""
    if isinstance(value, tuple):
        items = [compile_time(item) if compile_time and compile_time_argument(item)
                 else _runtime_argument(host, f"{name}[{i}]", item, None, compile_time)
                 for i, item in enumerate(value)]
        return type(value)(*items) if is_named_tuple(value) else tuple(items)
    if isinstance(value, TensorDescriptor):
        parts = dict(kernel_arguments(name, value))
        ty = descriptor_type(value)
        names = ty.parameter_names(name)
        rank = len(ty.block_shape)
        base = _runtime_argument(host, names[0], parts[names[0]])
        shape = tuple(constant(parts[n], T.int32) for n in names[1:1 + rank])
        # (names[-1] is the tensor map: only a compiled kernel's TMA copies read it.)
        strides = tuple(constant(parts[n], T.int64) for n in names[1 + rank:2 * rank]) + (1,)
        return tensor_descriptor(base, shape, strides, BlockShape(ty.block_shape), ty.padding)
    if isinstance(value, np.ndarray):
        probe = _NumpyProbe(value)
        ty = dtype_from_signature(parameter_type(jit, name, probe) if jit is not None
                                  else argument_type(probe))
    elif hasattr(value, "__cuda_array_interface__") and not is_torch_tensor(value):
        raise TypeError(f"the interpreter takes torch tensors and NumPy arrays, not "
                        f"{type(value).__name__}")
    else:
        ty = dtype_from_signature(parameter_type(jit, name, value) if jit is not None
                                  else argument_type(value))
    if ty.is_ptr():
        return host.region(name, value).pointer(ty.element_ty, const=ty.const)
    return constant(value, ty)


def _arguments(jit: JITFunction, named: Mapping[str, Any], session: Session,
               host: HostArrays) -> dict[str, Any]:
    """The kernel's arguments by name: runtime values typed as a compiled
    launch types them; constexprs as Python values (@jit functions interpreted)."""
    values: dict[str, Any] = {}

    def compile_time(value: Any) -> Any:
        return session.translate(python_value(compile_time_value(value)))

    for name in jit.arg_names:
        value = named[name]
        if name in jit.constexpr_names or compile_time_argument(value):
            values[name] = compile_time(value)
            continue
        try:
            values[name] = _runtime_argument(host, name, value, jit, compile_time)
        except (TypeError, TileError) as exc:
            source = jit.source()
            raise source.error(source.tree, f"argument '{name}': {exc}") from None
    return values


def launch(jit: JITFunction, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
    # Checked as a compiled launch checks them (registers mean nothing here).
    if "num_ctas" in kwargs and "num_ctas" not in jit.arg_names:
        check_num_ctas(kwargs["num_ctas"])
    if "maxnreg" in kwargs and "maxnreg" not in jit.arg_names:
        check_maxnreg(kwargs["maxnreg"])
    if "extern_libs" in kwargs and "extern_libs" not in jit.arg_names:
        check_extern_libs(kwargs["extern_libs"])  # NumPy computes libdevice's functions
    num_warps = 4
    if "num_warps" in kwargs and "num_warps" not in jit.arg_names:
        num_warps = check_num_warps(kwargs["num_warps"])
    kwargs = {k: v for k, v in kwargs.items()
              if k not in LAUNCH_OPTIONS or k in jit.arg_names}
    named = bind_arguments(jit, args, kwargs)
    grid3 = normalize_grid(grid, named)
    session, host = Session(), HostArrays()
    state = Launch(grid3, session, debug=debug_enabled(jit.debug), num_warps=num_warps)
    # Overflow, NaN and the like are results here, as on the GPU: no warnings.
    with np.errstate(all="ignore"):
        values = _arguments(jit, named, session, host)
        kernel = session.function(jit)
        try:
            with running(state):
                for z in range(grid3[2]):
                    for y in range(grid3[1]):
                        for x in range(grid3[0]):
                            state.program = (x, y, z)
                            kernel(**values)
        except TileError as exc:
            raise session.located(exc, state) from None
        except AttributeError as exc:
            raise session.located(_attribute_error(exc), state) from None
        finally:
            host.finish()


__all__ = ["launch", "callable_jit"]
