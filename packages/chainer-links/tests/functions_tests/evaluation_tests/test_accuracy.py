"""accuracy: argmax matches counted in a loop, ignore_label, shapes and errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _reference(y, t, ignore_label):
    correct = total = 0
    for index in numpy.ndindex(*t.shape):
        if t[index] == ignore_label:
            continue
        scores = y[(index[0], slice(None)) + index[1:]].ravel()
        correct += int(numpy.argmax(scores) == t[index])
        total += 1
    return numpy.asarray(correct / total if total else 0.0, dtype=y.dtype)


@testing.parameterize(
    *testing.product(
        {
            "shapes": [((6, 4), (6,)), ((3, 4, 2), (3, 2)), ((5, 3, 1), (5,)), ((0, 3), (0,))],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "ignore_label": [None, -1],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestAccuracy(testing.FunctionTestCase):
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        y_shape, t_shape = self.shapes
        y = numpy.random.uniform(-1, 1, y_shape).astype(self.dtype)
        t = numpy.random.randint(0, y_shape[1], t_shape).astype(numpy.int32)
        if t.size:
            t.flat[0] = -1 if self.ignore_label is not None else t.flat[0]
            t.flat[-1] = y.reshape(y_shape[0], y_shape[1], -1)[-1, :, -1].argmax()
        return y, t

    def forward(self, inputs, device):
        y, t = inputs
        return (F.accuracy(y, t, self.ignore_label),)

    def forward_expected(self, inputs):
        y, t = inputs
        return (_reference(y, t, self.ignore_label),)


@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
def test_accuracy_values(backend_config):
    y = numpy.array([[0.1, 0.7, 0.2], [0.8, 0.1, 0.1], [0.0, 0.0, 1.0]], numpy.float32)
    y, t = backend_config.get_array((y, numpy.array([1, 2, -1], numpy.int32)))
    assert float(F.accuracy(y, t).array) == pytest.approx(1 / 3)
    assert float(F.accuracy(y, t, ignore_label=-1).array) == 0.5


@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
def test_every_label_ignored_scores_zero(backend_config):
    y, t = backend_config.get_array(
        (numpy.ones((2, 3), numpy.float32), numpy.array([-1, -1], numpy.int32))
    )
    acc = F.accuracy(y, t, ignore_label=-1)
    assert acc.array.dtype == numpy.float32 and float(acc.array) == 0


@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
def test_float16_counts_past_2048(backend_config):
    y = numpy.zeros((5000, 2), numpy.float16)
    y[:, 1] = 1
    t = numpy.ones(5000, numpy.int32)
    t[:1000] = 0
    y, t = backend_config.get_array((y, t))
    acc = F.accuracy(y, t)
    assert acc.dtype == numpy.float16
    assert float(acc.array) == pytest.approx(0.8, abs=1e-3)


@testing.fix_random()
def test_accuracy_of_a_variable_passes_no_gradient():
    y = chainer.Variable(numpy.random.randn(3, 2).astype(numpy.float32))
    t = numpy.array([0, 1, 0], numpy.int32)
    acc = F.accuracy(y, t)
    assert float(acc.array) == float(F.accuracy(y.array, t).array)
    acc.backward()
    assert y.grad is None


def test_bad_inputs_raise_invalid_type():
    y = numpy.zeros((3, 4), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"Accuracy[\s\S]*t.dtype.kind == i"):
        F.accuracy(y, numpy.zeros(3, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"y.dtype.kind == f"):
        F.accuracy(y.astype(numpy.int32), numpy.zeros(3, numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"y.shape == \(3, 4\), t.shape == \(2,\)"):
        F.accuracy(y, numpy.zeros(2, numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"remaining axes of y have length 1"):
        F.accuracy(numpy.zeros((3, 4, 2), numpy.float32), numpy.zeros(3, numpy.int32))
