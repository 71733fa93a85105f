"""Max pooling with 2-wide windows at stride 2 (no padding, even sizes) on NumPy arrays.

The common pooling of convnets. Its windows tile the image, so ``x`` reshapes to
``(n, c, o_1, 2, ..., o_N, 2)`` and the maximum is a tournament: one ``maximum`` per axis,
last axis first, each halving the array. Next to every ``maximum`` a comparison records which
half won (the second only when strictly greater, so the first of equal maxima wins, as in
:func:`._windows.window_max`). Those winner masks give the gradient with two multiplications
per axis, and the flat tap indexes only when asked for. The intermediate rounds live in
:mod:`chainer.functions._scratch` buffers: only the results are fresh arrays.

Values are bitwise those of :func:`._windows.window_max` and :func:`._windows.window_scatter`:
``maximum`` returns its second operand on ties, so any bracket picks the same element of
equal maxima, and the gradient is ``gy`` times 0 or 1 in either. Windows holding NaN are the
exception: the maximum is NaN in both, but the winner (where the gradient goes) may differ.
"""

from __future__ import annotations

import numpy

from chainer.functions import _scratch
from chainer.functions.pooling._windows import Window


def applies(x, win: Window) -> bool:
    """Whether :func:`pairwise_max` computes the pooling of NumPy array ``x`` by ``win``."""
    return (
        isinstance(x, numpy.ndarray)
        and all(k == 2 for k in win.ksize)
        and all(s == 2 for s in win.stride)
        and not any(win.pad)
        and all(d % 2 == 0 for d in win.dims)
    )


def _level(role: str, i: int, shape: tuple, pair_axis: int, like) -> numpy.ndarray:
    """A scratch array for an intermediate round of the tournament or its gradient, whose
    axis ``pair_axis`` (of length 2) is outermost in memory: its two halves are contiguous,
    so the next round reads (or this one writes) them in long runs instead of runs of one
    image row. Rounds alternate between two buffers: a round's input and output never share
    one."""
    rest = (*shape[:pair_axis], *shape[pair_axis + 1 :])
    buffer = _scratch.empty(f"pool-{role}{i % 2}", (2, *rest), like.dtype)
    return numpy.moveaxis(buffer, 0, pair_axis)


def _pair(a, axis: int, half: int):
    """``a[..., half, ...]`` along ``axis``."""
    return a[(slice(None),) * axis + (half,)]


class PairWinners:
    """Which half won at each round of the tournament of :func:`pairwise_max`.

    ``masks[i]`` belongs to spatial axis ``i``: True where the second half won. It is shaped
    like ``x`` with the axes after ``i`` reduced, ``(n, c, o_1, 2, ..., o_i, ..., o_N)``.
    """

    def __init__(self, masks: list) -> None:
        self.masks = masks

    def scatter(self, gy) -> numpy.ndarray:
        """The gradient of the pooling: each of ``gy`` at its window's maximum, zero elsewhere."""
        g = gy
        last = len(self.masks) - 1
        for i, mask in enumerate(self.masks):
            axis = 3 + 2 * i
            shape = (*g.shape[:axis], 2, *g.shape[axis:])
            if i == last:
                spread = numpy.empty(shape, g.dtype)
            else:
                spread = _scratch.empty(f"pool-spread{i % 2}", shape, g.dtype)
            lost = numpy.logical_not(mask, out=_scratch.empty("pool-mask", mask.shape, bool))
            numpy.multiply(g, lost, out=_pair(spread, axis, 0))
            numpy.multiply(g, mask, out=_pair(spread, axis, 1))
            g = spread
        n, c = gy.shape[:2]
        return g.reshape(n, c, *(2 * o for o in gy.shape[2:]))

    def flat_indexes(self) -> numpy.ndarray:
        """The flat (C-order) tap of each window's maximum, as :func:`window_max` gives."""
        chosen = []
        indexes = None
        for i, mask in enumerate(self.masks):
            # Keep the halves that won on the outer axes. After axis j's pick, the pair
            # axis of an axis k in (j, i) is at 2 + 2k - j, where ``winner`` needs a 1.
            for j, winner in enumerate(chosen):
                winner = numpy.expand_dims(winner, tuple(2 + 2 * k - j for k in range(j + 1, i)))
                mask = numpy.where(winner, _pair(mask, 3 + j, 1), _pair(mask, 3 + j, 0))
            chosen.append(mask)
            bit = mask.astype(numpy.intp) << (len(self.masks) - 1 - i)
            indexes = bit if indexes is None else indexes | bit
        return indexes


def pairwise_max(x) -> tuple[numpy.ndarray, PairWinners]:
    """The pooled ``(n, c, *dims / 2)`` maximum of ``x`` and where it was."""
    n, c, *dims = x.shape
    m = x.reshape(n, c, *(v for d in dims for v in (d // 2, 2)))
    masks = []
    for i in reversed(range(len(dims))):
        axis = 3 + 2 * i
        first, second = _pair(m, axis, 0), _pair(m, axis, 1)
        masks.append(numpy.greater(second, first))
        out = None if i == 0 else _level("max", i, first.shape, axis - 2, x)
        m = numpy.maximum(first, second, out=out)
    masks.reverse()
    return m, PairWinners(masks)
