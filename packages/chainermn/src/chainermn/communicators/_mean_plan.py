"""How ``multi_node_mean_grad`` moves the gradients of one model layout (built once per layout).

Gradients smaller than ``IN_PLACE_BYTES`` are packed, in order, into messages of about
``PACKED_BYTES`` (slices of one staging buffer kept with the plan, with a view per gradient
made once); larger ones are reduced in place, in pieces of ``PIECE_BYTES`` (of
``MEAN_PIECE_BYTES`` when NumPy's mean of two reduces them, see :mod:`._mean_choice`). Each
message is divided (or unpacked divided) right after its sum arrives, while it is still in
cache, and MPI sums several messages of these sizes faster than one as large as all of them,
whose working set no longer fits the cache. A plan depends only on the layout every rank
agreed on, so every rank sends the same messages in the same order.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator

import numpy

from chainermn.communicators import _mean_choice, _model_params

# Gradients at least this large (in the reduction dtype) are reduced in place, not packed.
IN_PLACE_BYTES = 1 << 20
# Smaller ones are packed into messages of about this many bytes (a message may exceed it by
# less than IN_PLACE_BYTES).
PACKED_BYTES = 2 << 20
# The pieces of a gradient reduced in place, in bytes: summed by MPI, and averaged by
# NumPy's mean of two, whose user-defined op is slow on messages out of cache.
PIECE_BYTES = 8 << 20
MEAN_PIECE_BYTES = 2 << 20


class MeanPlan:
    """The messages that average gradients of ``shapes`` in ``dtype`` over ``size`` ranks."""

    def __init__(self, shapes: list, dtype: numpy.dtype, size: int) -> None:
        self.dtype = dtype
        self.scale = dtype.type(1.0 / size)
        # Two ranks: MPI's sum or NumPy's mean, whichever is faster (see ._mean_choice).
        two_ranks = size == 2 and dtype in (numpy.float32, numpy.float64)
        self.mean_choice = _mean_choice.MeanChoice() if two_ranks else None
        self.piece_step = PIECE_BYTES // dtype.itemsize
        self.mean_piece_step = MEAN_PIECE_BYTES // dtype.itemsize
        packed_step = PACKED_BYTES // dtype.itemsize
        sizes = [math.prod(shape) for shape in shapes]
        small = [i for i, n in enumerate(sizes) if n * dtype.itemsize < IN_PLACE_BYTES]
        self.large = [i for i, n in enumerate(sizes) if n * dtype.itemsize >= IN_PLACE_BYTES]
        groups, current, count = [], [], 0
        for i in small:
            current.append(i)
            count += sizes[i]
            if count >= packed_step:
                groups.append(current)
                current, count = [], 0
        if current:
            groups.append(current)
        # One staging buffer for all the messages: a fresh one per step would be paged in
        # (and registered by the MPI transport) every time, which costs more than the copy.
        staging = numpy.empty(sum(sizes[i] for i in small), dtype)
        self.packed = []
        start = 0
        for group in groups:
            buffer = staging[start : start + sum(sizes[i] for i in group)]
            views, offset = [], 0
            for i in group:
                views.append(buffer[offset : offset + sizes[i]].reshape(shapes[i]))
                offset += sizes[i]
            self.packed.append((group, buffer, views))
            start += buffer.size

    def run(self, grads: list, allreduce: Callable, rank: int, averaged: bool = False) -> None:
        """Average ``grads`` (in the plan's layout) in place; ``allreduce(buffer)`` sums a flat
        host buffer over the ranks in place (or, ``averaged``, already averages it)."""
        scale = self.scale
        for buffer, finish in self.messages(grads, rank, averaged):
            allreduce(buffer)
            if finish is not None:
                finish()
            elif not averaged:
                buffer *= scale

    def messages(
        self, grads: list, rank: int, averaged: bool = False
    ) -> Iterator[tuple[numpy.ndarray, Callable | None]]:
        """Each message as ``(buffer, finish)``: ``buffer`` (flat, host) is ready to be summed
        over the ranks in place, then ``finish()`` divides it into ``grads`` (``None``: the
        buffer is a piece of a gradient, to be multiplied by :attr:`scale` in place). With
        ``averaged``, NumPy's mean of two will have divided (in pieces of
        ``MEAN_PIECE_BYTES``): ``finish()`` only writes back.

        Every message has a buffer of its own, so all of them may be in flight at once (the
        non-blocking path); the blocking path sums and finishes each before the next.
        """
        scale = None if averaged else self.scale
        step = self.mean_piece_step if averaged else self.piece_step
        dtype = self.dtype
        for indices, buffer, views in self.packed:
            arrays = [grads[i] for i in indices]
            _model_params.pack(arrays, dtype, rank, buffer)
            yield buffer, functools.partial(_model_params.unpack_views, views, arrays, scale)
        for i in self.large:
            grad = grads[i]
            in_place = reducible_in_place(grad, dtype)
            # Not in place: through a copy, in the same pieces (the messages must match).
            flat = grad.reshape(-1) if in_place else _model_params.pack([grad], dtype, rank)
            for start in range(0, flat.size, step):
                piece = flat[start : start + step]
                last = start + step >= flat.size
                if in_place or not last:
                    yield piece, None
                else:  # the copy's last piece: divide it, then write the copy back
                    yield piece, functools.partial(_divide_and_unpack, piece, scale, flat, grad)


def _divide_and_unpack(piece, scale, flat: numpy.ndarray, grad) -> None:
    if scale is not None:
        piece *= scale
    _model_params.unpack(flat, [grad])


def cached(plans: dict, layout: tuple, configured, size: int) -> MeanPlan:
    """The plan of ``layout`` (``(name, shape, dtype)`` entries) over ``size`` ranks from
    ``plans``, made and kept there (with the few plans seen last) when missing; it travels
    in the ``configured`` dtype (``allreduce_grad_dtype``), else in the layout's own (at
    least float32), found once per plan rather than at every step."""
    plan = plans.get((layout, configured))
    if plan is None:
        if len(plans) >= 4:
            plans.clear()
        shapes = [shape for _, shape, _ in layout]
        dtypes = [numpy.dtype(dtype) for _, _, dtype in layout]
        dtype = _model_params.reduce_dtype(dtypes, configured)
        plan = plans[layout, configured] = MeanPlan(shapes, dtype, size)
    return plan


def reducible_in_place(grad, dtype: numpy.dtype) -> bool:
    """Whether MPI can sum ``grad`` itself: a C-contiguous NumPy array of ``dtype``."""
    return isinstance(grad, numpy.ndarray) and grad.dtype == dtype and grad.flags.c_contiguous
