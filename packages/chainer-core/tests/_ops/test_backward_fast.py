"""The core ops' ``_backward_fast``: bitwise the gradients of their ``backward``."""

import numpy
import pytest

import chainer
from chainer import Variable
from chainer._ops import array_ops, basic_math
from chainer.testing._fast_backward import assert_same_gradients, gradients_both_ways
from chainer.utils import type_check

FLOATS = (numpy.float16, numpy.float32, numpy.float64)


def _leaves(*shapes, dtype=numpy.float32, seed=0):
    rng = numpy.random.default_rng(seed)
    return [Variable(rng.standard_normal(shape).astype(dtype)) for shape in shapes]


def _check(build, leaves, fast_classes):
    fast, generic = gradients_both_ways(build, leaves, fast_classes)
    assert_same_gradients(fast, generic)
    return fast


@pytest.mark.parametrize("dtype", FLOATS)
def test_chain_of_operators(dtype):
    x, w, b = _leaves((5,), (5,), (5,), dtype=dtype)

    def build():
        h = x
        for _ in range(3):
            h = ((h * w + b) * 0.5 - 0.1) / 3.0
            h = -h - w
            h = 2.0 - h  # SubFromConstant: no fast path, runs its backward
        return array_ops.sum(h)

    fast = _check(
        build,
        [x, w, b],
        [basic_math.Mul, basic_math.Add, basic_math.MulConstant, basic_math.AddConstant]
        + [basic_math.Sub, basic_math.Neg, array_ops.Sum],
    )
    assert all(g.dtype == dtype for g, _ in fast)


def test_values_against_numpy():
    x, w = _leaves((4,), (4,))
    y = array_ops.sum(x * w * 3.0 - w)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, w.array * numpy.float32(3.0))
    numpy.testing.assert_array_equal(w.grad, x.array * numpy.float32(3.0) - numpy.float32(1))


@pytest.mark.parametrize(
    "axis, keepdims",
    [(None, False), (None, True), (0, False), (1, True), ((0, 2), False), (-1, False)],
)
def test_sum(axis, keepdims):
    (x,) = _leaves((2, 3, 4))
    _check(lambda: array_ops.sum(array_ops.sum(x, axis, keepdims) * 2.0), [x], [array_ops.Sum])


def test_gradients_keep_requires_grad_of_backward():
    # v7: a gradient requires grad when an input of the op that computed it does. Here the
    # gradient of x comes from constants only, the one of w from x.
    x, w = _leaves((3,), (3,))
    c = numpy.arange(3, dtype=numpy.float32)
    frozen = Variable(numpy.ones(3, numpy.float32), requires_grad=False)
    fast = _check(lambda: array_ops.sum(x * c + x * frozen), [x], [basic_math.Mul])
    assert fast[0][1] is False
    fast = _check(lambda: array_ops.sum(x * w), [x, w], [basic_math.Mul])
    assert fast[0][1] is True and fast[1][1] is True


def test_broadcasting_declines_to_backward():
    x, b = _leaves((2, 3), (3,))
    _check(lambda: array_ops.sum((x + b) * b - b), [x, b], [])


def test_add_of_many_inputs_shares_the_gradient():
    x, y, z = _leaves((3,), (3,), (3,))

    def build():
        return array_ops.sum(basic_math.add(x, y, z) * 2.0)

    _check(build, [x, y, z], [basic_math.Add])
    for v in (x, y, z):
        v.cleargrad()
    build().backward()  # as backward does: the same gradient variable for every input
    assert x.grad_var is y.grad_var is z.grad_var


def test_mixed_dtype_initial_gradient_still_refused():
    x, w = _leaves((3,), (3,))
    gy = numpy.ones(3, numpy.float64)
    with pytest.raises(type_check.InvalidType, match="lhs.dtype == rhs.dtype"):
        chainer.grad([x * w], [x, w], grad_outputs=[gy])


@pytest.mark.parametrize("op", [lambda x: x * 2.0, lambda x: x + 1.0, lambda x: -x])
def test_wrong_shape_initial_gradient_still_reported(op):
    (x,) = _leaves((3,))
    gy = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="shape of gradients returned from backward"):
        chainer.grad([op(x)], [x], grad_outputs=[gy])


def test_broadcasting_initial_gradient_summed_as_backward_does():
    x, w = _leaves((3,), (3,))
    gy = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    gx, gw = chainer.grad([x * w], [x, w], grad_outputs=[gy])
    numpy.testing.assert_array_equal(gx.array, (gy * w.array).sum(axis=0))
    numpy.testing.assert_array_equal(gw.array, (gy * x.array).sum(axis=0))


def test_double_backprop_records_the_backward_graph():
    (x,) = _leaves((3,))
    y = array_ops.sum(x * x * x)
    (gx,) = chainer.grad([y], [x], enable_double_backprop=True)
    assert gx.creator is not None
    array_ops.sum(gx).backward()
    numpy.testing.assert_allclose(x.grad, 6 * x.array, rtol=1e-6)


def test_debug_mode_uses_backward():
    (x,) = _leaves((3,))
    calls = []
    original = basic_math.Mul.backward

    def spy(self, indexes, grad_outputs):
        calls.append(1)
        return original(self, indexes, grad_outputs)

    basic_math.Mul.backward = spy
    try:
        with chainer.using_config("debug", True):
            array_ops.sum(x * x).backward()
    finally:
        basic_math.Mul.backward = original
    assert calls


def test_backward_order_by_rank_then_discovery():
    # A straight chain skips the heap; branches still run highest rank first, ties in the
    # order the functions were reached.
    order = []

    class Log(chainer.FunctionNode):
        def __init__(self, name):
            self.name = name

        def forward(self, inputs):
            return (inputs[0] * 1,)

        def backward(self, indexes, grad_outputs):
            order.append(self.name)
            return grad_outputs

    (x,) = _leaves((2,))
    a = Log("f1").apply((x,))[0]
    b = Log("f2").apply((a,))[0]
    c = Log("f3").apply((a,))[0]
    d = Log("f4").apply((c,))[0]
    y = Log("f5").apply((d + b,))[0]
    array_ops.sum(y).backward()
    assert order == ["f5", "f4", "f2", "f3", "f1"]
    numpy.testing.assert_array_equal(x.grad, numpy.full(2, 2, numpy.float32))
