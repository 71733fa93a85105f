import importlib.util
import types

import numpy
import pytest

import chainer
from chainer import initializers
from chainer.initializer import Initializer
from chainer.initializers import _get_initializer, generate_array

needs_backend = pytest.mark.skipif(
    importlib.util.find_spec("chainer.backend") is None, reason="chainer.backend not available yet"
)


def test_shape_and_values():
    numpy.random.seed(2)
    array = generate_array(initializers.Normal(0.5), (4, 3), numpy)
    assert isinstance(array, numpy.ndarray)
    assert (array.shape, array.dtype) == ((4, 3), numpy.float32)
    expected = numpy.random.RandomState(2).normal(0.0, 0.5, (4, 3)).astype(numpy.float32)
    numpy.testing.assert_array_equal(array, expected)


def test_int_shape():
    array = generate_array(initializers.One(), 5, numpy)
    numpy.testing.assert_array_equal(array, numpy.ones(5, numpy.float32))


@pytest.mark.parametrize(
    ("config_dtype", "expected"),
    [
        (numpy.float16, numpy.float16),
        (numpy.float64, numpy.float64),
        (chainer.mixed16, numpy.float16),
    ],
)
def test_default_dtype_is_read_at_call_time(config_dtype, expected):
    initializer = initializers.Zero()
    with chainer.using_config("dtype", config_dtype):
        array = generate_array(initializer, (2,), numpy)
    assert array.dtype == expected
    assert generate_array(initializer, (2,), numpy).dtype == numpy.float32


def test_initializer_dtype_wins_over_default():
    with chainer.using_config("dtype", numpy.float16):
        array = generate_array(initializers.Constant(2, numpy.float64), (3,), numpy)
    assert array.dtype == numpy.float64
    numpy.testing.assert_array_equal(array, [2.0, 2.0, 2.0])


def test_explicit_dtype_matching_initializer():
    array = generate_array(initializers.Identity(dtype="float64"), (2, 2), numpy, numpy.float64)
    numpy.testing.assert_array_equal(array, numpy.eye(2))


def test_explicit_dtype_for_dtype_free_initializer():
    array = generate_array(initializers.NaN(), (2,), numpy, numpy.float16)
    assert array.dtype == numpy.float16
    assert numpy.isnan(array).all()


def test_dtype_mismatch():
    with pytest.raises(
        ValueError, match="dtype mismatch: .*asked for float32.*Zero has dtype float16"
    ):
        generate_array(initializers.Zero(numpy.float16), (2,), numpy, numpy.float32)


def test_plain_callable_initializer():
    def arange(array):
        array[...] = numpy.arange(array.size).reshape(array.shape)

    array = generate_array(arange, (2, 3), numpy, numpy.float64)
    numpy.testing.assert_array_equal(array, [[0, 1, 2], [3, 4, 5]])


@needs_backend
def test_numpy_device():
    array = generate_array(initializers.Constant(3.0), (2, 2), numpy, device="@numpy")
    assert isinstance(array, numpy.ndarray)
    numpy.testing.assert_array_equal(array, numpy.full((2, 2), 3, numpy.float32))


@needs_backend
def test_device_inconsistent_with_xp():
    fake_xp = types.SimpleNamespace(__name__="fakexp")
    with pytest.raises(ValueError, match="xp and device are inconsistent: xp is fakexp.*numpy"):
        generate_array(initializers.Zero(), (2,), fake_xp, device="@numpy")


def test_get_initializer_none_is_lecun_normal():
    initializer = _get_initializer(None)
    assert type(initializer) is initializers.LeCunNormal
    assert (initializer.scale, initializer.dtype, initializer.rng) == (1.0, None, None)


@pytest.mark.parametrize("value", [0, 2.5, numpy.float32(1.5), numpy.int64(3), True])
def test_get_initializer_scalar(value):
    initializer = _get_initializer(value)
    assert type(initializer) is initializers.Constant
    assert initializer.fill_value is value


def test_get_initializer_array():
    value = numpy.arange(3.0)
    initializer = _get_initializer(value)
    assert type(initializer) is initializers.Constant
    array = numpy.empty((2, 3))
    initializer(array)
    numpy.testing.assert_array_equal(array, [[0, 1, 2], [0, 1, 2]])


def test_get_initializer_callable_returned_as_is():
    initializer = initializers.HeUniform()
    assert _get_initializer(initializer) is initializer
    assert _get_initializer(print) is print


@pytest.mark.parametrize(
    ("value", "name"), [("zeros", "str"), ([1, 2], "list"), (object(), "object")]
)
def test_get_initializer_rejects(value, name):
    with pytest.raises(TypeError, match=f"initializer must be None, a scalar, .*got {name}$"):
        _get_initializer(value)


CLASSES = {
    "Constant", "DownsamplingConvFilter", "GlorotNormal", "GlorotUniform", "HeNormal",
    "HeUniform", "Identity", "LeCunNormal", "LeCunUniform", "NaN", "Normal", "One",
    "Orthogonal", "Uniform", "UpsamplingDeconvFilter", "Zero",
}  # fmt: skip
MODULES = {"constant", "normal", "orthogonal", "sampling", "uniform"}


def test_public_names():
    assert set(initializers.__all__) == CLASSES | MODULES | {"generate_array"}
    for name in MODULES:
        assert getattr(initializers, name).__name__ == f"chainer.initializers.{name}"
    for name in CLASSES:
        cls = getattr(initializers, name)
        assert issubclass(cls, Initializer)
        assert cls.__module__ in {f"chainer.initializers.{module}" for module in MODULES}
