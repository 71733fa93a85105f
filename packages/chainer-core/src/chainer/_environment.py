"""Default values of the configuration keys, read from ``CHAINER_*`` environment variables."""

from __future__ import annotations

import os

import numpy

from chainer.configuration import GlobalConfig

_TERNARY = ("always", "auto", "never")
_DTYPES = ("float16", "float32", "float64", "mixed16")


def _flag(env: str, default: bool) -> bool:
    raw = os.environ.get(env)
    if raw is None:
        return default
    if raw not in ("0", "1"):
        raise ValueError(f"environment variable {env} must be '0' or '1', got {raw!r}")
    return raw == "1"


def _choice(env: str, choices: tuple[str, ...], default: str) -> str:
    raw = os.environ.get(env, default)
    if raw not in choices:
        raise ValueError(f"environment variable {env} must be one of {choices}, got {raw!r}")
    return raw


def _dtype(env: str) -> object:
    name = _choice(env, _DTYPES, "float32")
    if name == "mixed16":
        from chainer._dtypes import mixed16

        return mixed16
    return numpy.dtype(name)


def apply_defaults(config: GlobalConfig) -> None:
    """Set every documented key of ``config`` to its default (or environment) value."""
    config.autotune = False
    config.cudnn_deterministic = _flag("CHAINER_CUDNN_DETERMINISTIC", False)
    config.cudnn_fast_batch_normalization = _flag("CHAINER_CUDNN_FAST_BATCH_NORMALIZATION", False)
    config.debug = _flag("CHAINER_DEBUG", False)
    config.dtype = _dtype("CHAINER_DTYPE")
    config.enable_backprop = True
    config.in_recomputing = False
    # Set by functions.forget while its first, graph-less forward runs (v7's name).
    config._will_recompute = False
    config.keep_graph_on_report = _flag("CHAINER_KEEP_GRAPH_ON_REPORT", False)
    config.lazy_grad_sum = _flag("CHAINER_LAZY_GRAD_SUM", False)
    config.schedule_func = None
    config.train = True
    config.type_check = _flag("CHAINER_TYPE_CHECK", True)
    config.use_cudnn = _choice("CHAINER_USE_CUDNN", _TERNARY, "auto")
    config.use_cudnn_tensor_core = "auto"
    config.use_ideep = _choice("CHAINER_USE_IDEEP", _TERNARY, "never")
    config.use_static_graph = True
    config.warn_nondeterministic = _flag("CHAINER_WARN_NONDETERMINISTIC", False)
    config.compute_mode = None


def experimental_warning_disabled() -> bool:
    """``CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING=1`` silences ``utils.experimental``."""
    return _flag("CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING", False)
