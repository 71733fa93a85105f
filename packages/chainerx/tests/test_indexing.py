"""take, where, nonzero and indexing against NumPy."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("indices", [[0], [2, 0, -1], [[1, 1], [0, 2]], []])
@pytest.mark.parametrize("dtype", ["float32", "int16", "bool_"])
def test_take(axis, indices, dtype, make_input, layout):
    a_np, a = make_input((3, 3), dtype, layout=layout)
    idx = numpy.array(indices, numpy.int64)
    got = chainerx.take(a, chainerx.array(idx), axis)
    chainerx.testing.assert_array_equal_ex(got, numpy.take(a_np, idx, axis), strides_check=False)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_take_modes_match_numpy(mode, axis):
    a_np = numpy.arange(6.0).reshape(2, 3)
    indices = [[0, -1], [4, -7]]
    a = chainerx.array(a_np).require_grad()
    got = chainerx.take(a, indices, axis, mode=mode)
    numpy.testing.assert_array_equal(
        chainerx.to_numpy(got), numpy.take(a_np, indices, axis, mode=mode)
    )
    method = a.take(numpy.array(indices, "int8"), axis, mode=mode)
    numpy.testing.assert_array_equal(chainerx.to_numpy(method), chainerx.to_numpy(got))
    got.sum().backward()
    # Each element's gradient counts how often the mode picked it.
    positions = numpy.arange(a_np.size).reshape(a_np.shape)
    picked = numpy.take(positions, indices, axis, mode=mode).ravel()
    expected_grad = numpy.bincount(picked, minlength=a_np.size).reshape(a_np.shape)
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.grad), expected_grad)


def test_take_mode_errors():
    a = chainerx.zeros((2, 3))
    with pytest.raises(ValueError, match="mode must be one of 'raise', 'wrap' or 'clip', got 'x'"):
        chainerx.take(a, [0], 0, mode="x")
    with pytest.raises(IndexError, match="index 2 is out of bounds"):
        chainerx.take(a, [2], 0, mode="raise")
    with pytest.raises(IndexError, match="empty axis"):
        chainerx.take(chainerx.zeros((0,)), [1], 0, mode="wrap")


def test_take_errors():
    a = chainerx.zeros((2, 3))
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 3"):
        chainerx.take(a, chainerx.array([3]), 1)
    with pytest.raises(IndexError, match="index -7 is out of bounds for axis 0 with size 6"):
        chainerx.take(a, chainerx.array([0, -6, -7]))
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


# ---- Advanced indexing (ndarray.__getitem__ / __setitem__) against NumPy. ----

_MASK_23 = numpy.array([[True, False, True], [False, False, True]])

# Index expressions for an array of shape (2, 3, 4), by what they exercise.
_KEYS = {
    "int_list": [1, 0, 1],
    "int_2d": [[0, 1], [1, 1]],
    "int_0d": numpy.array(1),
    "negative": [-1, -2],
    "two_broadcast": ([[0], [1]], [2, 0, -1]),
    "three_arrays": ([1, 0], [[2], [0]], [3, 3]),
    "adjacent_after_slice": (slice(None), [2, 0], [1, 3]),
    "adjacent_with_int": (slice(None), 1, [3, 0]),
    "array_then_int": ([1, 0], 2),
    "separated_by_slice": ([1, 0], slice(None), [3, 0]),
    "separated_int": (0, slice(1, None), [0, 2]),
    "separated_by_none": ([1], None, [2]),
    "ellipsis_after": (Ellipsis, [3, 1, 1]),
    "ellipsis_between": ([0], Ellipsis, [3]),
    "zero_width_ellipsis": (slice(None), [0], Ellipsis, [1]),
    "newaxis_and_step": (None, slice(None, None, -1), [2, 0]),
    "empty_list": [],
    "empty_pair": ([], []),
    "empty_2d": numpy.zeros((0, 2), numpy.int64),
    "mask_1d": [True, False],
    "mask_1d_axis1": (slice(None), [False, True, True]),
    "mask_2d": _MASK_23,
    "mask_3d": numpy.arange(24).reshape(2, 3, 4) % 5 == 1,
    "mask_2d_trailing": (Ellipsis, numpy.arange(12).reshape(3, 4) % 3 == 0),
    "mask_with_int_array": (_MASK_23, [1, 0, 3]),
    "mask_separated": ([False, True], slice(None), [0, 0]),
    "mask_all_false": numpy.zeros(2, bool),
    "bool_true": True,
    "bool_false": (slice(None), False),
    "numpy_bool": (numpy.True_, 1),
}


def _as_container(index, container):
    """Array-likes of an index expression as lists, NumPy arrays or chainerx arrays."""
    if isinstance(index, tuple):
        return tuple(_as_container(i, container) for i in index)
    if not isinstance(index, (list, numpy.ndarray)):
        return index
    arr = numpy.asarray(index)
    if arr.size == 0 and arr.dtype.kind == "f":
        arr = arr.astype(numpy.int64)
    if container == "list":
        return arr.tolist() if arr.ndim > 0 and arr.size > 0 else index  # else shape is lost
    return chainerx.array(arr) if container == "chainerx" else arr


def _shares_memory(x, y):
    return x.data_ptr - x.offset == y.data_ptr - y.offset


@pytest.mark.parametrize("container", ["list", "numpy", "chainerx"])
@pytest.mark.parametrize("key", list(_KEYS.values()), ids=list(_KEYS))
def test_getitem_advanced(key, container, make_input, layout):
    a_np, a = make_input((2, 3, 4), "float32", layout=layout)
    index = _as_container(key, container)
    got = a[index]
    expected = a_np[key]
    chainerx.testing.assert_array_equal_ex(got, expected, strides_check=False)
    assert not _shares_memory(got, a)  # advanced indexing copies


@pytest.mark.parametrize("dtype", chainerx.testing.all_dtypes)
def test_advanced_indexing_of_every_dtype(dtype, make_input, layout):
    a_np, a = make_input((3, 4), dtype, layout=layout)
    key = ([[2], [0]], [3, 1, 1])
    chainerx.testing.assert_array_equal_ex(a[key], a_np[key], strides_check=False)
    value_np = a_np[::-1, ::-1][key]
    a[key] = chainerx.array(value_np)
    a_np[key] = value_np
    chainerx.testing.assert_array_equal_ex(a, a_np, strides_check=False)


@pytest.mark.parametrize(
    "dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
)
def test_getitem_index_dtypes(dtype, make_input):
    a_np, a = make_input((5, 3), "int32")
    idx = numpy.array([[4, 0], [2, 2]], dtype)
    chainerx.testing.assert_array_equal_ex(a[idx, 1:], a_np[idx, 1:], strides_check=False)
    if dtype in chainerx.testing.all_dtypes:
        chainerx.testing.assert_array_equal_ex(
            a[:, chainerx.array(idx[0] % 3)], a_np[:, idx[0] % 3], strides_check=False
        )


@pytest.mark.parametrize(
    "key",
    [
        [],
        (slice(None), [0, 2, -1]),
        numpy.zeros((0,), bool),
        numpy.zeros((0, 3), bool),
        (Ellipsis, [True, False, True]),
    ],
)
def test_getitem_zero_size(key):
    a_np = numpy.zeros((0, 3), numpy.float64)
    got = chainerx.array(a_np)[key]
    chainerx.testing.assert_array_equal_ex(got, a_np[key], strides_check=False)


def test_getitem_basic_stays_a_view_and_scalars_are_not_arrays():
    a_np = numpy.arange(6).reshape(2, 3)
    a = chainerx.array(a_np)
    assert _shares_memory(a[numpy.int32(1), 1:], a)
    chainerx.testing.assert_array_equal_ex(a[numpy.int32(1), 1:], a_np[1, 1:])
    # A Python bool is a 0-d boolean array (a new axis), not the integer 1.
    for key in [True, (False, 0), (1, True)]:
        chainerx.testing.assert_array_equal_ex(a[key], a_np[key], strides_check=False)


@pytest.mark.parametrize(
    ("key", "error", "message"),
    [
        ([0, 2], IndexError, "index 2 is out of bounds for axis 0 with size 2"),
        ((slice(None), [0, -4]), IndexError, "index -4 is out of bounds for axis 1 with size 3"),
        ((0, 0, [5]), IndexError, "index 5 is out of bounds for axis 2 with size 4"),
        (
            [0.0],
            IndexError,
            r"arrays used as indices must be of integer \(or boolean\) type, got float64",
        ),
        (
            numpy.ones((2, 2), bool),
            IndexError,
            "boolean index did not match indexed array along axis 1; size of axis is 3 but "
            "size of corresponding boolean axis is 2",
        ),
        (
            ([0, 1], [0, 1, 2]),
            IndexError,
            r"shape mismatch: indexing arrays could not be broadcast together with shapes "
            r"\(2,\) \(3,\)",
        ),
        (
            (_MASK_23, _MASK_23),
            IndexError,
            "too many indices for array: array is 3-dimensional, but 4 were indexed",
        ),
        ((["a"],), IndexError, "only integers, slices"),
        (([0], Ellipsis, Ellipsis), IndexError, "an index can only have a single ellipsis"),
    ],
)
def test_getitem_advanced_errors(key, error, message):
    a = chainerx.zeros((2, 3, 4))
    with pytest.raises(error, match=message):
        a[key]


@pytest.mark.parametrize("key", list(_KEYS.values()), ids=list(_KEYS))
def test_setitem_advanced(key, make_input, layout):
    a_np, a = make_input((2, 3, 4), "float32", layout=layout)
    shape = a_np[key].shape
    value_np = numpy.arange(numpy.prod(shape), dtype=numpy.float64).reshape(shape) + 0.5
    a[_as_container(key, "chainerx")] = chainerx.array(value_np)
    a_np[key] = value_np
    chainerx.testing.assert_array_equal_ex(a, a_np, strides_check=False)


def test_setitem_advanced_broadcasts_casts_and_last_write_wins():
    a_np = numpy.zeros((3, 4), numpy.int32)
    a = chainerx.array(a_np)
    for key, value in [
        (([0, 0, 2], [1, 1, 3]), [1.9, 2.9, 3.9]),  # repeated (0, 1): the last value wins
        ((slice(None), [True, False, True, False]), 7),
        (([[1], [2]], [0, 3]), numpy.array([[-1], [-2]])),
        (([2, 2],), numpy.array([5, 6, 7, 8])),
    ]:
        a[key] = value
        a_np[key] = value
        chainerx.testing.assert_array_equal_ex(a, a_np)


def test_setitem_reads_the_value_before_writing():
    a_np = numpy.arange(6.0).reshape(3, 2)
    a = chainerx.array(a_np)
    a[[0, 1, 2]] = a[::-1]
    a_np[[0, 1, 2]] = a_np[::-1]
    chainerx.testing.assert_array_equal_ex(a, a_np)


def test_setitem_advanced_refused_in_graph():
    a = chainerx.zeros((3,), chainerx.float32).require_grad()
    with pytest.raises(chainerx.ChainerxError, match="in-place operation __setitem__"):
        a[[0, 1]] = 1


@pytest.mark.parametrize(
    "key",
    [
        [1, 0, 1, 1],
        ([[1], [1]], slice(None), [0, 0, 3]),
        (slice(None), [2, 2], 1),
        (_MASK_23, [1, 1, 0]),
        (Ellipsis, [False, True, True, False]),
        (True, 1, [0, 0]),
    ],
    ids=["repeated", "separated", "adjacent_int", "mask_and_ints", "mask", "bool_scalar"],
)
def test_getitem_advanced_gradients(key):
    x_np = numpy.random.default_rng(0).uniform(-1, 1, (2, 3, 4))
    check_backward(lambda x: x[key] ** 3, [x_np], double_backprop=True)


def test_getitem_advanced_gradient_accumulates_repeats():
    x = chainerx.arange(4.0).require_grad()
    x[[3, 0, 3, 3]].backward()
    chainerx.testing.assert_array_equal_ex(x.grad, numpy.array([1.0, 0.0, 0.0, 3.0]))
