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

from ..errors import (CompilationError, CompileTimeAssertionFailure, ConstantRequired,
                      StaticAssertionError, TileError)
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
        self.loops: list[_LoopExits] = []  # the loops being emitted, innermost last
        self.loop_counter = 0  # names their hidden flags
        self.return_flag: str | None = None  # set by run_function when the body returns
        self.value_returns = False

    # -- infrastructure -------------------------------------------------------

    def loc(self, node: ast.AST) -> str:
        here = self.source.loc(node)
        if self.call_site is None:
            return here
        return callsite_loc(here, self.call_site)

    def error(self, node: ast.AST, message: str,
              kind: type[CompilationError] = CompilationError) -> CompilationError:
        return self.source.error(node, message, kind)

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
                kind = CompileTimeAssertionFailure if isinstance(exc, StaticAssertionError) \
                    else CompilationError
                error = self.error(node, str(exc), kind)
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
        if isinstance(node.value, ast.Call):
            self.check_result_used(node.value)
        value = self.visit(node.value)
        # `tl.multiple_of(x, 16)` as a statement states a fact about `x` itself:
        # Triton sets it on x's defining op, so every later use of x has it
        # (tutorial 08 writes its hints so). Here x's name takes the hinted value.
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, (ast.Name, ast.Attribute)) \
                and call.args and isinstance(call.args[0], ast.Name) and is_runtime(value) \
                and self.visit(call.func) in (tl.multiple_of, tl.max_contiguous, tl.max_constancy):
            self.assign(call.args[0], value)

    def check_result_used(self, call: ast.Call) -> None:
        """A call as a statement of a function marked `@triton.must_use_result`
        (tl.advance, ...) is an error, as in Triton."""
        base = call.func
        while isinstance(base, ast.Attribute):
            base = base.value
        if not isinstance(base, ast.Name):  # (visiting `f(x).g` twice would emit f twice)
            return
        with self.at(call):
            reason = getattr(self.visit(call.func), "_must_use_result", False)
            if reason:
                message = f"The result of {ast.unparse(call.func)} is not being used."
                raise TileError(message + (f" {reason}" if isinstance(reason, str) else ""))

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
        if not isinstance(node.target, (ast.Name, ast.Subscript)):
            raise TileError("only names and tuple elements can be updated in place")
        load = copy_module.copy(node.target)
        load.ctx = ast.Load()
        current = self.visit(load)
        self.assign(node.target, self.binary_operation(node.op, current,
                                                       self.visit(node.value)))

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.scope[target.id] = unwrap(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, (tuple, list)) or len(value) != len(target.elts):
                raise TileError(f"cannot unpack {_describe(value)} into {len(target.elts)} "
                                "names")
            for element, item in zip(target.elts, value):
                self.assign(element, item)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                and isinstance(self.lookup(target.value.id), tuple):
            # `t[i] = v` on a tuple: t becomes a new tuple (as in Triton).
            items = list(self.lookup(target.value.id))
            index = unwrap(self.visit(target.slice))
            if isinstance(index, bool) or not isinstance(index, int):
                raise TileError(f"a tuple index must be a compile-time integer, got {index!r}")
            if not -len(items) <= index < len(items):
                raise TileError(f"tuple index {index} is out of range for a tuple of "
                                f"{len(items)}")
            items[index] = unwrap(value)
            old = self.lookup(target.value.id)
            self.scope[target.value.id] = _rebuild_tuple(old, items)
        else:
            raise TileError(S.NOT_ASSIGNABLE)

    def visit_body(self, statements: Sequence[ast.stmt], top_level: bool = False) -> None:
        """Visits statements; `top_level` when they are the rest of the function.

        After a statement that may `break`, `continue` or `return` through
        runtime control flow, the rest runs only where no exit was taken: it
        is emitted under `if not (exit flags)` (or dropped when an exit is
        certain, or kept as is when none can have happened)."""
        for index, statement in enumerate(statements):
            if self.returned:
                break
            if top_level and not self.value_returns and _is_guard_return(statement):
                # `if cond: ...; return` followed by the rest of the function:
                # the rest is the else branch, so the guard becomes one scf.if.
                self.visit_guard(statement, statements[index + 1:])  # type: ignore[arg-type]
                return
            self.visit(statement)
            if not _may_exit(statement):
                continue
            with self.at(statement):
                pending = self.pending_exit(include_continue=True)
                if pending is False:
                    continue
                if pending is not True and statements[index + 1:]:
                    rest = statements[index + 1:]
                    self.unless_exited(pending, lambda: self.visit_body(rest, top_level))
            return

    def unless_exited(self, pending: tensor, emit_rest: Callable[[], None]) -> None:
        """Emits the rest of a body (`emit_rest`) where no exit was taken."""
        with self.runtime_region():
            self.emit_if_fn(S.logical_not(self.builder, pending), emit_rest, lambda: None)

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

    # -- exits: break, continue, return through runtime control flow ----------

    def run_function(self, tree: ast.FunctionDef) -> Any:
        """Emits a function body; returns its return value (None if none)."""
        self.value_returns = any(isinstance(n, ast.Return) and n.value is not None
                                 for n in _walk_function(tree))
        if any(isinstance(n, ast.Return) for n in _walk_function(tree)):
            self.return_flag = _RETURNED
            self.scope[_RETURNED] = False
            self.scope[_RETURN_VALUE] = _NO_VALUE
        self.visit_body(tree.body, top_level=True)
        if self.returned or self.return_flag is None:
            return self.return_value
        value = self.scope.get(_RETURN_VALUE, _NO_VALUE)
        if value is _NO_VALUE:
            return None
        if self.scope.get(_RETURNED) is not True and not _always_returns(tree.body):
            raise TileError("this function returns a value on some paths but reaches its end "
                            "on others; end it with a return")
        return value

    def pending_exit(self, include_continue: bool) -> Any:
        """Whether an exit was taken: True, False, or a runtime i1."""
        flags = [self.return_flag]
        if self.loops:
            flags.append(self.loops[-1].break_flag)
            if include_continue:
                flags.append(self.loops[-1].continue_flag)
        values = [self.scope.get(f, False) for f in flags if f is not None]
        if any(v is True for v in values):
            return True
        runtime = [v for v in values if is_runtime(v)]
        if not runtime:
            return False
        result = runtime[0]
        for value in runtime[1:]:
            result = S.bitwise(self.builder, "ori", result, value)
        return result

    def visit_Return(self, node: ast.Return) -> None:
        value = None if node.value is None else self.visit(node.value)
        if not self.runtime_control_depth:  # a compile-time return: the function ends here
            self.return_value = value
            self.returned = True
            return
        # Inside runtime control flow: the return sets a flag that ends the
        # loops around it and skips the rest (see visit_body).
        self.scope[_RETURNED] = True
        if value is not None:
            self.scope[_RETURN_VALUE] = value

    def visit_Break(self, node: ast.Break) -> None:
        self.scope[self.innermost_loop("break").break_flag] = True  # type: ignore[index]

    def visit_Continue(self, node: ast.Continue) -> None:
        self.scope[self.innermost_loop("continue").continue_flag] = True  # type: ignore[index]

    def innermost_loop(self, what: str) -> "_LoopExits":
        if not self.loops:
            raise TileError(f"{what} outside a loop")
        return self.loops[-1]

    def visit_Assert(self, node: ast.Assert) -> None:
        condition = self.visit(node.test)
        message = unwrap(self.visit(node.msg)) if node.msg is not None else ""
        if not is_runtime(condition):
            if not condition:
                raise TileError(f"assertion failed{': ' + str(message) if message else ''}")
            return
        # A runtime condition is tl.device_assert: checked only with debugging on.
        tl.device_assert(condition, str(message), _builder=self.builder)

    # -- if -------------------------------------------------------------------

    def visit_If(self, node: ast.If) -> None:
        condition = self.visit(node.test)
        if not is_runtime(condition):  # a constexpr: resolved now, one branch emitted
            self.visit_body(node.body if condition else node.orelse)
            return
        self.visit_if_runtime(node, condition)

    def scalar_condition(self, condition: tensor, what: str) -> tensor:
        """A branch's or loop's condition: a scalar, or as in Triton a block of
        one element (its element)."""
        if not condition.is_block():
            return condition
        if condition.numel == 1:
            return tl.item(condition, _builder=self.builder)
        raise TileError(f"{what} condition must be a scalar, got a block of shape "
                        f"{list(condition.shape)}; use tl.where to select elementwise")

    def visit_if_runtime(self, node: ast.If, condition: tensor, else_is_rest: bool = False
                         ) -> None:
        condition = S.to_bool(self.builder, self.scalar_condition(condition, "an if"))
        with self.runtime_region():
            self.emit_if_fn(condition, lambda: self.visit_body(node.body),
                            lambda: self.visit_body(node.orelse, top_level=else_is_rest),
                            merge=not else_is_rest)

    def emit_if_fn(self, condition: tensor, then_fn: Callable[[], None],
                   else_fn: Callable[[], None], merge: bool = True) -> None:
        """An scf.if whose branches `then_fn` and `else_fn` emit; the names
        they change flow out (tuples element by element). Without `merge`
        (a guard's else is the rest of the function) nothing flows out."""
        b = self.builder
        before = dict(self.scope)
        returned = self.returned
        then_block, then_scope = self.emit_branch(then_fn, before)
        self.returned = returned
        else_block, else_scope = self.emit_branch(else_fn, before)
        self.returned = returned
        names = [] if not merge else [
            n for n in then_scope if n in else_scope and
            (_changed(before.get(n, _MISSING), then_scope[n])
             or _changed(before.get(n, _MISSING), else_scope[n]))]
        yielded: list[tuple[str, tensor, tensor]] = []
        rebuild = {name: self.merge_values(name, then_scope[name], else_scope[name],
                                           then_block, else_block, yielded) for name in names}
        results = b.scf_if(condition.handle, then_block, [t.handle for _, t, _ in yielded],
                           else_block, [e.handle for _, _, e in yielded])
        self.scope = before
        for (_, then_value, else_value), result in zip(yielded, results):
            for value in (then_value, else_value):
                if value.name in self.speculative:
                    self.speculative[result.name] = self.speculative[value.name]
        values = iter(results)
        for name, make in rebuild.items():
            self.scope[name] = make(values)

    def merge_values(self, name: str, then_value: Any, else_value: Any, then_block: Block,
                     else_block: Block, yielded: list[tuple[str, tensor, tensor]]
                     ) -> Callable[[Iterator[Value]], Any]:
        """Plans how a name's values from two branches meet: adds the runtime
        pairs to `yielded`; returns what rebuilds the value from the results."""
        if isinstance(then_value, tuple) or isinstance(else_value, tuple):
            length = len(then_value) if isinstance(then_value, tuple) else len(else_value)
            then_items = then_value if then_value is not _NO_VALUE else (_NO_VALUE,) * length
            else_items = else_value if else_value is not _NO_VALUE else (_NO_VALUE,) * length
            if not isinstance(then_items, tuple) or not isinstance(else_items, tuple) \
                    or len(then_items) != len(else_items):
                raise TileError(f"'{_display(name)}' is {_describe(then_value)} in the then "
                                f"branch and {_describe(else_value)} in the else branch; they "
                                "must agree")
            parts = [self.merge_values(f"{name}[{i}]", t, e, then_block, else_block, yielded)
                     for i, (t, e) in enumerate(zip(then_items, else_items))]
            template = then_value if isinstance(then_value, tuple) else else_value
            return lambda results: _rebuild_tuple(template, [part(results) for part in parts])
        if not is_runtime(then_value) and not is_runtime(else_value) \
                and not _changed(then_value, else_value):
            return lambda results: then_value  # the same constant either way
        if is_runtime(then_value) and is_runtime(else_value) \
                and then_value.name == else_value.name:
            return lambda results: then_value  # the same value either way
        b = self.builder
        with b.insertion_point(then_block):
            then_value = self.as_runtime(name, then_value, else_value)
        with b.insertion_point(else_block):
            else_value = self.as_runtime(name, else_value, then_value)
        if then_value.type != else_value.type:
            self.replan_if_speculative(then_value, else_value.type)
            self.replan_if_speculative(else_value, then_value.type)
            if name == _RETURN_VALUE:  # (Triton's words begin both messages)
                raise TileError(f"Return type mismatch: the function returns {then_value.type} "
                                f"on one path and {else_value.type} on another")
            raise TileError(f"Mismatched type for {_display(name)}: '{_display(name)}' has type "
                            f"{then_value.type} in the then branch and {else_value.type} in "
                            "the else branch; they must agree")
        yielded.append((name, then_value, else_value))
        return lambda results: tensor(next(results))

    def emit_branch(self, fn: Callable[[], None], before: dict[str, Any]
                    ) -> tuple[Block, dict[str, Any]]:
        block = Block()
        self.scope = dict(before)
        with self.builder.insertion_point(block):
            fn()
        return block, self.scope

    def as_runtime(self, name: str, value: Any, like: Any) -> tensor:
        """A branch or loop value as a runtime value typed like `like` when it is
        a compile-time number (e.g. `x = 0` in one branch, a tensor in the other),
        or has no value yet on this path (a return value, a flag)."""
        if is_runtime(value):
            return value
        if value is _NO_VALUE and is_runtime(like):
            # The other path returned `like`; this one has not returned: any
            # value of the type will do (it is never used).
            return self.constant_of_type(0, like.type)
        if not isinstance(value, (bool, int, float)):
            raise TileError(f"'{_display(name)}' is the compile-time value {value!r} on one "
                            "path and a different value on another; it must be the same on "
                            "every path or a number")
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

    @contextmanager
    def loop_exits(self, body: Sequence[ast.stmt]) -> Iterator["_LoopExits"]:
        """The break/continue flags of a loop whose body is `body` (names only
        where the body uses them), in force while it is emitted."""
        self.loop_counter += 1
        exits = _LoopExits(
            f"__tile_break{self.loop_counter}" if _uses(body, ast.Break) else None,
            f"__tile_continue{self.loop_counter}" if _uses(body, ast.Continue) else None)
        if exits.break_flag:
            self.scope[exits.break_flag] = False
        self.loops.append(exits)
        try:
            yield exits
        finally:
            self.loops.pop()
        for flag in (exits.break_flag, exits.continue_flag):
            if flag is not None:
                self.scope.pop(flag, None)

    def unroll(self, node: ast.For, loop: tl.static_range) -> None:
        for bound in (loop.start, loop.end, loop.step):
            if not isinstance(bound, int):
                raise ConstantRequired("tl.static_range bounds must be compile-time integers, "
                                       f"got {bound!r}")
        if self.try_constant_trip_loop(node, loop):
            return
        with self.loop_exits(node.body) as exits:
            self.unroll_iterations(node, list(builtins.range(loop.start, loop.end, loop.step)),
                                   exits)

    def unroll_iterations(self, node: ast.For, indices: list[int], exits: "_LoopExits") -> None:
        for position, index in enumerate(indices):
            self.assign(node.target, index)
            if exits.continue_flag:
                self.scope[exits.continue_flag] = False
            self.visit_body(node.body)
            if self.returned:
                return
            pending = self.pending_exit(include_continue=False)
            if pending is True:
                return
            if pending is not False and indices[position + 1:]:
                rest = indices[position + 1:]
                self.unless_exited(pending, lambda: self.unroll_iterations(node, rest, exits))
                return

    def try_constant_trip_loop(self, node: ast.For, loop: tl.static_range) -> bool:
        """Emits a long `tl.static_range` loop as an `scf.for` with constant
        bounds when its index is only used as a runtime value: the results are
        the same as unrolling here, LLVM still unrolls what pays, and compile
        time stops growing with the trip count (Triton's unrolled K=512 naive
        matmul compiles for minutes). Where the body needs the index as a
        compile-time constant, nothing is kept and the caller unrolls."""
        trips = len(builtins.range(loop.start, loop.end, loop.step))
        if trips <= STATIC_RANGE_UNROLL_LIMIT or not isinstance(node.target, ast.Name) \
                or any(_uses(node.body, kind) for kind in (ast.Break, ast.Continue, ast.Return)):
            return False  # (exits in a rolled copy would skip the copies after it)
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

        def bind_target(counter: tensor) -> None:
            self.scope[target] = S.sub(b, start, counter) if descending else counter

        with self.loop_exits(node.body) as exits:
            if exits.break_flag or _uses(node.body, ast.Return):
                # A loop that can end early is an scf.while on a counter.
                self.emit_counted_while(node, lower, upper, step, bind_target, exits)
                self.scope.pop(target, None)
                return

            def emit(loop_plan: _LoopPlan) -> list[Value]:
                body = b.new_block([iv_type] + loop_plan.types())
                with b.insertion_point(body):
                    bind_target(tensor(body.args[0]))
                    loop_plan.bind(body.args[1:])
                    if exits.continue_flag:
                        self.scope[exits.continue_flag] = False
                    self.visit_body(node.body)
                    yielded = loop_plan.yields(body.args[1:])
                return b.scf_for(lower.handle, upper.handle, step.handle, body,
                                 [v.handle for v in loop_plan.inits], yielded,
                                 num_stages=loop.num_stages,
                                 loop_unroll_factor=loop.loop_unroll_factor)

            self.carried_loop(node.body, emit, exclude=target)

    def emit_counted_while(self, node: ast.For, lower: tensor, upper: tensor, step: tensor,
                           bind_target: Callable[[tensor], None], exits: "_LoopExits") -> None:
        """`for` as an scf.while loop on a counter: it runs while the counter is
        below `upper` and no break or return was taken."""
        b = self.builder
        counter = f"__tile_counter{self.loop_counter}"
        self.scope[counter] = lower

        def emit(loop_plan: _LoopPlan) -> list[Value]:
            types = loop_plan.types()
            before = b.new_block(types)
            loop_plan.bind(before.args)
            with b.insertion_point(before):
                condition = self.loop_condition(
                    lambda: S.compare(b, "lt", self.scope[counter], upper))
            after = b.new_block(types, labelled=True)
            self.scope = dict(loop_plan.entry_scope)
            loop_plan.bind(after.args)
            with b.insertion_point(after):
                current = self.scope[counter]
                bind_target(current)
                if exits.continue_flag:
                    self.scope[exits.continue_flag] = False
                self.visit_body(node.body)
                self.scope[counter] = S.add(b, current, step)
                yielded = loop_plan.yields(after.args)
            return b.scf_while([v.handle for v in loop_plan.inits], before, condition.handle,
                               before.args, after, yielded)

        self.carried_loop(node.body, emit, exclude=None, also={counter})
        self.scope.pop(counter, None)

    def loop_condition(self, condition_fn: Callable[[], Any], exits_by_itself: bool = False
                       ) -> tensor:
        """A loop's condition in its before region, false once a break or a
        return was taken (the user's condition is then not evaluated: it may
        load out of bounds). `exits_by_itself`: the body has a `break` or
        `return` of this loop, so a condition that is always true
        (`while True:`) is allowed: the loop runs until one is taken."""
        b = self.builder
        exited = self.pending_exit(include_continue=False)
        if exited is True:
            return S.scalar_constant(b, False, T.int1)

        def user_condition() -> tensor:
            condition = condition_fn()
            if not is_runtime(condition):
                return S.scalar_constant(b, constant_condition(condition), T.int1)
            return S.to_bool(b, self.scalar_condition(condition, "a while"))

        def constant_condition(condition: Any) -> bool:
            try:
                truth = bool(unwrap(condition))
            except Exception:  # noqa: BLE001 - an object Python cannot test
                raise TileError(f"a while condition must be a runtime value or a "
                                f"compile-time bool, got {condition!r}") from None
            if not truth:
                raise TileError("this while condition is false at compile time: the loop "
                                "would never run (a while condition must be a runtime value, "
                                "or true with a `break` or `return` in the loop)")
            if not exits_by_itself:
                raise TileError("this while condition is true at compile time and the loop "
                                "has no `break` or `return`: it would never end")
            return True

        if exited is False:
            return user_condition()
        then_block, else_block = Block(), Block()
        with b.insertion_point(then_block):
            done = S.scalar_constant(b, False, T.int1)
        with b.insertion_point(else_block):
            going = user_condition()
        return tensor(b.scf_if(exited.handle, then_block, [done.handle], else_block,
                               [going.handle])[0])

    def visit_While(self, node: ast.While) -> None:
        if node.orelse:
            raise TileError("while ... else is not supported in kernels")
        with self.runtime_region(), self.loop_exits(node.body) as exits:
            self.emit_while(node, exits)

    def emit_while(self, node: ast.While, exits: "_LoopExits") -> None:
        b = self.builder
        exits_by_itself = _uses(node.body, ast.Break) or _uses(node.body, ast.Return)

        def emit(loop_plan: _LoopPlan) -> list[Value]:
            types = loop_plan.types()
            before = b.new_block(types)
            loop_plan.bind(before.args)
            with b.insertion_point(before):
                condition = self.loop_condition(lambda: self.visit(node.test),
                                                exits_by_itself)
            after = b.new_block(types, labelled=True)
            self.scope = dict(loop_plan.entry_scope)
            loop_plan.bind(after.args)
            with b.insertion_point(after):
                if exits.continue_flag:
                    self.scope[exits.continue_flag] = False
                self.visit_body(node.body)
                yielded = loop_plan.yields(after.args)
            return b.scf_while([v.handle for v in loop_plan.inits], before, condition.handle,
                               before.args, after, yielded)

        self.carried_loop(node.body, emit, exclude=None)

    # -- loop-carried values --------------------------------------------------
    #
    # The names a loop may carry are those its body assigns (read from the
    # AST) that exist before the loop, and the exit flags it may set. A
    # tuple-valued name is carried element by element ("leaves"). Their types
    # are planned: a runtime value keeps its type; a Python number starts
    # with its literal type (0 -> i32, 0.0 -> f32). The body is emitted once;
    # if it leaves a number with another type (`acc = 0` then `acc += x_f32`,
    # also in a nested loop or branch), or does not change a number (so it can
    # stay a compile-time constant), the loop is emitted again with the
    # corrected plan. A plan only widens or drops leaves, so a loop is emitted
    # at most a few times whatever its nesting, and compile time is linear in
    # the nesting depth (emitting each body twice to find its carried values
    # was 2^depth).

    def carried_loop(self, body: Sequence[ast.stmt],
                     emit: Callable[["_LoopPlan"], list[Value]], exclude: str | None,
                     also: frozenset[str] = frozenset()) -> None:
        b = self.builder
        assigned = _assigned_names(body) | also | self.exit_flag_names(body)
        entry = dict(self.scope)
        names = [n for n in entry if n != exclude and n in assigned]
        plan: dict[str, Any] = {}
        dropped: set[str] = set()  # leaves found to stay compile-time constants
        overrides: dict[str, Any] = {}  # names first set in the loop: their values
        token = object()
        kept_static: set[str] = set()  # numbers kept constant after a failed attempt
        first_error: Exception | None = None
        for _ in builtins.range(_MAX_LOOP_PLANS):
            mark = b.mark()
            attempt_entry = dict(entry)
            for name, value in overrides.items():
                attempt_entry[name] = self.placeholder(value)
            leaves: dict[str, Any] = {}
            for name in names:
                leaves.update(_flatten(name, attempt_entry[name]))
            for key, value in leaves.items():
                if key in plan or key in dropped:
                    continue
                if is_runtime(value):
                    plan[key] = value.type
                elif isinstance(value, (bool, int, float)):
                    plan[key] = S.literal_type(value)
            loop_plan = _LoopPlan(self, token, attempt_entry, names, leaves, plan)
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
                overrides.update(replan.overrides)
                dropped |= {k for k, t in replan.changes.items() if t is None}
                plan = {**plan, **replan.changes}
                plan = {k: t for k, t in plan.items() if t is not None}
                continue
            except (TileError, CompilationError) as exc:
                # A number carried as a runtime value may be one the body needs
                # as a constant (`block = 16` reassigned only in a branch not
                # taken): try once more with the numbers kept constant. An
                # error another loop already retried for is final, so an error
                # costs at most one more emission per loop, not 2^depth.
                numbers = {k for k in plan if k in leaves and not is_runtime(leaves[k])} \
                    - kept_static
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
                dropped |= numbers
                plan = {k: t for k, t in plan.items() if k not in numbers}
                continue
            self.scope = entry
            if exclude is not None:
                self.scope.pop(exclude, None)
            carried = dict(zip(loop_plan.keys, results))
            for key, init, result in zip(loop_plan.keys, loop_plan.inits, results):
                if init.name in self.speculative:
                    self.speculative[result.name] = self.speculative[init.name]
            for name in names:
                self.scope[name] = _unflatten(name, attempt_entry[name], lambda key: tensor(
                    carried[key]) if key in carried else leaves[key])
            return
        raise TileError(f"the types of the values this loop carries "
                        f"({', '.join(_display(k) for k in plan)}) do not settle; give them "
                        "their final type before the loop")

    def placeholder(self, template: Any) -> Any:
        """A value shaped like `template` to start a loop-carried return value
        with (it is never read before the loop sets it)."""
        if isinstance(template, tuple):
            return tuple(self.placeholder(item) for item in template)
        if is_runtime(template):
            return self.constant_of_type(0, template.type)
        if isinstance(template, (bool, int, float)):
            return self.constant_of_type(0, S.literal_type(template))
        return template

    def exit_flag_names(self, body: Sequence[ast.stmt]) -> set[str]:
        """The hidden names a loop body may set: its loop's break flag, and the
        return flag and value if it returns."""
        names = {self.loops[-1].break_flag} if self.loops and self.loops[-1].break_flag \
            else set()
        if self.return_flag and _uses(body, ast.Return):
            names |= {_RETURNED, _RETURN_VALUE}
        return names

    def constant_of_type(self, value: Any, ty: Any) -> tensor:
        """A compile-time number as a runtime value of type `ty`."""
        if ty.scalar.is_ptr():
            # (A pointer on a path that never uses it: a placeholder address.)
            address = S.to_tensor_of(self.builder, value, T.int64)
            pointer = tensor(self.builder.int_to_ptr(address.handle, ty.scalar))
            return S.broadcast_to(self.builder, pointer, ty.shape) if ty.is_block() else pointer
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
            raise TileError(f"'{_display(name)}' starts as the number {was_number!r} and "
                            f"becomes a block of shape {list(other_type.shape)} in the loop; "
                            "initialize it with tl.zeros/tl.full")
        if value.dtype.is_ptr() or other_type.scalar.is_ptr():
            return
        raise _Replan(token, {name: _widened(value.type, other_type.scalar)})

    def loop_yields(self, loop_plan: "_LoopPlan", args: Sequence[Value]) -> list[Value]:
        """What one iteration yields for the carried leaves, checked against
        the plan; raises _Replan when the plan must change."""
        plan, leaves = loop_plan.plan, loop_plan.leaves
        entry = loop_plan.entry_scope
        now: dict[str, Any] = {}
        overrides = {name: self.scope[name] for name in loop_plan.names
                     if entry[name] is _NO_VALUE and self.scope.get(name) is not _NO_VALUE}
        if overrides:  # a return value first set in the loop: carry it from the start
            raise _Replan(loop_plan.token, {}, overrides)
        for name in loop_plan.names:
            value = self.scope.get(name, _MISSING)
            try:
                now.update(_flatten(name, value, like=entry[name]))
            except _ShapeChanged as exc:
                raise TileError(f"the loop changes '{name}' from {_describe(entry[name])} to "
                                f"{_describe(value)}; a tuple keeps its length in a loop") \
                    from exc
        changes: dict[str, Any] = {}
        for key, value in now.items():  # leaves the loop does not carry
            if key not in plan and _changed(leaves[key], value):
                if isinstance(leaves[key], (bool, int, float)):  # it must be carried
                    changes[key] = S.literal_type(leaves[key])
                    continue
                raise TileError(f"the loop changes the compile-time value '{_display(key)}' "
                                f"({leaves[key]!r}); only numbers and runtime values can be "
                                "updated in a loop")
        yielded: list[tensor] = []
        for key, init, arg in zip(loop_plan.keys, loop_plan.inits, args):
            value, initial, planned = now[key], leaves[key], plan[key]
            was_number = not is_runtime(initial)
            if is_runtime(value) and value.name == arg.name:
                if was_number:  # never changed: it can stay a compile-time number
                    changes[key] = None
                yielded.append(value)
                continue
            if value is _NO_VALUE:
                value = 0  # a return value not set on this path: never read
            if not is_runtime(value):
                if not isinstance(value, (bool, int, float)):
                    raise TileError(f"'{_display(key)}' becomes the compile-time value "
                                    f"{value!r} in the loop; only numbers and runtime values "
                                    "can be carried")
                if was_number and type(value) is type(initial) and value == initial:
                    changes[key] = None  # assigned its own value: still a constant
                    yielded.append(init)
                    continue
                if not planned.scalar.is_ptr():
                    literal = S.literal_type_next_to(value, planned.scalar)
                    if literal != planned.scalar:
                        changes[key] = _widened(planned, literal)
                        yielded.append(init)
                        continue
                value = self.constant_of_type(value, planned)
            if value.type != planned:
                if not was_number:
                    self.replan_if_speculative(init, value.type)
                    raise TileError(f"loop-carried '{_display(key)}' has type {planned} before "
                                    f"the loop and {value.type} after an iteration; cast it "
                                    "with .to()")
                if value.is_block() and not isinstance(planned, T.block_type):
                    raise TileError(f"'{_display(key)}' starts as the number {initial!r} and "
                                    f"becomes a block of shape {list(value.shape)} in the loop; "
                                    "initialize it with tl.zeros/tl.full")
                changes[key] = value.type
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

    def visit_Dict(self, node: ast.Dict) -> dict[Any, Any]:
        """A dict of compile-time keys (tl.extern_elementwise's overloads)."""
        if any(key is None for key in node.keys):
            raise TileError("** in a dict is not supported in kernels")
        keys = [unwrap(self.visit(key)) for key in node.keys]  # type: ignore[arg-type]
        if any(_holds_runtime(key) for key in keys):
            raise TileError("dict keys in a kernel must be compile-time values")
        return dict(zip(keys, (self.visit(value) for value in node.values)))

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
        then_value, else_value = self.visit(node.body), self.visit(node.orelse)
        pointers = [v.dtype for v in (then_value, else_value) if is_runtime(v) and v.dtype.is_ptr()]
        if pointers and (len(pointers) == 1 or pointers[0] != pointers[1]):
            raise TileError("Ternary expression with dynamic condition has inconsistent type: "
                            f"{_describe(then_value)} and {_describe(else_value)}")
        return S.where(self.builder, condition, then_value, else_value)

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

        def is_none(node: ast.AST | None) -> bool:
            return node is None or unwrap(self.visit(node)) is None

        result, axis = value, 0
        for entry in entries:
            if not isinstance(entry, ast.Slice) and is_none(entry):
                result = S.expand_dims(self.builder, result, axis) if result.is_block() \
                    else S.splat(self.builder, result, [1])
            elif isinstance(entry, ast.Slice) and all(
                    is_none(part) for part in (entry.lower, entry.upper, entry.step)):
                pass  # `:`, `None:`, `::None`, ...: the whole dimension
            else:
                raise TileError(S.NO_ELEMENT_ACCESS)
            axis += 1
        S.check_subscript(sum(1 for e in entries if isinstance(e, ast.Slice)),
                          value.shape if value.is_block() else None)
        return result

    def visit_Slice(self, node: ast.Slice) -> slice:
        """`t[1:]`, `x.shape[:-1]` of a compile-time tuple (blocks take `:` only,
        in visit_Subscript): Python's slice of compile-time bounds."""
        parts = [None if part is None else unwrap(self.visit(part))
                 for part in (node.lower, node.upper, node.step)]
        for part in parts:
            if part is not None and not isinstance(part, int):
                raise TileError(f"slice bounds of a tuple must be compile-time ints, got "
                                f"{_describe(part)}")
        return builtins.slice(*parts)

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
        if fn is builtins.print:  # printf from the device, as Triton
            fn = tl.device_print
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
        if isinstance(fn, type) and issubclass(fn, tuple):
            return fn(*args, **kwargs)  # a NamedTuple holds values of any kind
        if fn in (builtins.isinstance, builtins.hasattr):
            # Of frontend values (tl.tensor, tl.tensor_descriptor, dtypes): what
            # they are, known at compile time, as in Triton.
            return fn(*args)
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
        # As Triton, what is passed decides, not a callee's tl.constexpr
        # annotations: tutorial 06 passes offs_m, a block, to `offs_m: tl.constexpr`.
        scope = {name: unwrap(value) for name, value in bound.arguments.items()}
        callee = CodeGenerator(self.builder, fn.source(), scope, call_site=self.loc(node),
                               depth=self.depth + 1, speculative=self.speculative)
        saved_hook = getattr(self.builder, "call_jit", None)
        result = callee.run_function(callee.source.tree)
        self.builder.call_jit = saved_hook
        return result

    # Unsupported syntax with a clear name.
    def visit_Lambda(self, node: ast.Lambda) -> Any:
        raise TileError("lambda is not supported in kernels; define a @tile.jit function")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> Any:
        raise TileError("nested function definitions are not supported in kernels; "
                        "define a @tile.jit function at module level")

    def visit_ListComp(self, node: ast.ListComp) -> list[Any]:
        return self.comprehension(node.elt, node.generators)

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> tuple[Any, ...]:
        # Evaluated at once (for tuple(...), tl.tuple(...)): a tuple of the values.
        return tuple(self.comprehension(node.elt, node.generators))

    def comprehension(self, element: ast.expr, generators: list[ast.comprehension]
                      ) -> list[Any]:
        """A comprehension over compile-time iterables (tuples, lists, ranges
        of constants), unrolled; its names do not leak, as in Python 3."""
        saved = dict(self.scope)
        values: list[Any] = []

        def run(level: int) -> None:
            if level == len(generators):
                values.append(self.visit(element))
                return
            generator = generators[level]
            if generator.is_async:
                raise TileError("async comprehensions are not supported in kernels")
            iterable = self.visit(generator.iter)
            if isinstance(iterable, (tl.range, tl.static_range)) and not any(
                    is_runtime(v) for v in (iterable.start, iterable.end, iterable.step)):
                iterable = builtins.range(iterable.start, iterable.end, iterable.step)
            if is_runtime(iterable) or not isinstance(iterable, (tuple, list, builtins.range)):
                raise TileError("a comprehension in a kernel iterates over a tuple, a list or a "
                                f"range of constants, not {_describe(iterable)}")
            for item in iterable:
                self.assign(generator.target, item)
                conditions = [self.visit(test) for test in generator.ifs]
                if any(is_runtime(c) for c in conditions):
                    raise TileError("a comprehension's `if` must be a compile-time condition")
                if all(conditions):
                    run(level + 1)

        try:
            run(0)
        finally:
            self.scope = saved
        return values


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
# Hidden names: the return flag and value of the function being emitted.
_RETURNED = "__tile_returned"
_RETURN_VALUE = "__tile_return_value"
_NO_VALUE = type("_NoValue", (), {"__repr__": lambda self: "<no value yet>"})()


class _LoopExits:
    """The hidden flags `break` and `continue` set in one loop (None: unused)."""

    def __init__(self, break_flag: str | None, continue_flag: str | None) -> None:
        self.break_flag = break_flag
        self.continue_flag = continue_flag


class _Replan(Exception):
    """Raised when a loop's carried types must change: `changes` maps leaves
    to their new type (None: not carried, a compile-time constant);
    `overrides` gives names first set in the loop (a return value) a value to
    take the structure and types of."""

    def __init__(self, token: object, changes: dict[str, Any],
                 overrides: dict[str, Any] | None = None) -> None:
        super().__init__("loop re-planned")
        self.token = token
        self.changes = changes
        self.overrides = overrides or {}


class _ShapeChanged(Exception):
    pass


class _LoopPlan:
    """One emission of a loop: the carried names, their leaves (tuples are
    carried element by element), the planned leaf types, and the initial
    values (constants emitted before the loop for numbers)."""

    def __init__(self, generator: CodeGenerator, token: object, entry_scope: dict[str, Any],
                 names: list[str], leaves: dict[str, Any], plan: dict[str, Any]) -> None:
        self.generator = generator
        self.token = token
        self.entry_scope = entry_scope
        self.names = names
        self.leaves = leaves
        self.plan = plan
        self.keys = [k for k in leaves if k in plan]
        self.inits = [leaves[k] if is_runtime(leaves[k]) else
                      generator.constant_of_type(leaves[k], plan[k]) for k in self.keys]

    def types(self) -> list[Any]:
        return [v.type for v in self.inits]

    def bind(self, args: Sequence[Value]) -> None:
        """Binds the carried leaves to block arguments; those whose type was
        guessed from a number are marked speculative (see replan_if_speculative)."""
        bound = dict(zip(self.keys, args))
        for key, arg in bound.items():
            self.generator.mark_speculative(arg, self.leaves[key], (self.token, key))
        for name in self.names:
            self.generator.scope[name] = _unflatten(
                name, self.entry_scope[name],
                lambda key: tensor(bound[key]) if key in bound else self.leaves[key])

    def yields(self, args: Sequence[Value]) -> list[Value]:
        return self.generator.loop_yields(self, args)


def _flatten(name: str, value: Any, like: Any = _MISSING) -> dict[str, Any]:
    """The leaves of a (possibly tuple) value: {"t[0]": ..., "t[1][0]": ...}.
    With `like`, the structure must be like's (else _ShapeChanged)."""
    if like is not _MISSING and (isinstance(like, tuple) != isinstance(value, tuple) or (
            isinstance(value, tuple) and len(value) != len(like))):
        raise _ShapeChanged(name)
    if isinstance(value, tuple):
        leaves: dict[str, Any] = {}
        for index, item in enumerate(value):
            leaves.update(_flatten(f"{name}[{index}]", item,
                                   like[index] if like is not _MISSING else _MISSING))
        return leaves
    return {name: value}


def _unflatten(name: str, template: Any, leaf: Callable[[str], Any]) -> Any:
    if isinstance(template, tuple):
        return _rebuild_tuple(template, [_unflatten(f"{name}[{i}]", item, leaf)
                                         for i, item in enumerate(template)])
    return leaf(name)


def _rebuild_tuple(template: tuple, items: list[Any]) -> tuple:
    """A tuple of `items` of `template`'s kind (a NamedTuple stays one)."""
    make = getattr(type(template), "_make", None)
    return make(items) if make is not None else tuple(items)


def _display(key: str) -> str:
    """A leaf's name as the user knows it (hidden names explained)."""
    return key.replace(_RETURN_VALUE, "the return value").replace(_RETURNED, "the return flag")


def _describe(value: Any) -> str:
    if isinstance(value, tuple):
        return f"a tuple of {len(value)}"
    if is_runtime(value):
        return str(value.type)
    return repr(value)


def _walk_function(tree: ast.FunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's body, not of functions or lambdas inside it."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                      ast.ClassDef)):
                pending.append(child)


def _uses(body: Sequence[ast.stmt], kind: type) -> bool:
    """Whether `body` has a `kind` statement (Break, Continue, Return) that
    acts on it: breaks and continues inside nested loops act on those."""
    pending: list[ast.AST] = list(body)
    while pending:
        node = pending.pop()
        if isinstance(node, kind):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, (ast.For, ast.While)) and kind is not ast.Return:
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))
    return False


def _may_exit(statement: ast.stmt) -> bool:
    return any(_uses([statement], kind) for kind in (ast.Break, ast.Continue, ast.Return))


def _always_returns(body: Sequence[ast.stmt]) -> bool:
    """Whether every path through `body` ends in a return (structurally)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    return False


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
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name):  # t[i] = v makes a new t
                names.add(node.value.id)
    return names


def _holds_runtime(value: Any) -> bool:
    if isinstance(value, (tuple, list)):
        return any(_holds_runtime(v) for v in value)
    return is_runtime(value)


def _is_guard_return(statement: ast.stmt) -> bool:
    """`if cond: ... return` (a bare return ending the branch, no else)."""
    return (isinstance(statement, ast.If) and not statement.orelse and bool(statement.body)
            and isinstance(statement.body[-1], ast.Return) and statement.body[-1].value is None)
