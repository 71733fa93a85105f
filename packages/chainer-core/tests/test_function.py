"""Old-style chainer.Function: v7's conventions for backward results, hooks and retention."""

import inspect

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


class _Identity(chainer.Function):
    def forward(self, inputs):
        return (inputs[0].copy(),)

    def backward(self, inputs, grad_outputs):
        return grad_outputs


def test_an_old_style_gradient_cannot_be_differentiated_again():
    # Its backward worked on arrays: v7 refuses to backprop through the gradient it made.
    x = Variable(numpy.array([1.0, 2.0], numpy.float32))
    y = _Identity()(x)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward(enable_double_backprop=True)
    numpy.testing.assert_array_equal(x.grad, [1.0, 1.0])
    gx = x.grad_var
    gx.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(RuntimeError, match="old-style Function '_Identity'"):
        gx.backward()
    with pytest.raises(RuntimeError, match="old-style Function '_Identity'"):
        chainer.grad([gx], [x])
    # Reached through a new-style function applied to it, too.
    x2 = Variable(numpy.array([3.0], numpy.float32))
    z = x2 * 1.0  # a new-style function (core op)
    y2 = _Identity()(z)
    y2.grad = numpy.ones(1, numpy.float32)
    y2.backward(enable_double_backprop=True)
    x2.grad_var.grad = numpy.ones(1, numpy.float32)
    with pytest.raises(RuntimeError, match="old-style Function '_Identity'"):
        x2.grad_var.backward()


@pytest.mark.parametrize(
    ("gradient", "problem"),
    [
        ([1], "must be an array, got int"),
        ((numpy.ones(2, numpy.int32),), "has dtype int32, but the input has dtype float32"),
    ],
)
def test_a_backward_result_of_the_wrong_type_names_the_function(gradient, problem):
    class Wrong(_Scale):
        def backward(self, inputs, grad_outputs):
            return gradient

    y = Wrong()(Variable(numpy.ones(2, numpy.float32)))
    y.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(TypeError, match=rf"Wrong.backward: the gradient of input 0 {problem}"):
        y.backward()


def test_debug_mode_errors_in_backward_show_where_the_function_was_applied():
    class WrongShape(_Scale):
        def backward(self, inputs, grad_outputs):
            return (numpy.ones(3, numpy.float32),)

    class Failing(_Scale):
        def backward(self, inputs, grad_outputs):
            raise FloatingPointError("overflow in backward")

    for cls, error in ((WrongShape, ValueError), (Failing, FloatingPointError)):
        with chainer.using_config("debug", True):
            line = inspect.currentframe().f_lineno + 1
            y = cls()(Variable(numpy.ones(2, numpy.float32)))  # the line reported
            y.grad = numpy.ones(2, numpy.float32)
            with pytest.raises(error, match="Stacktrace of the function is below") as info:
                y.backward()
        assert f"line {line}" in str(info.value)
    y = Failing()(Variable(numpy.ones(2, numpy.float32)))  # outside debug mode: as raised
    y.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(FloatingPointError, match=r"^overflow in backward$"):
        y.backward()
