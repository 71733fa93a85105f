"""Shape and reduction ops against NumPy, with first and second order gradient checks."""

import numpy
import pytest

import chainer
from chainer import Variable, gradient_check
from chainer._ops import array_ops, exponential, get_item, matmul
from chainer.utils import type_check

from .conftest import FORWARD_TOLERANCES, TOLERANCES

CASES = {
    "reshape": ((2, 3, 4), lambda x: array_ops.reshape(x, (4, -1)), lambda a: a.reshape(4, 6)),
    "transpose": (
        (2, 3, 4),
        lambda x: array_ops.transpose(x, (2, 0, 1)),
        lambda a: a.transpose(2, 0, 1),
    ),
    "transpose_none": ((2, 3), lambda x: array_ops.transpose(x), lambda a: a.T),
    "broadcast_to": (
        (3, 1),
        lambda x: array_ops.broadcast_to(x, (2, 3, 4)),
        lambda a: numpy.broadcast_to(a, (2, 3, 4)),
    ),
    "sum_all": ((2, 3), lambda x: array_ops.sum(x), lambda a: a.sum()),
    "sum_axis": ((2, 3, 4), lambda x: array_ops.sum(x, axis=(0, 2)), lambda a: a.sum((0, 2))),
    "sum_keepdims": (
        (2, 3),
        lambda x: array_ops.sum(x, axis=-1, keepdims=True),
        lambda a: a.sum(-1, keepdims=True),
    ),
    "sum_to": (
        (2, 3, 4),
        lambda x: array_ops.sum_to(x, (3, 1)),
        lambda a: a.sum(0).sum(-1, keepdims=True),
    ),
    "mean": ((2, 3), lambda x: array_ops.mean(x, axis=0), lambda a: a.mean(0)),
    "weighted_mean": (
        (2, 3),
        lambda x: array_ops.mean(x, 1, numpy.array([1, 2, 3], x.dtype)),
        lambda a: (a * [1, 2, 3]).sum(1) / 6,
    ),
    "squeeze": ((1, 3, 1), lambda x: array_ops.squeeze(x), lambda a: a.squeeze()),
    "squeeze_axis": ((1, 3, 1), lambda x: array_ops.squeeze(x, 2), lambda a: a.squeeze(2)),
    "expand_dims": ((2, 3), lambda x: array_ops.expand_dims(x, -1), lambda a: a[..., None]),
    "identity": ((2,), lambda x: array_ops.identity(x), lambda a: a),
    "getitem_basic": ((4, 3), lambda x: x[1:3, ::-1], lambda a: a[1:3, ::-1]),
    "getitem_int_and_none": ((4, 3), lambda x: x[2, None], lambda a: a[2, None]),
    "getitem_advanced_repeats": ((4, 3), lambda x: x[[0, 2, 2], 1:], lambda a: a[[0, 2, 2], 1:]),
    "getitem_bool": (
        (4,),
        lambda x: x[numpy.array([True, False, True, True])],
        lambda a: a[[0, 2, 3]],
    ),
    "getitem_ellipsis": (
        (2, 3, 4),
        lambda x: get_item.get_item(x, (Ellipsis, 1)),
        lambda a: a[..., 1],
    ),
    "exp": ((2, 3), exponential.exp, numpy.exp),
    "log": ((2, 3), exponential.log, numpy.log),
    "matmul": ((2, 3), lambda x: matmul.matmul(x, x.T), lambda a: a @ a.T),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_op(name, dtype, rng):
    shape, op, reference = CASES[name]
    x = rng.uniform(0.5, 1.5, shape).astype(dtype)
    y = op(Variable(x))
    expected = numpy.asarray(reference(x.astype(numpy.float64)))
    assert y.shape == expected.shape and y.dtype == dtype
    numpy.testing.assert_allclose(y.array, expected, **FORWARD_TOLERANCES[dtype])
    gy = rng.standard_normal(expected.shape).astype(dtype)
    gradient_check.check_backward(op, x, gy, **TOLERANCES[dtype])
    gradient_check.check_double_backward(
        op, x, gy, rng.standard_normal(shape).astype(dtype), **TOLERANCES[dtype]
    )


@pytest.mark.parametrize(
    ("shape_a", "shape_b", "transa", "transb"),
    [
        ((3, 4), (4, 2), False, False),
        ((4, 3), (4, 2), True, False),
        ((3, 4), (2, 4), False, True),
        ((2, 4, 3), (2, 5, 4), True, True),
        ((5, 3, 4), (4, 2), False, False),
        ((4,), (4, 2), False, False),
        ((3, 4), (4,), False, False),
    ],
)
def test_matmul(shape_a, shape_b, transa, transb, dtype, rng):
    a = rng.uniform(-1, 1, shape_a).astype(dtype)
    b = rng.uniform(-1, 1, shape_b).astype(dtype)

    def op(p, q):
        return matmul.matmul(p, q, transa, transb)

    ref_a = a.astype(numpy.float64)
    ref_b = b.astype(numpy.float64)
    if transa:
        ref_a = ref_a.swapaxes(-1, -2)
    if transb:
        ref_b = ref_b.swapaxes(-1, -2)
    expected = ref_a @ ref_b
    y = op(Variable(a), Variable(b))
    numpy.testing.assert_allclose(y.array, expected, **FORWARD_TOLERANCES[dtype])
    gy = rng.standard_normal(expected.shape).astype(dtype)
    gradient_check.check_backward(op, (a, b), gy, **TOLERANCES[dtype])
    gradient_check.check_double_backward(
        op,
        (a, b),
        gy,
        (rng.standard_normal(shape_a).astype(dtype), rng.standard_normal(shape_b).astype(dtype)),
        **TOLERANCES[dtype],
    )
    if not (transa or transb):
        numpy.testing.assert_allclose(
            (Variable(a) @ b).array, expected, **FORWARD_TOLERANCES[dtype]
        )
        numpy.testing.assert_allclose(
            (a @ Variable(b)).array, expected, **FORWARD_TOLERANCES[dtype]
        )


def test_cast_and_its_gradient():
    x = Variable(numpy.array([1.5, 2.5], numpy.float32))
    y = array_ops.cast(x, numpy.float64)
    assert y.dtype == numpy.float64
    y.grad = numpy.array([1.0, 2.0])
    y.backward()
    assert x.grad.dtype == numpy.float32
    numpy.testing.assert_array_equal(x.grad, [1.0, 2.0])


def test_cast_to_the_same_dtype_is_a_node_unless_backprop_is_off():
    x = Variable(numpy.array([1.5, 2.5], numpy.float32))
    y1 = array_ops.cast(x, numpy.float32)
    y2 = array_ops.cast(x, numpy.float32)
    assert y1 is not x and y1.creator is not None
    z = y1 + y2 * 3.0
    g1, g2 = chainer.grad([z], [y1, y2], [numpy.ones(2, numpy.float32)])
    numpy.testing.assert_array_equal(g1.array, [1.0, 1.0])
    numpy.testing.assert_array_equal(g2.array, [3.0, 3.0])
    with chainer.no_backprop_mode():
        assert array_ops.cast(x, numpy.float32) is x
    array = numpy.ones(2, numpy.float32)
    assert array_ops.cast(array, numpy.float32).array is array


def test_shape_ops_to_the_same_shape_return_the_input():
    x = Variable(numpy.ones((2, 3), numpy.float32))
    assert array_ops.reshape(x, (2, 3)) is x
    assert array_ops.broadcast_to(x, (2, 3)) is x
    assert array_ops.sum_to(x, (2, 3)) is x
    array = numpy.ones((2, 3), numpy.float32)
    assert array_ops.reshape(array, (2, 3)).array is array
    assert array_ops.broadcast_to(array, (2, 3)).array is array


@pytest.mark.parametrize(
    ("axis", "error", "message"),
    [
        ([0], TypeError, r"axis must be None, an int or a tuple of ints, got \[0\]"),
        ((1, "x"), TypeError, r"got \(1, 'x'\)"),
        ((0, 0), ValueError, r"duplicate value in axis: \(0, 0\)"),
    ],
)
def test_sum_rejects_bad_axis_arguments(axis, error, message):
    with pytest.raises(error, match=message):
        array_ops.sum(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_identity_of_several_inputs():
    a, b = Variable(numpy.ones(1)), Variable(numpy.zeros(2))
    ya, yb = array_ops.identity(a, b)
    assert ya is not a and ya.shape == (1,) and yb.shape == (2,)


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (lambda x: array_ops.reshape(x, (5,)), r"cannot reshape an array of shape \(2, 3\)"),
        (lambda x: array_ops.transpose(x, (0, 0)), r"axes is a permutation of range\(2\)"),
        (lambda x: array_ops.broadcast_to(x, (3, 3)), r"can be broadcast to \(3, 3\)"),
        (lambda x: array_ops.sum_to(x, (4,)), r"can be summed to \(4,\)"),
        (lambda x: array_ops.sum(x, axis=2), "-2 <= axis < 2"),
        (lambda x: matmul.matmul(x, x), r"3 != 2 \(a.shape=\(2, 3\), b.shape=\(2, 3\)\)"),
        (lambda x: exponential.exp(array_ops.cast(x, numpy.int32)), "dtype.kind == f"),
    ],
)
def test_bad_input_raises_invalid_type(op, message):
    with pytest.raises(type_check.InvalidType, match=message):
        op(Variable(numpy.ones((2, 3))))


def test_squeeze_of_an_axis_longer_than_one_is_a_value_error():
    with pytest.raises(
        ValueError, match=r"cannot squeeze axis 0 of length 2 \(x.shape=\(2, 3\)\)"
    ):
        array_ops.squeeze(Variable(numpy.ones((2, 3))), 0)


def test_mean_argument_errors():
    x = Variable(numpy.ones((2, 3)))
    with pytest.raises(ValueError, match=r"duplicate value in axis: \(0, 0\)"):
        array_ops.mean(x, (0, 0))
    with pytest.raises(ValueError, match=r"duplicate value in axis: \(1, -1\) \(x.ndim=2\)"):
        array_ops.mean(x, (1, -1))
    with pytest.raises(ValueError, match="weights need a single integer axis or None"):
        array_ops.mean(x, (0, 1), numpy.ones((2, 3)))
    with pytest.raises(ValueError, match=r"weights must have the shape of x \(2, 3\)"):
        array_ops.mean(x, None, numpy.ones(3))
    with pytest.raises(ValueError, match=r"weights must be 1-D of length 3 \(x.shape\[1\]\)"):
        array_ops.mean(x, 1, numpy.ones(2))


@pytest.mark.parametrize("keepdims", [False, True])
def test_variable_mean_with_elementwise_weights_over_all_axes(keepdims):
    x = Variable(numpy.arange(6.0).reshape(2, 3))
    w = numpy.arange(1.0, 7.0).reshape(2, 3)
    y = x.mean(weights=w, keepdims=keepdims)
    assert y.shape == ((1, 1) if keepdims else ())
    numpy.testing.assert_allclose(y.array.reshape(()), numpy.average(x.array, weights=w))
    y.grad = numpy.ones(y.shape)
    y.backward()
    numpy.testing.assert_allclose(x.grad, w / w.sum())


def test_out_of_range_index_is_an_index_error_so_iteration_stops():
    x = Variable(numpy.arange(6.0).reshape(3, 2))
    with pytest.raises(IndexError, match=r"index \(5,\) is invalid for shape \(3, 2\)"):
        x[5]
    rows = list(x)
    assert len(rows) == 3
    numpy.testing.assert_array_equal(rows[2].array, [4.0, 5.0])
