"""``create_synchronized_iterator``: the same shuffling order on every rank."""

from __future__ import annotations

import numpy

from chainer.iterators import ShuffleOrderSampler


def create_synchronized_iterator(actual_iterator, communicator):
    """Make ``actual_iterator`` shuffle identically on every rank, and return it.

    Rank 0 draws a seed and broadcasts it; the iterator's order sampler is replaced by a
    :class:`~chainer.iterators.ShuffleOrderSampler` seeded with it and the iterator is reset.
    Each rank still reads its own dataset, so no examples travel. Iterators that do not
    shuffle are returned unchanged (they are already in step).
    """
    seed = numpy.random.randint(0, 2**31) if communicator.rank == 0 else None
    seed = communicator.bcast_obj(seed, root=0)
    if getattr(actual_iterator, "order_sampler", None) is None:
        return actual_iterator
    sampler = ShuffleOrderSampler(numpy.random.RandomState(seed))
    actual_iterator.order_sampler = sampler
    # chainer-training's built-in iterators keep the sampler in their schedule too.
    schedule = getattr(actual_iterator, "_schedule", None)
    if schedule is not None:
        schedule.order_sampler = sampler
    actual_iterator.reset()
    return actual_iterator
