"""as_strided: views of the storage, layout-agnostic gradients, and the bound checks."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing


def _strided_loops(storage, shape, strides, offset):
    y = numpy.empty(shape, storage.dtype)
    for index in numpy.ndindex(*shape):
        y[index] = storage[offset + sum(i * s for i, s in zip(index, strides))]
    return y


_GEOMETRIES = [
    ((3, 2), (1, 1), 0),  # overlapping windows
    ((2, 3), (1, 2), 0),  # a transposed view
    ((4,), (0,), 2),  # one element repeated
    ((2, 2), (3, 1), 1),
    ((3,), (-2,), 5),  # walking backwards
    ((2, 2), (2, 1), None),  # the offset of x itself
    ((0, 3), (1, 1), 0),
]


@testing.parameterize(
    *testing.product(
        {
            "geometry": _GEOMETRIES,
            "in_shape": [(6,), (2, 3)],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestAsStrided(testing.FunctionTestCase):
    # as_strided reads the input's memory by strides: the test arrays must be C-contiguous
    # (FunctionTestCase makes them strided by default, as v7).
    contiguous = "C"

    def setUp(self):
        self.shape, self.strides, self.offset = self.geometry
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.in_shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.as_strided(inputs[0], self.shape, self.strides, self.offset),)

    def forward_expected(self, inputs):
        offset = 0 if self.offset is None else self.offset
        return (_strided_loops(inputs[0].ravel(), self.shape, self.strides, offset),)


@testing.parameterize(*testing.product({"dtype": [numpy.float32, numpy.float64]}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestAsStridedOfAnOverlappingInput(testing.FunctionTestCase):
    """The input is itself a broadcast view: its storage has 3 elements for 6 of its own."""

    contiguous = "C"

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (3,)).astype(self.dtype),)

    def forward(self, inputs, device):
        overlapping = F.broadcast_to(inputs[0], (2, 3))
        return (F.as_strided(overlapping, (2, 2), (1, 1), 0),)

    def forward_expected(self, inputs):
        return (_strided_loops(inputs[0], (2, 2), (1, 1), 0),)


def test_gradient_counts_every_read():
    x = chainer.Variable(numpy.arange(4, dtype=numpy.float32))
    y = F.as_strided(x, (3, 2), (1, 1), 0)
    y.grad = numpy.ones((3, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1, 2, 2, 1])


def test_the_view_of_x_is_ignored():
    base = numpy.arange(6, dtype=numpy.float32)
    view = chainer.Variable(base[2:])
    numpy.testing.assert_array_equal(F.as_strided(view, (2,), (1,), None).array, [2, 3])
    y = F.as_strided(view, (2,), (1,), 0)  # counted from the start of base
    numpy.testing.assert_array_equal(y.array, [0, 1])
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(view.grad, numpy.zeros(4))  # base[0:2] is not in view


def test_reading_outside_the_storage_is_rejected():
    x = numpy.zeros(4, numpy.float32)
    with pytest.raises(ValueError, match=r"reads storage positions 2\.\.5, outside the 4"):
        F.as_strided(x, (2, 2), (2, 1), 2)
    with pytest.raises(ValueError, match=r"reads storage positions -1\.\.0"):
        F.as_strided(x, (2,), (-1,), 0)


def test_geometry_arguments_are_checked():
    x = numpy.zeros(4, numpy.float32)
    with pytest.raises(ValueError, match=r"same length, got shape=\(2, 2\) and strides=\(1,\)"):
        F.as_strided(x, (2, 2), (1,))
    with pytest.raises(ValueError, match=r"shape must not be negative, got \(-1,\)"):
        F.as_strided(x, (-1,), (1,))


def test_a_numpy_strided_view_reads_the_storage_of_its_base():
    # numpy's as_strided views hang their base on a non-array holder; positions still count
    # in the storage of the array behind it.
    storage = numpy.arange(8, dtype=numpy.float32)
    view = numpy.lib.stride_tricks.as_strided(storage[3:], (3, 3), (-4, 8))
    x = chainer.Variable(view)  # [[3, 5, 7], [2, 4, 6], [1, 3, 5]]
    y = F.as_strided(x, (3, 3), (1, 2), 0)
    numpy.testing.assert_array_equal(y.array, _strided_loops(storage, (3, 3), (1, 2), 0))
    y.grad = numpy.ones((3, 3), numpy.float32)
    y.backward()
    # storage positions 1..5 are read by x 1, 2, 2, 2, 1 times: each copy gets its share
    numpy.testing.assert_array_equal(x.grad, [[0.5, 0.5, 0], [2, 2, 1], [1, 0.5, 0.5]])


def test_the_private_stride_array_reads_the_storage():
    from chainer.functions.array.as_strided import _stride_array

    x = numpy.arange(8, dtype=numpy.float32)
    numpy.testing.assert_array_equal(_stride_array(x, (4,), (-1,), 3), [3, 2, 1, 0])


@pytest.mark.parametrize("dtype", [numpy.int16, numpy.int64])
def test_integer_gradients_are_refused(dtype):
    x = chainer.Variable(numpy.arange(4, dtype=dtype))
    y = F.as_strided(x, (4,), (-1,), 3)
    y.grad = numpy.ones(4, dtype)
    with pytest.raises(TypeError, match=r"needs a floating-point gradient, got int"):
        chainer.grad([y], [x])
