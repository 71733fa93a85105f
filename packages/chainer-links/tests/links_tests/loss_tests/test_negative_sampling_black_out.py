"""NegativeSampling and BlackOut: parameters, samplers and the wrapped losses."""

import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from chainer.backends import _chainerx


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _log_sigmoid(z):
    return -numpy.logaddexp(0, -z)


def test_negative_sampling_loss_with_its_samples():
    link = L.NegativeSampling(3, [4, 1, 2, 8], sample_size=2)
    assert link.W.shape == (4, 3)
    numpy.testing.assert_array_equal(link.W.array, 0)
    link.W.array[...] = _uniform(4, 3)
    x, t = _uniform(2, 3), numpy.array([1, 3], numpy.int32)
    loss, samples = link(x, t, reduce="no", return_samples=True)
    assert samples.shape == (2, 3)
    numpy.testing.assert_array_equal(samples[:, 0], t)
    W = link.W.array
    expected = [
        -_log_sigmoid(W[row[0]] @ xi) - sum(_log_sigmoid(-(W[s] @ xi)) for s in row[1:])
        for xi, row in zip(x, samples)
    ]
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-5)


def test_negative_sampling_calls_the_function_through_its_module(monkeypatch):
    # v7 code swaps the sampler by patching the function on its module, which reaches the link.
    from chainer.functions.loss import negative_sampling as module

    original, fixed = module.negative_sampling, numpy.array([[0, 2, 2]], numpy.int32)

    def with_fixed_samples(x, t, W, sampler, *args, **kwargs):
        assert sampler((1, 3)).shape == (1, 3)  # the link passes its sampler 4th
        return original(x, t, W, lambda shape: fixed.copy(), *args, **kwargs)

    monkeypatch.setattr(module, "negative_sampling", with_fixed_samples)
    link = L.NegativeSampling(3, [4, 1, 2, 8], sample_size=2)
    _, samples = link(_uniform(1, 3), numpy.array([0], numpy.int32), return_samples=True)
    numpy.testing.assert_array_equal(samples, fixed)


def test_negative_sampling_draws_by_powered_counts():
    numpy.random.seed(0)
    link = L.NegativeSampling(2, [1, 16], sample_size=1, power=0.5)
    draws = link.sampler.sample((20000,))
    numpy.testing.assert_allclose(numpy.bincount(draws) / 20000, [0.2, 0.8], atol=0.015)


def test_negative_sampling_sum_and_gradient():
    link = L.NegativeSampling(3, [1, 1, 1], sample_size=1, dtype=numpy.float64)
    link.cleargrads()  # gradients are NaN until cleared (v7)
    assert link.W.dtype == numpy.float64
    x = _uniform(2, 3).astype(numpy.float64)
    loss = link(x, numpy.array([0, 2], numpy.int32))
    assert loss.shape == ()
    numpy.testing.assert_allclose(loss.array, 4 * numpy.log(2))  # W == 0: every term log 2
    loss.backward()
    assert link.W.grad.shape == (3, 3) and numpy.abs(link.W.grad).sum() > 0


def test_black_out_uses_the_given_samples():
    link = L.BlackOut(3, [1, 2, 3, 4], sample_size=2)
    x, t = _uniform(2, 3), numpy.array([0, 3], numpy.int32)
    link.sample_data = numpy.array([[1, 2], [0, 1]], numpy.int32)
    expected = F.black_out(x, t, link.W.array, link.sample_data).array
    numpy.testing.assert_allclose(link(x, t).array, expected, rtol=1e-6)


def test_black_out_draws_samples_per_row():
    numpy.random.seed(1)
    link = L.BlackOut(3, [0, 0, 5, 5], sample_size=4)
    drawn = link.sampler.sample((2, 4))
    assert set(numpy.unique(drawn)) <= {2, 3}
    loss = link(_uniform(2, 3), numpy.array([0, 1], numpy.int32))
    loss.backward()
    assert loss.shape == () and link.W.grad is not None


@pytest.mark.chainerx
@pytest.mark.skipif(not _chainerx.is_available(), reason="chainerx is not available")
def test_negative_sampling_samples_live_with_the_link_on_chainerx():
    import chainerx

    link = L.NegativeSampling(3, [4, 1, 2, 8], sample_size=2)
    link.W.array[...] = _uniform(4, 3)
    W = link.W.array.copy()
    link.to_device("native:0")
    x, t = _uniform(2, 3), numpy.array([1, 3], numpy.int32)
    loss, samples = link(chainerx.array(x), chainerx.array(t), reduce="no", return_samples=True)
    assert isinstance(samples, chainerx.ndarray)
    assert samples.device.name == "native:0"
    assert samples.dtype == numpy.int32
    samples = chainerx.to_numpy(samples)
    numpy.testing.assert_array_equal(samples[:, 0], t)
    expected = [
        -_log_sigmoid(W[row[0]] @ xi) - sum(_log_sigmoid(-(W[s] @ xi)) for s in row[1:])
        for xi, row in zip(x, samples)
    ]
    numpy.testing.assert_allclose(chainerx.to_numpy(loss.array), expected, rtol=1e-5)
