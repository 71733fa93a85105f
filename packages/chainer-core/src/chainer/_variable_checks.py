"""Validation and text helpers for ``chainer.variable`` (kept out of the hot class body)."""

from __future__ import annotations

import numpy

# Array types from optional backends, recognized by the top-level module of their class so
# that checking a value never imports cupy, chainerx or ideep.
_BACKEND_MODULES = frozenset({"cupy", "chainerx", "ideep4py", "cupy_backends"})


def is_supported_array(value) -> bool:
    if isinstance(value, numpy.ndarray):
        return True
    module = type(value).__module__.partition(".")[0]
    return module in _BACKEND_MODULES and hasattr(value, "shape") and hasattr(value, "dtype")


_chainerx_ndarray: type | None = None  # chainerx.ndarray, once one has been seen


def is_chainerx_array(value) -> bool:
    global _chainerx_ndarray
    cls = type(value)
    if cls is _chainerx_ndarray:
        return True
    if cls.__module__.partition(".")[0] != "chainerx":
        return False
    if cls.__name__ == "ndarray":
        _chainerx_ndarray = cls
    return True


def chainerx_error() -> type[Exception]:
    """``chainerx.ChainerxError`` (imported only where ChainerX arrays are at hand)."""
    import chainerx

    return chainerx.ChainerxError


def check_array_type(value, what: str) -> None:
    if not is_supported_array(value):
        raise TypeError(
            f"Variable {what} must be a numpy.ndarray, cupy.ndarray or chainerx.ndarray "
            f"(or None), but got {type(value).__module__}.{type(value).__qualname__}"
        )


def check_grad(var, g) -> None:
    """Raise unless ``g`` can be the gradient of ``var`` (same array kind, dtype and shape)."""
    check_array_type(g, "grad")
    array = var._array
    if array is None:
        return
    if type(g) is not type(array) and not (
        isinstance(g, numpy.ndarray) and isinstance(array, numpy.ndarray)
    ):
        raise TypeError(
            f"the gradient of {_describe(var)} must be a {type(array).__module__}."
            f"{type(array).__qualname__} like its "
            f"array, but got {type(g).__module__}.{type(g).__qualname__}"
        )
    if g.dtype != array.dtype:
        raise TypeError(
            f"the gradient of {_describe(var)} must have dtype {array.dtype}, got {g.dtype}"
        )
    if g.shape != array.shape:
        raise ValueError(
            f"the gradient of {_describe(var)} must have shape {array.shape}, got {g.shape}"
        )


def _describe(var) -> str:
    return "a variable" if var._name is None else f"variable {var._name!r}"


def to_numpy(array):
    """A NumPy view or copy of any supported array, for printing."""
    if isinstance(array, numpy.ndarray):
        return array
    get = getattr(array, "get", None)  # cupy
    if get is not None:
        return get()
    return numpy.asarray(array)


def array_text(var, repr_style: bool) -> str:
    """``variable NAME(ARRAY)`` as v7 prints it for ``repr`` (comma-separated, the shape of
    an empty array other than ``(0,)``) or ``str``."""
    prefix = "variable" if var._name is None else f"variable {var._name}"
    array = var._array
    if array is None:
        body = "None"
    else:
        array = to_numpy(array)
        if not repr_style:
            body = numpy.array2string(array, prefix=prefix + "(")
        elif array.size == 0 and array.shape != (0,):
            body = f"[], shape={array.shape!r}"
        else:
            body = numpy.array2string(array, prefix=prefix + "(", separator=", ", sign=None)
    return f"{prefix}({body})"


def _stats(array) -> str:
    a = to_numpy(array)
    if a.size == 0:
        return "(empty)"
    return f"mean={float(a.mean()):.8f}, std={float(a.std()):.8f}"


def _device_text(array) -> str:
    # v7's wording: CPU for NumPy, the array's own device otherwise (<CUDA Device 0>, ...).
    if isinstance(array, numpy.ndarray):
        return "CPU"
    return str(array.device)


def debug_text(var) -> str:
    """The multi-line text of ``Variable.debug_print`` (v7's layout)."""
    array = var._array
    if array is None:
        fields = dict.fromkeys(("device", "backend", "shape", "dtype", "statistics"), "None")
    else:
        fields = {
            "device": _device_text(array),
            "backend": str(type(array)),
            "shape": str(array.shape),
            "dtype": str(array.dtype),
            "statistics": _stats(array),
        }
    grad = None if var._grad_var is None else var._grad_var._array
    if grad is None:
        fields["grad"] = "None"
    elif to_numpy(grad).size and not to_numpy(grad).any():
        fields["grad"] = "0"
    else:
        fields["grad"] = _stats(grad)
    return "\n".join([var.summary()] + [f"- {key}: {value}" for key, value in fields.items()])
