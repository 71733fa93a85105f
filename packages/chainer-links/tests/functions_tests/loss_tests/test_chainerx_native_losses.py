"""The losses with a ChainerX path (elementwise errors, Huber, hinge, triplet, contrastive,
covariance penalties, sigmoid cross entropy, negative sampling) compute ChainerX inputs
natively, with the values and dtypes of the NumPy path (the ChainerX configurations of their own
tests check gradients of both orders on ChainerX arrays)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.loss.absolute_error import AbsoluteError
from chainer.functions.loss.contrastive import Contrastive
from chainer.functions.loss.cross_covariance import CrossCovariance
from chainer.functions.loss.decov import DeCov
from chainer.functions.loss.hinge import Hinge
from chainer.functions.loss.huber_loss import HuberLoss
from chainer.functions.loss.mean_absolute_error import MeanAbsoluteError
from chainer.functions.loss.mean_squared_error import MeanSquaredError
from chainer.functions.loss.negative_sampling import NegativeSampling
from chainer.functions.loss.sigmoid_cross_entropy import SigmoidCrossEntropy
from chainer.functions.loss.squared_error import SquaredError
from chainer.functions.loss.triplet import Triplet

from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES


def _uniform(shape, dtype, low=-1.0, high=1.0):
    return numpy.random.uniform(low, high, shape).astype(dtype)


def _pair(dtype):
    return _uniform((3, 4), dtype), _uniform((3, 4), dtype)


def _labels():
    return numpy.array([[0, 1, -1, 1], [1, 1, 0, -1], [0, 0, 1, 1]], numpy.int32)


def _sampler(shape):
    return (numpy.arange(numpy.prod(shape)) % 5).reshape(shape).astype(numpy.int32)


CASES = {
    "squared_error": (SquaredError, F.squared_error, _pair),
    "absolute_error": (AbsoluteError, F.absolute_error, _pair),
    "mean_squared_error": (MeanSquaredError, F.mean_squared_error, _pair),
    "mean_absolute_error": (MeanAbsoluteError, F.mean_absolute_error, _pair),
    "huber_loss": (
        HuberLoss,
        lambda x, t: F.huber_loss(x, t, delta=0.5),
        lambda dtype: (_uniform((3, 4), dtype, -2, 2), _uniform((3, 4), dtype)),
    ),
    "huber_loss_no_reduce": (
        HuberLoss,
        lambda x, t: F.huber_loss(x, t, delta=1.0, reduce="no"),
        lambda dtype: (_uniform((3, 4), dtype, -3, 3), _uniform((3, 4), dtype)),
    ),
    "sigmoid_cross_entropy": (
        SigmoidCrossEntropy,
        F.sigmoid_cross_entropy,
        lambda dtype: (_uniform((3, 4), dtype, -3, 3), _labels()),
    ),
    "sigmoid_cross_entropy_sum_over_batch": (
        SigmoidCrossEntropy,
        lambda x, t: F.sigmoid_cross_entropy(x, t, normalize=False),
        lambda dtype: (_uniform((3, 4), dtype, -3, 3), _labels()),
    ),
    "sigmoid_cross_entropy_no_reduce": (
        SigmoidCrossEntropy,
        lambda x, t: F.sigmoid_cross_entropy(x, t, reduce="no"),
        lambda dtype: (_uniform((3, 4), dtype, -3, 3), _labels()),
    ),
    "hinge_l1": (
        Hinge,
        F.hinge,
        lambda dtype: (_uniform((3, 4), dtype, -2, 2), numpy.array([0, 3, 1], numpy.int32)),
    ),
    "hinge_l2_no_reduce": (
        Hinge,
        lambda x, t: F.hinge(x, t, "L2", "no"),
        lambda dtype: (_uniform((3, 4), dtype, -2, 2), numpy.array([0, 3, 1], numpy.int32)),
    ),
    "triplet": (Triplet, F.triplet, lambda dtype: _pair(dtype) + (_uniform((3, 4), dtype),)),
    "triplet_no_reduce": (
        Triplet,
        lambda a, p, n: F.triplet(a, p, n, margin=1.0, reduce="no"),
        lambda dtype: _pair(dtype) + (_uniform((3, 4), dtype),),
    ),
    "contrastive": (
        Contrastive,
        lambda x0, x1, y: F.contrastive(x0, x1, y, margin=3.0),
        lambda dtype: _pair(dtype) + (numpy.array([1, 0, 0], numpy.int32),),
    ),
    "contrastive_coincident_no_reduce": (
        Contrastive,
        lambda x0, x1, y: F.contrastive(x0, x1, y, reduce="no"),
        lambda dtype: (numpy.zeros((2, 3), dtype),) * 2 + (numpy.array([1, 0], numpy.int32),),
    ),
    "decov": (DeCov, F.decov, lambda dtype: (_uniform((5, 3), dtype),)),
    "decov_no_reduce": (
        DeCov,
        lambda h: F.decov(h, reduce="no"),
        lambda dtype: (_uniform((5, 3), dtype),),
    ),
    "cross_covariance": (
        CrossCovariance,
        F.cross_covariance,
        lambda dtype: (_uniform((5, 3), dtype), _uniform((5, 2), dtype)),
    ),
    "cross_covariance_no_reduce": (
        CrossCovariance,
        lambda y, z: F.cross_covariance(y, z, reduce="no"),
        lambda dtype: (_uniform((5, 3), dtype), _uniform((5, 2), dtype)),
    ),
    "negative_sampling": (
        NegativeSampling,
        lambda x, t, W: F.negative_sampling(x, t, W, _sampler, 2),
        lambda dtype: (
            _uniform((3, 4), dtype),
            numpy.array([1, -1, 4], numpy.int32),
            _uniform((5, 4), dtype),
        ),
    ),
    "negative_sampling_no_reduce": (
        NegativeSampling,
        lambda x, t, W: F.negative_sampling(x, t, W, _sampler, 3, reduce="no"),
        lambda dtype: (
            _uniform((3, 4), dtype),
            numpy.array([1, -1, 4], numpy.int32),
            _uniform((5, 4), dtype),
        ),
    ),
}


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_losses_match_the_numpy_path(monkeypatch, name, dtype):
    node, function, make_inputs = CASES[name]
    inputs = make_inputs(dtype)
    expected = function(*inputs)
    forbid_fallback(monkeypatch, node)
    y = function(*to_chainerx(*inputs))
    assert y.dtype == expected.dtype == dtype and y.shape == expected.shape
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(to_numpy(y), expected.array, rtol=tol, atol=tol)


def test_float16_mean_squared_error_does_not_overflow_on_chainerx():
    # 300 ** 2 overflows float16, the mean 300 ** 2 / 4 does not
    x0 = numpy.array([300, 0, 0, 0], numpy.float16)
    y = F.mean_squared_error(*to_chainerx(x0, numpy.zeros(4, numpy.float16)))
    assert y.dtype == numpy.float16 and to_numpy(y) == numpy.float16(22500)


def test_empty_mean_errors_fall_back_to_nan():
    x0, x1 = to_chainerx(numpy.zeros(0, numpy.float32), numpy.zeros(0, numpy.float32))
    assert MeanSquaredError().forward_chainerx((x0, x1)) is chainer.Fallback
    assert numpy.isnan(to_numpy(F.mean_absolute_error(x0, x1)))


def test_negative_sampling_returns_chainerx_samples_with_the_targets_first():
    x, t, W = to_chainerx(
        numpy.zeros((3, 4), numpy.float32),
        numpy.array([4, 3, 2], numpy.int32),
        numpy.zeros((5, 4), numpy.float32),
    )
    loss, samples = F.negative_sampling(x, t, W, _sampler, 2, return_samples=True)
    samples = to_numpy(samples)
    assert samples.dtype == numpy.int32
    numpy.testing.assert_array_equal(samples[:, 0], [4, 3, 2])
    numpy.testing.assert_array_equal(samples[:, 1:], _sampler((3, 3))[:, 1:])
    assert float(to_numpy(loss)) == pytest.approx(9 * numpy.log(2))


def test_negative_sampling_label_out_of_range_is_a_value_error():
    x, t, W = to_chainerx(
        numpy.zeros((1, 4), numpy.float32),
        numpy.array([5], numpy.int32),
        numpy.zeros((5, 4), numpy.float32),
    )
    with pytest.raises(ValueError, match=r"labels t must lie in \[0, 5\)"):
        F.negative_sampling(x, t, W, _sampler, 2)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_chainerx_contrastive_coincident_pair_has_finite_gradients(monkeypatch, dtype):
    forbid_fallback(monkeypatch, Contrastive)
    x0, x1 = (chainer.Variable(a) for a in to_chainerx(*(numpy.zeros((2, 3), dtype),) * 2))
    (y,) = to_chainerx(numpy.array([1, 0], numpy.int32))
    loss = F.contrastive(x0, x1, y)
    gx0, gx1 = chainer.grad([loss], [x0, x1])
    assert numpy.isfinite(to_numpy(gx0)).all() and numpy.isfinite(to_numpy(gx1)).all()
    assert float(to_numpy(loss)) == pytest.approx(0.25)
