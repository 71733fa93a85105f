"""GroupNormalization and LayerNormalization against NumPy, lazy sizes, errors."""

import numpy
import pytest

import chainer
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


@pytest.mark.parametrize(
    ("config_dtype", "param_dtype", "x_dtype"),
    [
        (numpy.float64, numpy.float64, numpy.float64),
        (numpy.float16, numpy.float16, numpy.float16),
        (chainer.mixed16, numpy.float32, numpy.float16),
    ],
)
def test_group_normalization_parameters_take_the_dtype_of_the_config_at_construction(
    config_dtype, param_dtype, x_dtype
):
    # As in Chainer, whatever the initializer or the config at call time say.
    initial = numpy.linspace(0.5, 1.5, 4).astype(numpy.float16)
    with chainer.using_config("dtype", config_dtype):
        link = L.GroupNormalization(2, initial_gamma=initial)
        default = L.GroupNormalization(2)
    x = numpy.random.uniform(-1, 1, (3, 4)).astype(x_dtype)
    for each in (link, default):
        y = each(x)
        assert each.gamma.dtype == each.beta.dtype == param_dtype
        assert y.dtype == x_dtype and y.shape == (3, 4)
    numpy.testing.assert_allclose(link.gamma.array, initial, rtol=1e-3)
    numpy.testing.assert_array_equal(default.beta.array, numpy.zeros(4, param_dtype))
    halves = x.astype(numpy.float64).reshape(3, 2, 2)
    normed = (halves - halves.mean(axis=2, keepdims=True)) / numpy.sqrt(
        halves.var(axis=2, keepdims=True) + 1e-5
    )
    expected = normed.reshape(3, 4) * initial
    testing.assert_allclose(link(x).array, expected, atol=1e-2, rtol=1e-2)
