"""CPU convolution kernels in a batch-last layout: one GEMM per group for the whole batch.

Images are moved from ``(n, c, *dims)`` to ``(c, *dims, n)`` for im2col, so that its copies
and the additions of col2im move runs of ``out_w * n`` numbers: on small feature maps (short
rows) that is several times faster than the per-sample layout. The column matrix
``(c * prod(ksize), prod(outs) * n)`` then feeds a single GEMM (per group). Results are copied
back to contiguous ``(n, c, *dims)`` arrays (fused with the bias), because NumPy runs
element-wise operations on operands of different memory layouts many times slower.

The functions take the arguments of those in :mod:`._conv_nchw` and return the same values.
Their temporaries (the transposed input, the columns, the GEMM result) are :mod:`._scratch`
buffers; only the results are fresh arrays.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Iterator

import numpy

from chainer.functions import _scratch
from chainer.functions.connection._conv_nchw import bias_operand, group_matmul, grouped_weight
from chainer.functions.connection._im2col_cpu import col2im, im2col


def _batch_last(x):
    """``(n, c, *dims) -> (c, *dims, n)`` (a view)."""
    return x.transpose(*range(1, x.ndim), 0)


#: Bytes of batch-last input that :func:`_batch_first` transposes per NumPy call: a block
#: that stays in the L1 cache. NumPy's strided copy reads a whole large array with the stride
#: of the batch, missing the cache on every line; in blocks of channels of about this size
#: the transposition took 0.6 of the time on LeNet's maps (Python's loop included). The bias
#: is added afterwards in one contiguous pass (0.2 more; adding it while transposing took as
#: long as the whole plain transposition).
TRANSPOSE_BLOCK_BYTES = 36 * 2**10

#: At most this many blocks (above, one call: the loop would cost more than it saves).
TRANSPOSE_MAX_BLOCKS = 64


def _batch_first(y, b) -> numpy.ndarray:
    """Batch-last ``(c, *dims, n)`` to a new contiguous ``(n, c, *dims)``, plus the bias."""
    view = y.transpose(y.ndim - 1, *range(y.ndim - 1))
    out = numpy.empty(view.shape, dtype=y.dtype)
    c = y.shape[0]
    step = max(1, TRANSPOSE_BLOCK_BYTES // max(1, y[0].nbytes))
    if step >= c or -(-c // step) > TRANSPOSE_MAX_BLOCKS:
        step = c
    for start in range(0, c, step):
        numpy.copyto(out[:, start : start + step], view[:, start : start + step])
    if b is not None:  # the same sums as ``view + plane``, in a contiguous pass
        out += bias_operand(b, out)
    return out


def _columns(x, ksize, stride, pad, dilate, outs, groups: int):
    """``(g, c / g * prod(ksize), prod(outs) * n)`` columns of ``x`` ``(n, c, *dims)``."""
    col = im2col(_batch_last(x), ksize, stride, pad, dilate, outs, scratch=True)
    return col.reshape(groups, x.shape[1] // groups * math.prod(ksize), _positions(x, outs))


class _SharedCopy(threading.local):
    """The array whose batch-last copy is being shared, and that copy once made."""

    source = None
    copy = None


_shared = _SharedCopy()


@contextlib.contextmanager
def one_batch_last_copy(a) -> Iterator[None]:
    """Within the block, :func:`_grouped_batch_last` copies the array ``a`` once and hands the
    same copy to every kernel that asks for it (in its own scratch slot).

    The input gradient and the weight gradient of a convolution both transpose its output
    gradient; ``a`` must not be written to inside the block.
    """
    saved = _shared.source, _shared.copy
    _shared.source, _shared.copy = a, None
    try:
        yield
    finally:
        _shared.source, _shared.copy = saved


def _grouped_batch_last(a, groups: int):
    """``(n, g * m, *dims) -> (g, m, prod(dims) * n)``, a copy in the ``"in"`` scratch slot
    (``"in-shared"`` for the array of :func:`one_batch_last_copy`)."""
    shape = (groups, a.shape[1] // groups, _positions(a, a.shape[2:]))
    if a is _shared.source and _shared.copy is not None:
        return _shared.copy.reshape(shape)
    view = _batch_last(a)
    copy = _scratch.empty("in-shared" if a is _shared.source else "in", view.shape, a.dtype)
    numpy.copyto(copy, view)
    if a is _shared.source:
        _shared.copy = copy
    return copy.reshape(shape)


def _scratch_matmul(slot: str, a, b):
    """``a @ b`` over a leading group axis, into the scratch buffer ``slot``."""
    out = _scratch.empty(slot, (a.shape[0], a.shape[1], b.shape[2]), a.dtype)
    if a.shape[0] == 1:
        numpy.dot(a[0], b[0], out=out[0])
    else:
        numpy.matmul(a, b, out=out)
    return out


def _positions(x, outs) -> int:
    """``prod(outs) * n``, spelled out: with an empty batch, a ``-1`` would be ambiguous."""
    return math.prod(outs) * x.shape[0]


def conv(x, W, b, stride, pad, dilate, groups: int, outs, keep=None):
    """The convolution of ``x`` ``(n, c_in, *dims)``: ``(n, c_out, *outs)``; ``keep`` (a
    :class:`._scratch.Kept`) holds its columns for :func:`conv_weight_grad`."""
    col = _columns(x, W.shape[2:], stride, pad, dilate, outs, groups)
    if keep is not None:
        keep.hold("col", col)
    y = _scratch_matmul("out", grouped_weight(W, groups, x.dtype), col)
    return _batch_first(y.reshape(W.shape[0], *outs, x.shape[0]), b)


def conv_transpose(x, W, b, stride, pad, dilate, groups: int, dims):
    """The adjoint of :func:`conv` in its input: ``(n, c_out, *outs) -> (n, c_in, *dims)``."""
    n, _, *outs = x.shape
    w = grouped_weight(W, groups, x.dtype).transpose(0, 2, 1)
    col = _scratch_matmul("col", w, _grouped_batch_last(x, groups))
    col = col.reshape(W.shape[1] * groups, *W.shape[2:], *outs, n)
    return _batch_first(col2im(col, stride, pad, dilate, dims, scratch=True), b)


def conv_weight_grad(x, gy, ksize, stride, pad, dilate, groups: int, kept=None):
    """The adjoint of :func:`conv` in ``W``: ``(c_out, c_in / groups, *ksize)``; the columns
    of ``x`` are those that :func:`conv` held in ``kept`` while it still has them."""
    col = None if kept is None else kept.reclaim()
    if col is None:
        col = _columns(x, ksize, stride, pad, dilate, gy.shape[2:], groups)
    gW = group_matmul(_grouped_batch_last(gy, groups), col.transpose(0, 2, 1))
    return gW.reshape(gy.shape[1], x.shape[1] // groups, *ksize)
