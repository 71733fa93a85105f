"""The convolution kernels to run on an array: per-sample or batch-last layout.

Both layouts compute the same values. The per-sample layout (:mod:`._conv_nchw`) copies
im2col columns in runs of ``out_w``; the batch-last one (:mod:`._conv_batch_last`) in runs of
``out_w * n`` but pays two transpositions per call. Measured on LeNet-sized maps, the copies in
short runs cost about 4 ns per run and a transposition about 1 ns per number, so the
per-sample layout wins when ``out_w * (c_in + c_out) >= 8 * c_in * prod(ksize)`` (wide maps,
few input channels, as in the first layer of a convnet). CuPy arrays always use the
per-sample layout with the CUDA im2col.

The weight gradient needs the forward's im2col columns again. Kept in arrays of their own
(``prod(ksize)`` times the input's memory until backward) they made LeNet's step slower, as
did kept scratch slots of their own (the larger working set slowed the GEMMs more than the
im2col saved). So the forward only claims the columns where they already are, in the
``"col"`` scratch slot (:class:`._scratch.Kept`), and the weight gradient reads them back if
nothing used that slot since: the case of the last convolution of a forward, whose weight
gradient the backward computes before its input gradient.
"""

from __future__ import annotations

import contextlib
import math

import numpy

from chainer.functions.connection import _conv_batch_last, _conv_nchw


def _layout(x, c_in: int, c_out: int, ksize, out_w: int):
    if not isinstance(x, numpy.ndarray) or x.shape[0] == 1:
        return _conv_nchw
    if out_w * (c_in + c_out) >= 8 * c_in * math.prod(ksize):
        return _conv_nchw
    return _conv_batch_last


def conv(x, W, b, stride, pad, dilate, groups: int, outs, keep=None):
    """``(n, c_in, *dims) -> (n, c_out, *outs)``; ``W`` is ``(c_out, c_in / groups, *ksize)``.

    ``keep`` (a :class:`._scratch.Kept`) holds the columns for :func:`conv_weight_grad`
    where the kernel can.
    """
    layout = _layout(x, x.shape[1], W.shape[0], W.shape[2:], outs[-1])
    return layout.conv(x, W, b, stride, pad, dilate, groups, outs, keep=keep)


def conv_transpose(x, W, b, stride, pad, dilate, groups: int, dims):
    """The adjoint of :func:`conv` in its input: ``(n, c_out, *outs) -> (n, c_in, *dims)``."""
    layout = _layout(x, W.shape[1] * groups, W.shape[0], W.shape[2:], x.shape[-1])
    return layout.conv_transpose(x, W, b, stride, pad, dilate, groups, dims)


def conv_weight_grad(x, gy, ksize, stride, pad, dilate, groups: int, kept=None):
    """The adjoint of :func:`conv` in ``W``: ``(c_out, c_in / groups, *ksize)``.

    ``kept`` is the ``keep`` of the :func:`conv` of this ``x`` (the same array, unchanged
    since, with the same geometry): its columns are used while they are held.
    """
    layout = _layout(x, x.shape[1], gy.shape[1], ksize, gy.shape[-1])
    return layout.conv_weight_grad(x, gy, ksize, stride, pad, dilate, groups, kept=kept)


def sharing_output_gradient(gy) -> contextlib.AbstractContextManager[None]:
    """A context in which the kernels transpose the output gradient ``gy`` (an array) once for
    both backward kernels of a convolution (:func:`._conv_batch_last.one_batch_last_copy`)."""
    return _conv_batch_last.one_batch_last_copy(gy)
