"""Bias and Scale: learnt or given operands broadcast from an axis."""

import numpy
import pytest

import chainer.links as L
from chainer import testing


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.inject_backend_tests(None, [{}])
class TestBias(testing.LinkTestCase):
    param_names = ("b",)

    def generate_params(self):
        self.b = _uniform(3, 4)
        return (self.b,)

    def create_link(self, initializers):
        link = L.Bias(axis=1, shape=(3, 4))
        link.b.array[...] = initializers[0]
        return link

    def generate_inputs(self):
        return (_uniform(2, 3, 4, 2),)

    def forward_expected(self, link, inputs):
        return (inputs[0] + self.b[None, :, :, None],)


@testing.parameterize({"bias_term": False}, {"bias_term": True})
@testing.inject_backend_tests(None, [{}])
class TestScale(testing.LinkTestCase):
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    @property
    def param_names(self):
        return ("W", "bias/b") if self.bias_term else ("W",)

    def generate_params(self):
        self.W, self.b = _uniform(4), _uniform(4)
        return (self.W, self.b) if self.bias_term else (self.W,)

    def create_link(self, initializers):
        link = L.Scale(axis=2, W_shape=(4,), bias_term=self.bias_term)
        link.W.array[...] = initializers[0]
        if self.bias_term:
            link.bias.b.array[...] = initializers[1]
        return link

    def generate_inputs(self):
        return (_uniform(2, 3, 4),)

    def forward_expected(self, link, inputs):
        y = inputs[0] * self.W
        return (y + self.b if self.bias_term else y,)


def test_initial_values():
    numpy.testing.assert_array_equal(L.Bias(shape=(2,)).b.array, [0, 0])
    scale = L.Scale(W_shape=(2,), bias_term=True)
    numpy.testing.assert_array_equal(scale.W.array, [1, 1])
    numpy.testing.assert_array_equal(scale.bias.b.array, [0, 0])


def test_operands_given_at_call_time():
    x, y = _uniform(2, 3), _uniform(3)
    numpy.testing.assert_allclose(L.Bias()(x, y).array, x + y)
    numpy.testing.assert_allclose(L.Scale()(x, y).array, x * y)
    with_bias = L.Scale(bias_term=True, bias_shape=(3,))
    with_bias.bias.b.array[...] = 1
    numpy.testing.assert_allclose(with_bias(x, y).array, x * y + 1, rtol=1e-6)
    assert [name for name, _ in with_bias.namedparams()] == ["/bias/b"]


@pytest.mark.parametrize("error", [ValueError, AssertionError])  # v7 code catches the latter
def test_errors(error):
    with pytest.raises(error, match=r"this Bias learns no b: call it with two inputs .* got 1"):
        L.Bias()(_uniform(2, 3))
    with pytest.raises(error, match=r"this Bias learns no b: .* got 3"):
        L.Bias()(_uniform(2), _uniform(2), _uniform(2))
    with pytest.raises(error, match=r"this Bias learns b: call it with one input \(x\), got 2"):
        L.Bias(1, (3,))(_uniform(2, 3), _uniform(3))
    with pytest.raises(error, match=r"this Scale learns no W: .* got 1"):
        L.Scale()(_uniform(2, 3))
    with pytest.raises(error, match=r"this Scale learns W: call it with one input \(x\), got 2"):
        L.Scale(1, (3,))(_uniform(2, 3), _uniform(3))
    with pytest.raises(ValueError, match="bias_shape should be given"):
        L.Scale(bias_term=True)
