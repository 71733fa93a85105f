"""The Intel64 backend with iDeep (``ideep4py``): ``Intel64Device`` (``'@intel64'``).

iDeep accelerates some float32 computations on Intel CPUs through MKL-DNN. It is optional and
imported on first use, never when this module is imported. ``ideep`` is the ``ideep4py`` module
(``None`` when unavailable) and ``mdarray`` its array type (a stand-in class that no object is an
instance of when unavailable). Chainer uses iDeep only where ``chainer.config.use_ideep`` allows
it (see :func:`should_use_ideep`) and for links moved there with ``to_intel64()``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy

from chainer._backend import Device, is_loaded_instance, loaded_type, use_level_allows
from chainer.backends._cpu import array_to_cpu
from chainer.configuration import config

__all__ = [
    "Intel64Device",
    "check_ideep_available",
    "ideep",
    "inputs_all_ready",
    "is_ideep_available",
    "mdarray",
    "should_use_ideep",
]


@functools.cache
def _load_ideep() -> tuple[Any, str]:
    """Return ``(ideep4py, '')``, or ``(None, reason)`` when iDeep cannot be used."""
    try:
        import ideep4py
    except ModuleNotFoundError as error:
        if error.name == "ideep4py":
            return None, "ideep4py is not installed"
        return None, f"importing ideep4py failed: {error}"
    except Exception as error:  # a broken native build surfaces as various error types
        return None, f"importing ideep4py failed: {type(error).__name__}: {error}"
    version = str(getattr(ideep4py, "__version__", ""))
    if not version.startswith("2."):
        return None, f"ideep4py {version or '(unknown version)'} is installed, but 2.0.x is needed"
    return ideep4py, ""


# Bound on first access by __getattr__ below, which probes iDeep; declared here for readers.
ideep: Any  # the ideep4py module (untyped), or None
mdarray: type  # ideep4py.mdarray, or a stand-in that nothing is an instance of


class _MdarrayStandIn:
    """``mdarray`` while iDeep is unavailable: ``isinstance`` checks against it are False."""

    def __init__(self, *args, **kwargs) -> None:
        check_ideep_available()


def __getattr__(name: str):
    if name in ("ideep", "mdarray"):
        ideep4py = _load_ideep()[0]
        values = {
            "ideep": ideep4py,
            "mdarray": _MdarrayStandIn if ideep4py is None else ideep4py.mdarray,
        }
        globals().update(values)  # later accesses are plain lookups
        return values[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def is_ideep_available() -> bool:
    """Return whether iDeep (``ideep4py`` 2.0.x) can be used."""
    return _load_ideep()[0] is not None


def check_ideep_available() -> None:
    """Raise :class:`RuntimeError` saying why, unless iDeep can be used."""
    ideep4py, reason = _load_ideep()
    if ideep4py is None:
        raise RuntimeError(
            f"iDeep is not available: {reason}. The Intel64 backend needs it: "
            "pip install 'ideep4py<2.1' (Intel CPUs, Linux)"
        )


def should_use_ideep(level: str) -> bool:
    """Return whether to take an iDeep code path.

    Args:
        level: ``'==always'`` (only when ``chainer.config.use_ideep`` is ``'always'``) or
            ``'>=auto'`` (also when it is ``'auto'``).
    """
    return use_level_allows(level, config.use_ideep, "use_ideep") and is_ideep_available()


def inputs_all_ready(inputs, supported_ndim: tuple[int, ...] = (2, 4)) -> bool:
    """Return whether iDeep can take every input.

    Args:
        inputs: Arrays or variables (variables are unwrapped).
        supported_ndim: The dimensionalities the iDeep routine supports.
    """
    ideep4py = _load_ideep()[0]
    if ideep4py is None:
        return False
    variable_type = loaded_type("chainer.variable", "Variable")
    for item in inputs:
        array = item.array if variable_type and isinstance(item, variable_type) else item
        if not isinstance(array, (numpy.ndarray, ideep4py.mdarray)):
            return False
        if array.ndim not in supported_ndim:
            return False
    return True


class Intel64Device(Device):
    """Device for the Intel64 backend with iDeep; its specifier is ``'@intel64'``.

    Arrays on it are NumPy arrays or iDeep ``mdarray``; sending turns float32 arrays of 1, 2 or
    4 dimensions (the layouts iDeep accelerates) into ``mdarray`` and leaves others NumPy.

    Raises:
        RuntimeError: iDeep is not available.
    """

    name = "@intel64"
    xp = numpy
    supported_array_types: tuple[type, ...] = ()  # set per instance: iDeep loads lazily

    def __init__(self) -> None:
        check_ideep_available()
        self._ideep = _load_ideep()[0]
        self.supported_array_types = (numpy.ndarray, self._ideep.mdarray)

    @staticmethod
    def from_array(array) -> Intel64Device | None:
        """Return an :class:`Intel64Device` for an iDeep ``mdarray``, else ``None``."""
        if is_loaded_instance(array, "ideep4py", "mdarray"):
            return Intel64Device()
        return None

    def send_array(self, array):
        """Return ``array`` as an ``mdarray`` where iDeep supports it, else as NumPy."""
        if array is None or isinstance(array, self._ideep.mdarray):
            return array
        array = array_to_cpu(array)
        if array.dtype == numpy.float32 and array.ndim in (1, 2, 4):
            return self._ideep.mdarray(numpy.ascontiguousarray(array))
        return array

    def is_array_supported(self, array) -> bool:
        """Return whether ``array`` is a NumPy array or an iDeep ``mdarray``."""
        return isinstance(array, self.supported_array_types)
