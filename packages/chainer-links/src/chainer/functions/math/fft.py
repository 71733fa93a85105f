"""Fast Fourier transform of complex data given as (real, imaginary) parts."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class FFT(FunctionNode):
    """``fft`` or ``ifft`` over the last axis of ``real + 1j * imag``.

    Both transforms are linear: the gradient of one is the other, scaled by the length.
    """

    def __init__(self, method: str) -> None:
        if method not in ("fft", "ifft"):
            raise ValueError(f"method must be 'fft' or 'ifft', got {method!r}")
        self._method = method

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("real", "imag"))
        r_type, i_type = in_types
        type_check.expect(
            r_type.dtype.kind == "f",
            r_type.dtype == i_type.dtype,
            r_type.ndim > 0,
            r_type.shape == i_type.shape,
        )

    def forward(self, inputs: tuple) -> tuple:
        real, imag = inputs
        xp = backend.get_array_module(real, imag)
        y = getattr(xp.fft, self._method)(real + 1j * imag)
        dtype = real.dtype
        return y.real.astype(dtype), y.imag.astype(dtype)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        shape = self.inputs[0].shape
        n = shape[-1]
        xp = backend.get_array_module(*[g.array for g in grad_outputs if g is not None])
        gr, gi = (
            Variable(xp.zeros(shape, self.inputs[0].dtype), requires_grad=False)
            if g is None
            else g
            for g in grad_outputs
        )
        if self._method == "fft":
            gxr, gxi = FFT("ifft").apply((gr, gi))
            scale = n
        else:
            gxr, gxi = FFT("fft").apply((gr, gi))
            scale = 1.0 / n
        grads = (gxr * scale, gxi * scale)
        return tuple([grads[i] for i in indexes])


def fft(x) -> tuple:
    """Fast Fourier transform over the last axis.

    Args:
        x (tuple): ``(real, imag)``, the real and imaginary parts of the input, two
            :class:`~chainer.Variable` or :ref:`ndarray` of the same shape and floating-point
            dtype.

    Returns:
        tuple: ``(real, imag)`` of the transform, two :class:`~chainer.Variable`.

    Example:
        >>> yr, yi = F.fft((np.array([1.0, 0.0]), np.array([0.0, 0.0])))
        >>> yr.array, yi.array
        (array([1., 1.]), array([0., 0.]))
    """
    real, imag = _parts(x)
    return FFT("fft").apply((real, imag))


def ifft(x) -> tuple:
    """Inverse fast Fourier transform over the last axis.

    Args:
        x (tuple): ``(real, imag)``, the real and imaginary parts of the input, two
            :class:`~chainer.Variable` or :ref:`ndarray` of the same shape and floating-point
            dtype.

    Returns:
        tuple: ``(real, imag)`` of the inverse transform, two :class:`~chainer.Variable`.

    Example:
        >>> yr, yi = F.ifft((np.array([1.0, 1.0]), np.array([0.0, 0.0])))
        >>> yr.array, yi.array
        (array([1., 0.]), array([0., 0.]))
    """
    real, imag = _parts(x)
    return FFT("ifft").apply((real, imag))


def _parts(x) -> tuple:
    if not (isinstance(x, (tuple, list)) and len(x) == 2):
        raise TypeError(
            f"x must be a (real, imag) pair of arrays or variables, got {type(x).__name__}"
        )
    return tuple(x)
