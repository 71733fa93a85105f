"""take, where, nonzero and indexing against NumPy."""

import numpy
import pytest

import chainerx
import chainerx.testing


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("indices", [[0], [2, 0, -1], [[1, 1], [0, 2]], []])
@pytest.mark.parametrize("dtype", ["float32", "int16", "bool_"])
def test_take(axis, indices, dtype, make_input, layout):
    a_np, a = make_input((3, 3), dtype, layout=layout)
    idx = numpy.array(indices, numpy.int64)
    got = chainerx.take(a, chainerx.array(idx), axis)
    chainerx.testing.assert_array_equal_ex(got, numpy.take(a_np, idx, axis), strides_check=False)


def test_take_errors():
    a = chainerx.zeros((2, 3))
    with pytest.raises(IndexError, match=r"indices into axis 1 of size 3 must be in \[-3, 3\)"):
        chainerx.take(a, chainerx.array([3]), 1)
    with pytest.raises(
        IndexError, match="arrays used as indices must be of integer type, got float32"
    ):
        chainerx.take(a, chainerx.zeros((1,)), 0)


@pytest.mark.parametrize(
    ("cond_shape", "x_shape", "y_shape"),
    [((2, 3), (2, 3), (2, 3)), ((3,), (2, 1), ()), ((0,), (1,), (0,))],
)
def test_where(cond_shape, x_shape, y_shape, make_input):
    c_np, c = make_input(cond_shape, "bool_", seed=1)
    x_np, x = make_input(x_shape, "float32", seed=2)
    y_np, y = make_input(y_shape, "int32", seed=3)
    chainerx.testing.assert_array_equal_ex(chainerx.where(c, x, y), numpy.where(c_np, x_np, y_np))
    chainerx.testing.assert_array_equal_ex(chainerx.where(c, x, 0.5), numpy.where(c_np, x_np, 0.5))
    chainerx.testing.assert_array_equal_ex(chainerx.where(c, 1, 2), numpy.where(c_np, 1, 2))


@pytest.mark.parametrize("shape", [(5,), (2, 3), (2, 0), ()])
def test_nonzero(shape, make_input):
    a_np, a = make_input(shape, "int32", low=0, high=1)
    got = chainerx.nonzero(a)
    expected = numpy.nonzero(numpy.atleast_1d(a_np)) if a_np.ndim == 0 else numpy.nonzero(a_np)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        chainerx.testing.assert_array_equal_ex(g, e, strides_check=False)
