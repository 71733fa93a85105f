"""Bilinear: e1^T W e2 + V1^T e1 + V2^T e2 + b, initial_bias tuple, errors."""

import warnings

import numpy
import pytest

import chainer.links as L
from chainer import testing


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize({"nobias": False}, {"nobias": True})
@testing.inject_backend_tests(None, [{}])
class TestBilinear(testing.LinkTestCase):
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    @property
    def param_names(self):
        return ("W",) if self.nobias else ("W", "V1", "V2", "b")

    def generate_params(self):
        self.W, self.V1, self.V2, self.b = (
            _uniform(2, 3, 4),
            _uniform(2, 4),
            _uniform(3, 4),
            _uniform(4),
        )
        return (self.W,) if self.nobias else (self.W, self.V1, self.V2, self.b)

    def create_link(self, initializers):
        bias = None if self.nobias else tuple(initializers[1:])
        return L.Bilinear(2, 3, 4, self.nobias, initializers[0], bias)

    def generate_inputs(self):
        return _uniform(5, 2), _uniform(5, 3)

    def forward_expected(self, link, inputs):
        e1, e2 = (x.astype(numpy.float64) for x in inputs)
        y = numpy.einsum("ni,nj,ijk->nk", e1, e2, self.W)
        if not self.nobias:
            y += e1 @ self.V1 + e2 @ self.V2 + self.b
        return (y.astype(numpy.float32),)


def test_default_bias_parameters():
    link = L.Bilinear(2, 3, 4)
    assert (link.W.shape, link.V1.shape, link.V2.shape, link.b.shape) == (
        (2, 3, 4),
        (2, 4),
        (3, 4),
        (4,),
    )
    numpy.testing.assert_array_equal(link.b.array, 0)
    assert not hasattr(L.Bilinear(2, 3, 4, nobias=True), "V1")


def test_bad_initializers():
    with pytest.raises(AssertionError, match=r"initialW must have shape"):  # as v7 raised
        L.Bilinear(2, 3, 4, initialW=numpy.zeros((3, 3, 4)))
    with pytest.raises(ValueError, match=r"initialW must have shape \(2, 3, 4\), got \(2, 3\)"):
        L.Bilinear(2, 3, 4, initialW=numpy.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"initial_bias must be None or a tuple"):
        L.Bilinear(2, 3, 4, initial_bias=0)
    with pytest.raises(ValueError, match=r"initial V2 must have shape \(3, 4\)"):
        L.Bilinear(2, 3, 4, initial_bias=(None, numpy.zeros((2, 4)), 0))


def test_zero_grads_fills_zeros_with_a_deprecation_warning():
    link = L.Bilinear(2, 3, 4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        link.zero_grads()
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    numpy.testing.assert_array_equal(link.W.grad, 0)
