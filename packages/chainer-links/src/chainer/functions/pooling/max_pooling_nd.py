"""Max pooling over 1, 2, 3 or any number of spatial axes."""

from __future__ import annotations

import numpy

from chainer.function_node import Fallback
from chainer.functions.pooling import _pairwise_max, _windows
from chainer.functions.pooling._windows import Window, WindowScatter
from chainer.functions.pooling.pooling_nd import _PoolingND
from chainer.variable import Variable, _new_variable


class MaxPoolingND(_PoolingND):
    """Max pooling over ``ndim`` spatial axes; padding is ``-inf`` so it never wins.

    After forward, ``indexes`` holds the flat (C-order) kernel tap of each maximum; ChainerX
    inputs are pooled natively, without them, unless ``return_indices`` asks for them. For
    2-wide windows at stride 2 on NumPy arrays (:mod:`._pairwise_max`) they are computed only
    when read.
    """

    def __init__(
        self,
        ndim: int,
        ksize,
        stride=None,
        pad=0,
        cover_all: bool = True,
        return_indices: bool = False,
    ) -> None:
        super().__init__(ndim, ksize, stride, pad, cover_all)
        self.return_indices = return_indices
        self.win = None
        self._indexes = None
        self._winners = None

    @property
    def indexes(self):
        """The flat kernel tap of each maximum (None before forward)."""
        if self._indexes is None and self._winners is not None:
            self._indexes = self._winners.flat_indexes()
        return self._indexes

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.win = Window.over_image(
            x.shape[2:], self.ksize, self.stride, self.pad, self.cover_all
        )
        if _pairwise_max.applies(x, self.win):
            y, self._winners = _pairwise_max.pairwise_max(x)
        else:
            y, self._indexes = _windows.window_max(x, self.win)
        return (y,)

    def forward_chainerx(self, inputs: tuple):
        if self.return_indices:  # the indexes come from the NumPy forward
            return Fallback
        import chainerx

        return (chainerx.max_pool(inputs[0], self.ksize, self.stride, self.pad, self.cover_all),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        if self._winners is not None:
            return MaxPoolingNDGrad(self.win, None, self).apply(grad_outputs)
        return MaxPoolingNDGrad(self.win, self.indexes).apply(grad_outputs)

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        """``backward`` after the tournament: the forward of :class:`MaxPoolingNDGrad`."""
        gy = grad_outputs[0]
        g = gy._array
        winners = self._winners
        if winners is None or type(g) is not numpy.ndarray:
            return None
        if g.shape != winners.masks[0].shape:  # the output's shape
            return None
        return (_new_variable(winners.scatter(g), gy._requires_grad),)


class MaxPoolingNDGrad(WindowScatter):
    """Gradient of max pooling: each output gradient goes to the pixel that was the maximum.

    Its own gradient gathers at the same pixels, so max pooling is twice (and more)
    differentiable. Given the pooling node ``pool`` whose forward ran the pairwise
    tournament, it scatters with the tournament's winners and reads ``pool.indexes`` only
    when differentiated.
    """

    def __init__(self, win: Window, indexes, pool: MaxPoolingND | None = None) -> None:
        super().__init__(win, indexes)
        self._pool = pool

    def forward(self, inputs: tuple) -> tuple:
        if self._pool is None:
            return super().forward(inputs)
        return (self._pool._winners.scatter(inputs[0]),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        if self._pool is not None:
            self.indexes = self._pool.indexes
        return super().backward(indexes, grad_outputs)


def max_pooling_nd(
    x, ksize, stride=None, pad=0, cover_all: bool = True, return_indices: bool = False
) -> Variable | tuple:
    """N-dimensional spatial max pooling.

    Args:
        x: Input of shape ``(n, c, d_1, ..., d_N)`` and floating-point dtype.
        ksize: Window size: an int for all axes or a tuple of ``N`` ints.
        stride: Window step (int or tuple); ``None`` uses ``ksize``.
        pad: Padding on each side (int or tuple); padded elements never are the maximum.
        cover_all: If True, add windows at the end so that every input element is in some
            window (they may run past the padded input).
        return_indices: If True, also return the flat index (in C order within the
            ``ksize`` window) of each maximum, an integer array shaped like the output; it is
            what :func:`~chainer.functions.upsampling_2d` takes.

    Returns:
        A variable of shape ``(n, c, o_1, ..., o_N)`` with
        ``o_i = get_conv_outsize(d_i, k_i, s_i, p_i, cover_all)``, or ``(y, indexes)`` when
        ``return_indices`` is True.

    Example:
        >>> x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
        >>> F.max_pooling_nd(x, 2).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)
    """
    ndim = len(x.shape[2:])
    func = MaxPoolingND(ndim, ksize, stride, pad, cover_all, return_indices)
    y = func.apply((x,))[0]
    if return_indices:
        return y, func.indexes
    return y


def max_pooling_1d(
    x, ksize, stride=None, pad=0, cover_all: bool = True, return_indices: bool = False
) -> Variable | tuple:
    """1-dimensional spatial max pooling of ``x`` of shape ``(n, c, w)``.

    The arguments and the result are those of :func:`max_pooling_nd`.

    Raises:
        ValueError: ``x`` does not have exactly one spatial axis.
    """
    _windows.check_spatial_ndim(x, 1)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_2d(
    x, ksize, stride=None, pad=0, cover_all: bool = True, return_indices: bool = False
) -> Variable | tuple:
    """Spatial max pooling of images ``x`` of shape ``(n, c, h, w)``.

    The arguments and the result are those of :func:`max_pooling_nd` (``ksize``, ``stride``
    and ``pad`` are ints or pairs ``(y, x)``).

    Raises:
        ValueError: ``x`` does not have exactly two spatial axes.

    Example:
        >>> x = numpy.arange(25, dtype=numpy.float32).reshape(1, 1, 5, 5)
        >>> F.max_pooling_2d(x, 2).shape  # cover_all adds a window for the last row/column
        (1, 1, 3, 3)
        >>> F.max_pooling_2d(x, 2, cover_all=False).shape
        (1, 1, 2, 2)
    """
    _windows.check_spatial_ndim(x, 2)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_3d(
    x, ksize, stride=None, pad=0, cover_all: bool = True, return_indices: bool = False
) -> Variable | tuple:
    """3-dimensional spatial max pooling of ``x`` of shape ``(n, c, d, h, w)``.

    The arguments and the result are those of :func:`max_pooling_nd`.

    Raises:
        ValueError: ``x`` does not have exactly three spatial axes.
    """
    _windows.check_spatial_ndim(x, 3)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)
