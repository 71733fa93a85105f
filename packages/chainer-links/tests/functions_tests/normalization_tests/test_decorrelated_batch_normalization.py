"""decorrelated_batch_normalization and its fixed version: whitening, statistics, gradients
and errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from .conftest import loosen_for_float16


def _groups(x, groups):
    """(n, c, ...) -> (groups, c // groups, n * ...)."""
    swapped = numpy.swapaxes(x, 0, 1)
    return swapped.reshape(groups, x.shape[1] // groups, -1)


def _ungroup(y, shape):
    return numpy.swapaxes(y.reshape((shape[1], shape[0]) + shape[2:]), 0, 1)


def _inverse_sqrt(matrix):
    # Through the SVD: for a symmetric positive definite matrix U = V and S are eigenvalues.
    u, s, _ = numpy.linalg.svd(matrix)
    return u @ numpy.diag(s**-0.5) @ u.T


def _reference(x, groups, eps):
    xg = _groups(x.astype(numpy.float64), groups)
    mean = xg.mean(axis=2, keepdims=True)
    centered = xg - mean
    out, projections = [], []
    for c in centered:
        cov = c @ c.T / c.shape[1] + eps * numpy.eye(c.shape[0])
        projections.append(_inverse_sqrt(cov))
        out.append(projections[-1] @ c)
    return _ungroup(numpy.array(out), x.shape), mean[..., 0], numpy.array(projections)


@testing.parameterize(
    {"shape": (7, 4), "groups": 2, "dtype": numpy.float64},
    {"shape": (3, 6, 2, 2), "groups": 3, "dtype": numpy.float32},
    {"shape": (5, 3, 4), "groups": 1, "dtype": numpy.float64},
    {"shape": (8, 2), "groups": 1, "dtype": numpy.float16},
)
@testing.inject_backend_tests(None, [{}])
class TestDecorrelatedBatchNormalization(testing.FunctionTestCase):
    skip_double_backward_test = True

    def setUp(self):
        loosen_for_float16(self)
        if self.dtype == numpy.float32:
            self.check_forward_options = {"atol": 1e-4, "rtol": 1e-4}
            self.check_backward_options = {"atol": 1e-3, "rtol": 1e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.decorrelated_batch_normalization(inputs[0], groups=self.groups, eps=1e-3),)

    def forward_expected(self, inputs):
        return (_reference(inputs[0], self.groups, 1e-3)[0].astype(self.dtype),)


def test_decorrelated_output_is_white():
    x = numpy.random.randn(200, 6) @ numpy.random.randn(6, 6)
    y = F.decorrelated_batch_normalization(x, groups=2, eps=0).array
    for g in _groups(y, 2):
        numpy.testing.assert_allclose(g @ g.T / g.shape[1], numpy.eye(3), atol=1e-8)


def test_decorrelated_updates_running_statistics_in_place():
    x = numpy.random.uniform(-1, 1, (6, 4, 3))
    mean = numpy.zeros((2, 2))
    projection = numpy.tile(numpy.eye(2), (2, 1, 1))
    F.decorrelated_batch_normalization(
        x, groups=2, eps=1e-3, running_mean=mean, running_projection=projection, decay=0.6
    )
    _, batch_mean, batch_projection = _reference(x, 2, 1e-3)
    numpy.testing.assert_allclose(mean, 0.4 * batch_mean)
    numpy.testing.assert_allclose(projection, 0.6 * numpy.eye(2) + 0.4 * batch_projection)


def test_decorrelated_has_no_double_backpropagation():
    x = chainer.Variable(numpy.random.uniform(-1, 1, (5, 2)))
    y = F.decorrelated_batch_normalization(x, groups=1)
    (gx,) = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match=r"does not support double backpropagation"):
        F.sum(gx).backward()


def test_decorrelated_rejects_groups_not_dividing_channels():
    with pytest.raises(ValueError, match=r"number of channels 5 is not divisible by groups=2"):
        F.decorrelated_batch_normalization(numpy.zeros((3, 5), numpy.float32), groups=2)


def test_decorrelated_rejects_unknown_keyword():
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) 'axis'"):
        F.decorrelated_batch_normalization(numpy.zeros((3, 4), numpy.float32), axis=0)


@testing.parameterize(
    {"shape": (4, 6), "groups": 2, "dtype": numpy.float64},
    {"shape": (2, 4, 3), "groups": 4, "dtype": numpy.float32},
    {"shape": (3, 2, 2, 1), "groups": 1, "dtype": numpy.float16},
)
@testing.inject_backend_tests(None, [{}])
class TestFixedDecorrelatedBatchNormalization(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)
        self.size = self.shape[1] // self.groups

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        mean = numpy.random.uniform(-1, 1, (self.groups, self.size)).astype(self.dtype)
        projection = numpy.random.uniform(-1, 1, (self.groups, self.size, self.size))
        return x, mean, projection.astype(self.dtype)

    def forward(self, inputs, device):
        return (F.fixed_decorrelated_batch_normalization(*inputs, groups=self.groups),)

    def forward_expected(self, inputs):
        x, mean, projection = (a.astype(numpy.float64) for a in inputs)
        xg = _groups(x, self.groups)
        y = numpy.stack([p @ (g - m[:, None]) for g, m, p in zip(xg, mean, projection)])
        return (_ungroup(y, self.shape).astype(self.dtype),)


def test_fixed_decorrelated_rejects_statistics_of_another_shape():
    x = numpy.zeros((2, 4), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"projection\.shape == \(2, 2, 2\)"):
        F.fixed_decorrelated_batch_normalization(
            x, numpy.zeros((2, 2), numpy.float32), numpy.zeros((2, 2), numpy.float32), groups=2
        )


def test_fixed_decorrelated_casts_statistics_of_another_float_dtype_to_x_dtype():
    x = chainer.Variable(numpy.random.uniform(-1, 1, (3, 4)))
    mean = chainer.Variable(numpy.random.uniform(-1, 1, (2, 2)).astype(numpy.float32))
    projection = numpy.random.uniform(-1, 1, (2, 2, 2)).astype(numpy.float32)
    y = F.fixed_decorrelated_batch_normalization(x, mean, projection, groups=2)
    assert y.dtype == numpy.float64
    xg = _groups(x.array, 2)
    expected = numpy.stack(
        [p @ (g - m[:, None]) for g, m, p in zip(xg, mean.array.astype(float), projection)]
    )
    numpy.testing.assert_allclose(y.array, _ungroup(expected, (3, 4)), rtol=1e-6)
    F.sum(y).backward()
    assert mean.grad.dtype == numpy.float32
    with pytest.raises(type_check.InvalidType, match=r"mean\.dtype\.kind == f"):
        F.fixed_decorrelated_batch_normalization(
            x, numpy.zeros((2, 2), numpy.int32), projection, groups=2
        )
