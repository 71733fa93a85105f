"""chainerx.ndarray: attributes, NumPy interop, indexing, conversion and the in-place rule."""

import numpy
import pytest

import chainerx
import chainerx.testing


def test_attributes_like_numpy():
    a_np = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    a = chainerx.array(a_np)
    assert a.shape == (2, 3, 4)
    assert a.strides == a_np.strides
    assert a.ndim == 3
    assert a.size == 24
    assert a.itemsize == 4
    assert a.nbytes == 96
    assert a.dtype == numpy.float32
    assert a.dtype == chainerx.float32
    assert isinstance(a.dtype, numpy.dtype)
    assert a.is_contiguous
    assert a.device.name == "native:0"
    assert repr(a.device) == "native:0"
    assert a.T.shape == (4, 3, 2)
    assert not a.T.is_contiguous
    assert len(a) == 2


def test_constructor_makes_an_uninitialized_array():
    a = chainerx.ndarray((2, 3), chainerx.int16, "native:1")
    assert (a.shape, a.dtype, a.device.name) == ((2, 3), numpy.int16, "native:1")


@pytest.mark.parametrize("dtype", chainerx.testing.all_dtypes)
def test_array_from_numpy_and_back_for_every_dtype(dtype):
    a_np = (numpy.arange(6) % 3).astype(dtype).reshape(2, 3)
    a = chainerx.array(a_np)
    assert a.dtype == a_np.dtype
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), a_np)
    numpy.testing.assert_array_equal(numpy.asarray(a), a_np)


def test_copy_false_shares_memory_both_ways():
    a_np = numpy.arange(6.0).reshape(2, 3)
    a = chainerx.array(a_np, copy=False)
    a_np[0, 0] = 42
    assert float(a[0, 0]) == 42
    back = numpy.asarray(a)
    back[1, 2] = -1
    assert a_np[1, 2] == -1
    assert numpy.shares_memory(chainerx.to_numpy(a, copy=False), a_np)
    assert not numpy.shares_memory(chainerx.to_numpy(a), a_np)


def test_wrapping_a_non_contiguous_numpy_view_keeps_its_strides():
    base = numpy.arange(12.0).reshape(3, 4)
    view = base[::2, ::-1]
    a = chainerx.array(view, copy=False)
    assert a.strides == view.strides
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), view)


@pytest.mark.parametrize("shape", [(0,), (2, 0, 3)])
def test_wrapping_an_empty_numpy_array_keeps_numpys_strides(shape):
    empty = numpy.zeros(shape, "float32")
    assert chainerx.array(empty, copy=False).strides == empty.strides


def test_wrapping_keeps_numpys_strides_on_length_one_axes():
    buffer = numpy.arange(10, dtype="float32")
    padded = numpy.lib.stride_tricks.as_strided(buffer, (1, 2, 1), (32, 8, 4))
    a = chainerx.array(padded, copy=False)
    assert a.strides == (32, 8, 4)
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), padded)


def test_copy_is_contiguous_and_independent():
    a_np = numpy.arange(6.0).reshape(2, 3)
    a = chainerx.array(a_np)
    a_np[0, 0] = 100
    assert float(a[0, 0]) == 0
    c = a.T.copy()
    assert c.is_contiguous
    numpy.testing.assert_array_equal(chainerx.to_numpy(c), numpy.arange(6.0).reshape(2, 3).T)


def test_array_from_lists_scalars_and_ndarrays():
    assert chainerx.array([[1, 2], [3, 4]]).dtype == numpy.int64
    assert chainerx.array([1.5]).dtype == numpy.float64
    assert chainerx.array(True).shape == ()
    assert chainerx.array([1, 2], dtype="float16").dtype == numpy.float16
    a = chainerx.array([1.0, 2.0])
    assert chainerx.asarray(a) is a
    b = chainerx.array(a)
    assert b is not a
    b += 1
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), [1.0, 2.0])
    assert chainerx.asarray(a, dtype="int32").dtype == numpy.int32
    assert chainerx.asanyarray([1, 2]).shape == (2,)
    assert chainerx.ascontiguousarray(a.reshape(2, 1).T).is_contiguous


def test_unsupported_dtypes_raise_dtype_error():
    with pytest.raises(chainerx.DtypeError, match="unsupported buffer format 'Zd'"):
        chainerx.array(numpy.zeros(2, numpy.complex128))
    with pytest.raises(chainerx.DtypeError, match="unsupported dtype 'uint16'"):
        chainerx.zeros((2,), "uint16")
    with pytest.raises(chainerx.DtypeError, match="invalid dtype"):
        chainerx.zeros((2,), object())


def test_astype_view_and_item_conversions():
    a = chainerx.array([1.7, -2.2])
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.astype("int32")), [1, -2])
    # As NumPy: copy=False returns the array itself when it has the dtype, else a new array.
    assert a.astype(numpy.float64, copy=False) is a
    assert a.astype(numpy.float64) is not a
    converted = a.astype("float32", copy=False)
    assert converted is not a and converted.dtype == numpy.float32
    v = a.view()
    assert v.data_ptr == a.data_ptr
    one = chainerx.array([[3.5]])
    assert float(one) == 3.5
    assert int(one) == 3
    assert bool(one)
    assert one.item() == 3.5
    assert isinstance(chainerx.array(4).item(), int)
    assert chainerx.array([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    with pytest.raises(chainerx.DimensionError, match="only arrays of one element"):
        float(a)
    with pytest.raises(chainerx.DimensionError, match="len\\(\\) of unsized object"):
        len(chainerx.array(1.0))


def test_aliases_of_v7():
    assert chainerx.bool is bool and chainerx.int is int and chainerx.float is float
    assert chainerx.mod is chainerx.remainder
    assert not {"bool", "int", "float"} & set(chainerx.__all__)


def test_repr_and_str():
    a = chainerx.array([[0.0, 1.0], [2.0, 3.0]], dtype="float32")
    assert repr(a) == (
        "array([[0., 1.],\n       [2., 3.]], shape=(2, 2), dtype=float32, device='native:0')"
    )
    assert str(a) == repr(a)  # as in v7
    a.require_grad()
    assert repr(a).endswith("device='native:0', backprop_ids=['<default>'])")


def test_basic_indexing_gives_views():
    a_np = numpy.arange(24.0).reshape(2, 3, 4)
    a = chainerx.array(a_np)
    for key in [
        1,
        (1, 2),
        (slice(None), 0),
        (..., 1),
        (None, 0),
        (slice(None, None, -1), slice(1, 3)),
        (-1, -1, -1),
    ]:
        got = a[key]
        numpy.testing.assert_array_equal(chainerx.to_numpy(got), a_np[key])
        assert got.data_ptr - got.offset == a.data_ptr - a.offset  # same memory
    assert [chainerx.to_numpy(x) for x in chainerx.array([1, 2, 3])] == [1, 2, 3]


def test_integer_array_and_mask_indexing():
    a_np = numpy.arange(12.0).reshape(4, 3)
    a = chainerx.array(a_np)
    numpy.testing.assert_array_equal(
        chainerx.to_numpy(a[chainerx.array([3, 0, -1])]), a_np[[3, 0, -1]]
    )
    numpy.testing.assert_array_equal(chainerx.to_numpy(a[[1, 1]]), a_np[[1, 1]])
    v = chainerx.array([1.0, -2.0, 3.0])
    numpy.testing.assert_array_equal(chainerx.to_numpy(v[v > 0]), [1.0, 3.0])


def test_bad_indices_raise_index_error():
    a = chainerx.zeros((2, 3))
    with pytest.raises(IndexError, match="index 2 is out of bounds for axis 0 with size 2"):
        a[2]
    with pytest.raises(
        IndexError, match="too many indices for array: array is 2-dimensional, but 3 were indexed"
    ):
        a[0, 0, 0]
    with pytest.raises(IndexError, match="only integers, slices"):
        a["x"]
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 2"):
        a[chainerx.array([5])]


def test_setitem_writes_through_views():
    a = chainerx.zeros((2, 3), dtype="int32")
    a[0] = 5
    a[:, 2] = chainerx.array([7, 8])
    a[1, 0] = 1.9
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), [[5, 5, 7], [1, 0, 8]])


def test_inplace_operators_write_into_memory():
    a = chainerx.array([1.0, 2.0])
    ptr = a.data_ptr
    a += 1
    a *= chainerx.array([2.0, 3.0])
    a -= [1.0, 1.0]
    a /= 2
    assert a.data_ptr == ptr
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), [1.5, 4.0])
    a.fill(0.25)
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), [0.25, 0.25])
    i = chainerx.zeros((2,), "int32")
    with pytest.raises(
        chainerx.DtypeError, match="cannot store a float64 result into a int32 array"
    ):
        i += 0.5
    with pytest.raises(
        chainerx.DimensionError,
        match=r"operand of shape \(3, 2\) cannot be broadcast into an array of shape \(2,\)",
    ):
        i += chainerx.zeros((3, 2), "int32")


@pytest.mark.parametrize("dtype", ["int16", "float32"])
@pytest.mark.parametrize("op", ["__imod__", "__ifloordiv__"])
def test_inplace_remainder_and_floor_division_match_numpy(op, dtype):
    # Python's semantics (the divisor's sign), written into the array's own memory.
    a_np = numpy.array([[7, -7, 5], [-5, 9, 0]], dtype)
    other = numpy.array([3, -3, 4], dtype)
    expected = getattr(a_np.copy(), op)(other)
    a = chainerx.array(a_np)
    ptr = a.data_ptr
    result = getattr(a, op)(chainerx.array(other))
    assert result is a and a.data_ptr == ptr
    chainerx.testing.assert_array_equal_ex(a, expected)
    scalar = chainerx.array(a_np)
    getattr(scalar, op)(-4)
    chainerx.testing.assert_array_equal_ex(scalar, getattr(a_np.copy(), op)(-4))


@pytest.mark.parametrize("op", ["__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"])
def test_inplace_bitwise_and_shift_operators_match_numpy(op):
    a_np = numpy.array([[3, 12, 7], [1, 0, 5]], "int16")
    other = numpy.array([1, 2, 3], "int8")  # broadcast and cast into a's dtype
    expected = getattr(a_np.copy(), op)(other)
    a = chainerx.array(a_np)
    ptr = a.data_ptr
    result = getattr(a, op)(chainerx.array(other))
    assert result is a and a.data_ptr == ptr and a.dtype == numpy.int16
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), expected)
    getattr(a, op)(2)  # a Python int operand
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), getattr(expected, op)(2))
    with pytest.raises(chainerx.DtypeError):
        getattr(chainerx.zeros((2,)), op)(chainerx.zeros((2,)))


@pytest.mark.parametrize("repeats,axis", [(2, None), (2, 1), ([1, 3], 0)])
def test_repeat_method_is_the_routine(repeats, axis):
    a_np = numpy.arange(6.0).reshape(2, 3)
    got = chainerx.array(a_np).repeat(repeats, axis)
    numpy.testing.assert_array_equal(chainerx.to_numpy(got), a_np.repeat(repeats, axis))


def test_inplace_on_graph_array_is_refused_but_allowed_on_grad_stopped_view():
    a = chainerx.zeros((2,), chainerx.float32).require_grad()
    with pytest.raises(
        chainerx.ChainerxError,
        match="in-place operation \\+= on an array that is in a computational graph",
    ):
        a += 1
    with pytest.raises(chainerx.ChainerxError, match="in-place operation __setitem__"):
        a[0] = 1
    b = a.as_grad_stopped()
    b += 1
    numpy.testing.assert_array_equal(chainerx.to_numpy(a), [1.0, 1.0])


def test_comparison_operators_and_unhashable():
    a = chainerx.array([1, 2, 3])
    numpy.testing.assert_array_equal(chainerx.to_numpy(a == 2), [False, True, False])
    numpy.testing.assert_array_equal(
        chainerx.to_numpy(a != chainerx.array([1, 0, 3])), [False, True, False]
    )
    numpy.testing.assert_array_equal(chainerx.to_numpy(a >= 2), [False, True, True])
    numpy.testing.assert_array_equal(chainerx.to_numpy(a < 2.5), [True, True, False])
    with pytest.raises(TypeError):
        hash(a)


def test_unsupported_operand_types_fall_back_to_python():
    with pytest.raises(TypeError):
        chainerx.zeros((1,)) + "x"


def test_methods_mirror_routines():
    a_np = numpy.arange(6.0).reshape(2, 3)
    a = chainerx.array(a_np)
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.reshape(3, 2)), a_np.reshape(3, 2))
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.reshape((6,))), a_np.reshape(6))
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.transpose(1, 0)), a_np.T)
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.transpose()), a_np.T)
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.swapaxes(0, 1)), a_np.T)
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.ravel()), a_np.ravel())
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.flatten()), a_np.flatten())
    numpy.testing.assert_array_equal(chainerx.to_numpy(a[None].squeeze()), a_np)
    numpy.testing.assert_array_equal(
        chainerx.to_numpy(a.take([2, 0], axis=1)), a_np.take([2, 0], axis=1)
    )
    numpy.testing.assert_array_equal(chainerx.to_numpy(a.dot(a.T)), a_np.dot(a_np.T))
    assert float(a.sum()) == 15
    numpy.testing.assert_allclose(chainerx.to_numpy(a.mean(axis=0)), a_np.mean(axis=0))
    numpy.testing.assert_allclose(
        chainerx.to_numpy(a.var(axis=1, keepdims=True)), a_np.var(axis=1, keepdims=True)
    )
    assert float(a.max()) == 5 and float(a.min()) == 0
    assert int(a.argmax()) == 5 and int(a.argmin(axis=1)[1]) == 0
    assert bool(a.any()) and not bool(a.all())
