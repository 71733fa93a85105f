"""chainer.iterators (shipped by the chainer-training distribution).

Iterators walk over a dataset and return mini-batches: :class:`SerialIterator` reads in the
calling thread, :class:`MultithreadIterator` and :class:`MultiprocessIterator` read ahead in
threads or worker processes. Order samplers (:class:`ShuffleOrderSampler`, ...) choose the
order of each epoch.
"""

from chainer._training_distribution import check_core as _check_core

_check_core()

from chainer.iterators import (  # noqa: E402
    dali_iterator,
    multiprocess_iterator,
    multithread_iterator,
    order_samplers,
    serial_iterator,
)
from chainer.iterators.dali_iterator import DaliIterator  # noqa: E402
from chainer.iterators.multiprocess_iterator import MultiprocessIterator  # noqa: E402
from chainer.iterators.multithread_iterator import MultithreadIterator  # noqa: E402
from chainer.iterators.order_samplers import OrderSampler, ShuffleOrderSampler  # noqa: E402
from chainer.iterators.serial_iterator import SerialIterator  # noqa: E402

__all__ = [
    "DaliIterator",
    "MultiprocessIterator",
    "MultithreadIterator",
    "OrderSampler",
    "SerialIterator",
    "ShuffleOrderSampler",
    "dali_iterator",
    "multiprocess_iterator",
    "multithread_iterator",
    "order_samplers",
    "serial_iterator",
]
