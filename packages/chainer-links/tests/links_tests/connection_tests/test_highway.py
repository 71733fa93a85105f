"""Highway: relu(x Wh + bh) * T + x * (1 - T) with T = sigmoid(x Wt + bt)."""

import numpy

import chainer.functions as F
import chainer.links as L
from chainer import testing


def _sigmoid(z):
    return 1 / (1 + numpy.exp(-z))


@testing.parameterize({"nobias": False}, {"nobias": True})
@testing.inject_backend_tests(None, [{}])
class TestHighway(testing.LinkTestCase):
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}
    dodge_nondifferentiable = True

    @property
    def param_names(self):
        names = ("plain/W", "transform/W")
        return names if self.nobias else (*names, "plain/b", "transform/b")

    def generate_params(self):
        self.params = [
            numpy.random.uniform(-1, 1, s).astype("f") for s in ((3, 3),) * 2 + ((3,),) * 2
        ]
        return tuple(self.params[:2] if self.nobias else self.params)

    def create_link(self, initializers):
        Wh, Wt = initializers[:2]
        bh, bt = (None, None) if self.nobias else initializers[2:]
        return L.Highway(3, self.nobias, init_Wh=Wh, init_Wt=Wt, init_bh=bh, init_bt=bt)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32),)

    def forward_expected(self, link, inputs):
        (x,) = inputs
        Wh, Wt, bh, bt = self.params
        if self.nobias:
            bh = bt = 0
        plain = numpy.maximum(x @ Wh.T + bh, 0)
        gate = _sigmoid(x @ Wt.T + bt)
        return ((plain * gate + x * (1 - gate)).astype(numpy.float32),)


def test_transform_bias_starts_at_minus_one():
    link = L.Highway(4)
    numpy.testing.assert_array_equal(link.transform.b.array, -1)
    numpy.testing.assert_array_equal(link.plain.b.array, 0)


def test_custom_activation():
    link = L.Highway(2, activate=F.tanh, init_Wh=1.0, init_Wt=0.0, init_bt=0.0)
    x = numpy.array([[0.5, -1.0]], numpy.float32)
    expected = numpy.tanh(x @ numpy.ones((2, 2))) * 0.5 + x * 0.5
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-6)
