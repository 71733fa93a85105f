"""copy: chainer-core's node at Chainer's path; the gradient travels back."""

import numpy

import chainer
import chainer.functions as F
from chainer._ops import array_ops
from chainer.functions.array.copy import Copy, copy


def test_is_the_core_implementation():
    assert Copy is array_ops.Copy
    assert F.copy is copy


def test_copy_to_cpu_keeps_the_gradient_path():
    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    for dst in (-1, "@numpy"):
        y = F.copy(x, dst)
        assert isinstance(y.array, numpy.ndarray)
        numpy.testing.assert_array_equal(y.array, x.array)
        y.grad = numpy.full(3, 2, numpy.float32)
        x.cleargrad()
        y.backward()
        numpy.testing.assert_array_equal(x.grad, numpy.full(3, 2))


def test_cuda_dummy_device_means_the_cpu():
    from chainer.backends import cuda

    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.copy(x, cuda.DummyDevice)
    assert isinstance(y.device, chainer.backend.CpuDevice)
    numpy.testing.assert_array_equal(y.array, [0, 1, 2])
