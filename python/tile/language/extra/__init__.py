"""`tl.extra`: Triton's vendor libraries (`tl.extra.cuda.libdevice`)."""
from . import cuda, libdevice  # noqa: F401
