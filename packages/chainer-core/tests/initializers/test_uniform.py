import math

import numpy
import pytest

from chainer import initializers


def _fans(shape):
    receptive = 1
    for size in shape[2:]:
        receptive *= size
    return shape[1] * receptive, shape[0] * receptive


# Each initializer's documented bound b of U(-b, b), written out independently.
def _uniform_bound(shape, scale):
    return scale


def _lecun_bound(shape, scale):
    return scale * math.sqrt(3.0 / _fans(shape)[0])


def _glorot_bound(shape, scale):
    fan_in, fan_out = _fans(shape)
    return scale * math.sqrt(6.0 / (fan_in + fan_out))


def _he_bound(shape, scale):
    return scale * math.sqrt(6.0 / _fans(shape)[0])


CASES = [
    (initializers.Uniform, _uniform_bound),
    (initializers.LeCunUniform, _lecun_bound),
    (initializers.GlorotUniform, _glorot_bound),
    (initializers.HeUniform, _he_bound),
]
CASE_IDS = ["Uniform", "LeCunUniform", "GlorotUniform", "HeUniform"]
DTYPES = [numpy.float16, numpy.float32, numpy.float64]


@pytest.mark.parametrize(("cls", "bound_of"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(30, 20), (8, 4, 3, 3)])
def test_values_follow_numpy_random_seed(cls, bound_of, dtype, shape):
    array = numpy.empty(shape, dtype)
    numpy.random.seed(7)
    assert cls(0.7, dtype)(array) is None
    bound = bound_of(shape, 0.7)
    expected = numpy.random.RandomState(7).uniform(-bound, bound, shape).astype(dtype)
    numpy.testing.assert_array_equal(array, expected)


@pytest.mark.parametrize(("cls", "bound_of"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_bounds_and_variance(cls, bound_of, dtype):
    shape = (500, 80, 3, 3)
    array = numpy.empty(shape, dtype)
    cls(1.5, rng=numpy.random.RandomState(1))(array)
    bound = bound_of(shape, 1.5)
    samples = array.astype(numpy.float64)
    # Casting to the dtype may round a draw just past the bound.
    slack = bound * numpy.finfo(dtype).eps
    assert samples.max() <= bound + slack
    assert samples.min() >= -bound - slack
    assert samples.max() > 0.999 * bound
    assert samples.min() < -0.999 * bound
    # U(-b, b) has variance b**2 / 3; 360k samples pin it within 1%.
    assert samples.var() == pytest.approx(bound**2 / 3, rel=0.01)
    assert abs(samples.mean()) < 4 * bound / math.sqrt(3 * samples.size)


@pytest.mark.parametrize(("cls", "bound_of"), CASES, ids=CASE_IDS)
def test_rng_random_state_leaves_global_state_alone(cls, bound_of):
    shape = (6, 5)
    array = numpy.empty(shape)
    numpy.random.seed(0)
    cls(rng=numpy.random.RandomState(11))(array)
    global_draw = numpy.random.normal()
    bound = bound_of(shape, 0.05 if cls is initializers.Uniform else 1.0)
    reference = numpy.random.RandomState(11).uniform(-bound, bound, shape)
    numpy.testing.assert_array_equal(array, reference)
    assert global_draw == numpy.random.RandomState(0).normal()


@pytest.mark.parametrize(("cls", "bound_of"), CASES, ids=CASE_IDS)
def test_rng_generator(cls, bound_of):
    shape = (4, 9)
    array = numpy.empty(shape, numpy.float32)
    cls(2.0, rng=numpy.random.default_rng(5))(array)
    bound = bound_of(shape, 2.0)
    reference = numpy.random.default_rng(5).uniform(-bound, bound, shape)
    numpy.testing.assert_array_equal(array, reference.astype(numpy.float32))


def test_uniform_defaults():
    uniform = initializers.Uniform()
    assert (uniform.scale, uniform.dtype, uniform.rng) == (0.05, None, None)
    for cls in (initializers.LeCunUniform, initializers.GlorotUniform, initializers.HeUniform):
        assert cls().scale == 1.0


@pytest.mark.parametrize("cls", [initializers.LeCunUniform, initializers.HeUniform])
def test_empty_array_with_zero_fan(cls):
    array = numpy.empty((4, 0), numpy.float64)
    cls()(array)
    assert array.shape == (4, 0)


@pytest.mark.parametrize(("cls", "bound_of"), CASES, ids=CASE_IDS)
def test_dtype_mismatch(cls, bound_of):
    array = numpy.zeros((3, 4), numpy.float64)
    with pytest.raises(ValueError, match="created for dtype float32.*has dtype float64"):
        cls(dtype=numpy.float32)(array)
    numpy.testing.assert_array_equal(array, 0)


def test_fan_based_need_two_axes():
    with pytest.raises(ValueError, match=r"at least 2 axes to compute fans, got shape=\(\)"):
        initializers.GlorotUniform()(numpy.empty(()))


def test_unexpected_keyword():
    with pytest.raises(
        TypeError, match=r"HeUniform got unexpected keyword argument\(s\) 'a', 'b'"
    ):
        initializers.HeUniform(b=1, a=2)


def test_rng_without_uniform_method():
    class OnlyNormal:
        def normal(self, loc, scale, size):
            return numpy.zeros(size)

    with pytest.raises(
        TypeError, match=r"Uniform needs an rng with a uniform\(\) method.*OnlyNormal"
    ):
        initializers.Uniform(rng=OnlyNormal())
