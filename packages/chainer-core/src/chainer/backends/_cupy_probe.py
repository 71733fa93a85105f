"""Probing CuPy once, and the values ``chainer.backends.cuda`` binds its lazy names to.

Kept apart from ``cuda`` so that the cuDNN helpers can use it without a circular import.
"""

from __future__ import annotations

import functools
import importlib
import os
from types import ModuleType
from typing import Any, NamedTuple


class CupyState(NamedTuple):
    """What probing CuPy found."""

    cupy: Any  # None when CUDA is unavailable (CuPy ships no type hints)
    reason: str  # why CUDA is unavailable ('' when it is available)
    cudnn: ModuleType | None = None  # CuPy's cuDNN module, when cuDNN is usable
    libcudnn: ModuleType | None = None
    cudnn_version: int = 0


@functools.cache
def probe() -> CupyState:
    """Import CuPy and check for a usable GPU and cuDNN, once per process."""
    try:
        import cupy
    except ModuleNotFoundError as error:
        if error.name == "cupy":
            return CupyState(None, "CuPy is not installed")
        return CupyState(None, f"importing CuPy failed: {error}")
    except Exception as error:  # a broken CUDA setup surfaces as various error types
        return CupyState(None, f"importing CuPy failed: {type(error).__name__}: {error}")
    try:
        usable = cupy.is_available()
    except Exception as error:
        return CupyState(None, f"cupy.is_available() failed: {type(error).__name__}: {error}")
    if not usable:
        return CupyState(None, "CuPy is installed but sees no usable CUDA device")
    return CupyState(cupy, "", *_probe_cudnn())


def _probe_cudnn() -> tuple[ModuleType | None, ModuleType | None, int]:
    if os.environ.get("CHAINER_CUDNN", "1") == "0":
        return None, None, 0
    # CuPy moved its cuDNN modules between releases; take whichever this one has.
    cudnn = _import_first("cupyx.cudnn", "cupy.cudnn")
    if cudnn is None:
        return None, None, 0
    libcudnn = _import_first("cupy_backends.cuda.libs.cudnn", "cupy.cuda.cudnn")
    if libcudnn is None:
        return None, None, 0
    try:
        version = int(libcudnn.getVersion())
    except Exception:  # the library is missing at run time although CuPy was built with it
        return None, None, 0
    return cudnn, libcudnn, version


def _import_first(*names: str) -> ModuleType | None:
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def unavailable_error() -> RuntimeError:
    """The error that explains why CUDA cannot be used."""
    return RuntimeError(
        f"CUDA is not available: {probe().reason}. GPU features need an NVIDIA GPU and CuPy "
        "built for its CUDA version (e.g. `pip install cupy-cuda12x`); "
        "chainer.backends.cuda.available tells whether CUDA can be used."
    )


def check_cuda_available() -> None:
    """Raise :class:`RuntimeError` saying why, unless CUDA can be used through CuPy."""
    if probe().cupy is None:
        raise unavailable_error()


class _StandIn:
    """A CuPy class stand-in while CUDA is unavailable: ``isinstance`` is always False."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        check_cuda_available()


class _DeviceStandIn(_StandIn):
    def __init__(self, device: int | None = None) -> None:
        check_cuda_available()


def _stand_in(name: str, base: type = _StandIn) -> type:
    # Named after the CuPy class it replaces, as seen from the public module.
    attributes = {
        "__module__": "chainer.backends.cuda",
        "__qualname__": name,
        "__doc__": f"``cupy.{'cuda.' if name != 'ndarray' else ''}{name}`` when CuPy is "
        "installed; without it, a stand-in that no object is an instance of and that "
        "raises the reason CUDA is unavailable when constructed.",
    }
    return type(name, (base,), attributes)


class _UnavailableCupy:
    """``cuda.cupy`` while CUDA is unavailable: any attribute raises the reason."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise unavailable_error()

    def __repr__(self) -> str:
        return "<cupy (unavailable)>"


def lazy_values(state: CupyState) -> dict[str, Any]:
    """The values of ``cuda``'s lazily bound public names for a probe result."""
    cupy = state.cupy
    if cupy is None:
        return {
            "available": False,
            "cudnn_enabled": False,
            "cupy": _UnavailableCupy(),
            "ndarray": _stand_in("ndarray"),
            "Device": _stand_in("Device", _DeviceStandIn),
            "Stream": _stand_in("Stream"),
            "Event": _stand_in("Event"),
            "cuda": None,
            "cudnn": None,
            "libcudnn": None,
            "memory_pool": None,
            "pinned_memory_pool": None,
        }
    return {
        "available": True,
        "cudnn_enabled": state.cudnn is not None,
        "cupy": cupy,
        "ndarray": cupy.ndarray,
        "Device": cupy.cuda.Device,
        "Stream": cupy.cuda.Stream,
        "Event": cupy.cuda.Event,
        "cuda": cupy.cuda,
        "cudnn": state.cudnn,
        "libcudnn": state.libcudnn,
        "memory_pool": cupy.get_default_memory_pool(),
        "pinned_memory_pool": cupy.get_default_pinned_memory_pool(),
    }
