"""accuracy against a NumPy reference of Chainer's definition."""

import math

import numpy
import pytest

import chainerx
import chainerx.testing


def _accuracy_ref(y, t, ignore_label=None):
    pred = y.argmax(axis=1)
    keep = numpy.ones(t.shape, bool) if ignore_label is None else t != ignore_label
    if ignore_label is not None and not keep.any():
        return 0.0
    return (pred == t)[keep].sum() / keep.sum()


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize(("y_shape", "n_classes"), [((20, 4), 4), ((1, 3), 3), ((6, 3, 5), 3)])
@pytest.mark.parametrize("ignore_label", [None, -1, 2])
def test_accuracy(dtype, y_shape, n_classes, ignore_label, layout, make_input):
    y_np, y = make_input(y_shape, dtype, seed=1, layout=layout)
    t_shape = (y_shape[0],) + y_shape[2:]
    t_np = numpy.random.default_rng(2).integers(-1, n_classes, t_shape).astype(numpy.int32)
    # Make some predictions right, so the accuracy is neither 0 nor 1 by construction.
    t_np.reshape(-1)[::2] = y_np.argmax(axis=1).reshape(-1)[::2]
    got = chainerx.accuracy(y, chainerx.array(t_np), ignore_label=ignore_label)
    assert got.shape == () and got.dtype == numpy.dtype(dtype)
    expected = _accuracy_ref(y_np, t_np, ignore_label)
    chainerx.testing.assert_allclose(got, expected, rtol={"float16": 1e-3}.get(dtype, 1e-7))


def test_accuracy_by_hand():
    y = chainerx.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    t = chainerx.array([1, 1, -1, 0])
    assert float(chainerx.accuracy(y, t)) == 0.5
    assert float(chainerx.accuracy(y, t, ignore_label=-1)) == pytest.approx(2 / 3)


def test_accuracy_all_ignored_is_zero_and_empty_is_nan():
    y = chainerx.ones((2, 3))
    assert float(chainerx.accuracy(y, chainerx.array([-1, -1]), ignore_label=-1)) == 0.0
    assert math.isnan(
        float(chainerx.accuracy(chainerx.ones((0, 3)), chainerx.zeros((0,), numpy.int64)))
    )


def test_accuracy_is_not_differentiable():
    y = chainerx.ones((2, 3)).require_grad()
    assert not chainerx.accuracy(y, chainerx.array([0, 1])).is_grad_required()


def test_accuracy_errors():
    with pytest.raises(chainerx.DtypeError, match="accuracy requires a floating dtype, got int64"):
        chainerx.accuracy(chainerx.zeros((2, 3), numpy.int64), chainerx.zeros((2,), numpy.int64))
    with pytest.raises(
        chainerx.DtypeError, match="accuracy: labels must have an integer dtype, got float32"
    ):
        chainerx.accuracy(chainerx.zeros((2, 3)), chainerx.zeros((2,)))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"accuracy: labels t must have y's shape without axis 1 \(y of shape \(2, 3, 4\)\), "
        r"got shape \(2, 3\)",
    ):
        chainerx.accuracy(chainerx.zeros((2, 3, 4)), chainerx.zeros((2, 3), numpy.int32))
    with pytest.raises(chainerx.DimensionError, match="shape without axis 1"):
        chainerx.accuracy(chainerx.zeros((2, 3)), chainerx.zeros((3,), numpy.int32))
    with pytest.raises(chainerx.DimensionError, match=r"y of shape \(2, 0\) has no classes"):
        chainerx.accuracy(chainerx.zeros((2, 0)), chainerx.zeros((2,), numpy.int32))
