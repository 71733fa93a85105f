"""Embedding lookup: ``y = W[x]``, the linear function of one-hot inputs done efficiently."""

from __future__ import annotations

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.connection._checks import expect_count, expect_float, expect_ndim, fail
from chainer.variable import Variable


def _lookup(x, W, ignore_label):
    """``W[x]`` with zero rows where ``x == ignore_label``."""
    if ignore_label is None:
        return W.take(x, axis=0)
    xp = backend.get_array_module(x)
    ignored = x == ignore_label
    y = W.take(xp.where(ignored, 0, x), axis=0)
    y[ignored] = 0
    return y


class EmbedIDFunction(FunctionNode):
    """``y = W[x]``; ids equal to ``ignore_label`` give zero vectors."""

    def __init__(self, ignore_label=None) -> None:
        self.ignore_label = ignore_label

    def _check_arrays(self, in_data: tuple) -> None:
        expect_count(in_data, 2, 2)
        x, W = in_data
        if x.dtype.kind != "i":
            fail("x.dtype.kind == i", f"x.dtype == {x.dtype}")
        expect_float(W, "W")
        expect_ndim(W, 2, "W")

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        x, W = inputs
        self._check_ids(x, W.shape[0])
        return (_lookup(x, W, self.ignore_label),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x, W = inputs
        if x.device.backend.name == "native" or chainer.is_debug():  # a sync elsewhere
            self._check_ids(chainerx.to_numpy(x), W.shape[0])
        if self.ignore_label is None:
            return (chainerx.take(W, x, axis=0),)
        kept = x != self.ignore_label
        y = chainerx.take(W, chainerx.where(kept, x, 0), axis=0)
        return (y * kept.astype(W.dtype)[..., None],)

    def _check_ids(self, x, n_vocab: int) -> None:
        # W.take would silently wrap negative ids around: reject them instead.
        if x.size == 0:
            return
        valid = x if self.ignore_label is None else x[x != self.ignore_label]
        if valid.size and (int(valid.min()) < 0 or int(valid.max()) >= n_vocab):
            bad = valid[(valid < 0) | (valid >= n_vocab)]
            raise ValueError(
                f"embed_id: every id must satisfy 0 <= x < len(W) = {n_vocab} (or equal "
                f"ignore_label={self.ignore_label!r}), got {int(bad.ravel()[0])}"
            )

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.inputs[0].data
        grad = EmbedIDGrad(self.inputs[1].shape, self.ignore_label)
        return (None, grad.apply((x, grad_outputs[0]))[0])


class EmbedIDGrad(FunctionNode):
    """The gradient of ``W`` from ``(x, gy)``: rows of ``gy`` added at ``x``, ignored ids left
    out. It is linear in ``gy``; its own gradient is :class:`EmbedIDFunction` again."""

    def __init__(self, w_shape: tuple, ignore_label=None) -> None:
        self.w_shape = tuple(w_shape)
        self.ignore_label = ignore_label

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        x, gy = inputs
        xp = backend.get_array_module(x)
        gW = xp.zeros(self.w_shape, dtype=gy.dtype)
        ids = x.ravel()
        rows = gy.reshape(ids.size, self.w_shape[1])
        if self.ignore_label is not None:
            kept = ids != self.ignore_label
            ids, rows = ids[kept], rows[kept]
        if xp is numpy:
            numpy.add.at(gW, ids, rows)
        else:
            import cupyx  # only CuPy arrays reach here; chainer never imports CuPy eagerly

            cupyx.scatter_add(gW, ids, rows)
        return (gW,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.inputs[0].data
        ggy = EmbedIDFunction(self.ignore_label).apply((x, grad_outputs[0]))[0]
        return (None, ggy)


def embed_id(x, W, ignore_label=None) -> Variable:
    """Efficient linear function for one-hot input: ``y = W[x]``.

    Args:
        x: Integer ids of any shape, each in ``[0, len(W))`` or equal to ``ignore_label``.
        W: Embedding matrix of shape ``(n_vocab, n_units)`` (float).
        ignore_label: An id whose output is a zero vector (and whose row gets no gradient).

    Returns:
        A variable of shape ``x.shape + (n_units,)`` and the dtype of ``W``.

    Raises:
        InvalidType: Non-integer ``x`` or a ``W`` that is not a float matrix.
        ValueError: An id out of range.

    Example:
        >>> W = np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2]], np.float32)
        >>> F.embed_id(np.array([2, 1], np.int32), W).array
        array([[2., 2., 2.],
               [1., 1., 1.]], dtype=float32)
        >>> F.embed_id(np.array([2, -1], np.int32), W, ignore_label=-1).array
        array([[2., 2., 2.],
               [0., 0., 0.]], dtype=float32)
    """
    return EmbedIDFunction(ignore_label).apply((x, W))[0]
