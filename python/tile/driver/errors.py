"""The errors tile.driver raises."""
from __future__ import annotations

from ..errors import OutOfResources


class DriverError(RuntimeError):
    """Base class of the errors raised by tile.driver."""


class DriverNotFoundError(DriverError):
    """The CUDA driver library (libcuda.so.1) cannot be loaded."""


class LaunchError(DriverError, ValueError):
    """A launch was refused before reaching the driver (bad grid or arguments)."""


class LaunchOutOfResources(LaunchError, OutOfResources):
    """A kernel needs more threads or shared memory than the device gives it
    (found when loading it): a LaunchError, and Triton's OutOfResources with
    `required`, `limit` and `name` ("threads", "shared memory")."""

    def __init__(self, required: int, limit: int, name: str, message: str) -> None:
        OutOfResources.__init__(self, required, limit, name, message)

    def __reduce__(self) -> tuple:  # type: ignore[type-arg]
        return (type(self), (self.required, self.limit, self.name, self.message))


class CudaError(DriverError):
    """A CUDA driver call returned an error code."""

    def __init__(self, call: str, code: int, name: str, description: str, hint: str = ""):
        self.call = call
        self.code = code
        self.name = name
        self.description = description
        message = f"{call} failed: {name} ({description})"
        if hint:
            message += f": {hint}"
        super().__init__(message)


__all__ = ["DriverError", "DriverNotFoundError", "LaunchError", "LaunchOutOfResources",
           "CudaError"]
