"""select_item: one element per row, gradients (scatter back), and the checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "shape": [(3, 4), (1, 1), (0, 3)],
            "t_dtype": [numpy.int32, numpy.int64],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSelectItem(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        t = numpy.random.randint(0, self.shape[1], self.shape[0]).astype(self.t_dtype)
        return x, t

    def forward(self, inputs, device):
        return (F.select_item(*inputs),)

    def forward_expected(self, inputs):
        x, t = inputs
        return (numpy.array([x[i, t[i]] for i in range(len(t))], self.dtype).reshape(len(t)),)


def test_out_of_range_labels_are_rejected():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"t must lie in \[0, 3\) \(x.shape\[1\]\), got 3"):
        F.select_item(x, numpy.array([0, 3], numpy.int32))
    with pytest.raises(ValueError, match=r"got -1"):
        F.select_item(x, numpy.array([-1, 0], numpy.int32))


@attr.chainerx
def test_out_of_range_labels_are_rejected_on_chainerx():
    import chainerx

    x = chainerx.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"t must lie in \[0, 3\) \(x.shape\[1\]\), got 3"):
        F.select_item(x, chainerx.array(numpy.array([0, 3], numpy.int32)))


def test_bad_shapes_and_dtypes_are_rejected():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"t.dtype.kind == i"):
        F.select_item(x, numpy.zeros(2, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"x.shape\[0\] == t.shape\[0\]"):
        F.select_item(x, numpy.zeros(3, numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"x.ndim == 2"):
        F.select_item(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.int32))
