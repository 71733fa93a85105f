"""Linear layer with simplified DropConnect: weights are dropped at random in training."""

from __future__ import annotations

from chainer import backend
from chainer._ops.array_ops import cast, reshape, sum_to
from chainer.function_node import FunctionNode
from chainer.functions.noise.dropout import check_ratio
from chainer.utils import type_check
from chainer.variable import Variable


class SimplifiedDropconnect(FunctionNode):
    """``y[n] = (W * mask[n] / (1 - ratio)) @ x[n] + b`` with a boolean ``mask``.

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

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, W = self.get_retained_inputs()
        gy = grad_outputs[0]
        n, n_out = gy.shape
        x_mat = reshape(x, (n, -1))
        mask = self._scaled_mask(W.dtype)
        gy_col = reshape(gy, (n, n_out, 1))
        ret = []
        for i in indexes:
            if i == 0:
                masked_W = _in_dtype(W * mask, x.dtype)
                gx = sum_to(gy_col * masked_W, (n, 1, W.shape[1]))
                ret.append(reshape(gx, x.shape))
            elif i == 1:
                gy_x = _in_dtype(gy_col * reshape(x_mat, (n, 1, -1)), W.dtype)
                gW = gy_x * mask
                ret.append(sum_to(gW, W.shape))
            else:
                ret.append(sum_to(gy, (n_out,)))
        return tuple(ret)


def _in_dtype(v: Variable, dtype) -> Variable:
    return v if v.dtype == dtype else cast(v, dtype)


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
        W: Weight of shape ``(out, in)``, of any floating-point dtype (the output and the
            bias have ``x``'s dtype).
        b: Optional bias of shape ``(out,)``.
        ratio: Probability of dropping each weight, in ``[0, 1)``.
        train: Whether to drop weights (when False, ``ratio`` is treated as 0).
        mask: A boolean mask to use instead of a random one, of shape ``(N, out, in)`` with
            ``use_batchwise_mask`` and ``(out, in)`` otherwise.
        use_batchwise_mask: Draw one mask per example rather than one for the whole batch.

    Returns:
        A variable of shape ``(N, out)``.

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
