"""Negative sampling: a logistic loss on the target word and a few sampled other words."""

from __future__ import annotations

import chainer
from chainer import backend
from chainer._ops import array_ops
from chainer._ops.get_item import GetItemGrad, get_item
from chainer.function_node import FunctionNode
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.loss import _checks
from chainer.utils import argument, force_array, type_check
from chainer.variable import Variable


class NegativeSampling(FunctionNode):
    """Negative-sampling loss of ``x`` against rows of ``W`` (samples drawn in forward)."""

    ignore_label = -1
    samples = None

    def __init__(self, sampler, sample_size: int, reduce: str = "sum") -> None:
        _checks.check_reduce(reduce, ("sum", "no"))
        if not callable(sampler):
            raise TypeError(f"sampler must be callable (shape -> int array), got {sampler!r}")
        if sample_size < 0:
            raise ValueError(f"sample_size must be non-negative, got {sample_size}")
        self.sampler = sampler
        self.sample_size = sample_size
        self.reduce = reduce

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x", "t", "W"))
        x_type, t_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == "f",
            x_type.ndim == 2,
            t_type.dtype.kind == "i",
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
            w_type.dtype == x_type.dtype,
            w_type.ndim == 2,
            w_type.shape[1] == x_type.shape[1],
        )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 2))
        x, t, W = inputs
        xp = backend.get_array_module(x)
        _checks.check_labels(t, len(W), self.ignore_label)
        # Column 0 is the target (a positive example), the others are sampled negatives.
        samples = xp.array(self.sampler((len(t), self.sample_size + 1)))
        samples[:, 0] = t
        self.samples = samples
        self._kept = (t != self.ignore_label).astype(x.dtype)[:, None]
        signs = xp.ones(samples.shape[1], x.dtype)
        signs[0] = -1
        self._signs = signs
        wx = xp.matmul(W[samples], x[:, :, None])[:, :, 0]
        # -log sigmoid(w.x) for the target, -log sigmoid(-w.x) for the negatives
        loss = (xp.logaddexp(wx * signs, 0) * self._kept).sum(axis=1)
        if self.reduce == "sum":
            return (xp.asarray(loss.sum(), dtype=x.dtype),)
        return (force_array(loss, x.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x, t, W = inputs
        if x.device.backend.name == "native" or chainer.is_debug():  # a sync elsewhere
            _checks.check_labels(chainerx.to_numpy(t), len(W), self.ignore_label)
        drawn = chainerx.array(self.sampler((len(t), self.sample_size + 1)), device=x.device)
        # Column 0 is the target (a positive example), the others are sampled negatives.
        self.samples = samples = chainerx.concatenate(
            (t.astype(drawn.dtype)[:, None], drawn[:, 1:]), axis=1
        )
        kept = (t != self.ignore_label).astype(x.dtype)[:, None]
        signs = chainerx.ones(samples.shape[1], x.dtype, x.device)
        signs = chainerx.concatenate((-signs[:1], signs[1:]))
        wx = (chainerx.take(W, samples, axis=0) * x[:, None, :]).sum(axis=2)
        # log(1 + exp(z)) = max(z, 0) + log1p(exp(-|z|)), for z = -w.x (target), w.x (others)
        z = wx * signs
        loss = ((chainerx.maximum(z, 0) + chainerx.log1p(chainerx.exp(-abs(z)))) * kept).sum(1)
        return (loss.sum() if self.reduce == "sum" else loss,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, W = self.get_retained_inputs()
        gy = grad_outputs[0]
        if self.reduce == "no":
            gy = array_ops.reshape(gy, (-1, 1))
        rows = get_item(W, self.samples)  # (batch, samples, units)
        x3 = array_ops.reshape(x, (x.shape[0], 1, x.shape[1]))
        signs = Variable(self._signs, requires_grad=False)
        wx = array_ops.sum(rows * x3, axis=2)
        # d/d(wx) of log(1 + exp(sign * wx)) is sign * sigmoid(sign * wx)
        g = sigmoid(wx * signs) * signs * Variable(self._kept, requires_grad=False) * gy
        g3 = array_ops.reshape(g, g.shape + (1,))
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(array_ops.sum(g3 * rows, axis=1))
            elif i == 2:
                ret.append(GetItemGrad((self.samples,), W.shape, W.dtype).apply((g3 * x3,))[0])
            else:
                ret.append(None)
        return tuple(ret)


def negative_sampling(x, t, W, sampler, sample_size: int, reduce: str = "sum", **kwargs):
    """Negative sampling loss (Mikolov et al., 2013), as used to train word2vec.

    For each row the loss is ``-log sigmoid(W[t] . x) - sum_k log sigmoid(-W[s_k] . x)``
    over ``sample_size`` indices ``s_k`` drawn by ``sampler``. Rows labelled ``-1`` cost 0.

    Args:
        x: Input vectors of shape ``(N, D)``, float.
        t: Integer targets of shape ``(N,)`` in ``[0, V)``, or -1 to ignore the row.
        W: Output embeddings of shape ``(V, D)``, of the dtype of ``x``.
        sampler: Callable taking a shape and returning an int array of indices in ``[0, V)``
            (e.g. ``chainer.utils.WalkerAlias(p).sample``).
        sample_size: Number of negative samples per row.
        reduce: ``'sum'`` for the total, ``'no'`` for one loss per row.
        return_samples (bool): Keyword only; also return the ``(N, sample_size + 1)`` index
            array used (column 0 holds ``t``).

    Returns:
        The loss variable (scalar or shape ``(N,)``), or ``(loss, samples)`` with
        ``return_samples=True``.

    Example:
        >>> x = numpy.zeros((2, 3), numpy.float32)
        >>> W = numpy.ones((5, 3), numpy.float32)
        >>> sampler = lambda shape: numpy.zeros(shape, numpy.int32)
        >>> F.negative_sampling(x, numpy.array([1, 2], numpy.int32), W, sampler, 2).array
        array(4.158883, dtype=float32)
    """
    (return_samples,) = argument.parse_kwargs(kwargs, ("return_samples", False))
    func = NegativeSampling(sampler, sample_size, reduce)
    loss = func.apply((x, t, W))[0]
    if return_samples:
        return loss, func.samples
    return loss
