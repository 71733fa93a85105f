"""Convolution kernels in the ``(n, c, *dims)`` layout: im2col per sample, batched GEMMs.

They serve CuPy arrays (with the CUDA im2col of :mod:`chainer.utils.conv_nd_kernel`) and the
CPU where output rows are long enough for NumPy's strided copies to run at full speed.
``W`` is ``(c_out, c_in / groups, *ksize)`` for all three kernels:

- :func:`conv`: the convolution ``y = W * x``;
- :func:`conv_transpose`: its adjoint in ``x`` (the deconvolution, and the input gradient);
- :func:`conv_weight_grad`: its adjoint in ``W`` (the weight gradient).

On the CPU the columns and other temporaries are :mod:`._scratch` buffers. Reshapes spell
every size out: with an empty batch, a ``-1`` would be ambiguous.
"""

from __future__ import annotations

import math

import numpy

from chainer import backend
from chainer.functions import _scratch
from chainer.functions.connection import _im2col_cpu
from chainer.utils import conv_nd_kernel


def grouped_weight(W, groups: int, dtype):
    """``(c_out, c_in / g, *ksize) -> (g, c_out / g, c_in / g * prod(ksize))``."""
    return W.astype(dtype, copy=False).reshape(groups, W.shape[0] // groups, W[0].size)


def group_matmul(a, b):
    """``a @ b`` over a leading group axis; a single ``dot`` when there is one group."""
    if a.shape[0] == 1:
        return a[0].dot(b[0])[None]
    return backend.get_array_module(a).matmul(a, b)


def _im2col(x, ksize, stride, pad, dilate, outs):
    """``(n, c, *dims) -> (n, c, *ksize, *outs)`` (a scratch buffer on the CPU)."""
    if not isinstance(x, numpy.ndarray):
        return conv_nd_kernel.im2col(x, ksize, stride, pad, dilate, outs)
    n, c, *dims = x.shape
    img = x.reshape(n * c, *dims, 1)
    col = _im2col_cpu.im2col(img, ksize, stride, pad, dilate, outs, scratch=True)
    return col.reshape(n, c, *ksize, *outs)


def _matmul(slot: str, a, b):
    """``a @ b`` (``matmul``), into the scratch buffer ``slot`` on the CPU."""
    if not isinstance(b, numpy.ndarray):
        return backend.get_array_module(b).matmul(a, b)
    shape = numpy.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
    return numpy.matmul(a, b, out=_scratch.empty(slot, shape, b.dtype))


def _col2im(col, stride, pad, dilate, dims):
    """``(n, c, *ksize, *outs) -> (n, c, *dims)``, contiguous."""
    if not isinstance(col, numpy.ndarray):
        return conv_nd_kernel.col2im(col, stride, pad, dims, dilate)
    n, c = col.shape[:2]
    img = _im2col_cpu.col2im(col.reshape(n * c, *col.shape[2:], 1), stride, pad, dilate, dims)
    img = img.reshape(n, c, *dims)
    # A 1x1 kernel gives back ``col`` itself, a scratch buffer that must not escape.
    return img.copy() if numpy.may_share_memory(img, col) else numpy.ascontiguousarray(img)


def bias_operand(b, y):
    """``b`` ``(c,)`` shaped to be added to ``y`` ``(n, c, *dims)``.

    For a NumPy batch of more than one sample, that is ``b`` repeated over ``dims`` (a
    ``(c, *dims)`` scratch buffer): NumPy adds that contiguous operand about twice as fast as
    ``b`` broadcast along each row (measured on LeNet's feature maps). Same sums, bitwise.
    """
    b = b.astype(y.dtype, copy=False)
    if not isinstance(y, numpy.ndarray) or y.shape[0] < 2:
        return b.reshape((1, -1) + (1,) * (y.ndim - 2))
    plane = _scratch.empty("bias", y.shape[1:], y.dtype)
    numpy.copyto(plane, b.reshape((-1,) + (1,) * (y.ndim - 2)))
    return plane


def _add_bias(y, b) -> None:
    if b is not None:
        y += bias_operand(b, y)


def conv(x, W, b, stride, pad, dilate, groups: int, outs, keep=None):
    """The convolution of ``x`` ``(n, c_in, *dims)``: ``(n, c_out, *outs)``.

    For a single sample on the CPU, ``keep`` (a :class:`._scratch.Kept`) holds its columns
    for :func:`conv_weight_grad`: they are its group-major columns too. (For more, those
    are another order, and reordering them costs as much as im2col.)
    """
    n, c_in = x.shape[:2]
    ksize = W.shape[2:]
    col = _im2col(x, ksize, stride, pad, dilate, outs)
    col = col.reshape(n, groups, c_in // groups * math.prod(ksize), math.prod(outs))
    if keep is not None and n == 1 and isinstance(col, numpy.ndarray):
        keep.hold("col", col[0])
    xp = backend.get_array_module(x)
    y = xp.matmul(grouped_weight(W, groups, x.dtype), col).reshape(n, W.shape[0], *outs)
    _add_bias(y, b)
    return y


def conv_transpose(x, W, b, stride, pad, dilate, groups: int, dims):
    """The adjoint of :func:`conv` in its input: ``(n, c_out, *outs) -> (n, c_in, *dims)``."""
    n, _, *outs = x.shape
    ksize = W.shape[2:]
    w = grouped_weight(W, groups, x.dtype).transpose(0, 2, 1)
    col = _matmul("col", w, x.reshape(n, groups, W.shape[0] // groups, math.prod(outs)))
    y = _col2im(col.reshape(n, W.shape[1] * groups, *ksize, *outs), stride, pad, dilate, dims)
    _add_bias(y, b)
    return y


def _group_major(a, groups: int):
    """``(n, g * m, ...) -> (g, m, n * prod(...))``: the batch joins the contracted axis (a
    copy in the ``"in"`` scratch buffer on the CPU)."""
    n, m, rest = a.shape[0], a.shape[1] // groups, math.prod(a.shape[2:])
    a = a.reshape(n, groups, m, rest).transpose(1, 2, 0, 3)
    if isinstance(a, numpy.ndarray):
        copy = _scratch.empty("in", a.shape, a.dtype)
        numpy.copyto(copy, a)
        a = copy
    return a.reshape(groups, m, n * rest)


def _group_major_columns(x, ksize, stride, pad, dilate, outs, groups: int):
    """``(g, c / g * prod(ksize), n * prod(outs))`` columns of ``x`` ``(n, c, *dims)``.

    On the CPU, im2col writes them in this order directly: the batch is one more spatial
    axis of ``(c, n, *dims)``, with a kernel of 1.
    """
    n, c = x.shape[:2]
    if not isinstance(x, numpy.ndarray):
        col = _im2col(x, ksize, stride, pad, dilate, outs)
        return _group_major(col.reshape(n, c * math.prod(ksize), math.prod(outs)), groups)
    col = _im2col_cpu.im2col(
        x.swapaxes(0, 1)[..., None],
        (1, *ksize),
        (1, *stride),
        (0, *pad),
        (1, *dilate),
        (n, *outs),
        scratch=True,
    )
    return col.reshape(groups, c // groups * math.prod(ksize), n * math.prod(outs))


def conv_weight_grad(x, gy, ksize, stride, pad, dilate, groups: int, kept=None):
    """The adjoint of :func:`conv` in ``W``: ``(c_out, c_in / groups, *ksize)``; the columns
    of ``x`` are those that :func:`conv` held in ``kept`` while it still has them."""
    n, c_in = x.shape[:2]
    col = None if kept is None else kept.reclaim()
    if col is None:
        col = _group_major_columns(x, ksize, stride, pad, dilate, gy.shape[2:], groups)
    gW = group_matmul(_group_major(gy, groups), col.transpose(0, 2, 1))
    return gW.reshape(gy.shape[1], c_in // groups, *ksize)
