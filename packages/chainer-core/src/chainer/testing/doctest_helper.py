"""Conditions for skipping documentation examples (``.. doctest:: :skipif: ...``).

Each function returns whether the example should be skipped. On Read the Docs
(``READTHEDOCS=True``) nothing is skipped, so that every example is rendered with its output.
"""

from __future__ import annotations

import os

from chainer.testing import _marks, _requirements

__all__ = ["skipif", "skipif_not_enough_cuda_devices", "skipif_requires_satisfied"]


def skipif(condition: bool) -> bool:
    """Skip when ``condition`` holds (never on Read the Docs)."""
    if os.environ.get("READTHEDOCS") == "True":
        return False
    return bool(condition)


def skipif_requires_satisfied(*requirements: str) -> bool:
    """Skip when every requirement (``'numpy>=1.26'``) is met by the installed distributions."""
    satisfied, _ = _requirements.check(requirements)
    return skipif(satisfied)


def skipif_not_enough_cuda_devices(device_count: int) -> bool:
    """Skip when fewer than ``device_count`` CUDA devices may be used (see
    ``CHAINER_TEST_GPU_LIMIT``)."""
    return skipif(_marks.gpu_count() < device_count)
