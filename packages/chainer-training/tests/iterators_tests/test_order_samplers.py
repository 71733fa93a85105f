"""OrderSampler and ShuffleOrderSampler."""

import numpy
import pytest

from chainer import iterators
from chainer.serializers import DictionarySerializer, NpzDeserializer


def test_shuffle_draws_permutations_from_its_random_state():
    sampler = iterators.ShuffleOrderSampler(numpy.random.RandomState(3))
    reference = numpy.random.RandomState(3)
    for _ in range(3):
        order = sampler(numpy.arange(7), 7)
        numpy.testing.assert_array_equal(order, reference.permutation(7))


def test_default_uses_numpy_global_random_state():
    sampler = iterators.ShuffleOrderSampler()
    numpy.random.seed(11)
    first = sampler(numpy.arange(9), 0)
    numpy.random.seed(11)
    numpy.testing.assert_array_equal(first, numpy.random.permutation(9))


def test_own_random_state_round_trips_through_a_serializer():
    sampler = iterators.ShuffleOrderSampler(numpy.random.RandomState(5))
    sampler(numpy.arange(4), 0)
    saved = DictionarySerializer()
    sampler.serialize(saved)
    assert sorted(saved.target) == ["cached_gaussian", "has_gauss", "keys", "pos"]
    expected = sampler(numpy.arange(20), 0)
    restored = iterators.ShuffleOrderSampler(numpy.random.RandomState(99))
    restored.serialize(NpzDeserializer(saved.target))
    numpy.testing.assert_array_equal(restored(numpy.arange(20), 0), expected)


def test_the_global_random_state_is_never_saved():
    saved = DictionarySerializer()
    iterators.ShuffleOrderSampler().serialize(saved)
    assert saved.target == {}


def test_base_sampler_is_abstract():
    with pytest.raises(NotImplementedError, match="OrderSampler must implement __call__"):
        iterators.OrderSampler()(numpy.arange(2), 0)
