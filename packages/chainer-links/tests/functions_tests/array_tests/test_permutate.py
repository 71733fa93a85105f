"""permutate: forward and inverse permutations, gradients, and the index checks."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "shape_axis": [((4,), 0), ((3, 2), 0), ((2, 4), 1), ((2, 3, 2), -2)],
            "inv": [False, True],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestPermutate(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        indices = numpy.random.permutation(self.shape[self.axis]).astype(numpy.int32)
        return x, indices

    def forward(self, inputs, device):
        x, indices = inputs
        return (F.permutate(x, indices, self.axis, self.inv),)

    def forward_expected(self, inputs):
        x, indices = inputs
        moved = numpy.moveaxis(x, self.axis, 0)
        y = numpy.empty_like(moved)
        for i, j in enumerate(indices):
            if self.inv:
                y[j] = moved[i]
            else:
                y[i] = moved[j]
        return (numpy.moveaxis(y, 0, self.axis),)


def test_indices_may_be_a_variable():
    x = numpy.arange(3, dtype=numpy.float32)
    indices = chainer.Variable(numpy.array([2, 0, 1], numpy.int32))
    numpy.testing.assert_array_equal(F.permutate(x, indices).array, [2, 0, 1])


def test_the_node_keeps_the_indices_it_applied():
    # v7's Permutate node had an ``indices`` attribute; exporters (onnx-chainer's tests) read it.
    indices = numpy.array([2, 0, 1], numpy.int32)
    y = F.permutate(chainer.Variable(numpy.arange(3, dtype=numpy.float32)), indices, inv=True)
    numpy.testing.assert_array_equal(y.creator.indices, indices)


def test_out_of_range_index_is_rejected():
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError, match=r"indices must lie in \[0, 3\), got 3"):
        F.permutate(x, numpy.array([0, 3, 1], numpy.int32))


def test_repeated_index_is_rejected():
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError, match=r"indices must not repeat, got 1"):
        F.permutate(x, numpy.array([1, 1, 0], numpy.int32))


@attr.chainerx
def test_chainerx_indices_permute_a_chainerx_input_and_are_checked():
    import chainerx

    x = chainer.Variable(chainerx.array(numpy.array([10.0, 20.0, 30.0], numpy.float32)))
    y = F.permutate(x, chainerx.array(numpy.array([2, 0, 1], numpy.int32)), inv=True)
    numpy.testing.assert_array_equal(chainerx.to_numpy(y.array), [20.0, 30.0, 10.0])
    y.grad = chainerx.array(numpy.array([1.0, 2.0, 3.0], numpy.float32))
    y.backward()
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.grad), [3.0, 1.0, 2.0])
    with pytest.raises(ValueError, match=r"indices must not repeat, got 1"):
        F.permutate(x, chainerx.array(numpy.array([1, 1, 0], numpy.int32)))


def test_bad_index_types_are_rejected():
    x = numpy.zeros((3, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"indices.dtype.kind == i"):
        F.permutate(x, numpy.array([0.0, 1.0, 2.0], numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"x.shape\[1\] == len\(indices\)"):
        F.permutate(x, numpy.array([0, 1, 2], numpy.int32), axis=1)
    with pytest.raises(type_check.InvalidType, match=r"x.ndim > 2"):
        F.permutate(x, numpy.array([0, 1], numpy.int32), axis=2)
    with pytest.raises(type_check.InvalidType, match=r"indices.ndim == 1"):
        F.permutate(x, numpy.array([[0, 1, 2]], numpy.int32))
    with pytest.raises(TypeError, match=r"indices must be an int array or Variable, got list"):
        F.permutate(x, [2, 0, 1])


def test_v7_node_signature_takes_indices_as_attribute():
    # v7: Permutate(indices, axis, inv) applied to (x,); external ONNX converters rely on it.
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(3, 2))
    node = F.array.permutate.Permutate(numpy.array([1, 0], numpy.int32), 1, True)
    (y,) = node.apply((x,))
    numpy.testing.assert_array_equal(y.array, [[1, 0], [3, 2], [5, 4]])
    assert len(y.creator.inputs) == 1
    y.grad = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[1, 0], [3, 2], [5, 4]])
