import math

import numpy
import pytest

from chainer import initializers


def _fans(shape):
    receptive = 1
    for size in shape[2:]:
        receptive *= size
    return shape[1] * receptive, shape[0] * receptive


# Each initializer's documented standard deviation, written out independently.
def _normal_std(shape, scale):
    return scale


def _lecun_std(shape, scale):
    fan_in, _ = _fans(shape)
    return scale * math.sqrt(1.0 / fan_in)


def _glorot_std(shape, scale):
    fan_in, fan_out = _fans(shape)
    return scale * math.sqrt(2.0 / (fan_in + fan_out))


def _he_in_std(shape, scale):
    return scale * math.sqrt(2.0 / _fans(shape)[0])


def _he_out_std(shape, scale):
    return scale * math.sqrt(2.0 / _fans(shape)[1])


CASES = [
    (initializers.Normal, {}, _normal_std),
    (initializers.LeCunNormal, {}, _lecun_std),
    (initializers.GlorotNormal, {}, _glorot_std),
    (initializers.HeNormal, {}, _he_in_std),
    (initializers.HeNormal, {"fan_option": "fan_out"}, _he_out_std),
]
CASE_IDS = ["Normal", "LeCunNormal", "GlorotNormal", "HeNormal-fan_in", "HeNormal-fan_out"]
DTYPES = [numpy.float16, numpy.float32, numpy.float64]


@pytest.mark.parametrize(("cls", "kwargs", "std_of"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(30, 20), (8, 4, 3, 3)])
def test_values_follow_numpy_random_seed(cls, kwargs, std_of, dtype, shape):
    array = numpy.empty(shape, dtype)
    numpy.random.seed(7)
    assert cls(0.7, dtype, **kwargs)(array) is None
    expected = numpy.random.RandomState(7).normal(0.0, std_of(shape, 0.7), shape).astype(dtype)
    numpy.testing.assert_array_equal(array, expected)


@pytest.mark.parametrize(("cls", "kwargs", "std_of"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_statistics(cls, kwargs, std_of, dtype):
    shape = (500, 80, 3, 3)
    array = numpy.empty(shape, dtype)
    cls(1.5, **kwargs, rng=numpy.random.RandomState(1))(array)
    expected_std = std_of(shape, 1.5)
    samples = array.astype(numpy.float64)
    # With 360k samples the sample mean is within 4 standard errors, the std within 1%.
    assert abs(samples.mean()) < 4 * expected_std / math.sqrt(samples.size)
    assert samples.std() == pytest.approx(expected_std, rel=0.01)


@pytest.mark.parametrize(("cls", "kwargs", "std_of"), CASES, ids=CASE_IDS)
def test_rng_random_state_leaves_global_state_alone(cls, kwargs, std_of):
    shape = (6, 5)
    array = numpy.empty(shape)
    numpy.random.seed(0)
    cls(**kwargs, rng=numpy.random.RandomState(11))(array)
    global_draw = numpy.random.uniform()
    std = std_of(shape, 0.05 if cls is initializers.Normal else 1.0)
    numpy.testing.assert_array_equal(array, numpy.random.RandomState(11).normal(0.0, std, shape))
    assert global_draw == numpy.random.RandomState(0).uniform()


@pytest.mark.parametrize(("cls", "kwargs", "std_of"), CASES, ids=CASE_IDS)
def test_rng_generator(cls, kwargs, std_of):
    shape = (4, 9)
    array = numpy.empty(shape, numpy.float32)
    cls(2.0, **kwargs, rng=numpy.random.default_rng(5))(array)
    reference = numpy.random.default_rng(5).normal(0.0, std_of(shape, 2.0), shape)
    numpy.testing.assert_array_equal(array, reference.astype(numpy.float32))


def test_fills_in_place_a_view():
    base = numpy.zeros((10, 10))
    view = base[::2, 1:5]
    initializers.Normal(1.0)(view)
    assert numpy.count_nonzero(base) == view.size
    assert numpy.all(view != 0)


def test_defaults_and_attributes():
    normal = initializers.Normal()
    assert (normal.scale, normal.dtype, normal.rng) == (0.05, None, None)
    rng = numpy.random.RandomState(0)
    he = initializers.HeNormal(rng=rng)
    assert (he.scale, he.fan_option, he.rng) == (1.0, "fan_in", rng)
    for cls in (initializers.LeCunNormal, initializers.GlorotNormal):
        assert cls().scale == 1.0


def test_zero_dim_normal():
    array = numpy.empty((), numpy.float32)
    numpy.random.seed(3)
    initializers.Normal(2.0)(array)
    assert array == numpy.float32(numpy.random.RandomState(3).normal(0.0, 2.0))


@pytest.mark.parametrize("cls", [initializers.LeCunNormal, initializers.HeNormal])
def test_empty_array_with_zero_fan(cls):
    array = numpy.empty((4, 0, 3), numpy.float32)
    cls()(array)
    assert array.shape == (4, 0, 3)


@pytest.mark.parametrize(
    "cls", [initializers.LeCunNormal, initializers.GlorotNormal, initializers.HeNormal]
)
def test_fan_based_need_two_axes(cls):
    with pytest.raises(ValueError, match=r"at least 2 axes to compute fans, got shape=\(5,\)"):
        cls()(numpy.empty(5))


@pytest.mark.parametrize(
    "cls",
    [
        initializers.Normal,
        initializers.LeCunNormal,
        initializers.GlorotNormal,
        initializers.HeNormal,
    ],
)
def test_dtype_mismatch(cls):
    array = numpy.zeros((3, 4), numpy.float32)
    with pytest.raises(ValueError, match="created for dtype float16.*has dtype float32"):
        cls(dtype=numpy.float16)(array)
    numpy.testing.assert_array_equal(array, 0)


def test_unexpected_keyword():
    with pytest.raises(
        TypeError, match=r"GlorotNormal got unexpected keyword argument\(s\) 'seed'"
    ):
        initializers.GlorotNormal(seed=1)


def test_rng_without_normal_method():
    with pytest.raises(TypeError, match=r"LeCunNormal needs an rng with a normal\(\) method.*int"):
        initializers.LeCunNormal(rng=3)


def test_invalid_fan_option():
    with pytest.raises(
        ValueError, match="fan_option must be 'fan_in' or 'fan_out', got 'fan_avg'"
    ):
        initializers.HeNormal(fan_option="fan_avg")


def test_rejects_non_array():
    with pytest.raises(
        TypeError, match="numpy.ndarray, cupy.ndarray or chainerx.ndarray, got list"
    ):
        initializers.Normal()([0.0, 0.0])
