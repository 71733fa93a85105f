"""fixed_batch_normalization with beta and statistics in other float dtypes than gamma."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float64])
def test_statistics_and_gamma_in_another_dtype(dtype):
    # What gradient_check(dtype='f') produces for a link without gamma: gamma (a constant
    # of the link's dtype) and the running statistics stay, x and beta become float32.
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((4, 5)).astype(numpy.float32)
    gamma = rng.uniform(0.5, 1.5, 5).astype(dtype)
    beta = rng.standard_normal(5).astype(numpy.float32)
    mean = rng.standard_normal(5).astype(dtype)
    var = rng.uniform(0.5, 2.0, 5).astype(dtype)
    eps = 2e-5

    y = F.fixed_batch_normalization(x, gamma, beta, mean, var, eps=eps)
    g, m, v = (a.astype(numpy.float64) for a in (gamma, mean, var))
    expected = g * (x - m) / numpy.sqrt(v + eps) + beta
    assert y.dtype == numpy.float32
    rtol = 5e-3 if dtype == numpy.float16 else 1e-5
    numpy.testing.assert_allclose(y.array, expected, rtol=rtol, atol=rtol)

    inputs = [chainer.Variable(a) for a in (x, gamma, beta, mean, var)]
    gy = rng.standard_normal((4, 5)).astype(numpy.float32)
    grads = chainer.grad([F.fixed_batch_normalization(*inputs, eps=eps)], inputs, [gy])
    assert [gx.dtype for gx in grads] == [a.dtype for a in (x, gamma, beta, mean, var)]
    numpy.testing.assert_allclose(grads[2].array, gy.sum(axis=0), rtol=1e-5)

    def f(x, beta):
        return F.fixed_batch_normalization(x, gamma, beta, mean, var, eps=eps)

    gradient_check.check_backward(f, (x, beta), gy, dtype=numpy.float64, atol=1e-3, rtol=1e-3)
