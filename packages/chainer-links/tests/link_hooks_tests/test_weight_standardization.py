"""WeightStandardization: each output unit's weights centered and scaled to unit variance."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import gradient_check
from chainer.link_hooks import WeightStandardization


def _random(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _standardize(W, eps):
    rows = W.reshape(len(W), -1).astype(numpy.float64)
    centered = rows - rows.mean(axis=1, keepdims=True)
    return (centered / numpy.sqrt((centered**2).mean(axis=1, keepdims=True) + eps)).reshape(
        W.shape
    )


@pytest.mark.parametrize("eps", [1e-5, 0.5])
def test_convolution_uses_the_standardized_kernel(eps):
    conv = L.Convolution2D(3, 4, 2)
    conv.add_hook(WeightStandardization(eps=eps))
    x = _random(2, 3, 5, 5)
    expected = F.convolution_2d(x, _standardize(conv.W.array, eps).astype(numpy.float32))
    numpy.testing.assert_allclose(
        conv(x).array, expected.array + conv.b.array[:, None, None], rtol=1e-4, atol=1e-5
    )
    assert isinstance(conv.W, chainer.Parameter)


def test_the_standardized_weight_has_zero_mean_and_unit_variance_per_row():
    link = L.Linear(20, 3)
    link.add_hook(WeightStandardization())
    W_hat = link(numpy.eye(20, dtype=numpy.float32)).array.T - link.b.array[:, None]
    numpy.testing.assert_allclose(W_hat.mean(axis=1), 0, atol=1e-5)
    numpy.testing.assert_allclose(W_hat.var(axis=1), 1, rtol=1e-3)


def test_gradient_flows_through_the_standardization():
    link = L.Linear(4, 3)
    link.add_hook(WeightStandardization())
    gradient_check.check_backward(
        lambda x: link(x),
        _random(2, 4),
        _random(2, 3),
        params=(link.W, link.b),
        atol=1e-3,
        rtol=1e-3,
        dtype=numpy.float64,
    )


def test_lazy_weights_are_initialized_from_the_first_input():
    link = L.Linear(None, 3)
    link.add_hook(WeightStandardization())
    x = _random(2, 5)
    y = link(x)
    assert link.W.shape == (3, 5)
    expected = x @ _standardize(link.W.array, 1e-5).T + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)


def test_misuse_is_reported_and_the_name_is_configurable():
    with pytest.raises(ValueError, match=r"Weight 'V' does not exist in Linear"):
        L.Linear(2, 2).add_hook(WeightStandardization(weight_name="V"))
    with pytest.raises(NotImplementedError, match="not supposed to be used as a context manager"):
        with WeightStandardization():
            pass
    link = L.Linear(2, 2).add_hook(WeightStandardization(name="ws"))
    assert list(link.local_link_hooks) == ["ws"]
    link.delete_hook("ws")
    assert link.local_link_hooks == {}
