"""GroupNormalization and LayerNormalization against NumPy, lazy sizes, errors."""

import numpy
import pytest

import chainer.links as L
from chainer import testing


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize({"lazy": False}, {"lazy": True})
@testing.inject_backend_tests(None, [{}])
class TestGroupNormalization(testing.LinkTestCase):
    param_names = ("gamma", "beta")
    check_backward_options = {"atol": 1e-3, "rtol": 1e-2}

    def generate_params(self):
        self.gamma, self.beta = _uniform(4) + 1.5, _uniform(4)
        return self.gamma, self.beta

    def create_link(self, initializers):
        size = None if self.lazy else 4
        return L.GroupNormalization(2, size, 1e-5, *initializers)

    def generate_inputs(self):
        return (_uniform(3, 4, 2, 3),)

    def forward_expected(self, link, inputs):
        x = inputs[0].astype(numpy.float64)
        grouped = x.reshape(3, 2, -1)
        normed = (grouped - grouped.mean(axis=2, keepdims=True)) / numpy.sqrt(
            grouped.var(axis=2, keepdims=True) + 1e-5
        )
        y = normed.reshape(x.shape) * self.gamma[:, None, None] + self.beta[:, None, None]
        return (y.astype(numpy.float32),)


@testing.parameterize({"lazy": False}, {"lazy": True})
@testing.inject_backend_tests(None, [{}])
class TestLayerNormalization(testing.LinkTestCase):
    param_names = ("gamma", "beta")
    check_backward_options = {"atol": 1e-3, "rtol": 1e-2}

    def generate_params(self):
        self.gamma, self.beta = _uniform(5) + 1.5, _uniform(5)
        return self.gamma, self.beta

    def create_link(self, initializers):
        size = None if self.lazy else 5
        return L.LayerNormalization(size, 1e-6, *initializers)

    def generate_inputs(self):
        return (_uniform(3, 5),)

    def forward_expected(self, link, inputs):
        x = inputs[0].astype(numpy.float64)
        normed = (x - x.mean(axis=1, keepdims=True)) / numpy.sqrt(
            x.var(axis=1, keepdims=True) + 1e-6
        )
        return ((normed * self.gamma + self.beta).astype(numpy.float32),)


def test_default_parameters():
    for link in (L.GroupNormalization(2, 4), L.LayerNormalization(4)):
        numpy.testing.assert_array_equal(link.gamma.array, numpy.ones(4, numpy.float32))
        numpy.testing.assert_array_equal(link.beta.array, numpy.zeros(4, numpy.float32))
    lazy = L.LayerNormalization()
    assert lazy.gamma.array is None and lazy.eps == 1e-6
    lazy(_uniform(2, 7))
    assert lazy.gamma.shape == (7,)


def test_group_normalization_needs_a_channel_axis():
    with pytest.raises(ValueError, match=r"needs a batch and a channel axis, got shape \(4,\)"):
        L.GroupNormalization(2)(_uniform(4))
