"""Comparison and logic routines against NumPy."""

import numpy
import pytest

import chainerx
import chainerx.testing

COMPARE = ["equal", "not_equal", "greater", "greater_equal", "less", "less_equal"]
LOGICAL = ["logical_and", "logical_or", "logical_xor"]


@pytest.mark.parametrize("name", COMPARE + LOGICAL)
@pytest.mark.parametrize(
    ("dtype1", "dtype2"), [("int32", "int32"), ("float32", "int8"), ("bool_", "float64")]
)
@pytest.mark.parametrize(("shape1", "shape2"), [((2, 3), (2, 3)), ((3,), (2, 1)), ((0,), ())])
def test_binary_predicates(name, dtype1, dtype2, shape1, shape2, make_input):
    a_np, a = make_input(shape1, dtype1, low=-1, high=1, seed=1)
    b_np, b = make_input(shape2, dtype2, low=-1, high=1, seed=2)
    chainerx.testing.assert_array_equal_ex(
        getattr(chainerx, name)(a, b), getattr(numpy, name)(a_np, b_np)
    )


@pytest.mark.parametrize("name", COMPARE)
def test_comparison_with_python_scalars(name):
    a_np = numpy.array([1, 2, 3], numpy.int8)
    chainerx.testing.assert_array_equal_ex(
        getattr(chainerx, name)(chainerx.array(a_np), 2.5), getattr(numpy, name)(a_np, 2.5)
    )


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "bool_"])
def test_unary_predicates(dtype):
    values = (
        [0, 1, -1.5, numpy.inf, -numpy.inf, numpy.nan]
        if dtype.startswith("float")
        else [0, 1, 1, 0]
    )
    x_np = numpy.array(values).astype(dtype)
    x = chainerx.array(x_np)
    for name in ("isnan", "isinf", "isfinite", "logical_not"):
        chainerx.testing.assert_array_equal_ex(
            getattr(chainerx, name)(x), getattr(numpy, name)(x_np)
        )
