"""OneHotCategorical: values, one-hot samples, gradients, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import OneHotCategorical
from chainer.distributions.distribution import kl_divergence

from .conftest import FLOAT_DTYPES, assert_matches, check_gradient, stats


def _probabilities(dtype, shape=(2, 3, 4)):
    p = numpy.random.uniform(0.1, 1, shape)
    return (p / p.sum(axis=-1, keepdims=True)).astype(dtype)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_values(dtype):
    p = _probabilities(dtype)
    dist = OneHotCategorical(p)
    assert dist.batch_shape == (2, 3)
    assert dist.event_shape == (4,)
    index = numpy.random.randint(0, 4, (5, 2, 3))
    x = numpy.eye(4, dtype=dtype)[index]
    expected = numpy.log(
        numpy.take_along_axis(numpy.broadcast_to(p, (5, 2, 3, 4)), index[..., None], -1)
    )
    assert_matches(dist.log_prob(x), expected[..., 0], dtype)
    assert_matches(dist.mean, p, dtype)
    assert_matches(dist.variance, p * (1 - p), dtype)
    assert_matches(dist.entropy, stats().entropy(p.astype(numpy.float64), axis=-1), dtype)


@testing.fix_random()
def test_samples_are_one_hot_with_the_right_frequencies():
    p = numpy.array([0.1, 0.3, 0.6], numpy.float32)
    n = 100_000
    samples = OneHotCategorical(p).sample_n(n)
    assert samples.shape == (n, 3)
    assert samples.dtype == numpy.float32
    assert samples.creator is None
    assert (samples.array.sum(axis=-1) == 1).all()
    frequencies = samples.array.mean(axis=0)
    numpy.testing.assert_array_less(numpy.abs(frequencies - p), 5 * numpy.sqrt(p / n))


@testing.fix_random()
def test_gradients():
    p = _probabilities(numpy.float64)
    x = numpy.eye(4)[numpy.random.randint(0, 4, (2, 3))]
    check_gradient(lambda v: OneHotCategorical(v).log_prob(x), (p,))
    check_gradient(lambda v: OneHotCategorical(v).entropy, (p,))


@testing.fix_random()
def test_kl():
    p1, p2 = _probabilities(numpy.float64), _probabilities(numpy.float64)
    expected = stats().entropy(p1, p2, axis=-1)
    assert_matches(
        kl_divergence(OneHotCategorical(p1), OneHotCategorical(p2)), expected, numpy.float64
    )


def test_invalid_parameters():
    with pytest.raises(ValueError, match="OneHotCategorical: p needs a last axis of categories"):
        OneHotCategorical(numpy.array(0.5))
