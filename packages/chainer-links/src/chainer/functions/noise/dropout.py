"""Dropout: zero random elements in training and scale the rest to keep the mean."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.graph_optimizations.static_graph_utilities import static_code
from chainer.utils import argument, type_check
from chainer.variable import Variable, as_variable


def check_ratio(ratio: float, name: str = "ratio", allow_one: bool = False) -> None:
    """Require a dropping probability in ``[0, 1)`` (``[0, 1]`` with ``allow_one``)."""
    if allow_one and 0.0 <= ratio <= 1.0:
        return
    if not 0.0 <= ratio < 1.0:
        upper = "]" if allow_one else ")"
        raise ValueError(f"{name} must be in the range [0, 1{upper}, got {ratio!r}")


def _random_mask(xp, shape: tuple, dtype, ratio: float):
    """``0`` with probability ``ratio``, ``1 / (1 - ratio)`` otherwise, of ``dtype``."""
    keep = xp.random.random_sample(shape) >= ratio
    return (keep * dtype.type(1.0 / (1.0 - ratio))).astype(dtype, copy=False)


def chainerx_constant(array, device, dtype=None):
    """``array`` (NumPy or ChainerX) as a constant of a ChainerX graph: on ``device``, out of
    any graph, cast to ``dtype`` if given."""
    import chainerx

    if isinstance(array, chainerx.ndarray):
        array = array.as_grad_stopped()
    if dtype is not None:
        array = array.astype(dtype, copy=False)
    return chainerx.asarray(array, device=device)


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

    # A static schedule (chainer.static_graph) replays only _apply_mask: a new random mask is
    # drawn into the same array on every call, while calling forward again on this node
    # reuses its mask.
    _supports_static_optimizations = True

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        xp = backend.get_array_module(x)
        draw = self.mask is None
        if draw:
            self.mask = xp.empty(x.shape, x.dtype)
        elif self.mask.dtype != x.dtype:  # the gradient must keep x's dtype too
            self.mask = self.mask.astype(x.dtype)
        y = xp.empty(x.shape, x.dtype)
        self._apply_mask(x, y, self.mask, draw)
        return (y,)

    @static_code
    def _apply_mask(self, x, y, mask, draw: bool) -> None:
        xp = backend.get_array_module(x)
        if draw:
            mask[...] = _random_mask(xp, x.shape, x.dtype, self.dropout_ratio)
        xp.multiply(x, mask, out=y)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        x = inputs[0]
        mask = self.mask
        if mask is None:  # the draw of the NumPy forward, from NumPy's generator
            mask = _random_mask(numpy, x.shape, x.dtype, self.dropout_ratio)
        self.mask = chainerx_constant(mask, x.device, x.dtype)
        return (x * self.mask,)

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
