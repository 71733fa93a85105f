"""NCCL through CuPy, when both are there (``get_build_version()`` is 0 otherwise)."""

from __future__ import annotations


def _nccl():
    from chainer.backends import cuda

    if not cuda.available:
        return None
    try:
        from cupy.cuda import nccl
    except ImportError:
        return None
    return nccl if nccl.available else None


def get_build_version() -> int:
    """The NCCL version CuPy was built with (e.g. 2708), or 0 without CUDA/NCCL."""
    nccl = _nccl()
    return 0 if nccl is None else nccl.get_build_version()


def get_version() -> int:
    """The NCCL version loaded at run time, or 0 without CUDA/NCCL."""
    nccl = _nccl()
    return 0 if nccl is None else nccl.get_version()
