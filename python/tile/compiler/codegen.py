"""Python AST -> tile IR text.

`CodeGenerator` walks one function's AST. Runtime values are `tensor`s; every
other value (ints, floats, dtypes, tuples, modules, functions) is a plain
Python value computed at compile time, so `if` on a constexpr and
`tl.static_range` are resolved here. Calls to other @tile.jit functions are
inlined by walking the callee with its own generator.
"""
from __future__ import annotations

import ast
import builtins
import copy as copy_module
import inspect
import operator
import textwrap
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from ..errors import CompilationError, ConstantRequired, TileError
from ..language import core as tl
from ..language import semantic as S
from ..language import types as T
from ..language.semantic import tensor
from ..language.types import unwrap
from .dependencies import check_global
from .ir import Block, Builder, Value, callsite_loc
from .source import FunctionSource

_MISSING = object()
_MAX_INLINE_DEPTH = 64

# Python operators on runtime values -> semantic functions.
_BINARY_OPS: dict[type, Callable[..., tensor]] = {
    ast.Add: S.add, ast.Sub: S.sub, ast.Mult: S.mul, ast.Div: S.truediv,
    ast.FloorDiv: S.floordiv, ast.Mod: S.mod, ast.Pow: S.power,
    ast.BitAnd: lambda b, x, y: S.bitwise(b, "andi", x, y),
    ast.BitOr: lambda b, x, y: S.bitwise(b, "ori", x, y),
    ast.BitXor: lambda b, x, y: S.bitwise(b, "xori", x, y),
    ast.LShift: lambda b, x, y: S.bitwise(b, "shli", x, y),
    ast.RShift: lambda b, x, y: S.bitwise(b, "shr", x, y),
}
_PYTHON_BINARY_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
    ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.MatMult: operator.matmul,
}
_COMPARE_PREDICATES = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge",
                       ast.Eq: "eq", ast.NotEq: "ne"}
_PYTHON_COMPARE_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_,
    ast.IsNot: operator.is_not, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def is_runtime(value: Any) -> bool:
    return isinstance(value, tensor)


def _changed(before: Any, after: Any) -> bool:
    if before is _MISSING:
        return True
    if is_runtime(before) or is_runtime(after):
        return not (is_runtime(before) and is_runtime(after) and before.name == after.name
                    and before.type == after.type)
    try:
        return type(before) is not type(after) or bool(before != after)
    except Exception:  # values without a usable ==
        return before is not after


def _is_jit_function(value: Any) -> bool:
    from ..runtime.jit import JITFunction
    return isinstance(value, JITFunction)


# `tl.static_range` loops with more trips than this become constant-bound
# loops when their index need not be a compile-time constant.
STATIC_RANGE_UNROLL_LIMIT = 128
# Copies of the body in each iteration of such a loop.
STATIC_RANGE_LOOP_UNROLL = 8


class CodeGenerator(ast.NodeVisitor):
    """Emits the IR of one function body into `builder`'s insertion block."""

    def __init__(self, builder: Builder, source: FunctionSource, scope: dict[str, Any],
                 call_site: str | None = None, depth: int = 0,
                 speculative: dict[str, tuple[object, str, Any]] | None = None) -> None:
        self.builder = builder
        # Block arguments of loops whose type was guessed from a number:
        # SSA name -> (the loop's token, the carried name, the number).
        self.speculative = speculative if speculative is not None else {}
        self.source = source
        self.scope = scope
        self.call_site = call_site  # the caller's location when inlined
        self.depth = depth
        self.returned = False
        self.return_value: Any = None
        self.runtime_control_depth = 0  # nesting of scf.if/for/while being emitted

    # -- infrastructure -------------------------------------------------------

    def loc(self, node: ast.AST) -> str:
        here = self.source.loc(node)
        if self.call_site is None:
            return here
        return callsite_loc(here, self.call_site)

    def error(self, node: ast.AST, message: str) -> CompilationError:
        return self.source.error(node, message)

    @contextmanager
    def at(self, node: ast.AST) -> Iterator[None]:
        """Ops emitted inside get the node's location; errors raised inside
        become CompilationErrors located at the node (the innermost wins)."""
        with self.builder.location(self.loc(node)):
            try:
                yield
            except (CompilationError, _Replan):
                raise
            except TileError as exc:
                error = self.error(node, str(exc))
                error.constant_required = isinstance(exc, ConstantRequired)
                raise error from None
            except RecursionError:
                raise self.error(node, "expression nested too deeply") from None
            except Exception as exc:  # a Python error evaluating user code
                raise self.error(node, f"{type(exc).__name__}: {exc}") from None

    def visit(self, node: ast.AST) -> Any:
        if not hasattr(node, "lineno"):
            return super().visit(node)
        with self.at(node):
            return super().visit(node)

    def generic_visit(self, node: ast.AST) -> Any:
        raise TileError(f"unsupported Python syntax in a kernel: {type(node).__name__}")

    def visit_body(self, statements: Sequence[ast.stmt], top_level: bool = False) -> None:
        """Visits statements; `top_level` when they are the rest of the function."""
        for index, statement in enumerate(statements):
            if self.returned:
                break
            if top_level and _is_guard_return(statement):
                # `if cond: ...; return` followed by the rest of the function:
                # the rest is the else branch, so the guard becomes one scf.if.
                self.visit_guard(statement, statements[index + 1:])  # type: ignore[arg-type]
                return
            self.visit(statement)

    def visit_guard(self, node: ast.If, rest: Sequence[ast.stmt]) -> None:
        with self.at(node):
            condition = self.visit(node.test)
            if not is_runtime(condition):
                self.visit_body(node.body if condition else rest, top_level=True)
            else:
                guarded = ast.If(test=node.test, body=node.body[:-1] or [ast.Pass()],
                                 orelse=list(rest))
                ast.copy_location(guarded, node)
                self.visit_if_runtime(guarded, condition, else_is_rest=True)
        self.returned = True

    def lookup(self, name: str) -> Any:
        if name in self.scope:
            return self.scope[name]
        if name in self.source.namespace:
            value = self.source.namespace[name]
            check_global(name, value)
            return unwrap(value)
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise TileError(f"name '{name}' is not defined")

    def runtime_region(self) -> "_RuntimeRegion":
        return _RuntimeRegion(self)

    # -- statements -----------------------------------------------------------

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant):  # docstrings, bare literals
            return
        self.visit(node.value)

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_Assign(self, node: ast.Assign) -> None:
        value = self.visit(node.value)
        for target in node.targets:
            self.assign(target, value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.assign(node.target, self.visit(node.value))

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            raise TileError("only names can be updated in place (blocks have value semantics)")
        current = self.lookup(node.target.id)
        self.scope[node.target.id] = self.binary_operation(node.op, current,
                                                           self.visit(node.value))

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.scope[target.id] = unwrap(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, (tuple, list)) or len(value) != len(target.elts):
                raise TileError(f"cannot unpack {value!r} into {len(target.elts)} names")
            for element, item in zip(target.elts, value):
                self.assign(element, item)
        else:
            raise TileError("only names and tuples of names can be assigned in a kernel "
                            "(blocks are values: there is no x[i] = ... or x.attr = ...)")

    def visit_Return(self, node: ast.Return) -> None:
        if self.runtime_control_depth:
            raise TileError("return inside a runtime if/for/while is not supported; "
                            "assign a variable and return it at the end")
        self.return_value = None if node.value is None else self.visit(node.value)
        self.returned = True

    def visit_Assert(self, node: ast.Assert) -> None:
        condition = self.visit(node.test)
        if not is_runtime(condition) and not condition:
            message = self.visit(node.msg) if node.msg is not None else ""
            raise TileError(f"assertion failed{': ' + str(message) if message else ''}")
        # Runtime assertions (device_assert) are not emitted.

    def visit_Break(self, node: ast.Break) -> None:
        raise TileError("break is not supported in kernels; use a while loop with a condition")

    def visit_Continue(self, node: ast.Continue) -> None:
        raise TileError("continue is not supported in kernels; use an if around the rest "
                        "of the body")

    # -- if -------------------------------------------------------------------

    def visit_If(self, node: ast.If) -> None:
        condition = self.visit(node.test)
        if not is_runtime(condition):  # a constexpr: resolved now, one branch emitted
            self.visit_body(node.body if condition else node.orelse)
            return
        self.visit_if_runtime(node, condition)

    def visit_if_runtime(self, node: ast.If, condition: tensor, else_is_rest: bool = False
                         ) -> None:
        if condition.is_block():
            raise TileError(f"an if condition must be a scalar, got a block of shape "
                            f"{condition.shape}; use tl.where to select elementwise")
        condition = S.to_bool(self.builder, condition)
        with self.runtime_region():
            self.emit_if(node, condition, else_is_rest)

    def emit_if(self, node: ast.If, condition: tensor, else_is_rest: bool = False) -> None:
        b = self.builder
        before = dict(self.scope)
        then_block, then_scope = self.emit_branch(node.body, before)
        else_block, else_scope = self.emit_branch(node.orelse, before, top_level=else_is_rest)
        self.returned = False
        # After a guard the function ends: nothing flows out of the if.
        names = [] if else_is_rest else [
            n for n in then_scope if n in else_scope and
            (_changed(before.get(n, _MISSING), then_scope[n])
             or _changed(before.get(n, _MISSING), else_scope[n]))]
        merged: dict[str, Any] = {}
        yielded: list[tuple[str, tensor, tensor]] = []
        for name in names:
            then_value, else_value = then_scope[name], else_scope[name]
            if not is_runtime(then_value) and not is_runtime(else_value) \
                    and not _changed(then_value, else_value):
                merged[name] = then_value  # the same constant either way
                continue
            with b.insertion_point(then_block):
                then_value = self.as_runtime(name, then_value, else_value)
            with b.insertion_point(else_block):
                else_value = self.as_runtime(name, else_value, then_value)
            if then_value.type != else_value.type:
                self.replan_if_speculative(then_value, else_value.type)
                self.replan_if_speculative(else_value, then_value.type)
                raise TileError(f"'{name}' has type {then_value.type} in the then branch and "
                                f"{else_value.type} in the else branch; they must agree")
            yielded.append((name, then_value, else_value))
        results = b.scf_if(condition.handle, then_block, [t.handle for _, t, _ in yielded],
                           else_block, [e.handle for _, _, e in yielded])
        self.scope = before
        self.scope.update(merged)
        for (name, then_value, else_value), result in zip(yielded, results):
            self.scope[name] = tensor(result)
            for value in (then_value, else_value):
                if value.name in self.speculative:
                    self.speculative[result.name] = self.speculative[value.name]

    def emit_branch(self, statements: Sequence[ast.stmt], before: dict[str, Any],
                    top_level: bool = False) -> tuple[Block, dict[str, Any]]:
        block = Block()
        self.scope = dict(before)
        with self.builder.insertion_point(block):
            self.visit_body(statements, top_level)
        return block, self.scope

    def as_runtime(self, name: str, value: Any, like: Any) -> tensor:
        """A branch or loop value as a runtime value typed like `like` when it is
        a compile-time number (e.g. `x = 0` in one branch, a tensor in the other)."""
        if is_runtime(value):
            return value
        if not isinstance(value, (bool, int, float)):
            raise TileError(f"'{name}' is the compile-time value {value!r} on one path and "
                            "a different value on another; it must be the same on every "
                            "path or a number")
        if is_runtime(like):
            if like.is_block():
                return S.block_constant(self.builder, value, like.type)
            return S.cast(self.builder, S.to_tensor(self.builder, value, like=like), like.dtype)
        if isinstance(like, (bool, int, float)):
            return S.to_tensor(self.builder, value, like=S.to_tensor(self.builder, like))
        return S.to_tensor(self.builder, value)

    # -- loops ----------------------------------------------------------------

    def visit_For(self, node: ast.For) -> None:
        if node.orelse:
            raise TileError("for ... else is not supported in kernels")
        if not isinstance(node.iter, ast.Call):
            raise TileError("a kernel for loop must iterate over range(...), tl.range(...) "
                            "or tl.static_range(...)")
        iterator = self.visit(node.iter)
        if isinstance(iterator, tl.static_range):
            self.unroll(node, iterator)
        elif isinstance(iterator, tl.range):
            if not isinstance(node.target, ast.Name):
                raise TileError("the loop variable must be a single name")
            with self.runtime_region():
                self.emit_for(node, iterator)
        else:
            raise TileError("a kernel for loop must iterate over range(...), tl.range(...) "
                            "or tl.static_range(...)")

    def unroll(self, node: ast.For, loop: tl.static_range) -> None:
        for bound in (loop.start, loop.end, loop.step):
            if not isinstance(bound, int):
                raise ConstantRequired("tl.static_range bounds must be compile-time integers, "
                                f"got {bound!r}")
        if self.try_constant_trip_loop(node, loop):
            return
        for index in builtins.range(loop.start, loop.end, loop.step):
            self.assign(node.target, index)
            self.visit_body(node.body)
            if self.returned:
                raise TileError("return inside tl.static_range is not supported")

    def try_constant_trip_loop(self, node: ast.For, loop: tl.static_range) -> bool:
        """Emits a long `tl.static_range` loop as an `scf.for` with constant
        bounds when its index is only used as a runtime value: the results are
        the same as unrolling here, LLVM still unrolls what pays, and compile
        time stops growing with the trip count (Triton's unrolled K=512 naive
        matmul compiles for minutes). Where the body needs the index as a
        compile-time constant, nothing is kept and the caller unrolls."""
        trips = len(builtins.range(loop.start, loop.end, loop.step))
        if trips <= STATIC_RANGE_UNROLL_LIMIT or not isinstance(node.target, ast.Name):
            return False
        mark = self.builder.mark()
        scope, returned = dict(self.scope), self.returned
        # The loop runs UNROLL copies of the body per iteration (the index
        # advancing by one step per copy); the remaining trips are unrolled
        # here, after the loop.
        main_trips = trips - trips % STATIC_RANGE_LOOP_UNROLL
        main_end = loop.start + main_trips * loop.step
        try:
            with self.runtime_region():
                self.emit_for(self.unrolled_body_loop(node, loop.step), tl.range(
                    loop.start, main_end, loop.step * STATIC_RANGE_LOOP_UNROLL))
        except (TileError, CompilationError):
            self.builder.rollback(mark)
            self.scope, self.returned = scope, returned
            return False
        for index in builtins.range(main_end, loop.end, loop.step):
            self.assign(node.target, index)
            self.visit_body(node.body)
        return True

    @staticmethod
    def unrolled_body_loop(node: ast.For, step: int) -> ast.For:
        """`for k in ...: body` as `for k_base in ...: k = k_base; body;
        k = k_base + step; body; ...` (STATIC_RANGE_LOOP_UNROLL copies), keeping
        the body's source locations for diagnostics."""
        target = node.target.id  # type: ignore[attr-defined]
        base = f"{target}__unroll_base"
        body: list[ast.stmt] = []
        for copy in builtins.range(STATIC_RANGE_LOOP_UNROLL):
            index: ast.expr = ast.Name(id=base, ctx=ast.Load())
            if copy:
                index = ast.BinOp(left=index, op=ast.Add(), right=ast.Constant(copy * step))
            body.append(ast.Assign(targets=[ast.Name(id=target, ctx=ast.Store())],
                                   value=index))
            body.extend(copy_module.deepcopy(node.body))
        loop = ast.For(target=ast.Name(id=base, ctx=ast.Store()), iter=node.iter,
                       body=body, orelse=[])
        for new in ast.walk(loop):
            if not hasattr(new, "lineno"):
                ast.copy_location(new, node)
        return ast.fix_missing_locations(loop)

    def emit_for(self, node: ast.For, loop: tl.range) -> None:
        b = self.builder
        # scf.for counts up: range(start, end, -s) is start - k for k in
        # range(0, start - end, s).
        descending = not is_runtime(loop.step) and loop.step < 0
        bounds = [S.to_tensor(b, v) for v in
                  (loop.start, loop.end, -loop.step if descending else loop.step)]
        for bound in bounds:
            if bound.is_block() or not bound.dtype.is_int():
                raise TileError(f"range bounds must be integer scalars, got {bound.type}")
        iv_type = T.int64 if any(v.dtype.primitive_bitwidth == 64 for v in bounds) \
            else T.int32
        lower, upper, step = (S.cast(b, v, iv_type) for v in bounds)
        start = lower
        if descending:
            upper = S.sub(b, lower, upper)
            lower = S.scalar_constant(b, 0, iv_type)
        target = node.target.id  # type: ignore[attr-defined]

        def emit(loop_plan: _LoopPlan) -> list[Value]:
            body = b.new_block([iv_type] + loop_plan.types())
            with b.insertion_point(body):
                iv = tensor(body.args[0])
                self.scope[target] = S.sub(b, start, iv) if descending else iv
                loop_plan.bind(body.args[1:])
                self.visit_body(node.body)
                yielded = loop_plan.yields(body.args[1:])
            return b.scf_for(lower.handle, upper.handle, step.handle, body,
                             [v.handle for v in loop_plan.inits], yielded)

        self.carried_loop(node.body, emit, exclude=target)

    def visit_While(self, node: ast.While) -> None:
        if node.orelse:
            raise TileError("while ... else is not supported in kernels")
        with self.runtime_region():
            self.emit_while(node)

    def emit_while(self, node: ast.While) -> None:
        b = self.builder

        def emit(loop_plan: _LoopPlan) -> list[Value]:
            types = loop_plan.types()
            before = b.new_block(types)
            loop_plan.bind(before.args)
            with b.insertion_point(before):
                condition = self.visit(node.test)
                if not is_runtime(condition):
                    raise TileError("a while condition must be a runtime value (a loop on a "
                                    "compile-time condition would never end or never run)")
                if condition.is_block():
                    raise TileError("a while condition must be a scalar, not a block")
                condition = S.to_bool(b, condition)
            after = b.new_block(types, labelled=True)
            self.scope = dict(loop_plan.entry)
            loop_plan.bind(after.args)
            with b.insertion_point(after):
                self.visit_body(node.body)
                yielded = loop_plan.yields(after.args)
            return b.scf_while([v.handle for v in loop_plan.inits], before, condition.handle,
                               before.args, after, yielded)

        self.carried_loop(node.body, emit, exclude=None)

    # -- loop-carried values --------------------------------------------------
    #
    # The names a loop may carry are those its body assigns (read from the
    # AST) that exist before the loop. Their types are planned: a runtime
    # value keeps its type; a Python number starts with its literal type
    # (0 -> i32, 0.0 -> f32). The body is emitted once; if it leaves a number
    # with another type (`acc = 0` then `acc += x_f32`, also in a nested loop
    # or branch), or does not change a number (so it can stay a compile-time
    # constant), the loop is emitted again with the corrected plan. A plan
    # only widens or drops names, so a loop is emitted at most a few times
    # whatever its nesting, and compile time is linear in the nesting depth
    # (emitting each body twice to find its carried values was 2^depth).

    def carried_loop(self, body: Sequence[ast.stmt],
                     emit: Callable[["_LoopPlan"], list[Value]], exclude: str | None) -> None:
        b = self.builder
        assigned = _assigned_names(body)
        entry = dict(self.scope)
        plan: dict[str, Any] = {}
        for name, value in entry.items():
            if name == exclude or name not in assigned:
                continue
            if is_runtime(value):
                plan[name] = value.type
            elif isinstance(value, (bool, int, float)):
                plan[name] = S.literal_type(value)
        token = object()
        kept_static: set[str] = set()  # numbers kept constant after a failed attempt
        first_error: Exception | None = None
        for _ in builtins.range(_MAX_LOOP_PLANS):
            mark = b.mark()
            loop_plan = _LoopPlan(self, token, entry, plan)
            try:
                results = emit(loop_plan)
            except _Replan as replan:
                if replan.token is not token:
                    raise
                b.rollback(mark)
                self.scope = dict(entry)
                if kept_static & set(replan.changes) and first_error is not None:
                    first_error.tile_retried = True  # type: ignore[attr-defined]
                    raise first_error from None
                plan = {**plan, **replan.changes}
                plan = {n: t for n, t in plan.items() if t is not None}
                continue
            except (TileError, CompilationError) as exc:
                # A number carried as a runtime value may be one the body needs
                # as a constant (`block = 16` reassigned only in a branch not
                # taken): try once more with the numbers kept constant. An
                # error another loop already retried for is final, so an error
                # costs at most one more emission per loop, not 2^depth.
                numbers = {n for n in plan if not is_runtime(entry[n])} - kept_static
                needs_constant = isinstance(exc, ConstantRequired) or getattr(
                    exc, "constant_required", False)
                if not numbers or first_error is not None or not needs_constant \
                        or getattr(exc, "tile_retried", False):
                    exc.tile_retried = True  # type: ignore[attr-defined]
                    raise
                first_error = exc
                b.rollback(mark)
                self.scope = dict(entry)
                kept_static |= numbers
                plan = {n: t for n, t in plan.items() if n not in numbers}
                continue
            self.scope = entry
            if exclude is not None:
                self.scope.pop(exclude, None)
            for name, init, result in zip(loop_plan.names, loop_plan.inits, results):
                self.scope[name] = tensor(result)
                if init.name in self.speculative:
                    self.speculative[result.name] = self.speculative[init.name]
            return
        raise TileError(f"the types of the values this loop carries ({', '.join(plan)}) do not "
                        "settle; give them their final type before the loop")

    def constant_of_type(self, value: Any, ty: Any) -> tensor:
        """A compile-time number as a runtime value of type `ty`."""
        if isinstance(ty, T.block_type):
            return S.block_constant(self.builder, value, ty)
        return S.cast(self.builder, S.to_tensor_of(self.builder, value, ty), ty)

    def mark_speculative(self, value: Value, source: Any, guess: tuple[object, str]) -> None:
        """`value` stands for `source` (an initial value, or the value flowing
        into an scf result): it is speculative when `source` is a number the
        loop `guess` names (token, carried name) or is speculative itself, so
        a type clash in a nested loop or branch re-plans the outermost guess."""
        if not is_runtime(source):
            self.speculative[value.name] = (*guess, source)
        elif source.name in self.speculative:
            self.speculative[value.name] = self.speculative[source.name]

    def replan_if_speculative(self, value: Any, other_type: Any) -> None:
        """`value` meets a value of `other_type` where their types must agree:
        if it is the block argument of a loop that guessed its type from a
        number, that loop is emitted again with a type holding both."""
        if not is_runtime(value) or value.name not in self.speculative:
            return
        token, name, was_number = self.speculative[value.name]
        if isinstance(other_type, T.block_type) and not value.is_block():
            raise TileError(f"'{name}' starts as the number {was_number!r} and becomes a "
                            f"block of shape {list(other_type.shape)} in the loop; initialize "
                            "it with tl.zeros/tl.full")
        if value.dtype.is_ptr() or other_type.scalar.is_ptr():
            return
        raise _Replan(token, {name: _widened(value.type, other_type.scalar)})

    def loop_yields(self, loop_plan: "_LoopPlan", args: Sequence[Value]) -> list[Value]:
        """What one iteration yields for the carried names, checked against
        the plan; raises _Replan when the plan must change."""
        plan, entry = loop_plan.plan, loop_plan.entry
        changes: dict[str, Any] = {}
        for name, value in self.scope.items():  # names the loop does not carry
            if name in entry and name not in plan and _changed(entry[name], value):
                if isinstance(entry[name], (bool, int, float)):  # it must be carried
                    changes[name] = S.literal_type(entry[name])
                    continue
                raise TileError(f"the loop changes the compile-time value '{name}' "
                                f"({entry[name]!r}); only numbers and runtime values can be "
                                "updated in a loop")
        yielded: list[tensor] = []
        for name, init, arg in zip(loop_plan.names, loop_plan.inits, args):
            value, initial, planned = self.scope[name], entry[name], plan[name]
            was_number = not is_runtime(initial)
            if is_runtime(value) and value.name == arg.name:
                if was_number:  # never changed: it can stay a compile-time number
                    changes[name] = None
                yielded.append(value)
                continue
            if not is_runtime(value):
                if not isinstance(value, (bool, int, float)):
                    raise TileError(f"'{name}' becomes the compile-time value {value!r} in the "
                                    "loop; only numbers and runtime values can be carried")
                if was_number and type(value) is type(initial) and value == initial:
                    changes[name] = None  # assigned its own value: still a constant
                    yielded.append(init)
                    continue
                if not planned.scalar.is_ptr():
                    literal = S.literal_type_next_to(value, planned.scalar)
                    if literal != planned.scalar:
                        changes[name] = _widened(planned, literal)
                        yielded.append(init)
                        continue
                value = self.constant_of_type(value, planned)
            if value.type != planned:
                if not was_number:
                    self.replan_if_speculative(init, value.type)
                    raise TileError(f"loop-carried '{name}' has type {planned} before the loop "
                                    f"and {value.type} after an iteration; cast it with .to()")
                if value.is_block() and not isinstance(planned, T.block_type):
                    raise TileError(f"'{name}' starts as the number {initial!r} and becomes a "
                                    f"block of shape {value.shape} in the loop; initialize it "
                                    "with tl.zeros/tl.full")
                changes[name] = value.type
            yielded.append(value)
        if changes:
            raise _Replan(loop_plan.token, changes)
        return [v.handle for v in yielded]

    # -- expressions ----------------------------------------------------------

    def visit_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def visit_Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id)

    def visit_Tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return tuple(self.visit(e) for e in node.elts)

    def visit_List(self, node: ast.List) -> list[Any]:
        return [self.visit(e) for e in node.elts]

    def visit_JoinedStr(self, node: ast.JoinedStr) -> str:
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                item = self.visit(value.value)  # type: ignore[attr-defined]
                parts.append(repr(item) if is_runtime(item) else format(item))
        return "".join(parts)

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        return self.binary_operation(node.op, self.visit(node.left), self.visit(node.right))

    def binary_operation(self, op: ast.operator, left: Any, right: Any) -> Any:
        if not is_runtime(left) and not is_runtime(right):
            return _PYTHON_BINARY_OPS[type(op)](left, right)
        if type(op) not in _BINARY_OPS:
            raise TileError(f"operator {type(op).__name__} is not supported on blocks")
        return _BINARY_OPS[type(op)](self.builder, left, right)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        operand = self.visit(node.operand)
        if not is_runtime(operand):
            return {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos,
                    ast.Invert: operator.invert}[type(node.op)](operand)
        if isinstance(node.op, ast.USub):
            return S.minus(self.builder, operand)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.Invert):
            return S.invert(self.builder, operand)
        return S.logical_not(self.builder, operand)

    def visit_Compare(self, node: ast.Compare) -> Any:
        operands = [self.visit(node.left)] + [self.visit(c) for c in node.comparators]
        if len(node.ops) > 1:
            if any(is_runtime(v) for v in operands):
                text = ast.get_source_segment(self.source_segment_text, node) or "a < b < c"
                raise TileError(
                    f"chained comparison `{text}` on runtime values is not supported. "
                    "Note: & and | bind tighter than comparisons, so `offs_m < M & offs_n < N` "
                    "means the chained `offs_m < (M & offs_n) < N`; write "
                    "`(offs_m < M) & (offs_n < N)`")
            return all(_PYTHON_COMPARE_OPS[type(op)](a, c) for op, a, c
                       in zip(node.ops, operands, operands[1:]))
        left, right = operands
        op = type(node.ops[0])
        if op in (ast.In, ast.NotIn):
            return self.membership(left, right, negate=op is ast.NotIn)
        if op in (ast.Is, ast.IsNot):  # about Python objects (`x is None`)
            if is_runtime(left) and is_runtime(right):
                raise TileError("`is` between two runtime values compares Python objects, not "
                                "their values; use ==")
            return _PYTHON_COMPARE_OPS[op](left, right)
        if not is_runtime(left) and not is_runtime(right):
            if _holds_runtime(left) or _holds_runtime(right):
                raise TileError("comparing tuples that hold runtime values is not supported; "
                                "compare their elements")
            return _PYTHON_COMPARE_OPS[op](left, right)
        if op not in _COMPARE_PREDICATES:
            raise TileError(f"{op.__name__} comparison is not supported on runtime values")
        return S.compare(self.builder, _COMPARE_PREDICATES[op], left, right)

    def membership(self, item: Any, container: Any, negate: bool) -> Any:
        """`item in container`: Python's on compile-time values; with runtime
        values, the OR of `item == element` over a tuple or list."""
        if is_runtime(container):
            raise TileError("`in` on a runtime value is not supported; compare with == "
                            "and combine with |")
        if not is_runtime(item) and not _holds_runtime(container):
            return (item not in container) if negate else (item in container)
        if not isinstance(container, (tuple, list)):
            raise TileError("`in` with a runtime value needs a tuple or list of values, got "
                            f"{type(container).__name__}")
        b = self.builder
        result: Any = False
        for element in container:
            equal = S.compare(b, "eq", item, element)
            result = equal if result is False else S.bitwise(b, "ori", result, equal)
        if result is False:  # an empty container
            return negate
        return S.logical_not(b, result) if negate else result

    @property
    def source_segment_text(self) -> str:
        """The text the AST was parsed from (node offsets refer to it)."""
        return textwrap.dedent(self.source.text)

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        is_and = isinstance(node.op, ast.And)
        result = self.visit(node.values[0])
        for value_node in node.values[1:]:
            if not is_runtime(result):
                if bool(result) != is_and:  # Python's short circuit
                    return result
                result = self.visit(value_node)
                continue
            right = self.visit(value_node)
            for value in (result, right):
                if is_runtime(value) and value.is_block():
                    raise TileError("`and`/`or` on blocks is ambiguous; use & and | with "
                                    "parentheses, e.g. (a < b) & (c < d)")
            left = S.to_bool(self.builder, result)
            right = S.to_bool(self.builder, S.to_tensor(self.builder, right))
            result = S.bitwise(self.builder, "andi" if is_and else "ori", left, right)
        return result

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        condition = self.visit(node.test)
        if not is_runtime(condition):
            return self.visit(node.body if condition else node.orelse)
        return S.where(self.builder, condition, self.visit(node.body), self.visit(node.orelse))

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        value = self.visit(node.value)
        if is_runtime(value) and node.attr == "T":
            return S.trans(self.builder, value, None)
        if isinstance(value, (bool, int, float)) and node.attr in ("to", "dtype"):
            return tl.constant_attribute(value, node.attr)
        return unwrap(getattr(value, node.attr))

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        value = self.visit(node.value)
        if not is_runtime(value):
            return unwrap(value[self.visit(node.slice)])
        index = node.slice
        entries = list(index.elts) if isinstance(index, ast.Tuple) else [index]
        result, axis = value, 0
        for entry in entries:
            if isinstance(entry, ast.Constant) and entry.value is None:
                result = S.expand_dims(self.builder, result, axis)
            elif isinstance(entry, ast.Slice) and entry.lower is None and entry.upper is None \
                    and entry.step is None:
                pass
            else:
                raise TileError("blocks can only be indexed with `:` and `None` "
                                "(e.g. x[:, None]); there is no element access")
            axis += 1
        kept = sum(1 for e in entries if isinstance(e, ast.Slice))
        if kept != len(value.shape):
            raise TileError(f"index has {kept} `:` entries but the block has rank "
                            f"{len(value.shape)}")
        return result

    def visit_Starred(self, node: ast.Starred) -> Any:
        return self.visit(node.value)

    def visit_Call(self, node: ast.Call) -> Any:
        fn = self.visit(node.func)
        args: list[Any] = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                args.extend(self.visit(arg.value))
            else:
                args.append(self.visit(arg))
        kwargs = {kw.arg: self.visit(kw.value) for kw in node.keywords if kw.arg is not None}
        args = [unwrap(a) for a in args]
        kwargs = {k: unwrap(v) for k, v in kwargs.items()}
        if _is_jit_function(fn):
            return self.call_jit(fn, args, kwargs, node)
        if fn is builtins.range:  # a runtime loop in a kernel, as Triton
            fn = tl.range
        if fn in (tl.range, tl.static_range):
            return fn(*args, **kwargs)
        if tl.is_builtin(fn):
            self.builder.call_jit = lambda f, a: self.call_jit(f, a, {}, node)
            return fn(*args, **kwargs, _builder=self.builder)
        if fn in (builtins.min, builtins.max) and any(is_runtime(a) for a in args):
            which = "min" if fn is builtins.min else "max"
            result = args[0]
            for other in args[1:]:
                result = S.minmax(self.builder, which, result, other)
            return result
        if any(is_runtime(a) for a in list(args) + list(kwargs.values())):
            name = getattr(fn, "__qualname__", repr(fn))
            raise TileError(f"cannot call the Python function {name} on runtime values; "
                            "decorate it with @tile.jit or use a tl builtin")
        return unwrap(fn(*args, **kwargs))

    def call_jit(self, fn: Any, args: list[Any], kwargs: dict[str, Any],
                 node: ast.AST) -> Any:
        """Inlines a @tile.jit function: binds its parameters and walks its body."""
        if self.depth >= _MAX_INLINE_DEPTH:
            raise TileError(f"calls nested more than {_MAX_INLINE_DEPTH} deep (recursion?)")
        try:
            bound = inspect.signature(fn.fn).bind(*args, **kwargs)
        except TypeError as exc:
            raise TileError(f"{fn.__name__}(): {exc}") from None
        bound.apply_defaults()
        scope = {name: unwrap(value) for name, value in bound.arguments.items()}
        for name in fn.constexpr_names:
            if is_runtime(scope.get(name)):
                raise TileError(f"argument '{name}' of {fn.__name__} is a tl.constexpr, but a "
                                "runtime value was passed")
        callee = CodeGenerator(self.builder, fn.source(), scope, call_site=self.loc(node),
                               depth=self.depth + 1, speculative=self.speculative)
        saved_hook = getattr(self.builder, "call_jit", None)
        callee.visit_body(callee.source.tree.body, top_level=True)
        self.builder.call_jit = saved_hook
        return callee.return_value

    # Unsupported syntax with a clear name.
    def visit_Lambda(self, node: ast.Lambda) -> Any:
        raise TileError("lambda is not supported in kernels; define a @tile.jit function")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> Any:
        raise TileError("nested function definitions are not supported in kernels; "
                        "define a @tile.jit function at module level")

    def visit_ListComp(self, node: ast.ListComp) -> Any:
        raise TileError("comprehensions are not supported in kernels; use tl.static_range")


class _RuntimeRegion:
    """Marks code emitted inside scf regions (where `return` is not allowed)."""

    def __init__(self, generator: CodeGenerator) -> None:
        self.generator = generator

    def __enter__(self) -> None:
        self.generator.runtime_control_depth += 1

    def __exit__(self, *exc: Any) -> None:
        self.generator.runtime_control_depth -= 1


# Emissions of one loop before its carried types must have settled.
_MAX_LOOP_PLANS = 8


class _Replan(Exception):
    """Raised when a loop's carried types must change: `changes` maps names
    to their new type (None: not carried, a compile-time constant)."""

    def __init__(self, token: object, changes: dict[str, Any]) -> None:
        super().__init__("loop re-planned")
        self.token = token
        self.changes = changes


class _LoopPlan:
    """One emission of a loop: the carried names, their planned types and
    initial values (constants emitted before the loop for numbers)."""

    def __init__(self, generator: CodeGenerator, token: object, entry: dict[str, Any],
                 plan: dict[str, Any]) -> None:
        self.generator = generator
        self.token = token
        self.entry = entry
        self.plan = plan
        self.names = list(plan)
        self.inits = [entry[n] if is_runtime(entry[n]) else
                      generator.constant_of_type(entry[n], plan[n]) for n in self.names]

    def types(self) -> list[Any]:
        return [v.type for v in self.inits]

    def bind(self, args: Sequence[Value]) -> None:
        """Binds the carried names to block arguments; those whose type was
        guessed from a number are marked speculative (see replan_if_speculative)."""
        for name, arg in zip(self.names, args):
            self.generator.scope[name] = tensor(arg)
            self.generator.mark_speculative(arg, self.entry[name], (self.token, name))

    def yields(self, args: Sequence[Value]) -> list[Value]:
        return self.generator.loop_yields(self, args)


def _widened(planned: Any, literal: Any) -> Any:
    """The type a carried number needs to hold a value of type `literal` too."""
    scalar = S.computation_type(planned.scalar, literal, False)
    return T.block_type(scalar, planned.shape) if isinstance(planned, T.block_type) else scalar


def _assigned_names(body: Sequence[ast.stmt]) -> set[str]:
    """Every name a statement list may assign, at any depth (read from the AST)."""
    names: set[str] = set()
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


def _holds_runtime(value: Any) -> bool:
    if isinstance(value, (tuple, list)):
        return any(_holds_runtime(v) for v in value)
    return is_runtime(value)


def _is_guard_return(statement: ast.stmt) -> bool:
    """`if cond: ... return` (a bare return ending the branch, no else)."""
    return (isinstance(statement, ast.If) and not statement.orelse and bool(statement.body)
            and isinstance(statement.body[-1], ast.Return) and statement.body[-1].value is None)
