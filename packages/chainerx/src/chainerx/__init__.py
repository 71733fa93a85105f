"""ChainerX: an ndarray with autograd implemented in C++, with a thin Python binding."""

from chainerx._core import build_info

__version__: str = build_info()["version"]

__all__ = ["__version__", "build_info"]
