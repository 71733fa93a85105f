"""Old-style chainer.Function: v7's conventions for backward results, hooks and retention."""

import numpy
import pytest

import chainer
from chainer import Variable


class _Scale(chainer.Function):
    """y = 3x, with backward returning a list."""

    def forward(self, inputs):
        return (inputs[0] * 3,)

    def backward(self, inputs, grad_outputs):
        return [grad_outputs[0] * 3]


def test_backward_may_return_a_list():
    x = Variable(numpy.array([1.0, 2.0], numpy.float32))
    y = _Scale()(x)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_backward_returning_something_else_is_an_error():
    class Bad(_Scale):
        def backward(self, inputs, grad_outputs):
            return grad_outputs[0] * 3

    y = Bad()(Variable(numpy.ones(2, numpy.float32)))
    y.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(TypeError, match=r"Bad.backward must return a tuple \(or list\)"):
        y.backward()


class _Recorder(chainer.FunctionHook):
    name = "recorder"

    def __init__(self):
        self.seen = []

    def forward_preprocess(self, function, in_data):
        self.seen.append(function.label)


def test_a_hook_added_before_the_call_sees_the_call():
    f = _Scale()
    hook = _Recorder()
    f.add_hook(hook)
    y = f(Variable(numpy.ones(1, numpy.float32)))
    assert hook.seen == ["_Scale"]
    # Called again while its first graph lives: a new node, with the same hooks.
    f(Variable(numpy.ones(1, numpy.float32)))
    assert y.creator is f
    assert hook.seen == ["_Scale", "_Scale"]


def test_inputs_of_an_unchained_function_are_none():
    f = _Scale()
    y = f(Variable(numpy.ones(1, numpy.float32)))
    assert len(f.inputs) == 1
    f.unchain()
    assert f.inputs is None
    assert y.creator is None


class _IntAndFloat(chainer.Function):
    def forward(self, inputs):
        (x,) = inputs
        self.retain_outputs((1,))
        return x.astype(numpy.int32), x * 2

    def backward(self, inputs, grad_outputs):
        g_int, g_float = grad_outputs
        assert g_int is None  # an int output never has a gradient
        return (g_float * 2,)


def test_int_outputs_get_no_gradient_and_retained_outputs_keep_their_array():
    x = Variable(numpy.array([1.5, 2.5], numpy.float32))
    y_int, y_float = _IntAndFloat()(x)
    assert y_int.node.data is None
    numpy.testing.assert_array_equal(y_float.node.data, [3.0, 5.0])
    y_float.grad = numpy.ones(2, numpy.float32)
    y_float.backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, 2.0])
