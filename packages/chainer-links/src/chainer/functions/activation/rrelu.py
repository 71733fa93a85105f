"""Randomized leaky ReLU: negative inputs are scaled by random slopes while training."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops._util import force_array
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.utils import argument, type_check
from chainer.variable import Variable


class RReLU(FunctionNode):
    """Leaky ReLU whose negative slopes ``r`` are drawn from ``U(lower, upper)`` in training.

    In test mode (``chainer.config.train`` False) every slope is ``(lower + upper) / 2``.

    Args:
        lower: Lower bound of the slopes, ``0 <= lower < upper``.
        upper: Upper bound of the slopes.
        r: Slopes to use instead of random ones in training (shape of the input).
    """

    is_elementwise = True

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, r=None) -> None:
        if not 0.0 <= lower < upper:
            raise ValueError(
                f"rrelu needs 0 <= l < u, got l={lower!r}, u={upper!r}: l is the lower and u "
                "the upper bound of the random slopes"
            )
        self.lower = lower
        self.upper = upper
        self.r = r

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == "f")
        if self.r is not None:
            r = type_check.make_variable(self.r, "r")
            type_check.expect(r.shape == x_type.shape)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        xp = backend.get_array_module(x)
        if not config.train:
            self.r = xp.full(x.shape, (self.lower + self.upper) / 2, dtype=x.dtype)
        elif self.r is None:
            self.r = xp.random.uniform(self.lower, self.upper, x.shape).astype(x.dtype)
        elif self.r.dtype != x.dtype:  # the gradient must keep x's dtype too
            self.r = self.r.astype(x.dtype)
        self.retain_inputs((0,))
        return (force_array(xp.where(x >= 0, x, x * self.r)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x = inputs[0]
        device = backend.get_device_from_array(x)
        # The rules of forward; slopes drawn here stay in self.r, so a second run (for the
        # gradients) uses the same ones. They are drawn on the host, as by the fallback.
        if not config.train:
            self.r = chainerx.full(x.shape, (self.lower + self.upper) / 2, x.dtype, x.device)
        elif self.r is None:
            self.r = device.send(numpy.random.uniform(self.lower, self.upper, x.shape))
        if not isinstance(self.r, chainerx.ndarray):
            self.r = device.send(self.r)
        if self.r.dtype != x.dtype:
            self.r = self.r.astype(x.dtype)
        return (chainerx.where(x >= 0, x, x * self.r),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0].array
        xp = backend.get_array_module(x)
        return ScaleGrad(xp.where(x >= 0, x.dtype.type(1), self.r)).apply(grad_outputs)


def rrelu(
    x,
    l: float = 1.0 / 8,  # noqa: E741 (Chainer's argument name)
    u: float = 1.0 / 3,
    **kwargs,
) -> Variable | tuple:
    """Randomized Leaky Rectified Linear Unit: :math:`f(x) = x` if :math:`x \\ge 0`, else
    :math:`r x`.

    While training (``chainer.config.train``), each element's slope :math:`r` is drawn from
    :math:`U(l, u)`; in test mode it is :math:`(l + u) / 2`.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.
        l: Lower bound of the slopes, ``0 <= l < u``.
        u: Upper bound of the slopes.
        r (keyword only): Slopes of ``x``'s shape to use instead of random ones (training
            only; cast to ``x``'s dtype).
        return_r (keyword only): Also return the slopes used.

    Returns:
        A variable of the shape and dtype of ``x``, or ``(y, r)`` when ``return_r`` is True.

    Raises:
        ValueError: ``l`` and ``u`` do not satisfy ``0 <= l < u``.

    Example:
        >>> x = numpy.array([-1.0, 2.0], numpy.float32)
        >>> with chainer.using_config('train', False):
        ...     F.rrelu(x, l=0.1, u=0.3).array
        array([-0.2,  2. ], dtype=float32)
    """
    r, return_r = argument.parse_kwargs(
        kwargs,
        ("r", None),
        ("return_r", False),
        train="train argument is not supported anymore. Use chainer.using_config",
    )
    func = RReLU(l, u, r)
    y = func.apply((x,))[0]
    if return_r:
        return y, func.r
    return y
