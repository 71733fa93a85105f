"""chainer.utils.WalkerAlias: alias-method sampling."""

import numpy
import pytest

from chainer.utils import WalkerAlias

_PROBS = [0.05, 0.4, 0.0, 0.25, 0.3, 0.0001]
# 0.999 quantile of the chi-square distribution with 4 degrees of freedom (5 possible indices
# with a non-negligible probability).
_CHI2_4_999 = 18.467


def _table_distribution(sampler):
    """The exact distribution the table encodes: column i keeps i with probability threshold."""
    n = len(sampler.threshold)
    threshold = numpy.asarray(sampler.threshold, dtype=numpy.float64)
    own, alias = sampler.values[0::2], sampler.values[1::2]
    numpy.testing.assert_array_equal(own, numpy.arange(n))
    return (threshold + numpy.bincount(alias, weights=1 - threshold, minlength=n)) / n


@pytest.mark.parametrize(
    "probs", [_PROBS, [1.0], [3, 1], [0, 0, 5], numpy.arange(1, 50) ** 2, [0.5, 0.5, 0.5]]
)
def test_table_encodes_the_distribution(probs):
    sampler = WalkerAlias(probs)
    probs = numpy.asarray(probs, dtype=numpy.float64)
    numpy.testing.assert_allclose(_table_distribution(sampler), probs / probs.sum(), atol=1e-7)
    assert sampler.threshold.dtype == numpy.float32
    assert sampler.values.dtype == numpy.int32


def test_sample_frequencies_match_probabilities():
    sampler = WalkerAlias(_PROBS)
    numpy.random.seed(0)
    count = 200_000
    samples = sampler.sample((400, 500))
    assert samples.shape == (400, 500) and samples.dtype == numpy.int32
    observed = numpy.bincount(samples.ravel(), minlength=len(_PROBS))
    expected = numpy.asarray(_PROBS) / sum(_PROBS) * count
    assert observed[2] == 0  # probability zero is never drawn
    main = expected > 100
    chi2 = ((observed[main] - expected[main]) ** 2 / expected[main]).sum()
    assert chi2 < _CHI2_4_999, (observed, expected)


def test_sample_with_int_shape_and_single_index():
    numpy.random.seed(1)
    assert WalkerAlias([0.2, 0.8]).sample(7).shape == (7,)
    numpy.testing.assert_array_equal(WalkerAlias([0, 3, 0]).sample((4, 2)), numpy.ones((4, 2)))


def test_cpu_device():
    sampler = WalkerAlias([1, 2])
    assert not sampler.use_gpu
    with pytest.warns(DeprecationWarning, match=r"to_cpu\(\) is deprecated"):
        assert sampler.to_cpu() is sampler
    sampler.to_device("@numpy")
    assert isinstance(sampler.sample(3), numpy.ndarray)


def test_device_resident_accept_moves_the_table():
    class Recorder:
        def __init__(self):
            self.residents, self.arrays = [], []

        def visit_device_resident(self, resident):
            self.residents.append(resident)

        def visit_array(self, array):
            self.arrays.append(array)
            return array.astype(array.dtype).tolist()  # stands for an array on another device

    sampler = WalkerAlias([1, 2, 3])
    threshold, values = sampler.threshold, sampler.values
    visitor = Recorder()
    sampler.device_resident_accept(visitor)
    assert visitor.residents == [sampler]
    assert visitor.arrays[0] is threshold and visitor.arrays[1] is values
    assert sampler.threshold == threshold.tolist() and sampler.values == values.tolist()


@pytest.mark.parametrize(
    ("probs", "message"),
    [
        ([], r"probs must be a non-empty 1-D sequence, got shape \(0,\)"),
        ([[1, 2]], r"probs must be a non-empty 1-D sequence, got shape \(1, 2\)"),
        ([1, -1], r"probs must be finite and non-negative, got \[ 1. -1.\]"),
        ([1, numpy.nan], r"probs must be finite and non-negative"),
        ([0, 0], r"probs must have a positive sum"),
    ],
)
def test_invalid_probabilities(probs, message):
    with pytest.raises(ValueError, match=message):
        WalkerAlias(probs)


@pytest.mark.gpu
def test_gpu_sampling():
    cupy = pytest.importorskip("cupy")
    if not cupy.is_available():
        pytest.skip("no CUDA device")
    with pytest.warns(DeprecationWarning, match=r"to_gpu\(\) is deprecated"):
        sampler = WalkerAlias(_PROBS).to_gpu()
    assert sampler.use_gpu
    cupy.random.seed(0)
    samples = sampler.sample((400, 500))
    assert isinstance(samples, cupy.ndarray) and samples.dtype == numpy.int32
    observed = numpy.bincount(samples.get().ravel(), minlength=len(_PROBS))
    expected = numpy.asarray(_PROBS) / sum(_PROBS) * samples.size
    main = expected > 100
    assert observed[2] == 0
    assert ((observed[main] - expected[main]) ** 2 / expected[main]).sum() < _CHI2_4_999
    with pytest.warns(DeprecationWarning, match=r"to_cpu\(\) is deprecated"):
        assert isinstance(sampler.to_cpu().sample(3), numpy.ndarray)
