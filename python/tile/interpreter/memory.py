"""Arrays of an interpreted launch, and loads and stores through pointers.

Every array argument becomes a `Region`: the whole allocation it lives in (a
torch tensor's storage, a NumPy array's base buffer) as bytes, and where the
argument starts in it. Arguments viewing the same allocation share its bytes,
so aliasing behaves as on the GPU. A pointer is (region, element offsets);
every access is checked against the allocation the pointer came from. CUDA
tensors are copied to the host before the launch and back after it.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..errors import TileError
from ..language.types import dtype, pointer_type
from .values import (Tensor, compute_dtype, from_bits, held_as_bits, make, storage_dtype,
                     to_bits)


class Allocation:
    """The bytes of one allocation on the host; `write_back` (CUDA tensors)
    copies them to the device after the launch."""

    def __init__(self, data: np.ndarray, write_back: Callable[[np.ndarray], None] | None
                 ) -> None:
        self.bytes = data
        self.write_back = write_back
        self.written = False
        self._views: dict[np.dtype, np.ndarray] = {}

    def view(self, storage: np.dtype) -> np.ndarray:
        """The allocation as a flat array of `storage` elements."""
        found = self._views.get(storage)
        if found is None:
            usable = self.bytes.size - self.bytes.size % storage.itemsize
            found = self.bytes[:usable].view(storage)
            self._views[storage] = found
        return found

    def finish(self) -> None:
        if self.written and self.write_back is not None:
            self.write_back(self.bytes)


class Region:
    """Where one pointer argument points: its allocation and start (bytes)."""

    def __init__(self, name: str, allocation: Allocation, start: int) -> None:
        self.name = name
        self.allocation = allocation
        self.start = start

    def base_elements(self, element: dtype) -> int:
        return self.start // storage_dtype(element).itemsize

    def pointer(self, element: dtype, const: bool = False) -> Tensor:
        itemsize = storage_dtype(element).itemsize
        if self.start % itemsize:
            raise TileError(f"argument '{self.name}' starts {self.start} bytes into its "
                            f"allocation, not a multiple of the {element} element size")
        return Tensor(np.array(self.start // itemsize, dtype=np.int64), pointer_type(element, const=const),
                      self)


# ----------------------------------------------------------------------------
# Host arrays -> regions
# ----------------------------------------------------------------------------

def is_torch_tensor(value: Any) -> bool:
    return type(value).__module__.startswith("torch") and hasattr(value, "data_ptr")


class HostArrays:
    """The allocations of one launch, keyed by their identity on the host or
    device, and the region of each array argument."""

    def __init__(self) -> None:
        self._allocations: dict[Any, Allocation] = {}

    def region(self, name: str, value: Any) -> Region:
        from ..runtime.reinterpret import TensorWrapper
        if isinstance(value, TensorWrapper):  # its bytes, read as its dtype
            value = value.base
        if isinstance(value, np.ndarray):
            return self._numpy_region(name, value)
        return self._torch_region(name, value)

    def _numpy_region(self, name: str, array: np.ndarray) -> Region:
        root = array
        while isinstance(root.base, np.ndarray):
            root = root.base
        if not (root.flags.c_contiguous or root.flags.f_contiguous):
            root = array  # an exotic base: the array alone is the allocation
            if not (root.flags.c_contiguous or root.flags.f_contiguous):
                raise TileError(f"argument '{name}': the interpreter needs NumPy arrays "
                                "that are contiguous or views of a contiguous array")
        address = root.__array_interface__["data"][0]
        key = ("numpy", address, root.nbytes)
        allocation = self._allocations.get(key)
        if allocation is None:
            flat = root.reshape(-1, order="A") if root.ndim else root.reshape(1)
            allocation = Allocation(flat.view(np.uint8), None)
            self._allocations[key] = allocation
        return Region(name, allocation, array.__array_interface__["data"][0] - address)

    def _torch_region(self, name: str, tensor: Any) -> Region:
        import torch

        storage = tensor.untyped_storage()
        key = ("torch", str(tensor.device), storage.data_ptr(), storage.nbytes())
        allocation = self._allocations.get(key)
        if allocation is None:
            flat = torch.empty(0, dtype=torch.uint8, device=tensor.device).set_(storage)
            if tensor.device.type == "cpu":
                allocation = Allocation(flat.numpy(), None)
            else:  # a device tensor: compute on a host copy, write it back after
                def write_back(host: np.ndarray, flat: Any = flat) -> None:
                    flat.copy_(torch.from_numpy(host))
                allocation = Allocation(flat.cpu().numpy(), write_back)
            self._allocations[key] = allocation
        return Region(name, allocation, tensor.storage_offset() * tensor.element_size())

    def finish(self) -> None:
        """Copies device allocations that the kernel wrote back to the device."""
        for allocation in self._allocations.values():
            allocation.finish()


# ----------------------------------------------------------------------------
# Loads and stores
# ----------------------------------------------------------------------------

def _storage_view(ptr: Tensor) -> np.ndarray:
    return ptr.region.allocation.view(storage_dtype(ptr.dtype.element_ty))


def _check_bounds(ptr: Tensor, active: np.ndarray | None, access: str, size: int) -> None:
    offsets = ptr.data
    bad = (offsets < 0) | (offsets >= size)
    if active is not None:
        bad &= active
    if not bad.any():
        return
    region, element = ptr.region, ptr.dtype.element_ty
    base = region.base_elements(element)
    lanes = np.argwhere(bad)
    first = tuple(int(i) for i in lanes[0]) if ptr.is_block() else ()
    offset = int(offsets[first] if first else offsets) - base
    where = f" at block index {list(first)}" if first else ""
    enabled = " (a lane the mask enables)" if active is not None else \
        " (an unmasked access)"
    count = f"; {len(lanes)} of {bad.size} lanes are out of bounds" if bad.size > 1 else ""
    raise TileError(
        f"out-of-bounds {access} through '{region.name}': element offset {offset}{where}"
        f"{enabled} is outside its allocation, which holds {element} elements "
        f"{-base}..{size - base - 1} relative to '{region.name}'{count}")


def _from_storage(raw: np.ndarray, element: dtype) -> np.ndarray:
    return from_bits(raw, element) if held_as_bits(element) else raw


def _to_storage(values: np.ndarray, element: dtype) -> np.ndarray:
    return to_bits(values, element) if held_as_bits(element) else values


def load(ptr: Tensor, mask: Tensor | None, other: Tensor | None) -> Tensor:
    """The values at `ptr` where `mask` is set; elsewhere `other`, or 0."""
    element = ptr.dtype.element_ty
    storage = _storage_view(ptr)
    active = None if mask is None else np.broadcast_to(mask.data, ptr.data.shape)
    _check_bounds(ptr, active, "load", storage.size)
    if active is None:
        return make(_from_storage(storage[ptr.data], element), element)
    raw = np.zeros(ptr.data.shape, dtype=storage.dtype)
    raw[active] = storage[ptr.data[active]]
    values = _from_storage(raw, element)
    if other is not None:
        values = np.where(active, values, other.data)
    return make(values, element)


def store(ptr: Tensor, value: Tensor, mask: Tensor | None) -> None:
    """Writes `value` (already of the pointee type and shape) where `mask` is set;
    of lanes writing one address the last (in row-major order) wins."""
    element = ptr.dtype.element_ty
    allocation = ptr.region.allocation
    storage = _storage_view(ptr)
    active = None if mask is None else np.broadcast_to(mask.data, ptr.data.shape)
    _check_bounds(ptr, active, "store", storage.size)
    if not storage.flags.writeable:
        raise TileError(f"store through '{ptr.region.name}' into a read-only array")
    data = np.broadcast_to(value.data, ptr.data.shape)
    if active is None:
        storage[ptr.data] = _to_storage(data, element)
    else:
        storage[ptr.data[active]] = _to_storage(data[active], element)
    allocation.written = True


def read_modify_write(ptr: Tensor, value: Tensor | tuple[Tensor, ...], mask: Tensor | None,
                      update: Callable[..., Tensor], access: str) -> Tensor:
    """An atomic read-modify-write, applied one lane at a time in row-major
    order (so lanes that hit the same address see each other's updates): the
    new value is `update(old, value)` (`update(old, *value)` for a tuple of
    operands). Returns the old values (0 where masked off). Each value is of
    the pointee type and the pointer's shape."""
    element = ptr.dtype.element_ty
    storage = _storage_view(ptr)
    active = np.ones(ptr.data.shape, dtype=bool) if mask is None \
        else np.broadcast_to(mask.data, ptr.data.shape)
    _check_bounds(ptr, None if mask is None else active, access, storage.size)
    if not storage.flags.writeable:
        raise TileError(f"{access} through '{ptr.region.name}' into a read-only array")
    operands = value if isinstance(value, tuple) else (value,)
    values = [np.broadcast_to(v.data, ptr.data.shape) for v in operands]
    old = np.zeros(ptr.data.shape, dtype=compute_dtype(element))
    lanes = list(zip(*np.nonzero(active))) if ptr.is_block() else [()] * int(bool(active))
    for lane in lanes:
        address = int(ptr.data[lane])
        current = make(_from_storage(storage[address], element), element)
        old[lane] = current.data
        new = update(current, *(make(v[lane], element) for v in values))
        storage[address] = _to_storage(new.data, element)
    ptr.region.allocation.written = True
    return make(old, element)


def compare_and_swap(ptr: Tensor, cmp: Tensor, value: Tensor) -> Tensor:
    """An atomic compare-and-swap, one lane at a time in row-major order:
    `value` is stored where the old value's bits equal `cmp`'s. Returns the
    old values."""
    element = ptr.dtype.element_ty
    storage = storage_dtype(element)

    def bits(x: Tensor) -> bytes:
        return np.asarray(_to_storage(x.data, element)).astype(storage).tobytes()

    return read_modify_write(ptr, (cmp, value), None,
                             lambda old, c, v: v if bits(old) == bits(c) else old,
                             "atomic_cas")
