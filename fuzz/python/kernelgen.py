"""A randomized generator of Python kernels, valid and invalid, for the frontend.

Each seed gives one kernel (a `.py` file). A valid kernel must compile to PTX
(through the compile library, or to tile IR that tile-opt accepts when the
library is not built); an invalid one (a valid kernel with one mistake
inserted) must fail with a `tile.CompilationError` located in the generated
file, at the line of the mistake. Anything else is a finding: another
exception (a crash in the frontend), a compile that does not finish (a hang),
an error located in generated IR or nowhere, or an invalid kernel accepted.
A valid kernel that compiled also runs in the interpreter, which must not
raise (`--no-interpret`: compile only); `--differential` (needs a CUDA GPU)
also launches it compiled and compares the outputs (differential.py,
docs/reliability.md).

    python3 fuzz/python/kernelgen.py --seconds 60            # CI: seeds from the clock
    python3 fuzz/python/kernelgen.py --differential --seconds 240  # on a GPU
    python3 fuzz/python/kernelgen.py --seed 1234              # one seed
    python3 fuzz/python/kernelgen.py --seed 1234 --seconds 30 # seeds from 1234 on
    python3 fuzz/python/kernelgen.py --seed 1234 --show       # print its kernel

Cases run in a worker process that the driver restarts after a finding or a
timeout, so a crash or hang costs one case, and every finding prints the
command that reruns its seed.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[2]
CASE_TIMEOUT_S = 30


def use_checkout() -> None:
    """Imports `tile` from the checkout's python/, unless TILE_TEST_INSTALLED=1
    asks for the installed package (the wheel, on the GPU machine; the
    convention of test/gpu/conftest.py)."""
    path = str(ROOT / "python")
    if os.environ.get("TILE_TEST_INSTALLED") != "1" and path not in sys.path:
        sys.path.insert(0, path)

# -- the generator ------------------------------------------------------------

FLOATS = ("float32", "float16", "bfloat16")
INTS = ("int32", "int8", "int64")
DTYPES = FLOATS + INTS + ("int1",)
EXTENTS = (1, 2, 3, 4, 5, 8, 12, 16, 24, 32)


LITERALS = ("1", "2", "3", "0.5", "2.0", "-1.5", "7")


def _literal(text: str) -> bool:
    return text in LITERALS


def _compile_time(text: str) -> bool:
    """Whether an expression's text names no variable (only literals): the
    frontend folds it in Python."""
    return not re.search(r"[A-Za-z_]", re.sub(r"tl\.[a-z_0-9]+", "", text).replace("e", ""))


def kind(dtype: str) -> str:
    return "f" if dtype in FLOATS else "b" if dtype == "int1" else "i"


# How a value can be compared between the interpreter and a compiled kernel
# (docs/reliability.md, "The differential check"): EXACT values must match
# bit for bit (NaN anywhere as NaN), APPROX ones (floats that went through an
# operation the two compute differently: approximate math, contraction into
# fma, summation order) within a tolerance, and WILD ones not at all (an
# APPROX value went through an operation that is not continuous: a
# comparison, floor, a cast to an integer, a bitcast; or control flow
# depended on one).
EXACT, APPROX, WILD = 0, 1, 2
ROUNDOFF = {"float32": 2.0**-24, "float16": 2.0**-11, "bfloat16": 2.0**-8}


class Expr(NamedTuple):
    text: str
    kind: str
    shape: tuple[int, ...]
    cls: int = EXACT
    fusable: bool = False  # a float product (or one negated or widened): a + or - may fuse it
    eps: float = 0.0       # the largest unit roundoff of the float types it went through
    reads: frozenset[str] = frozenset()  # the variables it derives from


@dataclass
class Var:
    name: str
    dtype: str
    shape: tuple[int, ...]
    cls: int = EXACT
    fusable: bool = False
    eps: float = 0.0
    deps: frozenset[str] = frozenset()

    def state(self) -> tuple[int, bool, float]:
        return self.cls, self.fusable, self.eps


@dataclass
class Loop:
    """What a loop body did, for the loop's fixpoint (Writer.close_loop)."""
    start: dict[str, tuple[int, bool, float]]
    updated: set[str] = field(default_factory=set)
    jump_reads: set[str] = field(default_factory=set)
    tainted: bool = False  # an exit whose condition is not EXACT


def broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + a
    b = (1,) * (rank - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(out)


@dataclass
class Case:
    seed: int
    source: str
    kernel: str
    signature: str
    constexprs: dict[str, int]
    num_warps: int
    # For an invalid kernel: what was inserted and at which line of the file.
    mistake: str | None = None
    mistake_line: int | None = None
    # For the differential check: how each output buffer compares (EXACT,
    # APPROX or WILD) and, for APPROX, the unit roundoff of its values.
    outputs: dict[str, tuple[int, float]] = field(default_factory=dict)


@dataclass
class Writer:
    rng: random.Random
    m: int
    n: int
    lines: list[str] = field(default_factory=list)
    vars: list[Var] = field(default_factory=list)
    indent: int = 1
    counter: int = 0
    header_lines: int = 0
    # Casts of compile-time values as tl.cast(3, T) rather than (3).to(T),
    # which the interpreter cannot run (a Python int has no .to).
    interpretable: bool = False
    loops: list[Loop] = field(default_factory=list)
    ctl: int = EXACT  # WILD where whether a statement runs depends on a non-EXACT value
    return_tainted: bool = False

    def emit(self, text: str) -> int:
        """Appends a statement (its lines are given relative indents); returns
        the file line of its first line."""
        first = self.header_lines + len(self.lines) + 1
        for line in text.split("\n"):
            self.lines.append("    " * self.indent + line)
        return first

    def fresh(self) -> str:
        self.counter += 1
        return f"v{self.counter}"

    def pick(self, predicate=lambda v: True) -> Var | None:
        candidates = [v for v in self.vars if predicate(v)]
        return self.rng.choice(candidates) if candidates else None

    def var(self, name: str) -> Var:
        return next(v for v in reversed(self.vars) if v.name == name)

    # -- comparability (EXACT / APPROX / WILD, see Expr) ------------------------

    def combine(self, text: str, result_kind: str, shape: tuple[int, ...],
                smooth: tuple[Expr, ...] = (), jumps: tuple[Expr, ...] = (),
                own: int = EXACT, fusable: bool = False, eps: float = 0.0) -> Expr:
        """An expression of `smooth` operands (through an operation continuous
        in them) and `jumps` operands (through one that is not: an APPROX one
        makes the result WILD); `own` is what the operation itself adds
        (APPROX where interpreter and compiler compute it differently)."""
        cls = max([own] + [p.cls for p in smooth]
                  + [EXACT if p.cls == EXACT else WILD for p in jumps])
        reads = frozenset().union(*(p.reads for p in smooth + jumps))
        for loop in self.loops:
            for p in jumps:
                loop.jump_reads |= p.reads
        eps = max([eps] + [p.eps for p in smooth + jumps])
        return Expr(text, result_kind, shape, cls, fusable, eps, reads)

    def arith(self, op: str, a: Expr, b: Expr, result_kind: str,
              shape: tuple[int, ...]) -> Expr:
        """`a op b`: float products may fuse with a + or - (fma contraction),
        float division is approximate (div.full.f32); integers are exact
        (their division by zero is checked when the kernel runs)."""
        text = f"({a.text} {op} {b.text})"
        if result_kind != "f":
            return self.combine(text, result_kind, shape, smooth=(a, b))
        if op == "*":
            return self.combine(text, "f", shape, smooth=(a, b), fusable=True)
        fused = op in ("+", "-") and (a.fusable or b.fusable)
        return self.combine(text, "f", shape, smooth=(a, b),
                            own=APPROX if fused or op == "/" else EXACT)

    def cast_text(self, text: str, dtype: str, options: str = "") -> str:
        if self.interpretable and _compile_time(text):
            return f"tl.cast({text}, tl.{dtype}{options})"
        return f"({text}).to(tl.{dtype}{options})"

    def cast(self, e: Expr, dtype: str, options: str = "") -> Expr:
        text = self.cast_text(e.text, dtype, options)
        if kind(dtype) == "f":
            return self.combine(text, "f", e.shape, smooth=(e,), fusable=e.fusable,
                                eps=ROUNDOFF[dtype])
        # float -> integer: truncation (and the range is checked when it runs)
        return self.combine(text, kind(dtype), e.shape, **{
            "jumps" if e.kind == "f" else "smooth": (e,)})

    def read(self, var: Var) -> Expr:
        return Expr(var.name, kind(var.dtype), var.shape, var.cls, var.fusable, var.eps,
                    var.deps | {var.name})

    def open_loop(self) -> None:
        self.loops.append(Loop({v.name: v.state() for v in self.vars}))

    def close_loop(self) -> None:
        """The loop's fixpoint, conservatively: one pass of the body computed
        the classes of what it updated from the classes before the loop. If
        none changed, that is the fixpoint; if some did and no discontinuous
        operation (or exit) read them, every updated variable gets the largest
        class among them; otherwise they are all WILD."""
        loop = self.loops.pop()
        current = {v.name: v for v in self.vars}
        updated = [current[name] for name in loop.updated if name in current]
        changed = {v.name for v in updated if v.state() != loop.start.get(v.name)}
        if not updated or (not changed and not loop.tainted):
            return
        wild = loop.tainted or bool(changed & loop.jump_reads)
        cls = WILD if wild else max(v.cls for v in updated)
        fusable = any(v.fusable for v in updated)
        eps = max(v.eps for v in updated)
        deps = frozenset().union(*(v.deps | {v.name} for v in updated))
        for v in updated:
            # an integer from an APPROX float went through a cast: WILD
            v.cls = WILD if cls == APPROX and kind(v.dtype) != "f" else cls
            v.fusable, v.eps, v.deps = fusable, eps, deps

    def control(self, cond: Expr) -> None:
        """What follows runs or not depending on `cond`."""
        if cond.cls != EXACT:
            self.ctl = WILD

    # -- expressions ------------------------------------------------------------

    def leaf(self, shape_of: tuple[int, ...] | None = None) -> Expr:
        r = self.rng.random()
        if r < 0.2:
            value = self.rng.choice(LITERALS)
            return Expr(value, "f" if "." in value else "i", ())
        var = self.pick(lambda v: shape_of is None or broadcast(v.shape, shape_of) is not None)
        if var is None:
            return Expr("1.0", "f", ())
        return self.read(var)

    def expr(self, depth: int = 0) -> Expr:
        rng = self.rng
        if depth >= 3 or rng.random() < 0.3:
            return self.leaf()
        choice = rng.random()
        a = self.expr(depth + 1)
        if choice < 0.45:
            b = self.expr(depth + 1)
            shape = broadcast(a[2], b[2])
            if shape is None:
                return a
            kinds = {a[1], b[1]}
            ops = ["+", "-", "*", "/"]
            if kinds <= {"i", "b"}:
                ops += ["//", "%", "&", "|", "^"]
                if "i" in kinds and a[1] == "i":
                    ops += ["<<", ">>"]
            op = rng.choice(ops)
            if op in ("/", "//", "%") and _compile_time(b[0]) and not _literal(b[0]):
                op = "*"  # a compile-time divisor could be 0: Python raises, as it should
            result_kind = "f" if op == "/" or "f" in kinds else ("i" if "i" in kinds else "b")
            if op in ("&", "|", "^") and kinds == {"b"}:
                result_kind = "b"
            if op in ("<<", ">>"):
                return self.combine(f"({a[0]} {op} 1)", a[1], a[2], smooth=(a,))
            return self.arith(op, a, b, result_kind, shape)
        if choice < 0.55:
            b = self.expr(depth + 1)
            shape = broadcast(a[2], b[2])
            if shape is None:
                return a
            op = rng.choice(["<", "<=", ">", ">=", "==", "!="])
            return self.combine(f"({a[0]} {op} {b[0]})", "b", shape, jumps=(a, b))
        if choice < 0.7:
            fn = rng.choice(["tl.exp", "tl.sqrt", "tl.abs", "tl.sigmoid", "tl.log2", "tl.floor",
                             "tl.cos", "-"])
            if fn == "-":
                return self.combine(f"(-{a[0]})", a[1] if a[1] != "b" else "i", a[2],
                                    smooth=(a,), fusable=a.fusable)
            if fn == "tl.abs":
                return self.combine(f"tl.abs({a[0]})", a[1], a[2], smooth=(a,))
            if fn == "tl.floor":
                return self.combine(f"{fn}({a[0]})", "f", a[2], jumps=(a,))
            return self.combine(f"{fn}({a[0]})", "f", a[2], smooth=(a,), own=APPROX)
        if choice < 0.8:
            b = self.expr(depth + 1)
            c = self.expr(depth + 1)
            shape = broadcast(broadcast(a[2], b[2]) or (), c[2]) if broadcast(a[2], b[2]) is not \
                None else None
            if shape is None:
                return b
            fn = rng.choice(["where", "maximum", "minimum"])
            if fn == "where":
                kinds = {b[1], c[1]}
                result = "f" if "f" in kinds else "i" if "i" in kinds else "b"
                return self.combine(f"tl.where({a[0]}, {b[0]}, {c[0]})", result, shape,
                                    smooth=(b, c), jumps=(a,))
            shape = broadcast(a[2], b[2])
            kinds = {a[1], b[1]}
            result = "f" if "f" in kinds else "i" if "i" in kinds else "b"
            return self.combine(f"tl.{fn}({a[0]}, {b[0]})", result, shape, smooth=(a, b))
        if choice < 0.9 and a[2]:
            axis = rng.randrange(len(a[2]))
            fn = rng.choice(["tl.sum", "tl.max", "tl.min"])
            keep = rng.random() < 0.3
            shape = a[2][:axis] + ((1,) if keep else ()) + a[2][axis + 1:]
            result_kind = "i" if fn == "tl.sum" and a[1] == "b" else a[1]
            extra = ", keep_dims=True" if keep else ""
            # a float sum's order differs between the two (a tree, lanes)
            return self.combine(f"{fn}({a[0]}, axis={axis}{extra})", result_kind, shape,
                                smooth=(a,), own=APPROX if fn == "tl.sum" and a[1] == "f"
                                else EXACT)
        if choice < 0.95:
            return self.special(a)
        target = rng.choice(DTYPES)
        return self.cast(a, target)

    def special(self, a: Expr) -> Expr:
        """Casts and libdevice: bitcasts, rounding modes, precise math, umulhi,
        libdevice functions (on values cast to the types they take)."""
        f32, i32 = self.cast(a, "float32"), self.cast(a, "int32")
        float_fn = self.rng.choice(['tanh', 'erfc', 'expm1', 'cbrt'])
        int_fn = self.rng.choice(['popc', 'clz', 'brev'])
        f, i, shape = f32.text, i32.text, a.shape
        options = [
            (f"{f}.to(tl.int32, bitcast=True)", "i", lambda t: self.combine(
                t, "i", shape, jumps=(f32,))),
            (f"tl.cast({i}, tl.float32, bitcast=True)", "f", lambda t: self.combine(
                t, "f", shape, smooth=(i32,), eps=ROUNDOFF["float32"])),
            (f"{f}.to(tl.float16, fp_downcast_rounding='rtz')", "f", lambda t: self.combine(
                t, "f", shape, smooth=(f32,), eps=ROUNDOFF["float16"])),
            (f"{f}.to(tl.uint32).to(tl.int64)", "i", lambda t: self.combine(
                t, "i", shape, jumps=(f32,))),
            (f"tl.math.erf({a[0]})", "f", lambda t: self.combine(
                t, "f", shape, smooth=(a,), own=APPROX)),
            (f"tl.math.sqrt_rn(tl.abs({f}))", "f", lambda t: self.combine(
                t, "f", shape, smooth=(f32,))),
            (f"tl.math.div_rn({f}, 3.0)", "f", lambda t: self.combine(
                t, "f", shape, smooth=(f32,))),
            (f"tl.math.rint({a[0]})", "f", lambda t: self.combine(t, "f", shape, jumps=(a,))),
            (f"tl.math.umulhi({i}, {i})", "i", lambda t: self.combine(
                t, "i", shape, smooth=(i32,))),
            (f"tl.extra.cuda.libdevice.{float_fn}({f})", "f", lambda t: self.combine(
                t, "f", shape, smooth=(f32,), own=APPROX)),
            (f"tl.extra.cuda.libdevice.{int_fn}({i})", "i", lambda t: self.combine(
                t, "i", shape, smooth=(i32,))),
        ]
        text, _, build = self.rng.choice(options)
        return build(text)

    # -- statements ----------------------------------------------------------

    def assign(self) -> None:
        """A new variable: an expression cast to a chosen type."""
        e = self.expr()
        dtype = self.rng.choice(DTYPES)
        name = self.fresh()
        value = self.cast(e, dtype)
        self.emit(f"{name} = {value.text}")
        self.vars.append(Var(name, dtype, e.shape, value.cls, value.fusable, value.eps,
                             value.reads))

    def update(self, var: Var) -> None:
        """`var` gets a new value of its own type and shape."""
        e = self.expr()
        if broadcast(e.shape, var.shape) != var.shape:
            e = Expr("0", "i", ())
        text = e.text
        self.emit(f"{var.name} = tl.broadcast_to(({text}) + {var.name}, {var.shape}).to("
                  f"tl.{var.dtype})" if var.shape else
                  f"{var.name} = (({text}) + {var.name}).to(tl.{var.dtype})")
        old = self.read(var)
        kinds = {e.kind, old.kind}
        total = self.arith("+", e, old, "f" if "f" in kinds else "i" if "i" in kinds else "b",
                           var.shape)
        new = self.cast(total, var.dtype)
        for loop in self.loops:
            loop.updated.add(var.name)
        var.cls = max(var.cls, new.cls, self.ctl)
        var.fusable = var.fusable or new.fusable
        var.eps, var.deps = max(var.eps, new.eps), var.deps | new.reads

    def statement(self, depth: int) -> None:
        rng = self.rng
        r = rng.random()
        if depth < 2 and r < 0.12:
            self.runtime_if(depth)
        elif depth < 2 and r < 0.22:
            self.for_loop(depth)
        elif depth < 2 and r < 0.27:
            self.while_loop(depth)
        elif depth < 2 and r < 0.32:
            self.static_loop(depth)
        elif r < 0.4:
            self.shape_op()
        elif r < 0.45:
            self.scan_or_call()
        else:
            self.assign()

    def block_of(self, depth: int, count: int, exits: tuple[str, ...] = ()) -> None:
        """`count` statements one level in; in a loop, maybe an exit
        (`if ...: break`) among them."""
        saved, saved_ctl = list(self.vars), self.ctl
        self.indent += 1
        exit_at = self.rng.randrange(count + 1) if exits and self.rng.random() < 0.4 else -1
        for position in range(count + 1):
            if position == exit_at:
                scalar = self.pick(lambda v: v.shape == ()) or self.var("n")
                bound = self.rng.randrange(-2, 5)
                how = self.rng.choice(exits)
                self.emit(f"if {scalar.name} > {bound}:\n    {how}")
                self.control(self.combine("", "b", (), jumps=(self.read(scalar),)))
                if self.ctl != EXACT:
                    if how == "return":
                        self.return_tainted = True
                    self.loops[-1].tainted = True
            if position == count:
                break
            if self.rng.random() < 0.5:
                var = self.pick(lambda v: v in saved)
                if var is not None:
                    self.update(var)
                    continue
            self.statement(depth + 1)
        self.indent -= 1
        self.vars, self.ctl = saved, saved_ctl  # names first bound inside do not flow out

    def on_n(self) -> Expr:
        """The condition `n > c` (n may have been updated)."""
        return self.combine("", "b", (), jumps=(self.read(self.var("n")),))

    def runtime_if(self, depth: int) -> None:
        self.emit(f"if n > {self.rng.randrange(-4, 40)}:")
        saved_ctl = self.ctl
        self.control(self.on_n())
        self.block_of(depth, self.rng.randint(1, 3))
        if self.rng.random() < 0.6:
            self.emit("else:")
            self.block_of(depth, self.rng.randint(1, 3))
        self.ctl = saved_ctl

    def for_loop(self, depth: int) -> None:
        index = f"i{self.counter}"
        self.counter += 1
        bound = self.rng.choice(["n", "4", "m", "M"])
        step = self.rng.choice(["", ", 2", ", 1"])
        if self.rng.random() < 0.2:
            self.emit(f"for {index} in range({bound}, 0, -1):")
        else:
            self.emit(f"for {index} in range(0, {bound}{step}):")
        saved_ctl = self.ctl
        self.open_loop()
        if bound == "n":
            self.control(self.on_n())
        self.vars.append(Var(index, "int32", ()))
        self.block_of(depth, self.rng.randint(1, 3), exits=("break", "continue", "return"))
        self.vars.pop()
        self.close_loop()
        self.ctl = saved_ctl

    def while_loop(self, depth: int) -> None:
        counter = self.fresh()
        self.emit(f"{counter} = 0")
        self.emit(f"while {counter} < m:")
        self.open_loop()
        self.block_of(depth, self.rng.randint(1, 2), exits=("break", "return"))
        self.indent += 1
        self.emit(f"{counter} += 1")
        self.indent -= 1
        self.close_loop()

    def static_loop(self, depth: int) -> None:
        index = f"s{self.counter}"
        self.counter += 1
        self.emit(f"for {index} in tl.static_range({self.rng.randint(1, 3)}):")
        self.open_loop()
        self.block_of(depth, self.rng.randint(1, 2), exits=("break", "continue"))
        self.close_loop()

    def shape_op(self) -> None:
        rng = self.rng
        var = self.pick(lambda v: len(v.shape) >= 1)
        if var is None:
            return self.assign()
        name = self.fresh()
        r = rng.random()
        if len(var.shape) == 1 and r < 0.5:
            if rng.random() < 0.5:
                self.emit(f"{name} = {var.name}[:, None]")
                shape = var.shape + (1,)
            else:
                self.emit(f"{name} = tl.expand_dims({var.name}, 0)")
                shape = (1,) + var.shape
        elif len(var.shape) == 2 and r < 0.4:
            self.emit(f"{name} = tl.trans({var.name})")
            shape = var.shape[::-1]
        elif r < 0.7:
            total = 1
            for extent in var.shape:
                total *= extent
            self.emit(f"{name} = tl.reshape({var.name}, ({total},))")
            shape = (total,)
        else:
            shape = (self.m,) + var.shape[-1:] if len(var.shape) == 1 else var.shape
            if broadcast(var.shape, shape) != shape:
                shape = var.shape
            self.emit(f"{name} = tl.broadcast_to({var.name}, {shape})")
        self.vars.append(Var(name, var.dtype, shape, var.cls, var.fusable, var.eps,
                             var.deps | {var.name}))

    def scan_or_call(self) -> None:
        var = self.pick(lambda v: len(v.shape) >= 1 and v.dtype in ("float32", "int32"))
        if var is None:
            return self.assign()
        name = self.fresh()
        # float scans sum in another order; axpy's a * K + x may fuse into an fma
        own = APPROX if var.dtype == "float32" else EXACT
        if self.rng.random() < 0.5:
            axis = self.rng.randrange(len(var.shape))
            self.emit(f"{name} = tl.cumsum({var.name}, axis={axis})")
            self.vars.append(Var(name, var.dtype, var.shape, max(var.cls, own), False, var.eps,
                                 var.deps | {var.name}))
        else:
            other = self.pick(lambda v: v.shape == var.shape and v.dtype == var.dtype) or var
            self.emit(f"{name} = axpy({var.name}, {other.name}, 2).to(tl.{var.dtype})")
            self.vars.append(Var(name, var.dtype, var.shape, max(var.cls, other.cls, own), False,
                                 max(var.eps, other.eps),
                                 var.deps | other.deps | {var.name, other.name}))


HEADER = '''import tile
import tile.language as tl


@tile.jit
def axpy(a, x, K: tl.constexpr):
    return a * K + x


@tile.jit
def {kernel}(x_ptr, h_ptr, i_ptr, out_ptr, iout_ptr, n, m, M: tl.constexpr, N: tl.constexpr):
'''


def generate(seed: int, interpretable: bool = False) -> Case:
    """The kernel of `seed`. `interpretable` spells casts of compile-time
    values `tl.cast(3, T)` (the interpreter cannot run `(3).to(T)`); the
    kernel is otherwise the same."""
    rng = random.Random(seed)
    m = rng.choice(EXTENTS)
    n = rng.choice([e for e in EXTENTS if e * m <= 512])
    kernel = f"kernel_{seed % 100000}"
    w = Writer(rng, m, n, interpretable=interpretable)
    w.header_lines = HEADER.format(kernel=kernel).count("\n")
    w.emit("pid = tl.program_id(0)")
    if rng.random() < 0.2:
        w.emit("if pid > 1000:")
        w.indent += 1
        w.emit("return")
        w.indent -= 1
    w.emit("rm = tl.arange(0, M)")
    w.emit("rn = tl.arange(0, N)")
    w.emit("offs = rm[:, None] * N + rn[None, :]")
    w.emit("inside = offs < n")
    hint = rng.choice(["", "", ", cache_modifier='.cg'", ", eviction_policy='evict_last'",
                       ", cache_modifier='.ca'"])
    w.emit(f"x = tl.load(x_ptr + offs, mask=inside, other=0.0{hint})")
    w.emit("h = tl.load(h_ptr + rn)")
    w.emit("k = tl.load(i_ptr + rm, mask=rm < m, other=1)")
    w.emit("s = tl.load(x_ptr + pid)")
    w.vars += [Var("x", "float32", (m, n), eps=ROUNDOFF["float32"]),
               Var("h", "float16", (n,), eps=ROUNDOFF["float16"]),
               Var("k", "int32", (m,)), Var("s", "float32", (), eps=ROUNDOFF["float32"]),
               Var("n", "int32", ()), Var("inside", "int1", (m, n))]
    for _ in range(rng.randint(2, 10)):
        w.statement(0)
    # Stores: a 2-D float result and a 1-D integer one.
    flat = w.pick(lambda v: broadcast(v.shape, (m, n)) == (m, n)) or w.var("x")
    w.emit(f"tl.store(out_ptr + offs, {flat.name}, mask=inside)")
    row = w.pick(lambda v: broadcast(v.shape, (m,)) == (m,)) or w.var("k")
    w.emit(f"tl.store(iout_ptr + rm, {row.name}, mask=rm < m)")
    case = Case(seed, "", kernel, "*fp32,*fp16,*i32,*fp32,*i64,i32,i32", {"M": m, "N": n},
                rng.choice([1, 2, 4, 8]))
    # How the outputs compare: the stored value (converted to the buffer's
    # type: to an integer, a jump) under the store's mask, unless an exit that
    # depends on a non-EXACT value may skip the stores.
    mask = w.combine("", "b", (), jumps=(w.read(w.var("inside")),))
    out = w.combine("", "f", (), smooth=(w.read(flat),), jumps=(mask,),
                    eps=ROUNDOFF["float32"])
    iout = w.cast(w.read(row), "int64")
    case.outputs = {name: (WILD if w.return_tainted else e.cls, e.eps)
                    for name, e in (("out", out), ("iout", iout))}
    if rng.random() < 0.4:
        insert_mistake(w, case)
    case.source = HEADER.format(kernel=kernel) + "\n".join(w.lines) + "\n"
    return case


def insert_mistake(w: Writer, case: Case) -> None:
    """Replaces the kernel's last store by a statement with one mistake."""
    rng = w.rng
    float_block = w.pick(lambda v: kind(v.dtype) == "f" and len(v.shape) >= 1)
    block = w.pick(lambda v: len(v.shape) >= 1) or Var("x", "float32", (w.m, w.n))
    scalar = "n"
    mistakes = [
        ("shape mismatch", "bad = tl.zeros((M + 2,), dtype=tl.float32) + tl.zeros((M + 3,), "
         "dtype=tl.float32)"),
        ("runtime arange", "bad = tl.arange(0, n)"),
        ("reduction axis", f"bad = tl.sum({block.name}, axis={len(block.shape)})"),
        ("float mask", f"tl.store(out_ptr + offs, x, mask=x)"),
        ("zero extent", f"bad = tl.zeros((M, 0), dtype=tl.float32)"),
        ("negative extent", "bad = tl.full((-3,), 1.0, tl.float32)"),
        ("huge block", "bad = tl.zeros((65536, 65536), dtype=tl.float32)"),
        ("huge arange", "bad = tl.arange(0, 2**40)"),
        ("undefined name", "bad = x + not_defined_anywhere"),
        ("bad dtype", "bad = x.to('float32')"),
        ("helper arity", "bad = axpy(x, x, 2, 3)"),
        ("lambda", "bad = (lambda q: q)(x)"),
        ("comprehension over a block", "bad = [q for q in x]"),
        ("element access", "bad = x[0]"),
        ("float floordiv", "bad = x // 2"),
        ("store to a value", "tl.store(n, 1.0)"),
        ("dot of rank 1", "bad = tl.dot(rm.to(tl.float32), rm.to(tl.float32))"),
        ("expand_dims axis", f"bad = tl.expand_dims(rm, {rng.choice([2, 5, -3])})"),
        ("block condition", "if x > 0:\n    bad = 1"),
        ("program_id axis", "bad = tl.program_id(3)"),
        ("reshape size", f"bad = tl.reshape(x, ({w.m * w.n + 1},))"),
        ("chained comparison", "bad = rm < m < n"),
        ("constant while", "while 1 < 2:\n    bad = 1"),
        ("sum of a scalar", f"bad = tl.sum({scalar})"),
        ("with statement", "with open('f'):\n    bad = 1"),
        ("zero step", "for q in range(0, n, 0):\n    bad = 1"),
        ("carried type change", "acc = tl.zeros((M,), dtype=tl.float32)\n"
         "for q in range(0, n):\n    acc = acc.to(tl.float16)"),
        ("constant too large", "bad = x + tl.full((M,), 2**40, tl.int32)[:, None]"),
        ("in on a block", "bad = 1 in x"),
        # A runtime value where a constant is needed (a callee's tl.constexpr
        # annotation alone takes one, as in Triton).
        ("runtime constexpr", "bad = tl.zeros((n,), tl.float32)"),
    ]
    if float_block is not None:
        mistakes.append(("shift of a float", f"bad = {float_block.name} << 1"))
    mistakes += [
        ("bitcast width", "bad = x.to(tl.int16, bitcast=True)"),
        ("libdevice type", "bad = tl.extra.cuda.libdevice.erf(h)"),
        ("cache hints combined", "bad = tl.load(x_ptr, cache_modifier='.cg', "
         "eviction_policy='evict_first')"),
        ("store cache operator on a load", "bad = tl.load(x_ptr, cache_modifier='.wt')"),
        ("rounding of an upcast", "bad = h.to(tl.float32, fp_downcast_rounding='rtz')"),
        ("pointer to float", "bad = x_ptr.to(tl.float32)"),
    ]
    name, text = rng.choice(mistakes)
    # Insert before the stores, at the kernel's top level.
    w.lines.pop()
    w.lines.pop()
    w.indent = 1
    line = w.emit(text)
    if name == "carried type change":
        line += 1  # the error is at the loop
    case.mistake, case.mistake_line = name, line


# -- checking one case --------------------------------------------------------

class Finding(Exception):
    pass


# What a run checks: "compile" (the oracle above), "interpret" (also: every
# valid kernel that compiles runs in the interpreter without raising; the
# default) or "differential" (also: the interpreted and the compiled results
# agree, on a GPU; see differential.py).
MODES = ("compile", "interpret", "differential")
CLASS_NAMES = {EXACT: "exact", APPROX: "approx", WILD: "excluded"}


def load(case: Case, path: Path) -> Any:
    """The kernel (a JITFunction) of `case`, written to `path` and imported."""
    use_checkout()
    import importlib.util

    path.write_text(case.source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, case.kernel)


def check(case: Case, directory: Path) -> Any:
    """Raises Finding unless the case behaves (see the module docstring);
    returns the kernel when it is valid and compiled, else None."""
    use_checkout()
    import tile
    from tile.compiler import capi

    path = directory / f"case_{case.seed}.py"
    kernel = load(case, path)
    try:
        ir = tile.generate_ir(kernel, case.signature, case.constexprs)
        if capi.available():
            result = capi.compile_ir(ir, "sm_90", case.num_warps, emit_cubin=False)
            if f".entry {case.kernel}" not in result.ptx:
                raise Finding(f"no .entry {case.kernel} in the PTX")
    except tile.CompilationError as error:
        if case.mistake is None:
            if "needs" in error.message and "registers per thread" in error.message \
                    and error.filename == str(path):
                return None  # a located resource limit of the lowering: not a finding
            raise Finding(f"a valid kernel failed to compile:\n{error}") from None
        if error.filename != str(path):
            raise Finding(f"the error for '{case.mistake}' is not located in the kernel's "
                          f"file:\n{error}") from None
        if error.line != case.mistake_line:
            raise Finding(f"the error for '{case.mistake}' is at line {error.line}, not at "
                          f"line {case.mistake_line}:\n{error}") from None
        return None
    except Finding:
        raise
    except Exception:  # noqa: BLE001 - any other exception is a crash
        raise Finding("the frontend raised:\n" + traceback.format_exc()) from None
    if case.mistake is not None:
        raise Finding(f"the invalid kernel ('{case.mistake}' at line {case.mistake_line}) "
                      "compiled without an error")
    return kernel


def interpretable_kernel(case: Case, compiled: Any, directory: Path) -> tuple[Case, Any, Path]:
    """The kernel of `case` spelled for the interpreter (the same IR; a test
    checks it), with its case and file."""
    spelled = generate(case.seed, interpretable=True)
    if spelled.source == case.source:
        return case, compiled, directory / f"case_{case.seed}.py"
    path = directory / f"case_{case.seed}_interpretable.py"
    return spelled, load(spelled, path), path


def run(case: Case, directory: Path, mode: str = "interpret") -> str:
    """Checks `case` as `mode` asks; raises Finding or returns what was done
    (`invalid`, `valid`, `valid interpreted`, `valid compared out:exact
    iout:excluded`, `valid undefined: <what>`, `valid uninterpreted: <function>`),
    for the tally."""
    compiled = check(case, directory)
    if compiled is None or mode == "compile":
        return "invalid" if case.mistake else "valid"
    import differential

    spelled, kernel, path = interpretable_kernel(case, compiled, directory)
    inputs = differential.make_inputs(case.seed, case.constexprs)
    try:
        interpreted, undefined = differential.interpret(kernel, case.constexprs,
                                                        case.num_warps, inputs)
    except Exception as exc:  # noqa: BLE001 - an interpreter that raises on a valid kernel
        missing = re.search(r"(libdevice\.\w+) has no interpreted version", str(exc))
        if missing:  # documented (python/tile/README.md): counted, not a finding
            return f"valid uninterpreted: {missing.group(1)}"
        raise Finding(f"the interpreter raised on a kernel that compiles ({path}):\n"
                      + traceback.format_exc()) from None
    if mode == "interpret":
        return "valid interpreted"
    if undefined:
        return "valid undefined: " + "; ".join(undefined)
    try:
        results = differential.run_compiled(kernel, case.constexprs, case.num_warps, inputs)
    except Exception:  # noqa: BLE001
        raise Finding(f"the compiled launch raised ({path}):\n" + traceback.format_exc()) \
            from None
    differences = differential.compare(spelled.outputs, interpreted, results)
    classes = " ".join(f"{name}:{CLASS_NAMES[cls]}" for name, (cls, _) in spelled.outputs.items())
    if differences:
        raise Finding(f"interpreted and compiled results differ ({path}; n={inputs.n}, "
                      f"m={inputs.m}; compared {classes}):\n" + "\n".join(differences))
    return f"valid compared {classes}"


# -- driver: workers, timeouts, findings --------------------------------------

def worker(first: int, count: int, directory: Path, mode: str) -> None:
    """Runs seeds first.. and reports each on stdout (`start S`, `ok S <what>`,
    `FINDING S <text>`), so the driver can tell which one hung or crashed."""
    for seed in range(first, first + count):
        print(f"start {seed}", flush=True)
        case = generate(seed)
        try:
            label = run(case, directory, mode)
        except Finding as finding:
            text = str(finding).replace("\n", "\\n")
            print(f"FINDING {seed} {case.mistake or 'valid'}: {text}", flush=True)
            return
        print(f"ok {seed} {label}", flush=True)


def rerun_command(seed: int, mode: str = "interpret") -> str:
    flag = {"compile": " --no-interpret", "interpret": "", "differential": " --differential"}
    return f"python3 fuzz/python/kernelgen.py --seed {seed}{flag[mode]}"


@dataclass
class Tally:
    """What the seeds of a run did, from the workers' `ok` lines: labels
    (`valid compared out:exact iout:approx`, `valid undefined: a; b`)."""
    labels: dict[str, int] = field(default_factory=dict)
    outputs: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, label: str) -> None:
        head, _, rest = label.partition(":") if label.split()[1:2] in (
            ["undefined:"], ["uninterpreted:"]) else (label, "", "")
        words = head.split()
        key = " ".join(words[:2])
        self.labels[key] = self.labels.get(key, 0) + 1
        for word in words[2:]:
            self.outputs[word] = self.outputs.get(word, 0) + 1
        reasons = self.reasons.setdefault(key, {})
        for reason in filter(None, (r.strip() for r in rest.split(";"))):
            reasons[reason] = reasons.get(reason, 0) + 1

    def count(self, *keys: str) -> int:
        return sum(self.labels.get(key, 0) for key in keys)

    def why(self, key: str) -> str:
        reasons = self.reasons.get(key, {})
        return "; ".join(f"{name}: {count}" for name, count in sorted(reasons.items())) \
            or "none"

    def summary(self, mode: str) -> str:
        valid = self.count("valid", "valid interpreted", "valid compared", "valid undefined",
                           "valid uninterpreted")
        text = (f"{valid} valid kernels compiled, {self.count('invalid')} invalid ones "
                f"rejected at their line")
        if mode != "compile":
            text += (f", {self.count('valid interpreted', 'valid compared', 'valid undefined')}"
                     f" valid ones interpreted, {self.count('valid uninterpreted')} not (a "
                     f"function without an interpreted version: {self.why('valid uninterpreted')})")
        if mode == "differential":
            outputs = ", ".join(f"{count} {name}" for name, count in sorted(self.outputs.items()))
            text += (f"; {self.count('valid compared')} compared interpreted vs compiled "
                     f"(outputs: {outputs or 'none'}), {self.count('valid undefined')} not "
                     f"compared for undefined behaviour ({self.why('valid undefined')})")
        return text


def drive(first_seed: int, seconds: float, directory: Path, mode: str = "interpret") -> int:
    deadline = time.monotonic() + seconds
    findings: list[str] = []
    tally = Tally()
    seed = first_seed
    while time.monotonic() < deadline and len(findings) < 10:
        process = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(seed), "--count", "1000000",
             "--dir", str(directory), "--mode", mode], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        assert process.stdout is not None
        current = None
        last_event = time.monotonic()
        output: list[str] = []
        while True:
            ready, _, _ = select.select([process.stdout], [], [], 1.0)
            now = time.monotonic()
            if ready:
                line = process.stdout.readline()
                if not line:
                    break
                output.append(line)
                words = line.split(" ", 2)
                if words[0] == "start":
                    current, last_event = int(words[1]), now
                elif words[0] == "ok":
                    tally.add(words[2].strip())
                    current = None
                    seed = int(words[1]) + 1
                elif words[0] == "FINDING":
                    findings.append(f"seed {words[1]}: {words[2].strip()}".replace("\\n", "\n"))
                    seed = int(words[1]) + 1
                    current = None
            if current is not None and now - last_event > CASE_TIMEOUT_S:
                findings.append(f"seed {current}: no result after {CASE_TIMEOUT_S} s (a hang)")
                seed = current + 1
                break
            if now > deadline:
                break
        process.kill()
        process.wait()
        if current is not None and not any(f.startswith(f"seed {current}:") for f in findings) \
                and time.monotonic() <= deadline:
            tail = "".join(output[-20:])
            findings.append(f"seed {current}: the worker died:\n{tail}")
            seed = current + 1
    print(f"kernelgen: seeds {first_seed}..{seed - 1}: {tally.summary(mode)}, "
          f"{len(findings)} findings")
    for finding in findings:
        seed_text = finding.split(":", 1)[0].split()[1]
        print(f"FINDING {finding}\n  kernel: {directory / f'case_{seed_text}.py'}\n"
              f"  rerun: {rerun_command(int(seed_text), mode)}\n")
    return 1 if findings else 0


# Exit status of --differential where it cannot run (no GPU): neither a pass
# nor a finding.
CANNOT_RUN = 3


def unavailable(mode: str) -> str | None:
    """Why `mode` cannot run here, or None."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        if mode != "compile":
            return "the interpreter needs NumPy (pip install numpy; or pass --no-interpret)"
    if mode == "differential":
        import differential
        reason = differential.cuda_unavailable()
        if reason is not None:
            return (f"no GPU to launch compiled kernels on: {reason}; --differential needs "
                    "torch with a CUDA GPU (gpu/kernelgen_differential.sh runs it on the GPU "
                    "machine)")
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float,
                        help="run seeds for this long (default 60; with --seed alone, one seed)")
    parser.add_argument("--seed", type=int, help="run this seed only (or the first of a run)")
    parser.add_argument("--show", action="store_true", help="print the seed's kernel")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--differential", action="store_true",
                     help="also compare each valid kernel's interpreted and compiled results "
                     "(needs a CUDA GPU and torch)")
    how.add_argument("--no-interpret", action="store_true",
                     help="only compile (do not run valid kernels in the interpreter)")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--mode", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help="where the kernels are written")
    args = parser.parse_args()
    mode = args.mode or ("differential" if args.differential else
                         "compile" if args.no_interpret else "interpret")
    if args.show:
        case = generate(args.seed or 0, interpretable=mode != "compile")
        print(case.source, end="")
        if mode == "differential" and not case.mistake:
            print("# compared: " + ", ".join(f"{name} {CLASS_NAMES[cls]}"
                                             for name, (cls, _) in case.outputs.items()))
        return 0
    reason = unavailable(mode)
    if reason is not None:
        print(f"kernelgen: cannot run {mode!r} here: {reason}", flush=True)
        return CANNOT_RUN
    directory = args.dir or Path(tempfile.mkdtemp(prefix="tile-kernelgen-"))
    directory.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("TILE_CACHE_DIR", str(directory / "cache"))
    if args.worker is not None:
        worker(args.worker, args.count, directory, mode)
        return 0
    if args.seed is not None and args.seconds is None:
        case = generate(args.seed)
        print(f"seed {args.seed}: {case.mistake or 'valid'}"
              + (f" at line {case.mistake_line}" if case.mistake else "")
              + f", kernel in {directory / f'case_{args.seed}.py'}")
        try:
            label = run(case, directory, mode)
        except Finding as finding:
            print(f"FINDING: {finding}")
            return 1
        print(f"ok: {label}")
        return 0
    seconds = 60.0 if args.seconds is None else args.seconds
    first = args.seed if args.seed is not None else int(time.time()) % 1_000_000_000
    print(f"kernelgen ({mode}): {seconds:.0f} s from seed {first}, kernels in {directory}",
          flush=True)
    return drive(first, seconds, directory, mode)


if __name__ == "__main__":
    sys.exit(main())
