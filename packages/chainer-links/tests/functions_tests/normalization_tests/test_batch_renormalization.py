"""batch_renormalization and fixed_batch_renormalization: values with clipped and free
corrections, statistics updates, gradients and errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.normalization.batch_renormalization import BatchRenormalizationFunction
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, loosen_for_float16, normalize_reference


def _reference(x, gamma, beta, rmax, dmax, eps, running_mean, running_var, axes, shape):
    x64 = x.astype(numpy.float64)
    mean = x64.mean(axis=axes)
    std = numpy.sqrt(x64.var(axis=axes) + eps)
    running_std = numpy.sqrt(running_var + eps)
    r = numpy.clip(std / running_std, 1 / rmax, rmax)
    d = numpy.clip((mean - running_mean) / running_std, -dmax, dmax)
    x_hat = normalize_reference(x, axes, eps) * r.reshape(shape) + d.reshape(shape)
    return gamma.reshape(shape) * x_hat + beta.reshape(shape)


@testing.parameterize(
    *testing.product(
        {"shape": [(5, 3), (2, 3, 2, 2)], "clipped": [True, False], "dtype": FLOAT_DTYPES}
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestBatchRenormalization(testing.FunctionTestCase):
    def setUp(self):
        self.axes = (0,) + tuple(range(2, len(self.shape)))
        self.param_shape = (1, 3) + (1,) * (len(self.shape) - 2)
        if self.clipped:
            # Running statistics far from the batch's: r = rmax and d = +-dmax are constants,
            # so the numerical gradient sees what the method's gradient assumes.
            self.running_mean = numpy.array([5.0, -5.0, 5.0])
            self.running_var = numpy.full(3, 0.01)
        else:
            self.running_mean = numpy.array([0.1, -0.2, 0.0])
            self.running_var = numpy.array([0.3, 0.5, 0.4])
            self.skip_backward_test = self.skip_double_backward_test = True
        loosen_for_float16(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        if self.clipped:
            # A 1 and a -1 in every channel: its batch deviation is then over 0.4, so r stays
            # clipped at rmax (a finite difference could otherwise move r).
            rest = (0,) * (len(self.shape) - 2)
            x[(0, slice(None), *rest)], x[(1, slice(None), *rest)] = 1, -1
        gamma = numpy.random.uniform(0.5, 1.5, 3).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, 3).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        y = F.batch_renormalization(
            x,
            gamma,
            beta,
            2.0,
            0.5,
            eps=1e-3,
            running_mean=device.send(self.running_mean.astype(self.dtype)),
            running_var=device.send(self.running_var.astype(self.dtype)),
        )
        return (y,)

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        y = _reference(
            x,
            gamma,
            beta,
            2.0,
            0.5,
            1e-3,
            self.running_mean.astype(self.dtype),
            self.running_var.astype(self.dtype),
            self.axes,
            self.param_shape,
        )
        return (y.astype(self.dtype),)


def test_renormalization_without_correction_is_batch_normalization():
    x = numpy.random.uniform(-1, 1, (6, 3)).astype(numpy.float32)
    gamma = numpy.random.uniform(0.5, 1.5, 3).astype(numpy.float32)
    beta = numpy.random.uniform(-1, 1, 3).astype(numpy.float32)
    y = F.batch_renormalization(x, gamma, beta, rmax=1, dmax=0)
    expected = F.batch_normalization(x, gamma, beta)
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-5, atol=1e-6)


def test_renormalization_updates_statistics_only_when_asked():
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float64)
    p = numpy.ones(3)
    mean, var = numpy.zeros(3), numpy.ones(3)
    F.batch_renormalization(x, p, p, 3, 1, running_mean=mean, running_var=var)
    numpy.testing.assert_array_equal((mean, var), (numpy.zeros(3), numpy.ones(3)))
    F.batch_renormalization(
        x, p, p, 3, 1, running_mean=mean, running_var=var, decay=0.8, update_statistics=True
    )
    numpy.testing.assert_allclose(mean, 0.2 * x.mean(axis=0))
    numpy.testing.assert_allclose(var, 0.8 + 0.2 * x.var(axis=0) * 4 / 3)


def test_renormalization_update_needs_running_statistics():
    p = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError, match=r"update_statistics=True needs running_mean"):
        F.batch_renormalization(
            numpy.zeros((2, 3), numpy.float32), p, p, 2, 1, update_statistics=True
        )


def test_renormalization_rejects_gamma_of_another_shape():
    p = numpy.ones(2, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"gamma\.shape == \(3,\)"):
        F.batch_renormalization(numpy.zeros((2, 3), numpy.float32), p, p, 2, 1)


def test_fixed_batch_renormalization_is_deprecated_fixed_batch_normalization():
    x = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
    gamma, beta = numpy.float32([1.5, 0.5]), numpy.float32([0.1, -0.1])
    mean, var = numpy.float32([0.2, -0.3]), numpy.float32([0.5, 2.0])
    with pytest.warns(DeprecationWarning, match=r"Use fixed_batch_normalization instead"):
        y = F.fixed_batch_renormalization(x, gamma, beta, mean, var, eps=1e-3)
    expected = gamma * (x - mean) / numpy.sqrt(var + 1e-3) + beta
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5)


def test_chainerx_renormalization_and_update_are_native(monkeypatch):
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    p = numpy.ones(3, numpy.float32)
    mean, var = numpy.full(3, 0.2, numpy.float32), numpy.full(3, 0.5, numpy.float32)
    options = {"decay": 0.8, "update_statistics": True}
    x_np = chainer.Variable(x)
    expected = F.batch_renormalization(
        x_np, p, p, 3, 1, running_mean=mean.copy(), running_var=var.copy(), **options
    )
    gy = numpy.random.uniform(-1, 1, x.shape).astype(numpy.float32)
    expected.grad = gy
    expected.backward()
    forbid_fallback(monkeypatch, BatchRenormalizationFunction)
    mean_cx, var_cx = to_chainerx(mean, var)
    x_var = chainer.Variable(to_chainerx(x)[0])
    y = F.batch_renormalization(
        x_var, *to_chainerx(p, p), 3, 1, running_mean=mean_cx, running_var=var_cx, **options
    )
    numpy.testing.assert_allclose(to_numpy(y), expected.array, rtol=1e-5, atol=1e-6)
    y.grad = to_chainerx(gy)[0]
    y.backward()  # r and d, and the statistics, take the batch once
    numpy.testing.assert_allclose(to_numpy(x_var.grad), x_np.grad, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(to_numpy(mean_cx), 0.16 + 0.2 * x.mean(axis=0), rtol=1e-5)
    numpy.testing.assert_allclose(to_numpy(var_cx), 0.4 + 0.2 * x.var(axis=0) * 4 / 3, rtol=1e-5)
