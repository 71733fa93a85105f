import re

import numpy
import pytest

from chainer import initializers

DTYPES = [numpy.float16, numpy.float32, numpy.float64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scale", [1.0, -2.5])
def test_identity(dtype, scale):
    array = numpy.full((4, 4), 7, dtype)
    assert initializers.Identity(scale, dtype)(array) is None
    expected = numpy.array([[scale if i == j else 0 for j in range(4)] for i in range(4)], dtype)
    numpy.testing.assert_array_equal(array, expected)


@pytest.mark.parametrize("shape", [(2, 3), (3,), (2, 2, 2), ()])
def test_identity_rejects_non_square(shape):
    with pytest.raises(
        ValueError, match=r"square 2-D arrays \(n, n\), got shape " + re.escape(str(shape))
    ):
        initializers.Identity()(numpy.zeros(shape))


def test_identity_defaults():
    identity = initializers.Identity()
    assert (identity.scale, identity.dtype) == (1.0, None)


@pytest.mark.parametrize("dtype", DTYPES + [numpy.int32])
@pytest.mark.parametrize("fill_value", [3, 0.5, numpy.float32(-1.25), True])
def test_constant_scalar(dtype, fill_value):
    array = numpy.zeros((2, 3), dtype)
    initializers.Constant(fill_value)(array)
    expected = numpy.array([[fill_value] * 3] * 2).astype(dtype)
    numpy.testing.assert_array_equal(array, expected)


def test_constant_array_broadcasts_over_rows():
    array = numpy.zeros((3, 4), numpy.float32)
    initializers.Constant(numpy.array([1.0, 2.0, 3.0, 4.0]))(array)
    numpy.testing.assert_array_equal(array, [[1, 2, 3, 4]] * 3)


def test_constant_same_shape_array():
    fill = numpy.arange(6.0).reshape(2, 3)
    array = numpy.empty((2, 3), numpy.float64)
    initializers.Constant(fill)(array)
    numpy.testing.assert_array_equal(array, fill)
    assert array is not fill


def test_constant_zero_dim_array_target():
    array = numpy.zeros((), numpy.float32)
    initializers.Constant(4.5)(array)
    assert array == numpy.float32(4.5)


def test_constant_unbroadcastable_array():
    with pytest.raises(ValueError, match=r"broadcast.*\(3,\).*\(2,2\)"):
        initializers.Constant(numpy.zeros(3))(numpy.zeros((2, 2)))


@pytest.mark.parametrize("fill_value", ["1.0", [1, 2], None])
def test_constant_rejects_non_numeric(fill_value):
    with pytest.raises(ValueError, match="fill_value must be a scalar, numpy.ndarray.*got "):
        initializers.Constant(fill_value)


def test_constant_attributes():
    constant = initializers.Constant(2, numpy.float16)
    assert (constant.fill_value, constant.dtype) == (2, numpy.float16)


@pytest.mark.parametrize(
    ("cls", "value"),
    [(initializers.Zero, 0.0), (initializers.One, 1.0), (initializers.NaN, numpy.nan)],
)
@pytest.mark.parametrize("dtype", DTYPES)
def test_fixed_value_initializers(cls, value, dtype):
    array = numpy.full((3, 2, 2), 9, dtype)
    cls(dtype)(array)
    numpy.testing.assert_array_equal(array, numpy.full((3, 2, 2), value, dtype))


def test_fixed_value_class_attributes():
    assert initializers.Zero.fill_value == 0
    assert initializers.One.fill_value == 1
    assert numpy.isnan(initializers.NaN.fill_value)
    assert initializers.NaN().dtype is None


@pytest.mark.parametrize(
    "initializer",
    [
        initializers.Identity(dtype=numpy.float64),
        initializers.Constant(1.0, numpy.float64),
        initializers.Zero(numpy.float64),
        initializers.One("float64"),
        initializers.NaN(numpy.float64),
    ],
)
def test_dtype_mismatch(initializer):
    array = numpy.full((2, 2), 5, numpy.float32)
    with pytest.raises(ValueError, match="created for dtype float64.*has dtype float32"):
        initializer(array)
    numpy.testing.assert_array_equal(array, 5)
