"""Weight initializers, and :func:`generate_array` to allocate an initialized array.

An initializer is anything that fills an array in place: a :class:`chainer.Initializer`, a
Python or NumPy scalar or an array (a constant fill), a plain callable, or ``None`` for the
default, :class:`LeCunNormal` with scale 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from chainer._dtypes import get_dtype
from chainer.initializers import constant, normal, orthogonal, sampling, uniform
from chainer.initializers._arrays import is_array, is_scalar

if TYPE_CHECKING:
    from chainer.backends._chainerx import ChainerxDevice
from chainer.initializers.constant import Constant, Identity, NaN, One, Zero
from chainer.initializers.normal import GlorotNormal, HeNormal, LeCunNormal, Normal
from chainer.initializers.orthogonal import Orthogonal
from chainer.initializers.sampling import DownsamplingConvFilter, UpsamplingDeconvFilter
from chainer.initializers.uniform import GlorotUniform, HeUniform, LeCunUniform, Uniform

__all__ = [
    "Constant",
    "DownsamplingConvFilter",
    "GlorotNormal",
    "GlorotUniform",
    "HeNormal",
    "HeUniform",
    "Identity",
    "LeCunNormal",
    "LeCunUniform",
    "NaN",
    "Normal",
    "One",
    "Orthogonal",
    "Uniform",
    "UpsamplingDeconvFilter",
    "Zero",
    "constant",
    "generate_array",
    "normal",
    "orthogonal",
    "sampling",
    "uniform",
]


def _resolve_dtype(initializer: Callable, dtype: Any) -> Any:
    # The requested dtype and the initializer's own must agree; with neither, the default.
    own = getattr(initializer, "dtype", None)
    if dtype is not None and own is not None and get_dtype(dtype) != get_dtype(own):
        raise ValueError(
            f"dtype mismatch: generate_array was asked for {get_dtype(dtype)}, but the "
            f"initializer {type(initializer).__name__} has dtype {get_dtype(own)}"
        )
    return get_dtype(dtype if dtype is not None else own)


def generate_array(
    initializer: Callable,
    shape: int | Sequence[int],
    xp: Any,
    dtype: Any | None = None,
    device: Any | None = None,
) -> Any:
    """Return a new array of the given shape, filled by ``initializer``.

    Args:
        initializer: A callable that fills an array in place, such as a
            :class:`chainer.Initializer`.
        shape: Shape of the array.
        xp: Array module of the array: ``numpy``, ``cupy`` or ``chainerx``.
        dtype: Dtype of the array. ``None`` means the initializer's ``dtype`` attribute, or when
            that is ``None`` too, the default dtype (``chainer.get_dtype()``).
        device: Where to allocate the array (any device specifier of
            :func:`chainer.backend.get_device`); ``None`` means the current device of ``xp``.
            It must belong to ``xp``.

    Returns:
        The initialized array.

    Raises:
        ValueError: ``dtype`` differs from the initializer's ``dtype``, or ``device`` does not
            belong to ``xp``.

    Example:
        >>> w = chainer.initializers.generate_array(
        ...     chainer.initializers.HeNormal(), (10, 5), numpy, numpy.float32)
    """
    dtype = _resolve_dtype(initializer, dtype)
    if device is None and xp.__name__ != "chainerx":
        array = xp.empty(shape, dtype=dtype)
        initializer(array)
        return array

    # Explicit devices and ChainerX need the device layer; import it only then.
    from chainer import backend

    backend_device = backend.get_device(device if device is not None else xp.get_default_device())
    if backend_device.xp is not xp:
        raise ValueError(
            f"xp and device are inconsistent: xp is {xp.__name__}, but device "
            f"{backend_device.name!r} uses {backend_device.xp.__name__}"
        )
    if xp.__name__ == "chainerx":
        # Initializers fill NumPy/CuPy arrays: fill one on the fallback device, then move it.
        fallback = cast("ChainerxDevice", backend_device).fallback_device
        return backend_device.send(
            generate_array(initializer, shape, fallback.xp, dtype, fallback)
        )
    with backend.using_device(backend_device):
        array = xp.empty(shape, dtype=dtype)
        initializer(array)
    return array


def _get_initializer(initializer: Any) -> Callable:
    """Turn a user's initializer argument into a callable that fills arrays.

    ``None`` gives ``LeCunNormal()``, a scalar or an array gives ``Constant`` of it, and a
    callable (an :class:`chainer.Initializer` included) is returned as is.
    """
    if initializer is None:
        return LeCunNormal()
    if is_scalar(initializer) or is_array(initializer):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError(
            "initializer must be None, a scalar, an array or a callable such as "
            f"chainer.Initializer, got {type(initializer).__name__}"
        )
    return initializer
