"""transpose_sequence: batches of sequences to time steps and back, gradients, checks."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "lengths": [(3, 2, 2), (2, 2), (3, 1, 0), (1,)],
            "unit": [(), (2,)],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestTransposeSequence(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(
            numpy.random.uniform(-1, 1, (n, *self.unit)).astype(self.dtype) for n in self.lengths
        )

    def forward(self, inputs, device):
        return F.transpose_sequence(inputs)

    def forward_expected(self, inputs):
        steps = []
        for t in range(self.lengths[0]):
            rows = [x[t] for x in inputs if len(x) > t]
            steps.append(numpy.array(rows, self.dtype).reshape((len(rows), *self.unit)))
        return tuple(steps)


def test_transposing_twice_restores_the_sequences():
    xs = [numpy.arange(n, dtype=numpy.float32) for n in (3, 2, 0)]
    back = F.transpose_sequence(F.transpose_sequence(xs))
    assert len(back) == 2  # the empty sequence leaves no time step behind
    for x, y in zip(xs, back):
        numpy.testing.assert_array_equal(x, y.array)


def test_gradient_of_an_empty_sequence_is_empty():
    xs = [
        chainer.Variable(numpy.ones(2, numpy.float32)),
        chainer.Variable(numpy.ones(0, numpy.float32)),
    ]
    ys = F.transpose_sequence(xs)
    total = ys[0] * 2
    total.grad = numpy.ones_like(total.array)
    total.backward()
    numpy.testing.assert_array_equal(xs[0].grad, [2, 0])
    assert xs[1].grad.shape == (0,)


def test_empty_list_gives_no_steps():
    assert F.transpose_sequence([]) == ()


def test_unsorted_lengths_are_rejected():
    xs = [numpy.zeros(1, numpy.float32), numpy.zeros(2, numpy.float32)]
    with pytest.raises(type_check.InvalidType, match=r"xs\[0\].shape\[0\] >= xs\[1\].shape\[0\]"):
        F.transpose_sequence(xs)


def test_mismatched_units_are_rejected():
    xs = [numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 2), numpy.float32)]
    with pytest.raises(
        type_check.InvalidType, match=r"xs\[0\].shape\[1:\] == xs\[1\].shape\[1:\]"
    ):
        F.transpose_sequence(xs)
