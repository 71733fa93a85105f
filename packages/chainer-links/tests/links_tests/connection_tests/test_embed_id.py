"""EmbedID: row lookup, ignore_label, initializers, from_params."""

import numpy

import chainer.links as L
from chainer import testing


@testing.parameterize({"ignore_label": None}, {"ignore_label": -1})
@testing.inject_backend_tests(None, [{}])
class TestEmbedID(testing.LinkTestCase):
    param_names = ("W",)

    def generate_params(self):
        self.W = numpy.random.uniform(-1, 1, (5, 3)).astype(numpy.float32)
        return (self.W,)

    def create_link(self, initializers):
        return L.EmbedID(5, 3, initialW=initializers[0], ignore_label=self.ignore_label)

    def generate_inputs(self):
        ids = [[0, 4], [2, 2]] if self.ignore_label is None else [[0, -1], [4, -1]]
        return (numpy.array(ids, numpy.int32),)

    def forward_expected(self, link, inputs):
        (ids,) = inputs
        y = self.W[ids]
        if self.ignore_label is not None:
            y[ids == self.ignore_label] = 0
        return (y,)

    def test_backward(self, backend_config):
        # Integer inputs have no gradient: check the gradient of W by hand.
        link = self.create_link(self.generate_params())
        link.cleargrads()  # gradients are NaN until cleared (v7)
        (ids,) = self.generate_inputs()
        gy = numpy.random.uniform(-1, 1, ids.shape + (3,)).astype(numpy.float32)
        y = link(ids)
        y.grad = gy
        y.backward()
        expected = numpy.zeros((5, 3), numpy.float32)
        for i, g in zip(ids.ravel(), gy.reshape(-1, 3)):
            if i != self.ignore_label:
                expected[i] += g
        numpy.testing.assert_allclose(link.W.grad, expected, rtol=1e-6)


def test_default_initializer_is_standard_normal():
    numpy.random.seed(1)
    link = L.EmbedID(300, 200)
    numpy.testing.assert_allclose(link.W.array.std(), 1.0, rtol=0.02)
    assert link.W.shape == (300, 200) and link.ignore_label is None


def test_from_params():
    W = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    link = L.EmbedID.from_params(W, ignore_label=-1)
    assert link.ignore_label == -1
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(
        link(numpy.array([2, -1], numpy.int32)).array, [[4, 5], [0, 0]]
    )
