"""cuDNN switches and state: workspace size, use decisions, dropout states.

Re-exported by ``chainer.backends.cuda``, which documents them.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy

from chainer._backend import use_level_allows
from chainer.backends import _cupy_probe
from chainer.configuration import config

_max_workspace_size = 8 * 1024 * 1024


def get_max_workspace_size() -> int:
    """Return the cuDNN workspace size limit in bytes (8 MiB by default)."""
    return _max_workspace_size


def set_max_workspace_size(size: int) -> None:
    """Set the cuDNN workspace size limit in bytes."""
    global _max_workspace_size
    if not isinstance(size, (int, numpy.integer)) or isinstance(size, bool) or size < 0:
        raise ValueError(f"workspace size must be an integer >= 0 (bytes), got {size!r}")
    _max_workspace_size = int(size)


def should_use_cudnn(level: str, lowest_version: int = 0) -> bool:
    """Return whether to take a cuDNN code path.

    Args:
        level: ``'==always'`` (use cuDNN only when ``chainer.config.use_cudnn`` is
            ``'always'``) or ``'>=auto'`` (also when it is ``'auto'``).
        lowest_version: The minimum cuDNN version the path needs.
    """
    wanted = use_level_allows(level, config.use_cudnn, "use_cudnn")
    state = _cupy_probe.probe()
    return wanted and state.cudnn is not None and state.cudnn_version >= lowest_version


def should_use_cudnn_tensor_core(dtype) -> bool:
    """Return whether cuDNN should use Tensor Cores for ``dtype``.

    ``chainer.config.use_cudnn_tensor_core`` decides: ``'always'``, ``'never'``, or ``'auto'``
    (float16 on cuDNN >= 7 with a GPU of compute capability >= 7.0).
    """
    mode = config.use_cudnn_tensor_core
    if mode in ("always", "never"):
        return mode == "always"
    if mode != "auto":
        raise ValueError(
            f"invalid chainer.config.use_cudnn_tensor_core value {mode!r}: "
            "expected 'always', 'auto' or 'never'"
        )
    if numpy.dtype(dtype) != numpy.float16:
        return False
    state = _cupy_probe.probe()
    if state.cudnn is None or state.cudnn_version < 7000:
        return False
    return int(state.cupy.cuda.Device().compute_capability) >= 70


_dropout_states: dict[tuple[int, int], Any] = {}


def get_cudnn_dropout_states():
    """Return the cuDNN dropout states of the current thread and device."""
    return get_cudnn_dropout_states_core(threading.get_ident())


def get_cudnn_dropout_states_core(thread_id: int):
    """Return the cuDNN dropout states of ``thread_id`` on the current device.

    The states are seeded from the ``CHAINER_SEED`` environment variable when it is set.
    """
    _cupy_probe.check_cuda_available()
    state = _cupy_probe.probe()
    if state.cudnn is None:
        raise RuntimeError("cuDNN is not enabled (CuPy without cuDNN, or CHAINER_CUDNN=0)")
    key = (thread_id, state.cupy.cuda.get_device_id())
    states = _dropout_states.get(key)
    if states is None:
        seed = os.environ.get("CHAINER_SEED")
        states = state.cudnn.DropoutStates(None, int(seed) if seed else None)
        _dropout_states[key] = states
    return states
