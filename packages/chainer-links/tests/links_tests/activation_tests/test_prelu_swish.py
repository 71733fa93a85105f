"""PReLU and Swish: activations with learnt parameters broadcast over channels."""

import numpy

import chainer.links as L
from chainer import testing


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize({"shape": ()}, {"shape": (3,)}, {"shape": (3, 2)})
@testing.inject_backend_tests(None, [{}])
class TestPReLU(testing.LinkTestCase):
    param_names = ("W",)
    dodge_nondifferentiable = True
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_params(self):
        self.W = _uniform(*self.shape)
        return (self.W,)

    def create_link(self, initializers):
        return L.PReLU(self.shape, initializers[0])

    def generate_inputs(self):
        return (_uniform(4, 3, 2),)

    def forward_expected(self, link, inputs):
        (x,) = inputs
        W = self.W.reshape((1,) + self.shape + (1,) * (2 - len(self.shape)))
        return (numpy.where(x >= 0, x, W * x).astype(numpy.float32),)


@testing.parameterize({"lazy": False}, {"lazy": True})
@testing.inject_backend_tests(None, [{}])
class TestSwish(testing.LinkTestCase):
    param_names = ("beta",)
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_params(self):
        self.beta = _uniform(3)
        return (self.beta,)

    def create_link(self, initializers):
        return L.Swish(None if self.lazy else (3,), initializers[0])

    def generate_inputs(self):
        return (_uniform(4, 3, 2),)

    def forward_expected(self, link, inputs):
        (x,) = inputs
        beta = self.beta[None, :, None]
        return ((x / (1 + numpy.exp(-beta * x))).astype(numpy.float32),)


def test_default_values():
    numpy.testing.assert_array_equal(L.PReLU().W.array, numpy.float32(0.25))
    swish = L.Swish((2,))
    numpy.testing.assert_array_equal(swish.beta.array, [1, 1])
    lazy = L.Swish(None, beta_init=0.5)
    lazy(_uniform(2, 4))
    assert lazy.beta.shape == (4,)
    numpy.testing.assert_array_equal(lazy.beta.array, 0.5)


def test_lazy_swish_learns_one_beta_per_element_of_a_sample():
    # As in Chainer: beta_shape=None takes x.shape[1:], not only the channel axis.
    lazy = L.Swish(None)
    x = _uniform(4, 3, 2)
    y = lazy(x)
    assert lazy.beta.shape == (3, 2)
    lazy.beta.array[...] = _uniform(3, 2)
    expected = x / (1 + numpy.exp(-lazy.beta.array * x))
    numpy.testing.assert_allclose(lazy(x).array, expected, rtol=1e-6)
    assert y.shape == x.shape
