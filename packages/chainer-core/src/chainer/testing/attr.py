"""Decorators that say what a test needs: a GPU, several GPUs, cuDNN, iDeep, ChainerX, or time.

Each decorator adds the matching pytest marker (so ``-m 'not gpu'`` deselects the test) and a
skip that fires when the need is not met on this machine. They apply to test functions, test
methods and whole test classes (``unittest.TestCase`` or pytest style).

Example:
    >>> import unittest
    >>> from chainer.testing import attr
    >>> class TestMyFunc(unittest.TestCase):
    ...     @attr.gpu
    ...     def test_forward_gpu(self):
    ...         ...
    ...     @attr.multi_gpu(2)
    ...     def test_two_devices(self):
    ...         ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from chainer.testing import _marks

_T = TypeVar("_T")

_NO_GPU = (
    "needs a CUDA GPU through CuPy (chainer.backends.cuda.available is False or "
    f"{_marks.GPU_LIMIT_ENV} is 0)"
)


def gpu(target: _T) -> _T:
    """Mark a test as needing one CUDA GPU; it is skipped when none can be used.

    ``CHAINER_TEST_GPU_LIMIT=0`` skips these tests even on a machine with GPUs.
    """
    marks = _marks.requirement_marks(
        "chainer.testing.attr.gpu", "gpu", _marks.gpu_count() >= 1, _NO_GPU
    )
    return _marks.apply_marks(target, marks)


def multi_gpu(gpu_num: int) -> Callable[[_T], _T]:
    """Mark a test as needing ``gpu_num`` CUDA GPUs; it is skipped when fewer can be used.

    Args:
        gpu_num: The number of GPUs the test uses (at least 1).
    """
    if isinstance(gpu_num, bool) or not isinstance(gpu_num, int) or gpu_num < 1:
        raise ValueError(f"multi_gpu expects a positive number of GPUs, got {gpu_num!r}")

    def decorator(target: _T) -> _T:
        count = _marks.gpu_count()
        marks = _marks.requirement_marks(
            "chainer.testing.attr.multi_gpu",
            "gpu",
            count >= gpu_num,
            f"needs {gpu_num} CUDA GPUs, {count} can be used ({_marks.GPU_LIMIT_ENV} caps this)",
        )
        return _marks.apply_marks(target, marks)

    return decorator


def cudnn(target: _T) -> _T:
    """Mark a test as needing cuDNN on a CUDA GPU; it is skipped when cuDNN is not enabled."""
    marks = _marks.requirement_marks(
        "chainer.testing.attr.cudnn",
        "gpu",
        _marks.cudnn_available(),
        "needs cuDNN (chainer.backends.cuda.cudnn_enabled is False or no GPU can be used)",
    )
    return _marks.apply_marks(target, marks)


def ideep(target: _T) -> _T:
    """Mark a test as needing iDeep (``ideep4py``); it is skipped when iDeep is not available."""
    marks = _marks.requirement_marks(
        "chainer.testing.attr.ideep",
        None,
        _marks.ideep_available(),
        "needs iDeep (ideep4py is not installed or not usable)",
    )
    return _marks.apply_marks(target, marks)


def chainerx(target: _T) -> _T:
    """Mark a test as needing the compiled ChainerX package; it is skipped without it."""
    marks = _marks.requirement_marks(
        "chainer.testing.attr.chainerx",
        "chainerx",
        _marks.chainerx_available(),
        "needs ChainerX (the chainerx package with its ndarray is not installed)",
    )
    return _marks.apply_marks(target, marks)


def slow(target: _T) -> _T:
    """Mark a test as slow (more than a few seconds); ``-m 'not slow'`` deselects it."""
    pytest = _marks.pytest_module("chainer.testing.attr.slow")
    return _marks.apply_marks(target, [pytest.mark.slow])
