"""Reductions and softmax-style routines against NumPy."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward

AXES = [None, 0, 1, -1, (0, 2), (0, 1, 2)]


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int32", "bool_"])
def test_sum(axis, keepdims, dtype, make_input, layout):
    x_np, x = make_input((2, 3, 4), dtype, layout=layout)
    expected = numpy.sum(x_np, axis=axis, keepdims=keepdims)
    got = chainerx.sum(x, axis=axis, keepdims=keepdims)
    # NumPy sums small integers and bools in the platform int (int64), as ChainerX does.
    assert got.dtype == expected.dtype
    # ChainerX accumulates floats in double precision, NumPy pairwise in the dtype itself.
    chainerx.testing.assert_allclose(got, expected, rtol=1e-2 if dtype == "float16" else 1e-5)


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_mean_var(axis, keepdims, dtype, make_input):
    x_np, x = make_input((2, 3, 4), dtype)
    for name in ("mean", "var"):
        expected = getattr(numpy, name)(x_np, axis=axis, keepdims=keepdims)
        got = getattr(chainerx, name)(x, axis=axis, keepdims=keepdims)
        assert got.dtype == expected.dtype
        chainerx.testing.assert_allclose(got, expected, rtol=1e-5)


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("dtype", ["float16", "float64", "int8", "uint8", "bool_"])
def test_amax_amin(axis, dtype, make_input, layout):
    x_np, x = make_input((2, 3, 4), dtype, layout=layout)
    for name in ("amax", "amin", "max", "min"):
        got = getattr(chainerx, name)(x, axis)
        # NumPy lays out reduction results like its input; ChainerX's are always C-contiguous.
        chainerx.testing.assert_array_equal_ex(
            got, getattr(numpy, name)(x_np, axis), strides_check=False
        )


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool_"])
def test_argmax_argmin(axis, dtype, make_input, layout):
    x_np, x = make_input((3, 4), dtype, layout=layout)
    for name in ("argmax", "argmin"):
        got = getattr(chainerx, name)(x, axis)
        chainerx.testing.assert_array_equal_ex(
            got, getattr(numpy, name)(x_np, axis), strides_check=False
        )


def test_nan_propagates_like_numpy():
    x_np = numpy.array([[1.0, numpy.nan, 3.0], [4.0, 5.0, 6.0]])
    x = chainerx.array(x_np)
    chainerx.testing.assert_array_equal(chainerx.amax(x, 1), numpy.amax(x_np, 1))
    chainerx.testing.assert_array_equal(chainerx.argmin(x, 1), numpy.argmin(x_np, 1))


@pytest.mark.parametrize("axis", [None, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_all_any(axis, keepdims, make_input):
    x_np, x = make_input((3, 4), "int32", low=0, high=2)
    for name in ("all", "any"):
        got = getattr(chainerx, name)(x, axis=axis, keepdims=keepdims)
        expected = getattr(numpy, name)(x_np, axis=axis, keepdims=keepdims)
        chainerx.testing.assert_array_equal_ex(got, expected, strides_check=False)


def test_zero_size_reductions():
    e = chainerx.zeros((0, 3))
    chainerx.testing.assert_array_equal(chainerx.sum(e, 0), numpy.zeros(3, numpy.float32))
    chainerx.testing.assert_array_equal(chainerx.all(e), numpy.True_)
    with pytest.raises(chainerx.DimensionError, match=r"amax: zero-size array \(shape \(0, 3\)\)"):
        chainerx.amax(e, 0)
    with pytest.raises(chainerx.DimensionError, match="argmax: zero-size array"):
        chainerx.argmax(e)


def test_bad_axis():
    with pytest.raises(
        chainerx.DimensionError, match="axis 2 is out of bounds for an array of dimension 2"
    ):
        chainerx.sum(chainerx.zeros((2, 3)), 2)
    with pytest.raises(chainerx.DimensionError, match=r"duplicate axis 1 in \(1, -1\)"):
        chainerx.sum(chainerx.zeros((2, 2)), (1, -1))


def _log_softmax_ref(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_logsumexp_log_softmax_softmax(axis):
    x_np = numpy.random.default_rng(0).uniform(-5, 5, (3, 4))
    x_np[0, 0] = 800.0  # exp would overflow without the shift
    x = chainerx.array(x_np)
    ref_axis = 1 if axis is None else axis
    m = x_np.max(axis=axis, keepdims=True)
    lse = numpy.log(numpy.exp(x_np - m).sum(axis=axis, keepdims=True)) + m
    expected_lse = lse.reshape(()) if axis is None else numpy.squeeze(lse, axis=axis)
    chainerx.testing.assert_allclose(chainerx.logsumexp(x, axis), expected_lse, rtol=1e-12)
    chainerx.testing.assert_allclose(
        chainerx.log_softmax(x, axis), _log_softmax_ref(x_np, ref_axis), rtol=1e-12
    )
    chainerx.testing.assert_allclose(
        chainerx.softmax(x, axis), numpy.exp(_log_softmax_ref(x_np, ref_axis)), rtol=1e-12
    )


GRADIENT_CASES = {
    "sum": lambda x: chainerx.sum(x, 1),
    "sum_keepdims": lambda x: chainerx.sum(x, 0, keepdims=True),
    "mean": lambda x: chainerx.mean(x, (0, 1)),
    "var": lambda x: chainerx.var(x, 1),
    "amax": lambda x: chainerx.amax(x, 0),
    "amin": lambda x: chainerx.amin(x),
    "logsumexp": lambda x: chainerx.logsumexp(x, 1),
    "log_softmax": lambda x: chainerx.log_softmax(x),
    "softmax": lambda x: chainerx.softmax(x, 0),
}


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradients(name):
    x = numpy.random.default_rng(6).permutation(12).reshape(3, 4) / 7.0  # distinct values: no ties
    check_backward(GRADIENT_CASES[name], [x], double_backprop=True)
