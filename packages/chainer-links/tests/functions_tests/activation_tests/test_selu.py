"""selu: scale * elu(x, alpha) with the self-normalizing defaults."""

import numpy

import chainer.functions as F
from chainer import testing

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform_away_from_kinks

ALPHA = 1.6732632423543772
SCALE = 1.0507009873554805


@testing.parameterize(
    *testing.product({"shape": [(3, 2), ()], "params": [None, (2.0, 0.5)], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSELU(testing.FunctionTestCase):
    def setUp(self):
        self.alpha, self.scale = self.params or (ALPHA, SCALE)
        loosen_for_float16(self, forward={"atol": 5e-3, "rtol": 5e-3})

    def generate_inputs(self):
        return (uniform_away_from_kinks(-1, 1, self.shape, self.dtype),)

    def forward(self, inputs, device):
        if self.params is None:
            return (F.selu(inputs[0]),)
        return (F.selu(inputs[0], alpha=self.alpha, scale=self.scale),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        y = self.scale * numpy.where(x > 0, x, self.alpha * (numpy.exp(x) - 1))
        return (numpy.asarray(y, self.dtype),)
