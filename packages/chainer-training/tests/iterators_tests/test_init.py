"""The public surface of chainer.iterators: Chainer 7.8.1's names and signatures."""

import inspect

import pytest

import chainer.iterators
from chainer.dataset import Iterator

_SIGNATURES = {
    "DaliIterator": "(pipeline, repeat=True)",
    "MultiprocessIterator": (
        "(dataset, batch_size, repeat=True, shuffle=None, n_processes=None, n_prefetch=1, "
        "shared_mem=None, order_sampler=None, dataset_timeout=30.0, maxtasksperchild=None)"
    ),
    "MultithreadIterator": (
        "(dataset, batch_size, repeat=True, shuffle=None, n_threads=1, order_sampler=None)"
    ),
    "OrderSampler": "()",
    "SerialIterator": "(dataset, batch_size, repeat=True, shuffle=None, order_sampler=None)",
    "ShuffleOrderSampler": "(random_state=None)",
}
_MODULES = [
    "dali_iterator",
    "multiprocess_iterator",
    "multithread_iterator",
    "order_samplers",
    "serial_iterator",
]


def _plain(signature: inspect.Signature) -> str:
    bare = [p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=bare, return_annotation=inspect.Signature.empty))


def test_exported_names():
    assert sorted(chainer.iterators.__all__) == sorted([*_SIGNATURES, *_MODULES])


@pytest.mark.parametrize(("name", "expected"), sorted(_SIGNATURES.items()))
def test_signatures_match_chainer(name, expected):
    assert _plain(inspect.signature(getattr(chainer.iterators, name))) == expected


@pytest.mark.parametrize("name", ["SerialIterator", "MultithreadIterator", "MultiprocessIterator"])
def test_iterators_derive_directly_from_the_dataset_iterator(name):
    cls = getattr(chainer.iterators, name)
    assert cls.__bases__ == (Iterator,)
    for prop in ("epoch", "epoch_detail", "previous_epoch_detail", "is_new_epoch"):
        assert isinstance(inspect.getattr_static(cls, prop), property)


def test_dali_iterator_says_it_needs_dali():
    with pytest.raises(RuntimeError, match="DaliIterator needs NVIDIA DALI"):
        chainer.iterators.DaliIterator(pipeline=None)
