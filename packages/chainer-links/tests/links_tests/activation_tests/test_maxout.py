"""Maxout: the maximum over groups of linear units; initializers with a pool axis."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import initializers, testing


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize({"lazy": False}, {"lazy": True})
@testing.inject_backend_tests(None, [{}])
class TestMaxout(testing.LinkTestCase):
    param_names = ("linear/W", "linear/b")
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}
    dodge_nondifferentiable = True

    def generate_params(self):
        self.W, self.b = _uniform(3, 2, 4), _uniform(3, 2)
        return self.W, self.b

    def create_link(self, initializers):
        return L.Maxout(None if self.lazy else 4, 3, 2, *initializers)

    def generate_inputs(self):
        return (_uniform(5, 4),)

    def forward_expected(self, link, inputs):
        units = numpy.einsum("opi,ni->nop", self.W, inputs[0]) + self.b
        return (units.max(axis=2).astype(numpy.float32),)


def test_linear_layer_shapes_and_defaults():
    link = L.Maxout(4, 3, 2)
    assert link.linear.W.shape == (6, 4) and link.linear.b.shape == (6,)
    numpy.testing.assert_array_equal(link.linear.b.array, 0)
    assert L.Maxout(4, 3, 2, initial_bias=None).linear.b is None


def test_callable_initializers_see_the_pool_axis():
    seen = []

    class Recorder(chainer.Initializer):
        def __call__(self, array):
            seen.append(array.shape)
            array[...] = numpy.arange(array.size).reshape(array.shape)

    link = L.Maxout(None, 3, 2, initialW=Recorder(), initial_bias=initializers.Constant(0.5))
    link(_uniform(1, 4))
    assert seen == [(3, 2, 4)]
    numpy.testing.assert_array_equal(link.linear.W.array, numpy.arange(24).reshape(6, 4))
    numpy.testing.assert_array_equal(link.linear.b.array, 0.5)


def test_array_initializers_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"initialW must have shape \(3, 2, 4\), got \(6, 4\)"):
        L.Maxout(4, 3, 2, initialW=numpy.zeros((6, 4)))
    with pytest.raises(ValueError, match=r"initial_bias must have shape \(3, 2\), got \(6,\)"):
        L.Maxout(4, 3, 2, initial_bias=numpy.zeros(6))
    with pytest.raises(TypeError, match="initialW must be None, a scalar, an array or an"):
        L.Maxout(4, 3, 2, initialW="ones")
