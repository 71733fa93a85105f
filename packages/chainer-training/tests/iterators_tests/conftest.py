"""Every behaviour shared by the iterators is tested on all three classes."""

import pytest

from chainer import iterators

_CLASSES = {
    "serial": (iterators.SerialIterator, {}),
    "multithread": (iterators.MultithreadIterator, {"n_threads": 2}),
    "multiprocess": (iterators.MultiprocessIterator, {"n_processes": 2, "n_prefetch": 2}),
}


@pytest.fixture(params=sorted(_CLASSES))
def make_iterator(request):
    """``make(dataset, batch_size, **kwargs)`` for one iterator class; finalized afterwards."""
    cls, extra = _CLASSES[request.param]
    made = []

    def make(dataset, batch_size, **kwargs):
        iterator = cls(dataset, batch_size, **{**extra, **kwargs})
        made.append(iterator)
        return iterator

    yield make
    for iterator in made:
        iterator.finalize()
