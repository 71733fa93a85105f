"""SimplifiedDropconnect: masked weights in training, plain linear map otherwise."""

import numpy

import chainer.links as L
from chainer import initializers


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def test_given_mask_is_applied_and_scaled():
    link = L.SimplifiedDropconnect(3, 2, ratio=0.25)
    x = _uniform(4, 3)
    mask = (numpy.random.uniform(size=(4, 2, 3)) > 0.25).astype(numpy.float32)
    y = link(x, mask=mask).array
    W, b = link.W.array, link.b.array
    expected = numpy.einsum("noi,ni->no", W * mask / 0.75, x) + b
    numpy.testing.assert_allclose(y, expected, rtol=1e-5)


def test_not_training_is_a_linear_map():
    link = L.SimplifiedDropconnect(None, 2, initial_bias=0.5)
    x = _uniform(3, 2, 2)
    y = link(x, train=False).array
    assert link.W.shape == (2, 4)
    numpy.testing.assert_allclose(y, x.reshape(3, 4) @ link.W.array.T + 0.5, rtol=1e-5)


def test_training_drops_weights_and_reaches_the_gradients():
    numpy.random.seed(3)
    link = L.SimplifiedDropconnect(50, 40, ratio=0.5, nobias=True, initialW=1.0)
    link.cleargrads()  # gradients are NaN until cleared (v7)
    x = numpy.ones((1, 50), numpy.float32)
    y = link(x)
    # Each output sums about half of 50 weights, each scaled by 2.
    assert 25 < y.array.mean() * 1.0 < 75 and not numpy.allclose(y.array, 50)
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    assert set(numpy.unique(link.W.grad)) <= {0.0, 2.0}
    assert link.b is None


def test_weight_dtype_may_differ_from_the_input_dtype():
    # Chainer's link accepts e.g. a float16 weight with float32 inputs; y takes x's dtype.
    link = L.SimplifiedDropconnect(
        3, 2, initialW=initializers.Normal(1, numpy.float16), initial_bias=0.0
    )
    x = _uniform(4, 3)
    mask = numpy.ones((4, 2, 3), bool)
    y = link(x, mask=mask)  # ratio 0.5: kept weights are doubled
    assert link.W.dtype == numpy.float16 and y.dtype == numpy.float32
    expected = x @ (link.W.array.astype(numpy.float32) * 2).T
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5)
