"""`tl.extra.libdevice`: the libdevice functions (CUDA is tile's only target)."""
from .cuda.libdevice import *  # noqa: F401,F403
