"""tensordot."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import backend, testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [
                ((2, 3, 4), (3, 4, 5), 2),
                ((2, 3), (3, 4), 1),
                ((2, 3), (4,), 0),
                ((2, 3, 4), (4, 3, 5), ([1, 2], [1, 0])),
                ((3, 2), (2, 3), ((0, 1), (1, 0))),
                ((2, 3), (3, 2), ([-1], [0])),
                ((), (), 0),  # zero-dim inputs: an outer product (CuPy's tensordot refuses)
                ((), (2, 3), 0),
            ],
        }
    )
)
@testing.inject_backend_tests(None, [*CPU_AND_CHAINERX, {"use_cuda": True}])
class TestTensorDot(testing.FunctionTestCase):
    def setUp(self):
        self.a_shape, self.b_shape, self.axes = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 1e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 1e-2, "rtol": 5e-2}

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, self.a_shape).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, self.b_shape).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        return (F.tensordot(*inputs, axes=self.axes),)

    def forward_expected(self, inputs):
        a, b = (x.astype(numpy.float64) for x in inputs)
        if isinstance(self.axes, int):
            a_axes = list(range(a.ndim - self.axes, a.ndim))
            b_axes = list(range(self.axes))
        else:
            a_axes = [i % a.ndim for i in self.axes[0]]
            b_axes = [i % b.ndim for i in self.axes[1]]
        a_free = [i for i in range(a.ndim) if i not in a_axes]
        b_free = [i for i in range(b.ndim) if i not in b_axes]
        out_shape = tuple(a.shape[i] for i in a_free) + tuple(b.shape[i] for i in b_free)
        y = numpy.zeros(out_shape)
        summed = [a.shape[i] for i in a_axes]
        for out in numpy.ndindex(out_shape):
            for s in numpy.ndindex(*summed):
                a_index = [0] * a.ndim
                b_index = [0] * b.ndim
                for k, i in enumerate(a_free):
                    a_index[i] = out[k]
                for k, i in enumerate(b_free):
                    b_index[i] = out[len(a_free) + k]
                for k, (i, j) in enumerate(zip(a_axes, b_axes)):
                    a_index[i] = b_index[j] = s[k]
                y[out] += a[tuple(a_index)] * b[tuple(b_index)]
        return (y.astype(self.dtype),)


def test_bad_axes_and_shapes_are_rejected():
    a = numpy.ones((2, 3))
    with pytest.raises(
        ValueError, match=r"shape mismatch: a\.shape\[1\] == 3 but b\.shape\[0\] == 4"
    ):
        F.tensordot(a, numpy.ones((4, 2)), axes=1)
    with pytest.raises(ValueError, match=r"axes=3 must lie in \[0, min\(a\.ndim, b\.ndim\)\]"):
        F.tensordot(a, numpy.ones((3, 2)), axes=3)
    with pytest.raises(ValueError, match=r"the same length"):
        F.tensordot(a, numpy.ones((3, 2)), axes=([1], [0, 1]))
    with pytest.raises(ValueError, match=r"pair of axis lists, got 0 items"):
        F.tensordot(a, numpy.ones((3, 2)), axes=())
    with pytest.raises(TypeError, match=r"pair of axis lists"):
        F.tensordot(a, numpy.ones((3, 2)), axes="ij")
    with pytest.raises(type_check.InvalidType, match=r"b\.dtype\.kind == f"):
        F.tensordot(a, numpy.ones((3, 2), numpy.int32), axes=1)


@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
def test_mixed_dtypes_give_the_common_dtype_and_gradients_in_each_input_dtype(backend_config):
    a_cpu = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float16)
    b_cpu = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float64)
    a, b = (chainer.Variable(backend_config.get_array(x)) for x in (a_cpu, b_cpu))
    y = F.tensordot(a, b, axes=1)
    assert y.dtype == numpy.float64
    to_cpu = backend.CpuDevice().send
    numpy.testing.assert_allclose(to_cpu(y.array), a_cpu.astype(numpy.float64) @ b_cpu)
    gy = numpy.random.uniform(-1, 1, (2, 4))
    y.grad = backend_config.get_array(gy)
    y.backward()
    assert a.grad.dtype == numpy.float16 and b.grad.dtype == numpy.float64
    numpy.testing.assert_allclose(to_cpu(a.grad), gy @ b_cpu.T, rtol=1e-2, atol=1e-3)
    numpy.testing.assert_allclose(to_cpu(b.grad), a_cpu.astype(numpy.float64).T @ gy)
