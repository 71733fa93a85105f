"""Local response normalization across neighbouring channels."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


def _sum_neighbours(v, half: int):
    """Sum over channels ``i - half .. i + half`` (clipped at the ends) along axis 1."""
    s = v.copy()
    for offset in range(1, half + 1):
        s[:, offset:] += v[:, :-offset]
        s[:, :-offset] += v[:, offset:]
    return s


class _ChannelWindowSum(FunctionNode):
    """The neighbourhood sum of :func:`_sum_neighbours`; symmetric, so it is its own
    gradient."""

    def __init__(self, half: int) -> None:
        self.half = half

    def forward(self, inputs: tuple) -> tuple:
        return (_sum_neighbours(inputs[0], self.half),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return _ChannelWindowSum(self.half).apply(grad_outputs)


class LocalResponseNormalization(FunctionNode):
    """``y = x * (k + alpha * sum of squares of the n neighbouring channels) ** -beta``."""

    def __init__(self, n=5, k=2, alpha=1e-4, beta=0.75) -> None:
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a positive int, got {n!r}")
        self.half = n // 2
        self.k = k
        self.alpha = alpha
        self.beta = beta

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f", in_types[0].ndim >= 2)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        x = inputs[0]
        dtype = x.dtype.type
        unit = _sum_neighbours(x * x, self.half)
        unit *= dtype(self.alpha)
        unit += dtype(self.k)
        xp = backend.get_array_module(x)
        return (x * xp.power(unit, dtype(-self.beta)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        (x,) = inputs
        squares = x * x
        window = squares
        if self.half:
            channels = x.shape[1]
            edge = chainerx.zeros((x.shape[0], self.half, *x.shape[2:]), x.dtype, x.device)
            padded = chainerx.concatenate((edge, squares, edge), axis=1)
            for offset in range(2 * self.half + 1):
                if offset != self.half:
                    window = window + padded[:, offset : offset + channels]
        unit = window * self.alpha + self.k
        return (x * unit ** (-self.beta),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        # With u = k + alpha * S(x^2) and S symmetric:
        # gx = gy * u^-beta - 2 alpha beta x S(gy * x * u^(-beta - 1)).
        (x,) = self.get_retained_inputs()
        gy = grad_outputs[0]
        window_sum = _ChannelWindowSum(self.half)
        unit = window_sum.apply((x * x,))[0] * self.alpha + self.k
        scale = unit**-self.beta
        inner = _ChannelWindowSum(self.half).apply((gy * x * scale / unit,))[0]
        return (gy * scale - (2 * self.alpha * self.beta) * x * inner,)


def local_response_normalization(x, n=5, k=2, alpha=1e-4, beta=0.75) -> Variable:
    """Local response normalization across neighboring channels.

    :math:`y_i = x_i / (k + \\alpha \\sum_{j=\\max(0, i - n/2)}^{\\min(c - 1, i + n/2)}
    x_j^2)^\\beta`, where ``i`` runs over the channels (axis 1) and ``n/2`` is rounded down.

    Args:
        x: Input of floating-point dtype and shape ``(n, c, ...)``.
        n: Width of the channel neighbourhood (``2 * (n // 2) + 1`` channels are summed).
        k: Bias added to the sum.
        alpha: Scale of the sum.
        beta: Exponent.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.ones((1, 3), numpy.float32)
        >>> F.local_response_normalization(x, n=3, k=1, alpha=1, beta=1).array
        array([[0.33333334, 0.25      , 0.33333334]], dtype=float32)
    """
    return LocalResponseNormalization(n, k, alpha, beta).apply((x,))[0]
