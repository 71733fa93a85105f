"""Zoneout: keep random elements of the previous state instead of the new one."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops._util import force_array
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.functions.noise.dropout import check_ratio
from chainer.utils import argument, type_check
from chainer.variable import Variable, as_variable


class Zoneout(FunctionNode):
    """``h`` with probability ``zoneout_ratio`` and ``x`` otherwise, element by element.

    Args:
        zoneout_ratio: Probability of keeping the previous state ``h``, in ``[0, 1]``.
    """

    is_elementwise = True

    def __init__(self, zoneout_ratio: float) -> None:
        check_ratio(zoneout_ratio, allow_one=True)
        self.zoneout_ratio = zoneout_ratio
        self.flag_x = self.flag_h = None  # set by forward

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("h", "x"))
        h_type, x_type = in_types
        type_check.expect(
            h_type.dtype.kind == "f",
            x_type.dtype == h_type.dtype,
            x_type.shape == h_type.shape,
        )

    def forward(self, inputs: tuple) -> tuple:
        h, x = inputs
        xp = backend.get_array_module(x)
        # rand(*shape), as in Chainer: code that fixes the draw by patching it keeps working.
        take_x = xp.asarray(xp.random.rand(*x.shape)) >= self.zoneout_ratio
        self.flag_x = take_x
        self.flag_h = ~take_x
        return (force_array(xp.where(take_x, x, h)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        h, x = inputs
        if self.flag_x is None:  # drawn once per node (a recomputation keeps the choice)
            # The draw of the NumPy forward, from NumPy's generator; the flags live on the device.
            take_x = numpy.asarray(numpy.random.rand(*x.shape)) >= self.zoneout_ratio
            self.flag_x = chainerx.asarray(take_x, device=x.device)
            self.flag_h = chainerx.logical_not(self.flag_x)
        return (chainerx.where(self.flag_x, x, h),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        flags = (self.flag_h, self.flag_x)
        return tuple(ScaleGrad(flags[i]).apply(grad_outputs)[0] for i in indexes)


def zoneout(h, x, ratio: float = 0.5, **kwargs) -> Variable:
    """Drops elements of input variable and sets to previous variable randomly.

    In training (``chainer.config.train``), each element of the result is taken from the
    previous state ``h`` with probability ``ratio`` and from the new state ``x`` otherwise
    (Krueger et al., 2017). In test mode it returns ``x`` as a variable.

    Args:
        h: Previous state, a variable or array of floating-point dtype.
        x: New state, of ``h``'s shape and dtype.
        ratio: Probability of keeping each element of ``h``, in ``[0, 1]``.

    Returns:
        A variable of ``x``'s shape and dtype.

    Raises:
        ValueError: ``ratio`` is outside ``[0, 1]``, or the retired ``train`` option is given.

    Example:
        >>> h = numpy.zeros(4, numpy.float32)
        >>> x = numpy.ones(4, numpy.float32)
        >>> with chainer.using_config('train', False):
        ...     F.zoneout(h, x).array
        array([1., 1., 1., 1.], dtype=float32)
    """
    argument.check_unexpected_kwargs(
        kwargs, train="train argument is not supported anymore. Use chainer.using_config"
    )
    argument.assert_kwargs_empty(kwargs)
    if config.train:
        return Zoneout(ratio).apply((h, x))[0]
    check_ratio(ratio, allow_one=True)
    return as_variable(x)
