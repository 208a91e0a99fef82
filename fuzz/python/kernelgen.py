"""A randomized generator of Python kernels, valid and invalid, for the frontend.

Each seed gives one kernel (a `.py` file). A valid kernel must compile to PTX
(through the compile library, or to tile IR that tile-opt accepts when the
library is not built); an invalid one (a valid kernel with one mistake
inserted) must fail with a `tile.CompilationError` located in the generated
file, at the line of the mistake. Anything else is a finding: another
exception (a crash in the frontend), a compile that does not finish (a hang),
an error located in generated IR or nowhere, or an invalid kernel accepted.

    python3 fuzz/python/kernelgen.py --seconds 60            # CI: seeds from the clock
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
import select
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASE_TIMEOUT_S = 30

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
    import re
    return not re.search(r"[A-Za-z_]", re.sub(r"tl\.[a-z_0-9]+", "", text).replace("e", ""))


def kind(dtype: str) -> str:
    return "f" if dtype in FLOATS else "b" if dtype == "int1" else "i"


@dataclass
class Var:
    name: str
    dtype: str
    shape: tuple[int, ...]


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

    # -- expressions: (text, kind, shape) -------------------------------------

    def leaf(self, shape_of: tuple[int, ...] | None = None) -> tuple[str, str, tuple[int, ...]]:
        r = self.rng.random()
        if r < 0.2:
            value = self.rng.choice(LITERALS)
            return value, "f" if "." in value else "i", ()
        var = self.pick(lambda v: shape_of is None or broadcast(v.shape, shape_of) is not None)
        if var is None:
            return "1.0", "f", ()
        return var.name, kind(var.dtype), var.shape

    def expr(self, depth: int = 0) -> tuple[str, str, tuple[int, ...]]:
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
                return f"({a[0]} {op} 1)", a[1], a[2]
            return f"({a[0]} {op} {b[0]})", result_kind, shape
        if choice < 0.55:
            b = self.expr(depth + 1)
            shape = broadcast(a[2], b[2])
            if shape is None:
                return a
            op = rng.choice(["<", "<=", ">", ">=", "==", "!="])
            return f"({a[0]} {op} {b[0]})", "b", shape
        if choice < 0.7:
            fn = rng.choice(["tl.exp", "tl.sqrt", "tl.abs", "tl.sigmoid", "tl.log2", "tl.floor",
                             "tl.cos", "-"])
            if fn == "-":
                return f"(-{a[0]})", a[1] if a[1] != "b" else "i", a[2]
            if fn == "tl.abs":
                return f"tl.abs({a[0]})", a[1], a[2]
            return f"{fn}({a[0]})", "f", a[2]
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
                return f"tl.where({a[0]}, {b[0]}, {c[0]})", result, shape
            shape = broadcast(a[2], b[2])
            kinds = {a[1], b[1]}
            result = "f" if "f" in kinds else "i" if "i" in kinds else "b"
            return f"tl.{fn}({a[0]}, {b[0]})", result, shape
        if choice < 0.9 and a[2]:
            axis = rng.randrange(len(a[2]))
            fn = rng.choice(["tl.sum", "tl.max", "tl.min"])
            keep = rng.random() < 0.3
            shape = a[2][:axis] + ((1,) if keep else ()) + a[2][axis + 1:]
            result_kind = "i" if fn == "tl.sum" and a[1] == "b" else a[1]
            extra = ", keep_dims=True" if keep else ""
            return f"{fn}({a[0]}, axis={axis}{extra})", result_kind, shape
        if choice < 0.95:
            return self.special(a)
        target = rng.choice(DTYPES)
        return f"({a[0]}).to(tl.{target})", kind(target), a[2]

    def special(self, a: tuple[str, str, tuple[int, ...]]) -> tuple[str, str, tuple[int, ...]]:
        """Casts and libdevice: bitcasts, rounding modes, precise math, umulhi,
        libdevice functions (on values cast to the types they take)."""
        f32 = f"({a[0]}).to(tl.float32)"
        i32 = f"({a[0]}).to(tl.int32)"
        options = [
            (f"{f32}.to(tl.int32, bitcast=True)", "i"),
            (f"tl.cast({i32}, tl.float32, bitcast=True)", "f"),
            (f"{f32}.to(tl.float16, fp_downcast_rounding='rtz')", "f"),
            (f"{f32}.to(tl.uint32).to(tl.int64)", "i"),
            (f"tl.math.erf({a[0]})", "f"), (f"tl.math.sqrt_rn(tl.abs({f32}))", "f"),
            (f"tl.math.div_rn({f32}, 3.0)", "f"), (f"tl.math.rint({a[0]})", "f"),
            (f"tl.math.umulhi({i32}, {i32})", "i"),
            (f"tl.extra.cuda.libdevice.{self.rng.choice(['tanh', 'erfc', 'expm1', 'cbrt'])}"
             f"({f32})", "f"),
            (f"tl.extra.cuda.libdevice.{self.rng.choice(['popc', 'clz', 'brev'])}({i32})", "i"),
        ]
        text, result_kind = self.rng.choice(options)
        return text, result_kind, a[2]

    # -- statements ----------------------------------------------------------

    def assign(self) -> None:
        """A new variable: an expression cast to a chosen type."""
        text, _, shape = self.expr()
        dtype = self.rng.choice(DTYPES)
        name = self.fresh()
        self.emit(f"{name} = ({text}).to(tl.{dtype})")
        self.vars.append(Var(name, dtype, shape))

    def update(self, var: Var) -> None:
        """`var` gets a new value of its own type and shape."""
        text, _, shape = self.expr()
        if broadcast(shape, var.shape) != var.shape:
            text = "0"
        self.emit(f"{var.name} = tl.broadcast_to(({text}) + {var.name}, {var.shape}).to("
                  f"tl.{var.dtype})" if var.shape else
                  f"{var.name} = (({text}) + {var.name}).to(tl.{var.dtype})")

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
        saved = list(self.vars)
        self.indent += 1
        exit_at = self.rng.randrange(count + 1) if exits and self.rng.random() < 0.4 else -1
        for position in range(count + 1):
            if position == exit_at:
                scalar = self.pick(lambda v: v.shape == ()) or Var("n", "int32", ())
                self.emit(f"if {scalar.name} > {self.rng.randrange(-2, 5)}:\n"
                          f"    {self.rng.choice(exits)}")
            if position == count:
                break
            if self.rng.random() < 0.5:
                var = self.pick(lambda v: v in saved)
                if var is not None:
                    self.update(var)
                    continue
            self.statement(depth + 1)
        self.indent -= 1
        self.vars = saved  # names first bound inside do not flow out

    def runtime_if(self, depth: int) -> None:
        self.emit(f"if n > {self.rng.randrange(-4, 40)}:")
        self.block_of(depth, self.rng.randint(1, 3))
        if self.rng.random() < 0.6:
            self.emit("else:")
            self.block_of(depth, self.rng.randint(1, 3))

    def for_loop(self, depth: int) -> None:
        index = f"i{self.counter}"
        self.counter += 1
        bound = self.rng.choice(["n", "4", "m", "M"])
        step = self.rng.choice(["", ", 2", ", 1"])
        if self.rng.random() < 0.2:
            self.emit(f"for {index} in range({bound}, 0, -1):")
        else:
            self.emit(f"for {index} in range(0, {bound}{step}):")
        self.vars.append(Var(index, "int32", ()))
        self.block_of(depth, self.rng.randint(1, 3), exits=("break", "continue", "return"))
        self.vars.pop()

    def while_loop(self, depth: int) -> None:
        counter = self.fresh()
        self.emit(f"{counter} = 0")
        self.emit(f"while {counter} < m:")
        self.block_of(depth, self.rng.randint(1, 2), exits=("break", "return"))
        self.indent += 1
        self.emit(f"{counter} += 1")
        self.indent -= 1

    def static_loop(self, depth: int) -> None:
        index = f"s{self.counter}"
        self.counter += 1
        self.emit(f"for {index} in tl.static_range({self.rng.randint(1, 3)}):")
        self.block_of(depth, self.rng.randint(1, 2), exits=("break", "continue"))

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
        self.vars.append(Var(name, var.dtype, shape))

    def scan_or_call(self) -> None:
        var = self.pick(lambda v: len(v.shape) >= 1 and v.dtype in ("float32", "int32"))
        if var is None:
            return self.assign()
        name = self.fresh()
        if self.rng.random() < 0.5:
            axis = self.rng.randrange(len(var.shape))
            self.emit(f"{name} = tl.cumsum({var.name}, axis={axis})")
            self.vars.append(Var(name, var.dtype, var.shape))
        else:
            other = self.pick(lambda v: v.shape == var.shape and v.dtype == var.dtype) or var
            self.emit(f"{name} = axpy({var.name}, {other.name}, 2).to(tl.{var.dtype})")
            self.vars.append(Var(name, var.dtype, var.shape))


HEADER = '''import tile
import tile.language as tl


@tile.jit
def axpy(a, x, K: tl.constexpr):
    return a * K + x


@tile.jit
def {kernel}(x_ptr, h_ptr, i_ptr, out_ptr, iout_ptr, n, m, M: tl.constexpr, N: tl.constexpr):
'''


def generate(seed: int) -> Case:
    rng = random.Random(seed)
    m = rng.choice(EXTENTS)
    n = rng.choice([e for e in EXTENTS if e * m <= 512])
    kernel = f"kernel_{seed % 100000}"
    w = Writer(rng, m, n)
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
    w.vars += [Var("x", "float32", (m, n)), Var("h", "float16", (n,)),
               Var("k", "int32", (m,)), Var("s", "float32", ()), Var("n", "int32", ()),
               Var("inside", "int1", (m, n))]
    for _ in range(rng.randint(2, 10)):
        w.statement(0)
    # Stores: a 2-D float result and a 1-D integer one.
    flat = w.pick(lambda v: broadcast(v.shape, (m, n)) == (m, n)) or Var("x", "float32", (m, n))
    w.emit(f"tl.store(out_ptr + offs, {flat.name}, mask=inside)")
    row = w.pick(lambda v: broadcast(v.shape, (m,)) == (m,)) or Var("k", "int32", (m,))
    w.emit(f"tl.store(iout_ptr + rm, {row.name}, mask=rm < m)")
    case = Case(seed, "", kernel, "*fp32,*fp16,*i32,*fp32,*i64,i32,i32", {"M": m, "N": n},
                rng.choice([1, 2, 4, 8]))
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
        ("runtime constexpr", "bad = axpy(x, x, n)"),
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


def check(case: Case, directory: Path) -> None:
    """Raises Finding unless the case behaves (see the module docstring)."""
    sys.path.insert(0, str(ROOT / "python"))
    import importlib.util
    import tile
    from tile.compiler import capi

    path = directory / f"case_{case.seed}.py"
    path.write_text(case.source)
    spec = importlib.util.spec_from_file_location(f"case_{case.seed}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = getattr(module, case.kernel)
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
                return  # a located resource limit of the lowering: not a finding
            raise Finding(f"a valid kernel failed to compile:\n{error}") from None
        if error.filename != str(path):
            raise Finding(f"the error for '{case.mistake}' is not located in the kernel's "
                          f"file:\n{error}") from None
        if error.line != case.mistake_line:
            raise Finding(f"the error for '{case.mistake}' is at line {error.line}, not at "
                          f"line {case.mistake_line}:\n{error}") from None
        return
    except Finding:
        raise
    except Exception:  # noqa: BLE001 - any other exception is a crash
        raise Finding("the frontend raised:\n" + traceback.format_exc()) from None
    if case.mistake is not None:
        raise Finding(f"the invalid kernel ('{case.mistake}' at line {case.mistake_line}) "
                      "compiled without an error")


# -- driver: workers, timeouts, findings --------------------------------------

def worker(first: int, count: int, directory: Path) -> None:
    """Runs seeds first.. and reports each on stdout (`start S`, `ok S`,
    `FINDING S <text>`), so the driver can tell which one hung or crashed."""
    for seed in range(first, first + count):
        print(f"start {seed}", flush=True)
        case = generate(seed)
        try:
            check(case, directory)
        except Finding as finding:
            text = str(finding).replace("\n", "\\n")
            print(f"FINDING {seed} {case.mistake or 'valid'}: {text}", flush=True)
            return
        print(f"ok {seed} {case.mistake or 'valid'}", flush=True)


def rerun_command(seed: int) -> str:
    return f"python3 fuzz/python/kernelgen.py --seed {seed}"


def drive(first_seed: int, seconds: float, directory: Path) -> int:
    deadline = time.monotonic() + seconds
    findings: list[str] = []
    counts = {"valid": 0, "invalid": 0}
    seed = first_seed
    while time.monotonic() < deadline and len(findings) < 10:
        process = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(seed), "--count", "1000000",
             "--dir", str(directory)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, cwd=ROOT)
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
                    counts["valid" if words[2].strip() == "valid" else "invalid"] += 1
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
    print(f"kernelgen: seeds {first_seed}..{seed - 1}: {counts['valid']} valid kernels "
          f"compiled, {counts['invalid']} invalid ones rejected at their line, "
          f"{len(findings)} findings")
    for finding in findings:
        seed_text = finding.split(":", 1)[0].split()[1]
        print(f"FINDING {finding}\n  rerun: {rerun_command(int(seed_text))}\n")
    return 1 if findings else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float,
                        help="run seeds for this long (default 60; with --seed alone, one seed)")
    parser.add_argument("--seed", type=int, help="run this seed only (or the first of a run)")
    parser.add_argument("--show", action="store_true", help="print the seed's kernel")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help="where the kernels are written")
    args = parser.parse_args()
    directory = args.dir or Path(tempfile.mkdtemp(prefix="tile-kernelgen-"))
    directory.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("TILE_CACHE_DIR", str(directory / "cache"))
    if args.worker is not None:
        worker(args.worker, args.count, directory)
        return 0
    if args.seed is not None and args.seconds is None and not args.show:
        case = generate(args.seed)
        print(f"seed {args.seed}: {case.mistake or 'valid'}"
              + (f" at line {case.mistake_line}" if case.mistake else "")
              + f", kernel in {directory / f'case_{args.seed}.py'}")
        try:
            check(case, directory)
        except Finding as finding:
            print(f"FINDING: {finding}")
            return 1
        print("ok")
        return 0
    if args.show:
        print(generate(args.seed or 0).source)
        return 0
    seconds = 60.0 if args.seconds is None else args.seconds
    first = args.seed if args.seed is not None else int(time.time()) % 1_000_000_000
    print(f"kernelgen: {seconds:.0f} s from seed {first}, kernels in {directory}", flush=True)
    return drive(first, seconds, directory)


if __name__ == "__main__":
    sys.exit(main())
