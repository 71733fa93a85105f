"""sum and sum_to: the core's ops under their public names."""

import importlib

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer._ops import array_ops
from chainer.utils import type_check


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [
                ((3, 4), None, False),
                ((3, 4), 1, True),
                ((2, 3, 4), (0, 2), False),
                ((2, 3, 4), -1, False),
                ((), None, False),
                ((0, 3), 0, False),
            ],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestSum(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis, self.keepdims = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.sum(inputs[0], axis=self.axis, keepdims=self.keepdims),)

    def forward_expected(self, inputs):
        y = inputs[0].astype(numpy.float64).sum(axis=self.axis, keepdims=self.keepdims)
        return (numpy.asarray(y, dtype=self.dtype),)


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float32, numpy.float64],
            "shapes": [((3, 4), (1, 4)), ((2, 3, 4), (3, 1)), ((3,), (3,)), ((2, 3), ())],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestSumTo(testing.FunctionTestCase):
    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shapes[0]).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.sum_to(inputs[0], self.shapes[1]),)

    def forward_expected(self, inputs):
        x = inputs[0]
        target = self.shapes[1]
        lead = x.ndim - len(target)
        y = x.sum(axis=tuple(range(lead))) if lead else x
        for axis, n in enumerate(target):
            if n == 1:
                y = y.sum(axis=axis, keepdims=True)
        return (numpy.asarray(y, dtype=self.dtype),)


def test_sum_and_sum_to_are_the_core_ops():
    # The package attribute ``sum`` is the function, so fetch the module itself.
    sum_module = importlib.import_module("chainer.functions.math.sum")
    assert F.sum is array_ops.sum and sum_module.Sum is array_ops.Sum
    assert F.sum_to is array_ops.sum_to and sum_module.SumTo is array_ops.SumTo


def test_bad_axis_and_target_shape_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"-2 <= axis < 2"):
        F.sum(numpy.ones((2, 3)), axis=2)
    with pytest.raises(type_check.InvalidType, match=r"can be summed to \(2,\)"):
        F.sum_to(numpy.ones((2, 3)), (2,))
