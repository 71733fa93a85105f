"""repeat: forward against loops, gradients (RepeatGrad), and argument checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from ..backend_configs import CPU_AND_CHAINERX


def _repeat_loops(x, repeats, axis):
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    moved = numpy.moveaxis(x, axis, 0)
    counts = repeats if isinstance(repeats, tuple) and len(repeats) > 1 else None
    rows = []
    for i in range(moved.shape[0]):
        r = counts[i] if counts else (repeats[0] if isinstance(repeats, tuple) else repeats)
        rows += [moved[i]] * r
    if not rows:
        return numpy.moveaxis(numpy.zeros((0,) + moved.shape[1:], x.dtype), 0, axis)
    return numpy.moveaxis(numpy.stack(rows), 0, axis)


@testing.parameterize(
    *testing.product(
        {
            "case": [
                ((3,), 2, None),
                ((2, 3), 2, None),
                ((2, 3), (3,), 1),
                ((2, 3), (1, 0, 2), 1),
                ((3, 2), (2, 1, 0), -2),
                ((2, 2), 0, 0),
                ((), 3, None),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestRepeat(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.repeats, self.axis = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.repeat(inputs[0], self.repeats, self.axis),)

    def forward_expected(self, inputs):
        return (_repeat_loops(inputs[0], self.repeats, self.axis),)


def test_bad_arguments_are_rejected():
    x = numpy.zeros((2, 2), numpy.float32)
    with pytest.raises(TypeError, match=r"repeats must be an int or a tuple of ints, got float"):
        F.repeat(x, 1.5)
    with pytest.raises(ValueError, match=r"repeats must be zero or larger, got \(1, -1\)"):
        F.repeat(x, (1, -1), axis=0)
    with pytest.raises(TypeError, match=r"axis must be an int or None, got bool"):
        F.repeat(x, 2, axis=True)
