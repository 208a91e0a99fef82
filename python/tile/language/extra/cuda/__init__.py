"""`tl.extra.cuda`: NVIDIA's libdevice (`tl.extra.cuda.libdevice`)."""
from . import libdevice  # noqa: F401
