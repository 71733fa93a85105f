"""copy: chainer-core's node at Chainer's path; the gradient travels back (not across
ChainerX and non-ChainerX devices)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer._ops import array_ops
from chainer.functions.array.copy import Copy, copy
from chainer.testing import attr


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


@attr.chainerx
def test_copy_between_chainerx_devices_sends_the_gradient_back():
    x = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    gy = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    src, dst = chainer.get_device("native:0"), chainer.get_device("native:1")
    x_var = chainer.Variable(src.send(x))
    y = F.copy(x_var, dst)
    assert y.device == dst
    numpy.testing.assert_array_equal(chainer.backend.CpuDevice().send(y.array), x)
    y.grad = dst.send(gy)
    y.backward()
    assert x_var.grad_var.device == src
    numpy.testing.assert_array_equal(chainer.backend.CpuDevice().send(x_var.grad), gy)
    # (gradient_check draws its probes on the default device, so it cannot span two devices.)


@attr.chainerx
@pytest.mark.parametrize("src, dst", [("native:0", "@numpy"), ("@numpy", "native:0")])
def test_copy_across_chainerx_sends_arrays_and_refuses_gradients(src, dst):
    src, dst = chainer.get_device(src), chainer.get_device(dst)
    x = src.send(numpy.arange(3, dtype=numpy.float32))
    for given in (x, chainer.Variable(x, requires_grad=False)):
        y = F.copy(given, dst)
        assert y.device == dst and chainer.backend.get_device_from_array(y.array) == dst
        assert not y.requires_grad
        numpy.testing.assert_array_equal(chainer.backend.CpuDevice().send(y.array), [0, 1, 2])
    with pytest.raises(RuntimeError, match="gradients cannot travel between ChainerX"):
        F.copy(chainer.Variable(x), dst)
