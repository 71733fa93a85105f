"""batch_normalization and fixed_batch_normalization: values, running statistics,
gradients of every input, axis handling and argument errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.normalization.batch_normalization import (
    BatchNormalization,
    FixedBatchNormalization,
)
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, loosen_for_float16, normalize_reference

_CASES = [
    # x shape, gamma shape, axis given to the function, axes reduced
    ((5, 3), (3,), None, (0,)),
    ((2, 3, 4, 2), (3,), None, (0, 2, 3)),
    ((1, 3, 2, 2), (3,), None, (0, 2, 3)),
    ((3, 4, 2), (4, 2), None, (0,)),
    ((2, 3, 4), (2, 4), 1, (1,)),
    ((4, 3, 2), (3,), (0, 2), (0, 2)),
]


def _param_shape(x_shape, axes):
    return tuple(1 if i in axes else n for i, n in enumerate(x_shape))


@testing.parameterize(
    *testing.product({"case": _CASES, "eps": [2e-5, 0.5], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestBatchNormalization(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.param_shape, self.axis, self.axes = self.case
        loosen_for_float16(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, self.param_shape).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.param_shape).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return (F.batch_normalization(x, gamma, beta, eps=self.eps, axis=self.axis),)

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        shape = _param_shape(self.shape, self.axes)
        x_hat = normalize_reference(x, self.axes, self.eps)
        y = gamma.reshape(shape) * x_hat + beta.reshape(shape)
        return (y.astype(self.dtype),)


@testing.parameterize(*testing.product({"case": _CASES[:2] + _CASES[4:], "dtype": FLOAT_DTYPES}))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestFixedBatchNormalization(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.param_shape, self.axis, self.axes = self.case
        loosen_for_float16(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, self.param_shape).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.param_shape).astype(self.dtype)
        mean = numpy.random.uniform(-1, 1, self.param_shape).astype(self.dtype)
        var = numpy.random.uniform(0.5, 1.5, self.param_shape).astype(self.dtype)
        return x, gamma, beta, mean, var

    def forward(self, inputs, device):
        return (F.fixed_batch_normalization(*inputs, eps=1e-3, axis=self.axis),)

    def forward_expected(self, inputs):
        x, gamma, beta, mean, var = (a.astype(numpy.float64) for a in inputs)
        shape = _param_shape(self.shape, self.axes)
        x_hat = (x - mean.reshape(shape)) / numpy.sqrt(var.reshape(shape) + 1e-3)
        return ((gamma.reshape(shape) * x_hat + beta.reshape(shape)).astype(self.dtype),)


def test_batch_normalization_updates_running_statistics_in_place():
    x = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(numpy.float32)
    gamma, beta = numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32)
    mean = numpy.full(3, 0.5, numpy.float32)
    var = numpy.full(3, 2.0, numpy.float32)
    mean_id, var_id = id(mean), id(var)
    F.batch_normalization(x, gamma, beta, running_mean=mean, running_var=var, decay=0.7)
    m = 4 * 2
    batch_mean = x.mean(axis=(0, 2))
    batch_var = x.var(axis=(0, 2)) * m / (m - 1)
    numpy.testing.assert_allclose(mean, 0.7 * 0.5 + 0.3 * batch_mean, rtol=1e-6)
    numpy.testing.assert_allclose(var, 0.7 * 2.0 + 0.3 * batch_var, rtol=1e-6)
    assert (id(mean), id(var)) == (mean_id, var_id)


def test_batch_normalization_uses_batch_statistics_in_test_mode_too():
    x = numpy.array([[1.0], [3.0]], numpy.float32)
    gamma, beta = numpy.ones(1, numpy.float32), numpy.zeros(1, numpy.float32)
    with chainer.using_config("train", False):
        y = F.batch_normalization(x, gamma, beta, eps=0.0)
    numpy.testing.assert_allclose(y.array, [[-1.0], [1.0]])


def test_batch_normalization_float16_input_with_float32_parameters():
    x = numpy.random.uniform(-1, 1, (6, 3)).astype(numpy.float16)
    gamma = numpy.random.uniform(0.5, 1.5, 3).astype(numpy.float32)
    beta = numpy.random.uniform(-1, 1, 3).astype(numpy.float32)
    xv, gv, bv = (chainer.Variable(a) for a in (x, gamma, beta))
    y = F.batch_normalization(xv, gv, bv)
    assert y.dtype == numpy.float16
    expected = gamma * normalize_reference(x, (0,), 2e-5) + beta
    numpy.testing.assert_allclose(y.array, expected, atol=5e-3, rtol=5e-3)
    y.grad = numpy.ones(y.shape, numpy.float16)
    y.backward()
    assert (xv.grad.dtype, gv.grad.dtype, bv.grad.dtype) == (
        numpy.float16,
        numpy.float32,
        numpy.float32,
    )
    numpy.testing.assert_allclose(bv.grad, numpy.full(3, 6.0))


def test_batch_normalization_rejects_train_argument():
    x = numpy.zeros((2, 3), numpy.float32)
    p = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError, match=r"train argument is not supported anymore"):
        F.batch_normalization(x, p, p, train=True)


def test_batch_normalization_rejects_unknown_keyword():
    x = numpy.zeros((2, 3), numpy.float32)
    p = numpy.ones(3, numpy.float32)
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) 'momentum'"):
        F.batch_normalization(x, p, p, momentum=0.9)


@pytest.mark.parametrize(
    "gamma_shape, beta_shape, dtype, message",
    [
        ((4,), (4,), numpy.float32, r"gamma\.shape == \(3,\)"),
        ((3,), (2,), numpy.float32, r"beta\.shape == gamma\.shape"),
        ((3,), (3,), numpy.int32, r"gamma\.dtype\.kind == f"),
    ],
)
def test_batch_normalization_rejects_bad_parameters(gamma_shape, beta_shape, dtype, message):
    x = numpy.zeros((2, 3, 4), numpy.float32)
    gamma = numpy.ones(gamma_shape, dtype)
    beta = numpy.ones(beta_shape, dtype)
    with pytest.raises(type_check.InvalidType, match=r"BatchNormalization[\s\S]*" + message):
        F.batch_normalization(x, gamma, beta)


@pytest.mark.parametrize(
    "axis, error, message",
    [
        ((2, 0), ValueError, r"ascending order without repeats, got \(2, 0\)"),
        (3, ValueError, r"axis 3 is out of range for an input with 3 axes"),
        ("0", TypeError, r"axis must be an int or a non-empty tuple of ints, got '0'"),
    ],
)
def test_batch_normalization_rejects_bad_axis(axis, error, message):
    x = numpy.zeros((2, 3, 4), numpy.float32)
    p = numpy.ones(3, numpy.float32)
    with pytest.raises(error, match=message):
        F.batch_normalization(x, p, p, axis=axis)


def test_batch_normalization_rejects_running_mean_of_another_shape():
    x = numpy.zeros((2, 3), numpy.float32)
    p = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError, match=r"running_mean must have the shape of gamma \(3,\)"):
        F.batch_normalization(x, p, p, running_mean=numpy.zeros(4, numpy.float32))


def test_fixed_batch_normalization_rejects_statistics_of_another_shape():
    x = numpy.zeros((2, 3), numpy.float32)
    p = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"mean\.shape == gamma\.shape"):
        F.fixed_batch_normalization(x, p, p, numpy.ones(2, numpy.float32), p)


@pytest.mark.parametrize(
    ("x_shape", "gamma_shape", "axis"), [((1, 3), (3,), None), ((1, 3, 1), (1, 3), 2)]
)
def test_batch_statistics_of_one_sample_warn(x_shape, gamma_shape, axis):
    x = numpy.random.uniform(-1, 1, x_shape).astype(numpy.float32)
    gamma, beta = numpy.ones(gamma_shape, numpy.float32), numpy.zeros(gamma_shape, numpy.float32)
    with pytest.warns(UserWarning, match=r"no more than one sample"):
        F.batch_normalization(x, gamma, beta, axis=axis)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_chainerx_batch_statistics_and_running_update_are_native(monkeypatch, dtype):
    forbid_fallback(monkeypatch, BatchNormalization)
    x = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(dtype)
    gamma = numpy.random.uniform(0.5, 1.5, 3).astype(dtype)
    beta = numpy.random.uniform(-1, 1, 3).astype(dtype)
    mean, var = numpy.full(3, 0.5, dtype), numpy.full(3, 2.0, dtype)
    x_cx, gamma_cx, beta_cx, mean_cx, var_cx = to_chainerx(x, gamma, beta, mean, var)
    x_var = chainer.Variable(x_cx)
    y = F.batch_normalization(
        x_var, gamma_cx, beta_cx, running_mean=mean_cx, running_var=var_cx, decay=0.7
    )
    y.grad = to_chainerx(numpy.ones(x.shape, dtype))[0]
    y.backward()  # the statistics take the batch once, whatever backward recomputes
    assert y.dtype == dtype and x_var.grad.dtype == dtype
    tol = 5e-3 if dtype == numpy.float16 else 1e-5
    x64 = x.astype(numpy.float64)
    numpy.testing.assert_allclose(
        to_numpy(y),
        normalize_reference(x, (0, 2), 2e-5) * gamma[:, None] + beta[:, None],
        rtol=tol,
        atol=tol,
    )
    batch_var = x64.var(axis=(0, 2)) * 8 / 7
    numpy.testing.assert_allclose(
        to_numpy(mean_cx), 0.35 + 0.3 * x64.mean(axis=(0, 2)), rtol=tol, atol=tol
    )
    numpy.testing.assert_allclose(to_numpy(var_cx), 1.4 + 0.3 * batch_var, rtol=tol, atol=tol)


def test_chainerx_fixed_statistics_are_native(monkeypatch):
    forbid_fallback(monkeypatch, FixedBatchNormalization)
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    gamma, beta, mean, var = (numpy.full(3, v, numpy.float32) for v in (2.0, 1.0, 0.5, 4.0))
    y = F.fixed_batch_normalization(*to_chainerx(x, gamma, beta, mean, var), eps=0.0)
    numpy.testing.assert_allclose(to_numpy(y), 2.0 * (x - 0.5) / 2.0 + 1.0, rtol=1e-6)


@pytest.mark.parametrize("fixed", [False, True])
def test_chainerx_mixed_dtypes_keep_each_dtype(monkeypatch, fixed):
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float16)
    params = [numpy.random.uniform(0.5, 1.5, 3).astype(numpy.float32) for _ in range(4)]
    params[3] = params[3].astype(numpy.float64)  # a float64 variance
    if fixed:
        function, expected = F.fixed_batch_normalization, F.fixed_batch_normalization(x, *params)
    else:
        function, expected = F.batch_normalization, F.batch_normalization(x, *params[:2])
        params = params[:2]
    forbid_fallback(monkeypatch, BatchNormalization, FixedBatchNormalization)
    x_var, *param_vars = (chainer.Variable(a) for a in to_chainerx(x, *params))
    y = function(x_var, *param_vars)
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(to_numpy(y), expected.array, rtol=1e-3, atol=1e-3)
    y.grad = to_chainerx(numpy.ones(x.shape, numpy.float16))[0]
    y.backward()
    assert x_var.grad.dtype == numpy.float16
    assert [p.grad.dtype for p in param_vars] == [p.dtype for p in param_vars]


def test_chainerx_running_statistics_keep_their_dtype(monkeypatch):
    forbid_fallback(monkeypatch, BatchNormalization)
    x, gamma, beta = (numpy.random.uniform(0.5, 1.5, s) for s in ((4, 3), 3, 3))
    mean, var = to_chainerx(numpy.zeros(3, numpy.float32), numpy.ones(3, numpy.float32))
    F.batch_normalization(*to_chainerx(x, gamma, beta), running_mean=mean, running_var=var)
    assert mean.dtype == var.dtype == numpy.float32
    numpy.testing.assert_allclose(to_numpy(mean), 0.1 * x.mean(axis=0), rtol=1e-6)
