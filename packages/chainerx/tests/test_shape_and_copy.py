"""rollaxis and copyto against NumPy."""

import numpy
import pytest

import chainerx


@pytest.mark.parametrize(
    "shape,axis,start", [((2, 3, 4), 2, 0), ((2, 3, 4), 0, 3), ((2, 3, 4), -1, 1), ((2, 3), 1, 1)]
)
def test_rollaxis_is_numpys_view(shape, axis, start):
    a = numpy.arange(numpy.prod(shape)).reshape(shape)
    x = chainerx.array(a)
    y = chainerx.rollaxis(x, axis, start)
    expected = numpy.rollaxis(a, axis, start)
    numpy.testing.assert_array_equal(chainerx.to_numpy(y), expected)
    assert y.strides == tuple(s // a.itemsize * y.itemsize for s in expected.strides)


@pytest.mark.parametrize("axis,start", [(3, 0), (-4, 0), (0, 4), (0, -4)])
def test_rollaxis_rejects_out_of_range(axis, start):
    with pytest.raises(chainerx.DimensionError, match="rollaxis"):
        chainerx.rollaxis(chainerx.zeros((2, 3, 4)), axis, start)


def test_copyto_broadcasts_and_casts():
    dst = chainerx.zeros((2, 3), "float32")
    chainerx.copyto(dst, chainerx.array(numpy.array([1, 2, 3], "int16")))
    numpy.testing.assert_array_equal(chainerx.to_numpy(dst), [[1, 2, 3], [1, 2, 3]])
    assert dst.dtype == numpy.float32


def test_copyto_where_mask_and_scalars():
    src = numpy.arange(6.0).reshape(2, 3)
    mask = numpy.array([[True, False, True], [False, True, False]])
    expected = numpy.full((2, 3), -1.0)
    numpy.copyto(expected, src, where=mask)
    dst = chainerx.full((2, 3), -1.0)
    chainerx.copyto(dst, chainerx.array(src), where=chainerx.array(mask))
    numpy.testing.assert_array_equal(chainerx.to_numpy(dst), expected)
    chainerx.copyto(dst, chainerx.array(src), where=False)
    numpy.testing.assert_array_equal(chainerx.to_numpy(dst), expected)
    chainerx.copyto(dst, 7.0)
    numpy.testing.assert_array_equal(chainerx.to_numpy(dst), numpy.full((2, 3), 7.0))


def test_copyto_casting_rules():
    dst = chainerx.zeros((3,), "int32")
    with pytest.raises(chainerx.DtypeError, match="cannot cast float64 to int32"):
        chainerx.copyto(dst, chainerx.array(numpy.ones(3)))
    with pytest.raises(chainerx.DtypeError, match="casting='no'"):
        chainerx.copyto(dst, chainerx.array(numpy.ones(3, "int16")), casting="no")
    with pytest.raises(ValueError, match="casting must be one of"):
        chainerx.copyto(dst, dst, casting="sometimes")
    chainerx.copyto(dst, chainerx.array(numpy.array([1.9, -1.9, 3.0])), casting="unsafe")
    numpy.testing.assert_array_equal(chainerx.to_numpy(dst), [1, -1, 3])
