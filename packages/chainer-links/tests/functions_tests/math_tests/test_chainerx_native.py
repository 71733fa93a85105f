"""The math functions with a ChainerX routine (or an exact composition of them) run it on
ChainerX arrays: no NumPy fallback, values and dtypes as on NumPy."""

import math

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer._ops import exponential, matmul
from chainer.functions.math import (
    arctanh,
    batch_l2_norm_squared,
    clip,
    erf,
    exponential_m1,
    hyperbolic,
    inv,
    linear_interpolate,
    logarithm_1p,
    logsumexp,
    maximum,
    minimum,
    minmax,
    sqrt,
    square,
    tensordot,
    trigonometric,
)
from chainer.functions.math import exponential as math_exponential

from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy

_X = numpy.array([[0.3, -0.6, 0.45], [-0.2, 0.7, 0.1]])
_POSITIVE = numpy.abs(_X) + 0.5
_UNIT = _X * 0.9

# (node class, function of ChainerX arrays, NumPy arrays it takes, NumPy reference)
UNARY = [
    (trigonometric.Sin, F.sin, _X, numpy.sin),
    (trigonometric.Cos, F.cos, _X, numpy.cos),
    (trigonometric.Tan, F.tan, _X, numpy.tan),
    (trigonometric.Arcsin, F.arcsin, _UNIT, numpy.arcsin),
    (trigonometric.Arccos, F.arccos, _UNIT, numpy.arccos),
    (trigonometric.Arctan, F.arctan, _X, numpy.arctan),
    (hyperbolic.Sinh, F.sinh, _X, numpy.sinh),
    (hyperbolic.Cosh, F.cosh, _X, numpy.cosh),
    (arctanh.Arctanh, F.arctanh, _UNIT, numpy.arctanh),
    (exponential.Exp, F.exp, _X, numpy.exp),
    (exponential.Log, F.log, _POSITIVE, numpy.log),
    (math_exponential.Log2, F.log2, _POSITIVE, numpy.log2),
    (math_exponential.Log10, F.log10, _POSITIVE, numpy.log10),
    (exponential_m1.Expm1, F.expm1, _X, numpy.expm1),
    (logarithm_1p.Log1p, F.log1p, _POSITIVE, numpy.log1p),
    (sqrt.Sqrt, F.sqrt, _POSITIVE, numpy.sqrt),
    (square.Square, F.square, _X, numpy.square),
    (erf.Erf, F.erf, _X, numpy.vectorize(math.erf)),
    (clip.Clip, lambda x: F.clip(x, -0.5, 0.5), _X, lambda x: numpy.clip(x, -0.5, 0.5)),
    (clip.Clip, lambda x: F.clip(x, None, 0.5), _X, lambda x: numpy.minimum(x, 0.5)),
    (minmax.Max, lambda x: F.max(x, axis=1), _X, lambda x: x.max(axis=1)),
    (minmax.Min, lambda x: F.min(x, keepdims=True), _X, lambda x: x.min(keepdims=True)),
    (
        logsumexp.LogSumExp,
        lambda x: F.logsumexp(x, axis=0),
        _X,
        lambda x: numpy.log(numpy.exp(x).sum(axis=0)),
    ),
    (
        batch_l2_norm_squared.BatchL2NormSquared,
        F.batch_l2_norm_squared,
        _X,
        lambda x: (x * x).sum(axis=1),
    ),
    (inv.Inv, lambda x: F.inv(x[:, :2]), _X, lambda x: numpy.linalg.inv(x[:, :2])),
    (
        inv.BatchInv,
        lambda x: F.batch_inv(F.reshape(x, (3, 2, 1)) * x[:, :2].T),
        _POSITIVE,
        lambda x: numpy.linalg.inv(x.reshape(3, 2, 1) * x[:, :2].T),
    ),
]

BINARY = [
    (trigonometric.Arctan2, F.arctan2, numpy.arctan2),
    (maximum.Maximum, F.maximum, numpy.maximum),
    (minimum.Minimum, F.minimum, numpy.minimum),
    (matmul.MatMul, lambda a, b: F.matmul(a, b, transb=True), lambda a, b: a @ b.T),
    (
        tensordot.TensorDot,
        lambda a, b: F.tensordot(a, b, axes=([1], [1])),
        lambda a, b: numpy.tensordot(a, b, axes=([1], [1])),
    ),
    (
        linear_interpolate.LinearInterpolate,
        lambda a, b: F.linear_interpolate(a * 0 + 0.25, a, b),
        lambda a, b: 0.25 * a + 0.75 * b,
    ),
]

FLOATS = [numpy.float16, numpy.float32, numpy.float64]


def _tolerance(dtype) -> dict:
    if dtype == numpy.float16:
        return {"rtol": 5e-3, "atol": 5e-3}
    return {"rtol": 1e-5 if dtype == numpy.float32 else 1e-12}


def _check_gradient_reaches(inputs: tuple, y: chainer.Variable) -> None:
    y.grad = y.xp.ones_like(y.array)
    y.backward()
    for x in inputs:
        assert x.grad is not None and x.grad.dtype == x.dtype and x.grad.shape == x.shape


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize(
    ("node", "func", "x", "reference"),
    UNARY,
    ids=lambda v: v.__name__ if isinstance(v, type) else "",
)
def test_unary_runs_natively(monkeypatch, dtype, node, func, x, reference):
    forbid_fallback(monkeypatch, node)
    x = x.astype(dtype)
    (x_chx,) = to_chainerx(x)
    v = chainer.Variable(x_chx)
    y = func(v)
    assert y.dtype == dtype
    expected = reference(x.astype(numpy.float64))
    numpy.testing.assert_allclose(to_numpy(y), expected, **_tolerance(dtype))
    _check_gradient_reaches((v,), y)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize(
    ("node", "func", "reference"), BINARY, ids=lambda v: v.__name__ if isinstance(v, type) else ""
)
def test_binary_runs_natively(monkeypatch, dtype, node, func, reference):
    forbid_fallback(monkeypatch, node)
    a, b = _X.astype(dtype), _POSITIVE.astype(dtype)
    va, vb = (chainer.Variable(array) for array in to_chainerx(a, b))
    y = func(va, vb)
    assert y.dtype == dtype
    expected = reference(a.astype(numpy.float64), b.astype(numpy.float64))
    numpy.testing.assert_allclose(to_numpy(y), expected, **_tolerance(dtype))
    _check_gradient_reaches((va, vb), y)


@pytest.mark.parametrize(
    ("func", "reference"), [(F.argmax, numpy.argmax), (F.argmin, numpy.argmin)]
)
def test_index_of_extremum_is_int32_natively(monkeypatch, func, reference):
    forbid_fallback(monkeypatch, minmax.ArgMax, minmax.ArgMin)
    (x,) = to_chainerx(_X.astype(numpy.float32))
    for axis in (None, 0, 1):
        y = func(x, axis=axis)
        assert y.dtype == numpy.int32
        numpy.testing.assert_array_equal(to_numpy(y), reference(_X, axis=axis))


def test_maximum_ties_send_the_gradient_to_the_first_input():
    arrays = to_chainerx(numpy.array([1.0, 2.0], numpy.float32), numpy.array([1.0, 3.0], "f"))
    a, b = (chainer.Variable(x) for x in arrays)
    _check_gradient_reaches((a, b), F.maximum(a, b))
    numpy.testing.assert_array_equal(to_numpy(a.grad), [1.0, 0.0])
    numpy.testing.assert_array_equal(to_numpy(b.grad), [0.0, 1.0])


def test_inv_of_a_singular_matrix_raises_value_error():
    (a,) = to_chainerx(numpy.zeros((2, 2), numpy.float32))
    with pytest.raises(ValueError, match="singular"):
        F.inv(a)
