"""The C launcher's context handling, against a driver made of Python
callbacks: a launch that finds the kernel's context current costs one driver
call (no cuCtxGetCurrent); one the driver refuses for the context (none
current, or another) is made in the kernel's context, and the context that
was current is restored after it. Runs without a GPU."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Iterator

import pytest

from tile.driver import launcher, packing

SUCCESS, INVALID_VALUE, INVALID_CONTEXT, INVALID_HANDLE = 0, 1, 201, 400
KERNEL_CONTEXT, OTHER_CONTEXT, FUNCTION = 0x1000, 0x2000, 0x3000

LAUNCH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, *[ctypes.c_uint] * 7,
                          ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
GET_CURRENT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))
SET_CURRENT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)


@dataclass
class FakeDriver:
    """A driver whose launches run in the current context, as CUDA's do: a
    function of another context is refused (`refusal`, or INVALID_CONTEXT
    with none current); `failure` fails every launch."""
    current: int | None = KERNEL_CONTEXT
    refusal: int = INVALID_HANDLE
    failure: int = SUCCESS
    calls: list[str] = field(default_factory=list)
    launched_in: list[int | None] = field(default_factory=list)

    def launch(self, function: int, *rest: Any) -> int:
        self.calls.append("launch")
        if self.failure:
            return self.failure
        if self.current is None:
            return INVALID_CONTEXT
        if self.current != KERNEL_CONTEXT:
            return self.refusal
        self.launched_in.append(self.current)
        return SUCCESS

    def get_current(self, out: Any) -> int:
        self.calls.append("get")
        out[0] = self.current
        return SUCCESS

    def set_current(self, context: int | None) -> int:
        self.calls.append("set")
        self.current = context
        return SUCCESS


@pytest.fixture
def fake() -> Iterator[tuple[FakeDriver, Any]]:
    if launcher._configured:
        pytest.skip("the launcher is configured with the real driver in this process")
    module: ModuleType = launcher.extension()
    driver = FakeDriver()
    callbacks = (LAUNCH(driver.launch), GET_CURRENT(driver.get_current),
                 SET_CURRENT(driver.set_current))
    address = [ctypes.cast(c, ctypes.c_void_p).value for c in callbacks]

    def cuda_error(call: str, code: int, hint: object) -> Exception:
        return RuntimeError(f"{call} failed with {code}: {hint}")

    module.configure(launch_ex=0, launch=address[0], ctx_get_current=address[1],
                     ctx_set_current=address[2], launch_error=ValueError,
                     cuda_error=cuda_error, device_query=lambda: 0, stream_finder=None)
    kernel = module.Kernel(function=FUNCTION, context=KERNEL_CONTEXT, device=0,
                           codes=packing.codes(["ptr", "i32"]), threads=128, shared=0,
                           max_grid=(2**31 - 1, 65535, 65535), name="tiny",
                           param_names=("x", "n"))
    try:
        yield driver, kernel
    finally:
        # Unconfigured again: a later launch in this process configures the
        # real driver (tile.driver.launcher.configured).
        module.configure(launch_ex=0, launch=0, ctx_get_current=0, ctx_set_current=0,
                         launch_error=ValueError, cuda_error=cuda_error,
                         device_query=lambda: 0, stream_finder=None)
        del callbacks


def test_a_launch_in_the_current_context_asks_nothing_else(fake) -> None:
    driver, kernel = fake
    kernel.launch((1,), (1 << 20, 128), 0)
    assert driver.calls == ["launch"]
    assert driver.launched_in == [KERNEL_CONTEXT]


def test_with_no_context_current_the_kernels_is_made_current(fake) -> None:
    driver, kernel = fake
    driver.current = None
    kernel.launch((1,), (1 << 20, 128), 0)
    assert driver.calls == ["launch", "get", "set", "launch"]
    assert driver.launched_in == [KERNEL_CONTEXT]
    assert driver.current == KERNEL_CONTEXT  # none to restore


@pytest.mark.parametrize("refusal", [INVALID_HANDLE, INVALID_CONTEXT])
def test_another_context_is_restored_after_the_launch(fake, refusal: int) -> None:
    driver, kernel = fake
    driver.current, driver.refusal = OTHER_CONTEXT, refusal
    kernel.launch((1,), (1 << 20, 128), 0)
    assert driver.calls == ["launch", "get", "set", "launch", "set"]
    assert driver.launched_in == [KERNEL_CONTEXT]
    assert driver.current == OTHER_CONTEXT


def test_a_refusal_in_the_kernels_own_context_is_reported(fake) -> None:
    driver, kernel = fake
    driver.failure = INVALID_HANDLE  # a stale stream, say
    with pytest.raises(RuntimeError, match="cuLaunchKernel failed with 400: kernel 'tiny'"):
        kernel.launch((1,), (1 << 20, 128), 0)
    assert driver.calls == ["launch", "get"]


def test_other_errors_are_reported_without_a_retry(fake) -> None:
    driver, kernel = fake
    driver.failure = INVALID_VALUE
    with pytest.raises(RuntimeError, match="cuLaunchKernel failed with 1"):
        kernel.launch((1,), (1 << 20, 128), 0)
    assert driver.calls == ["launch"]
