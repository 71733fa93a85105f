"""Order samplers: the callables that choose the order in which an iterator visits a dataset."""

from __future__ import annotations

from typing import Any

import numpy


class OrderSampler:
    """Base class of all order samplers.

    An iterator visits its dataset in an order given as a 1-D integer array of indices. It
    calls its order sampler when it starts and before every new epoch, as
    ``sampler(current_order, current_position)``; the sampler returns the order of the next
    epoch, an array of the same length as ``current_order``.

    A sampler with state of its own can also implement ``serialize(serializer)``: iterators
    save and restore it with their position, so that a resumed run draws the same orders.
    """

    def __call__(self, current_order: numpy.ndarray, current_position: int) -> numpy.ndarray:
        """Return the order of the next epoch.

        Args:
            current_order: The order of the epoch that ends (at the start: ``arange(len)``).
            current_position: The position reached in ``current_order``.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement __call__")


class ShuffleOrderSampler(OrderSampler):
    """Sampler that generates random orders.

    Each epoch visits the examples in a new random permutation.

    Args:
        random_state: The ``numpy.random.RandomState`` to draw permutations from; ``None``
            uses NumPy's global random state. A random state given here is saved and
            restored with the iterator (see :meth:`serialize`), so that a resumed run shuffles
            exactly like an uninterrupted one; NumPy's global state is never saved.

    Example:
        >>> sampler = ShuffleOrderSampler(numpy.random.RandomState(0))
        >>> it = chainer.iterators.SerialIterator(list(range(5)), 5, order_sampler=sampler)
        >>> it.next()  # the same order in every run
        [2, 0, 1, 3, 4]
    """

    def __init__(self, random_state: numpy.random.RandomState | None = None) -> None:
        self._owns_state = random_state is not None
        # numpy.random.random is a bound method of the global RandomState instance.
        self._random = random_state if random_state is not None else numpy.random.random.__self__

    def __call__(self, current_order: numpy.ndarray, current_position: int) -> numpy.ndarray:
        """Return a random permutation of ``len(current_order)`` indices."""
        return self._random.permutation(len(current_order))

    def serialize(self, serializer: Any) -> None:
        """Save or load the state of a random state given to the constructor.

        Nothing is stored for NumPy's global random state, which belongs to the program.
        """
        if not self._owns_state or not isinstance(self._random, numpy.random.RandomState):
            return
        name, keys, position, has_gauss, cached_gaussian = self._random.get_state(legacy=True)
        keys = serializer("keys", keys.copy())
        position = serializer("pos", int(position))
        has_gauss = serializer("has_gauss", int(has_gauss))
        cached_gaussian = serializer("cached_gaussian", float(cached_gaussian))
        # Saving hands back the values it was given, so this only changes state when loading.
        self._random.set_state((name, keys, position, has_gauss, cached_gaussian))
