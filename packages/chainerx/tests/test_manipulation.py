"""Manipulation routines against NumPy."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward


def _pair(shape=(2, 3, 4), dtype="float32"):
    a_np = numpy.arange(numpy.prod(shape), dtype=dtype).reshape(shape)
    return a_np, chainerx.array(a_np)


@pytest.mark.parametrize("newshape", [(4, 6), (-1,), (2, -1, 2), (24,), (1, 24, 1)])
def test_reshape(newshape):
    a_np, a = _pair()
    chainerx.testing.assert_array_equal_ex(chainerx.reshape(a, newshape), a_np.reshape(newshape))
    chainerx.testing.assert_array_equal(chainerx.reshape(a.T, newshape), a_np.T.reshape(newshape))
    with pytest.raises(
        chainerx.DimensionError, match=r"cannot reshape array of shape \(2, 3, 4\) \(size 24\)"
    ):
        chainerx.reshape(a, (5, -1))


def test_reshape_is_a_view_when_numpy_would_make_one():
    a_np, a = _pair()
    assert chainerx.reshape(a, (6, 4)).data_ptr == a.data_ptr
    assert chainerx.reshape(a[:, :, ::2], (6, 2)).strides == a_np[:, :, ::2].reshape(6, 2).strides


@pytest.mark.parametrize("axes", [None, (0, 2, 1), (2, 0, 1), (-1, 0, 1)])
def test_transpose(axes):
    a_np, a = _pair()
    chainerx.testing.assert_array_equal_ex(
        chainerx.transpose(a, axes), numpy.transpose(a_np, axes)
    )
    with pytest.raises(chainerx.DimensionError, match="are not a permutation"):
        chainerx.transpose(a, (0, 0, 1))


@chainerx.testing.numpy_chainerx_array_equal(strides_check=True)
@pytest.mark.parametrize(("source", "destination"), [(0, -1), ((0, 1), (2, 0)), (-1, 0)])
def test_moveaxis(xp, source, destination):
    return xp.moveaxis(xp.arange(24).reshape(2, 3, 4), source, destination)


@chainerx.testing.numpy_chainerx_array_equal(strides_check=True)
@pytest.mark.parametrize(("axis1", "axis2"), [(0, 1), (-1, 0), (2, 2)])
def test_swapaxes(xp, axis1, axis2):
    return xp.swapaxes(xp.arange(24).reshape(2, 3, 4), axis1, axis2)


@pytest.mark.parametrize(
    ("shape", "target"), [((3, 1), (2, 3, 4)), ((), (2,)), ((1,), (0,)), ((2, 1), (2, 5))]
)
def test_broadcast_to(shape, target):
    a_np = numpy.arange(numpy.prod(shape), dtype="float64").reshape(shape)
    chainerx.testing.assert_array_equal_ex(
        chainerx.broadcast_to(chainerx.array(a_np), target), numpy.broadcast_to(a_np, target)
    )


def test_broadcast_to_bad_shape():
    with pytest.raises(
        chainerx.DimensionError, match=r"cannot broadcast an array of shape \(3,\) to shape \(2,\)"
    ):
        chainerx.broadcast_to(chainerx.zeros((3,)), (2,))


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize("axis", [None, 0, (0, 2), -1])
def test_squeeze(xp, axis):
    return xp.squeeze(xp.zeros((1, 3, 1), dtype="float32"), axis)


def test_squeeze_non_unit_axis():
    with pytest.raises(
        chainerx.DimensionError,
        match="cannot squeeze axis 1 of shape \\(1, 3\\): its size is not 1",
    ):
        chainerx.squeeze(chainerx.zeros((1, 3)), 1)


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize("axis", [0, 1, -1, -3])
def test_expand_dims(xp, axis):
    return xp.expand_dims(xp.arange(6).reshape(2, 3), axis)


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize("fn", ["atleast_2d", "atleast_3d", "ravel", "fliplr", "flipud"])
@pytest.mark.parametrize("shape", [(2, 3), (4, 2, 3)])
def test_shape_helpers(xp, fn, shape):
    return getattr(xp, fn)(xp.arange(numpy.prod(shape)).reshape(shape))


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
def test_flip(xp, axis):
    return xp.flip(xp.arange(6).reshape(2, 3), axis)


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concatenate_with_promotion(xp, axis):
    a = xp.arange(6, dtype="int32").reshape(2, 3)
    b = xp.ones((2, 3), dtype="float32")
    return xp.concatenate([a, b, a], axis=axis)


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize("fn", ["stack", "hstack", "vstack", "dstack"])
@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_stacking(xp, fn, shape):
    a = xp.arange(numpy.prod(shape), dtype="float64").reshape(shape)
    return getattr(xp, fn)([a, a * 2])


def test_concatenate_errors():
    with pytest.raises(
        chainerx.DimensionError, match="all input shapes must match except on axis 0"
    ):
        chainerx.concatenate([chainerx.zeros((2, 3)), chainerx.zeros((2, 2))])
    with pytest.raises(chainerx.DimensionError, match="need at least one array"):
        chainerx.concatenate([])
    with pytest.raises(
        chainerx.DimensionError, match="stack: all input arrays must have the same shape"
    ):
        chainerx.stack([chainerx.zeros((2,)), chainerx.zeros((3,))])


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize(
    ("sections", "axis"), [(2, 0), (3, 1), ([1, 3], 1), ([0, 5], 1), ([2, 1], 1)]
)
def test_split(xp, sections, axis):
    return xp.split(xp.arange(24).reshape(2, 12)[:, :6], sections, axis)


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize("fn", ["hsplit", "vsplit", "dsplit"])
def test_directional_split(xp, fn):
    return getattr(xp, fn)(xp.arange(16).reshape(2, 2, 4), 2)


def test_split_uneven():
    with pytest.raises(chainerx.DimensionError, match="does not result in an equal division"):
        chainerx.split(chainerx.zeros((5,)), 2)


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize(("repeats", "axis"), [(2, None), (3, 0), ([1, 0, 2], 1), (0, 1)])
def test_repeat(xp, repeats, axis):
    return xp.repeat(xp.arange(6).reshape(2, 3), repeats, axis)


GRADIENT_CASES = {
    "reshape": lambda x: chainerx.reshape(x, (3, 2)),
    "transpose": lambda x: chainerx.transpose(x),
    "broadcast_to": lambda x: chainerx.broadcast_to(x, (4, 2, 3)),
    "squeeze": lambda x: chainerx.squeeze(x[None]),
    "concatenate": lambda x: chainerx.concatenate([x, x * 2], axis=1),
    "stack": lambda x: chainerx.stack([x, x], 2),
    "split": lambda x: chainerx.split(x, [1], 1)[1] * 3,
    "split_parts": lambda x: (lambda p: p[0] * p[2] + p[1])(chainerx.split(x, 3, 1)),
    "repeat": lambda x: chainerx.repeat(x, [2, 1, 3], 1),
    "flip": lambda x: chainerx.flip(x, 1),
    "moveaxis": lambda x: chainerx.moveaxis(x[None], 0, 2),
    "getitem": lambda x: x[1:, ::-2],
    "take": lambda x: chainerx.take(x, chainerx.array([2, 2, 0]), 1),
}


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradients(name):
    x = numpy.random.default_rng(5).uniform(-1, 1, (2, 3))
    check_backward(GRADIENT_CASES[name], [x], double_backprop=True)
