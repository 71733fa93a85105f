"""CUDAProfileHook: NVTX ranges around forward and backward calls."""

import numpy
import pytest

from chainer import Variable
from chainer.backends import cuda
from chainer.function_hooks import CUDAProfileHook


def test_without_cuda_creating_the_hook_raises():
    if cuda.available:
        pytest.skip("CUDA is available here")
    with pytest.raises(RuntimeError, match="CUDAProfileHook needs CUDA. CUDA is not available"):
        CUDAProfileHook()


def test_cupy_without_nvtx_is_an_error(fake_cuda):
    fake_cuda(nvtx_available=False)
    with pytest.raises(RuntimeError, match="CUDAProfileHook needs NVTX"):
        CUDAProfileHook()


def test_ranges_are_pushed_and_popped_around_each_call(fake_cuda, forward_backward):
    gpu = fake_cuda()
    with CUDAProfileHook():
        forward_backward(lambda event: None)
    assert gpu.ranges == [
        ("push", "outer.forward"),
        ("pop",),
        ("push", "outer.backward"),
        ("push", "inner.forward"),  # labels; applied inside Outer's backward: a nested range
        ("pop",),
        ("pop",),
    ]


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason="needs a CUDA GPU through CuPy")
def test_real_gpu_runs_under_the_hook():
    x = Variable(cuda.cupy.arange(4, dtype=numpy.float32))
    with CUDAProfileHook():
        y = x * x
        y.grad = cuda.cupy.ones_like(y.array)
        y.backward()
    numpy.testing.assert_array_equal(cuda.to_cpu(x.grad), [0, 2, 4, 6])
