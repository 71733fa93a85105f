"""r2_score: coefficient of determination per output, averaged or raw."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _reference(pred, true):
    pred, true = pred.astype(numpy.float64), true.astype(numpy.float64)
    flat_pred = pred.reshape(len(pred), -1)
    flat_true = true.reshape(len(true), -1)
    scores = []
    for j in range(flat_true.shape[1]):
        residual = numpy.sum((flat_pred[:, j] - flat_true[:, j]) ** 2)
        total = numpy.sum((flat_true[:, j] - flat_true[:, j].mean()) ** 2)
        scores.append(0.0 if total == 0 else 1 - residual / total)
    return numpy.array(scores).reshape(true.shape[1:])


@testing.parameterize(
    *testing.product(
        {
            "shape": [(8,), (6, 3), (5, 2, 2)],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "multioutput": ["uniform_average", "raw_values"],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestR2Score(testing.FunctionTestCase):
    skip_backward_test = True
    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}

    def generate_inputs(self):
        true = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        pred = (true + numpy.random.uniform(-0.3, 0.3, self.shape)).astype(self.dtype)
        return pred, true

    def forward(self, inputs, device):
        return (F.r2_score(*inputs, multioutput=self.multioutput),)

    def forward_expected(self, inputs):
        scores = _reference(*inputs)
        if self.multioutput == "uniform_average":
            scores = numpy.asarray(scores.mean())
        return (scores.astype(self.dtype),)


def test_constant_target_scores_zero():
    true = numpy.array([[1.0, 2.0], [1.0, 3.0]], numpy.float32)
    pred = numpy.array([[0.0, 2.0], [5.0, 3.0]], numpy.float32)
    scores = F.r2_score(pred, true, multioutput="raw_values")
    numpy.testing.assert_array_equal(scores.array, [0, 1])


def test_bad_arguments_raise():
    x = numpy.zeros((3,), numpy.float32)
    with pytest.raises(NotImplementedError, match="sample_weight"):
        F.r2_score(x, x, sample_weight=numpy.ones(3))
    with pytest.raises(ValueError, match="multioutput must be .* got 'variance_weighted'"):
        F.r2_score(x, x, multioutput="variance_weighted")
    with pytest.raises(type_check.InvalidType, match=r"R2_score[\s\S]*pred.shape == true.shape"):
        F.r2_score(x, numpy.zeros((4,), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"true.dtype.kind == f"):
        F.r2_score(x, numpy.zeros((3,), numpy.int32))
