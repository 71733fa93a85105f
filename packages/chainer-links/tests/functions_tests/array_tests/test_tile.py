"""tile: forward against index arithmetic, gradients summed over tiles, argument checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from ..backend_configs import CPU_AND_CHAINERX


def _tile_loops(x, reps):
    reps = (reps,) if isinstance(reps, int) else reps
    ndim = max(x.ndim, len(reps))
    x = x.reshape((1,) * (ndim - x.ndim) + x.shape)
    reps = (1,) * (ndim - len(reps)) + tuple(reps)
    y = numpy.empty(tuple(n * r for n, r in zip(x.shape, reps)), x.dtype)
    for index in numpy.ndindex(*y.shape):
        y[index] = x[tuple(i % n for i, n in zip(index, x.shape))]
    return y


@testing.parameterize(
    *testing.product(
        {
            "shape_reps": [
                ((3,), 2),
                ((2, 3), (2, 1)),
                ((2, 3), 3),
                ((2,), (2, 2, 1)),
                ((2, 2), (0, 1)),
                ((), (2, 3)),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestTile(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.reps = self.shape_reps
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.tile(inputs[0], self.reps),)

    def forward_expected(self, inputs):
        return (_tile_loops(inputs[0], self.reps),)


def test_bad_reps_are_rejected():
    x = numpy.zeros(2, numpy.float32)
    with pytest.raises(TypeError, match=r"reps must be an int or a tuple of ints, got list"):
        F.tile(x, [2])
    with pytest.raises(ValueError, match=r"reps must be zero or larger, got \(2, -1\)"):
        F.tile(x, (2, -1))
