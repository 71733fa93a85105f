"""Dropout: zero random elements in training and scale the rest to keep the mean."""

from __future__ import annotations

from chainer import backend
from chainer._ops._util import force_array
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.utils import argument, type_check
from chainer.variable import Variable, as_variable


def check_ratio(ratio: float, name: str = "ratio", one_allowed: bool = False) -> None:
    """Require a probability in ``[0, 1)`` (``[0, 1]`` with ``one_allowed``)."""
    if one_allowed:
        if not 0.0 <= ratio <= 1.0:
            raise ValueError(f"{name} must be in the range [0, 1], got {ratio!r}")
    elif not 0.0 <= ratio < 1.0:
        raise ValueError(f"{name} must be in the range [0, 1), got {ratio!r}")


class Dropout(FunctionNode):
    """``x * mask`` where ``mask`` is ``0`` with probability ``dropout_ratio`` and
    ``1 / (1 - dropout_ratio)`` otherwise.

    Args:
        dropout_ratio: Probability of dropping each element, in ``[0, 1)``.
        mask: A scaled mask to use instead of a random one (shape of the input).
    """

    is_elementwise = True

    def __init__(self, dropout_ratio: float, mask=None) -> None:
        check_ratio(dropout_ratio)
        self.dropout_ratio = dropout_ratio
        self.mask = mask

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == "f")
        if self.mask is not None:
            mask = type_check.make_variable(self.mask, "mask")
            type_check.expect(mask.shape == x_type.shape)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        if self.mask is None:
            xp = backend.get_array_module(x)
            keep = xp.random.random_sample(x.shape) >= self.dropout_ratio
            self.mask = force_array(keep * x.dtype.type(1.0 / (1.0 - self.dropout_ratio)))
        elif self.mask.dtype != x.dtype:  # the gradient must keep x's dtype too
            self.mask = self.mask.astype(x.dtype)
        return (force_array(x * self.mask),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return ScaleGrad(self.mask).apply(grad_outputs)


def dropout(x, ratio: float = 0.5, **kwargs) -> Variable | tuple:
    """Drops elements of input variable randomly.

    In training (``chainer.config.train``), each element is set to zero with probability
    ``ratio`` and the others are scaled by ``1 / (1 - ratio)``, so the expected value is
    unchanged (Srivastava et al., 2014). In test mode it returns ``x`` as a variable.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.
        ratio: Probability of dropping each element, in ``[0, 1)``.
        mask (keyword only): A mask to use instead of a random one: an array of ``x``'s
            shape holding ``0`` and ``1 / (1 - ratio)`` (as returned by ``return_mask``).
        return_mask (keyword only): Also return the mask used (``None`` in test mode).

    Returns:
        A variable of the shape and dtype of ``x``, or ``(y, mask)`` when ``return_mask``.

    Raises:
        ValueError: ``ratio`` is outside ``[0, 1)``, or the retired ``train`` option is given.

    Example:
        >>> x = numpy.ones((2, 3), numpy.float32)
        >>> with chainer.using_config('train', False):
        ...     F.dropout(x).array
        array([[1., 1., 1.],
               [1., 1., 1.]], dtype=float32)
    """
    mask, return_mask = argument.parse_kwargs(
        kwargs,
        ("mask", None),
        ("return_mask", False),
        train="train argument is not supported anymore. Use chainer.using_config",
    )
    if config.train:
        func = Dropout(ratio, mask)
        y = func.apply((x,))[0]
        mask = func.mask
    else:
        check_ratio(ratio)
        y = as_variable(x)
        mask = None
    if return_mask:
        return y, mask
    return y
