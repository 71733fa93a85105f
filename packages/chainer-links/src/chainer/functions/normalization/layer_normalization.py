"""Layer normalization: normalize each sample over its units."""

from __future__ import annotations

from chainer import backend
from chainer.functions.normalization.batch_normalization import batch_normalization
from chainer.utils import type_check
from chainer.variable import Variable


def layer_normalization(x, gamma, beta, eps=1e-5) -> Variable:
    """Layer normalization.

    Every row of ``x`` is normalized with its own mean and variance, then scaled by ``gamma``
    and shifted by ``beta`` per unit:
    :math:`y_{ij} = \\gamma_j (x_{ij} - \\mu_i) / \\sqrt{\\sigma_i^2 + \\epsilon} + \\beta_j`.

    Args:
        x: Batch of vectors, of floating-point dtype and shape ``(batch_size, unit_size)``.
        gamma: Scale of shape ``(unit_size,)`` and the dtype of ``x``.
        beta: Shift of shape ``(unit_size,)`` and the dtype of ``x``.
        eps: Added to the variances for stability.

    Returns:
        A variable of shape ``(batch_size, unit_size)``.

    Example:
        >>> x = numpy.array([[1.0, 3.0], [0.0, 10.0]], numpy.float32)
        >>> one, zero = numpy.ones(2, numpy.float32), numpy.zeros(2, numpy.float32)
        >>> F.layer_normalization(x, one, zero).array.round(3)
        array([[-1.,  1.],
               [-1.,  1.]], dtype=float32)
    """
    shape = tuple(x.shape)
    if len(shape) != 2:
        raise type_check.InvalidType("x.ndim == 2", f"x.shape == {shape}")
    for name, param in (("gamma", gamma), ("beta", beta)):
        if tuple(param.shape) != shape[1:]:
            raise type_check.InvalidType(
                f"{name}.shape == ({shape[1]},)", f"{name}.shape == {tuple(param.shape)}"
            )
    xp = backend.get_array_module(x)
    ones = xp.ones(shape[0], dtype=x.dtype)
    zeros = xp.zeros(shape[0], dtype=x.dtype)
    x_hat = batch_normalization(x, ones, zeros, eps=eps, axis=1)
    return x_hat * gamma + beta
