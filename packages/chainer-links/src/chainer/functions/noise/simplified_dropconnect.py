"""Linear layer with simplified DropConnect: weights are dropped at random in training."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.array_ops import cast, reshape, sum_to
from chainer.function_node import Fallback, FunctionNode
from chainer.functions.noise.dropout import chainerx_constant, check_ratio
from chainer.utils import type_check
from chainer.variable import Variable


class SimplifiedDropconnect(FunctionNode):
    """``y[n] = (W * mask[n] / (1 - ratio)) @ x[n] + b`` with a boolean ``mask``.

    ``x`` and ``W`` may have different float dtypes (as in Chainer): the products are
    computed in their promoted dtype, ``y`` and ``b`` have ``x``'s dtype and each gradient
    its input's dtype.

    Args:
        ratio: Probability of dropping each weight, in ``[0, 1)``.
        mask: A boolean mask to use instead of a random one: shape ``(N, out, in)`` with
            ``use_batchwise_mask``, else ``(out, in)``.
        use_batchwise_mask: Draw one mask per example rather than one for the whole batch.
    """

    def __init__(self, ratio: float, mask=None, use_batchwise_mask: bool = True) -> None:
        check_ratio(ratio)
        self.ratio = ratio
        self.scale = 1.0 / (1.0 - ratio)
        self.mask = mask.array if isinstance(mask, Variable) else mask
        self.use_batchwise_mask = use_batchwise_mask

    def check_type_forward(self, in_types) -> None:
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        type_check.argname(in_types, ("x", "W", "b")[: type_check.eval(n_in)])
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == "f",
            w_type.dtype.kind == "f",
            x_type.ndim >= 2,
            w_type.ndim == 2,
            type_check.prod(x_type.shape[1:]) == w_type.shape[1],
        )
        if type_check.eval(n_in) == 3:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )
        if self.mask is not None:
            mask = type_check.make_variable(self.mask, "mask")
            if self.use_batchwise_mask:
                type_check.expect(mask.shape[0] == x_type.shape[0], mask.shape[1:] == w_type.shape)
            else:
                type_check.expect(mask.shape == w_type.shape)

    def _scaled_mask(self, dtype):
        return self.mask * dtype.type(self.scale)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        xp = backend.get_array_module(x)
        x = x.reshape(len(x), -1)
        if self.mask is None:
            shape = (len(x),) + W.shape if self.use_batchwise_mask else W.shape
            self.mask = xp.random.random_sample(shape) >= self.ratio
        masked_W = W * self._scaled_mask(W.dtype)
        # (N, out, in) @ (N, in, 1), or (out, in) @ (N, in, 1) broadcast over the batch.
        y = (masked_W @ x[:, :, None])[:, :, 0].astype(x.dtype, copy=False)
        if len(inputs) == 3:
            y += inputs[2]
        return (y,)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        x, W = inputs[:2]
        mask = self.mask
        if x.dtype != W.dtype or (mask is not None and mask.dtype != numpy.bool_):
            return Fallback  # NumPy computes these in a promoted dtype
        x = x.reshape(len(x), -1)
        if mask is None:  # the draw of the NumPy forward, from NumPy's generator
            shape = (len(x),) + W.shape if self.use_batchwise_mask else W.shape
            mask = numpy.random.random_sample(shape) >= self.ratio
        self.mask = chainerx_constant(mask, x.device)
        scaled = self.mask.astype(W.dtype) * W.dtype.type(self.scale)
        y = chainerx.matmul(W * scaled, x[:, :, None])[:, :, 0]
        return (y + inputs[2] if len(inputs) == 3 else y,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, W = self.get_retained_inputs()
        gy = grad_outputs[0]
        n, n_out = gy.shape
        # Computed in the promoted dtype of x and W, then cast to each input's dtype.
        dtype = numpy.promote_types(x.dtype, W.dtype)
        mask = self._scaled_mask(dtype)
        gy_col = _as_dtype(reshape(gy, (n, n_out, 1)), dtype)
        ret = []
        for i in indexes:
            if i == 0:
                gx = sum_to(gy_col * (_as_dtype(W, dtype) * mask), (n, 1, W.shape[1]))
                ret.append(_as_dtype(reshape(gx, x.shape), x.dtype))
            elif i == 1:
                x_row = _as_dtype(reshape(x, (n, 1, -1)), dtype)
                ret.append(_as_dtype(sum_to(gy_col * x_row * mask, W.shape), W.dtype))
            else:
                ret.append(sum_to(gy, (n_out,)))
        return tuple(ret)


def _as_dtype(x: Variable, dtype) -> Variable:
    return x if x.dtype == dtype else cast(x, dtype)


def simplified_dropconnect(
    x,
    W,
    b=None,
    ratio: float = 0.5,
    train: bool = True,
    mask=None,
    use_batchwise_mask: bool = True,
) -> Variable:
    """Linear unit regularized by simplified dropconnect.

    Each weight is dropped with probability ``ratio`` and the kept ones are scaled by
    ``1 / (1 - ratio)`` (Wan et al., 2013, simplified: the mask applies to the weights of the
    linear map only). With ``train=False`` no weight is dropped and this is ``linear``.

    Args:
        x: Input of shape ``(N, ...)``, floating-point; it is flattened to ``(N, in)``.
        W: Weight of shape ``(out, in)``, of any float dtype (cast to ``x``'s to compute).
        b: Optional bias of shape ``(out,)``, of ``x``'s dtype.
        ratio: Probability of dropping each weight, in ``[0, 1)``.
        train: Whether to drop weights (when False, ``ratio`` is treated as 0).
        mask: A boolean mask to use instead of a random one, of shape ``(N, out, in)`` with
            ``use_batchwise_mask`` and ``(out, in)`` otherwise.
        use_batchwise_mask: Draw one mask per example rather than one for the whole batch.

    Returns:
        A variable of shape ``(N, out)`` and ``x``'s dtype.

    Raises:
        ValueError: ``ratio`` is outside ``[0, 1)``.

    Example:
        >>> x = numpy.ones((2, 3), numpy.float32)
        >>> W = numpy.ones((4, 3), numpy.float32)
        >>> F.simplified_dropconnect(x, W, train=False).array
        array([[3., 3., 3., 3.],
               [3., 3., 3., 3.]], dtype=float32)
    """
    if not train:
        ratio = 0.0
    func = SimplifiedDropconnect(ratio, mask, use_batchwise_mask)
    inputs = (x, W) if b is None else (x, W, b)
    return func.apply(inputs)[0]
