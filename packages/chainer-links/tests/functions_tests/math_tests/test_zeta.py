"""zeta (Hurwitz), differentiable in q."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

special = pytest.importorskip("scipy.special")


def _hurwitz_by_series(x, q):
    # sum_k (k + q)^-x, with the tail beyond K replaced by its integral (Euler-Maclaurin).
    k = numpy.arange(2000.0)
    head = ((k[:, None] + q.ravel()) ** -x.ravel()).sum(axis=0)
    big = 2000.0 + q.ravel()
    tail = big ** (1 - x.ravel()) / (x.ravel() - 1) + 0.5 * big ** -x.ravel()
    return (head + tail).reshape(q.shape)


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [(2.5, (3, 2)), ((1.5, 2.0, 3.0), (2, 3)), (4.0, ())],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestZeta(testing.FunctionTestCase):
    def setUp(self):
        self.x, self.shape = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-2, "rtol": 1e-2}
            self.check_backward_options = {"atol": 5e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-2, "rtol": 5e-2}
        else:
            self.check_forward_options = {"atol": 1e-5, "rtol": 1e-4}
            self.check_backward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_double_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_inputs(self):
        return (numpy.random.uniform(1, 3, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        x = self.x if numpy.isscalar(self.x) else device.send(numpy.array(self.x, self.dtype))
        return (F.zeta(x, inputs[0]),)

    def forward_expected(self, inputs):
        q = inputs[0].astype(numpy.float64)
        x = numpy.broadcast_to(numpy.asarray(self.x, numpy.float64), q.shape)
        return (numpy.asarray(_hurwitz_by_series(x, q), dtype=self.dtype),)


def test_zeta_of_two_at_one_is_pi_squared_over_six():
    numpy.testing.assert_allclose(F.zeta(2.0, numpy.array([1.0])).array, [numpy.pi**2 / 6])


def test_integer_q_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"q\.dtype\.kind == f"):
        F.zeta(2.0, numpy.ones(3, numpy.int32))
