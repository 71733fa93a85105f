"""Linear: y = x W^T + b, lazy input size, initializers, from_params, errors."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import initializers, testing


@testing.parameterize(
    *testing.product(
        {
            "x_shape": [(3, 4), (3, 2, 2)],
            "lazy": [False, True],
            "nobias": [False, True],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestLinear(testing.LinkTestCase):
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    @property
    def param_names(self):
        return ("W",) if self.nobias else ("W", "b")

    def generate_params(self):
        self.W = numpy.random.uniform(-1, 1, (2, 4)).astype(numpy.float32)
        self.b = numpy.random.uniform(-1, 1, (2,)).astype(numpy.float32)
        return (self.W,) if self.nobias else (self.W, self.b)

    def create_link(self, initializers):
        bias = None if self.nobias else initializers[1]
        if self.lazy:
            return L.Linear(2, nobias=self.nobias, initialW=initializers[0], initial_bias=bias)
        return L.Linear(4, 2, nobias=self.nobias, initialW=initializers[0], initial_bias=bias)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.x_shape).astype(numpy.float32),)

    def forward_expected(self, link, inputs):
        (x,) = inputs
        y = x.reshape(len(x), -1).astype(numpy.float64) @ self.W.T
        if not self.nobias:
            y += self.b
        return (y.astype(numpy.float32),)


@testing.inject_backend_tests(None, [{}])
class TestLinearInitializers(testing.LinkInitializersTestCase):
    param_names = ("W", "b")

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        return L.Linear(3, 2, initialW=initialW, initial_bias=initial_bias)

    def get_initializers(self):
        return (
            [initializers.Constant(1.5), 2.0, numpy.arange(6.0).reshape(2, 3)],
            [initializers.Constant(0.5), -1.0, numpy.array([3.0, 4.0])],
        )


def test_n_batch_axes_keeps_leading_axes():
    link = L.Linear(2)
    x = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    y = link(x, n_batch_axes=2)
    assert link.W.shape == (2, 4)
    expected = x @ link.W.array.T + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)


def test_lazy_link_reads_the_input_size_on_first_call():
    link = L.Linear(None, 3)
    assert link.W.array is None and link.in_size is None
    assert link.b.shape == (3,)
    link(numpy.zeros((2, 5), numpy.float32))
    assert link.W.shape == (3, 5) and link.in_size == 5


def test_default_initializers_are_lecun_normal_and_zeros():
    numpy.random.seed(0)
    link = L.Linear(400, 300)
    numpy.testing.assert_allclose(link.W.array.std(), (1 / 400) ** 0.5, rtol=0.02)
    assert abs(link.W.array.mean()) < 0.005
    numpy.testing.assert_array_equal(link.b.array, numpy.zeros(300, numpy.float32))
    assert link.W.dtype == numpy.float32


def test_default_dtype_comes_from_config():
    with chainer.using_config("dtype", numpy.float64):
        link = L.Linear(3, 2)
    assert link.W.dtype == numpy.float64 and link.b.dtype == numpy.float64


def test_nobias_link_has_no_b():
    link = L.Linear(3, 2, nobias=True)
    assert link.b is None
    assert [name for name, _ in link.namedparams()] == ["/W"]


def test_from_params_copies_arrays():
    W = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    b = numpy.array([1, 2], numpy.float32)
    link = L.Linear.from_params(W, b)
    assert (link.in_size, link.out_size) == (3, 2)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, b)
    W[0, 0] = 100
    assert link.W.array[0, 0] == 0


def test_from_params_bias_size_mismatch():
    with pytest.raises(ValueError, match=r"b must have out_size=2 elements .* got \(3,\)"):
        L.Linear.from_params(numpy.zeros((2, 3), numpy.float32), numpy.zeros(3, numpy.float32))


def test_missing_out_size_is_a_value_error():
    with pytest.raises(ValueError, match="Linear needs out_size"):
        L.Linear(None)


def test_str_shows_the_constructor_arguments():
    assert str(L.Linear(3, 2)) == "Linear(in_size=3, out_size=2, nobias=False)"
    assert str(L.Linear(2, nobias=True)) == "Linear(in_size=None, out_size=2, nobias=True)"
