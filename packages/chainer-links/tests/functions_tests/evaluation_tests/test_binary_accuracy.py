"""binary_accuracy: sign decisions against 0/1 labels, -1 ignored."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "shape": [(6,), (3, 4), (), (0,)],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestBinaryAccuracy(testing.FunctionTestCase):
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        y = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        t = numpy.random.randint(-1, 2, self.shape).astype(numpy.int32)
        return y, t

    def forward(self, inputs, device):
        return (F.binary_accuracy(*inputs),)

    def forward_expected(self, inputs):
        y, t = inputs
        correct = total = 0
        for yi, ti in zip(y.ravel(), t.ravel()):
            if ti == -1:
                continue
            total += 1
            correct += int((1 if yi >= 0 else 0) == ti)
        return (numpy.asarray(correct / total if total else 0.0, dtype=self.dtype),)


def test_binary_accuracy_values():
    y = numpy.array([-1.0, 2.0, 0.0, -3.0], numpy.float32)
    t = numpy.array([0, 1, 0, -1], numpy.int32)
    assert float(F.binary_accuracy(y, t).array) == pytest.approx(2 / 3)


def test_bad_inputs_raise_invalid_type():
    y = numpy.zeros((3,), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"BinaryAccuracy[\s\S]*t.shape == y.shape"):
        F.binary_accuracy(y, numpy.zeros(4, numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"t.dtype.kind == i"):
        F.binary_accuracy(y, numpy.zeros(3, numpy.float32))
