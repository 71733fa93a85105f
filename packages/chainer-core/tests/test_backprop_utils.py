"""chainer._backprop_utils: v7's one-step backward, kept for code written against it."""

import numpy
import pytest

import chainer
from chainer import Variable, _backprop_utils


class _Double(chainer.FunctionNode):
    def forward(self, inputs):
        return (inputs[0] * 2,)

    def backward(self, target_input_indexes, grad_outputs):
        return (grad_outputs[0] * 2,)


class _DoubleAccumulating(_Double):
    def backward_accumulate(self, target_input_indexes, grad_outputs, grad_inputs):
        (gx,) = self.backward(target_input_indexes, grad_outputs)
        return (gx if grad_inputs[0] is None else gx + grad_inputs[0],)


@pytest.mark.parametrize("cls", [_Double, _DoubleAccumulating])
@pytest.mark.parametrize("lazy", [False, True])
def test_backprop_step_adds_into_the_lists(cls, lazy):
    x = Variable(numpy.array([1.0, 2.0], numpy.float32))
    f = cls()
    f.apply((x,))
    earlier = Variable(numpy.array([10.0, 20.0], numpy.float32))
    grads = [earlier]
    gy = Variable(numpy.array([1.0, 3.0], numpy.float32))
    with chainer.using_config("lazy_grad_sum", lazy):
        _backprop_utils.backprop_step(f, (0,), (gy,), {f.inputs[0]: grads}, False)
    if lazy and cls is _Double:
        assert len(grads) == 2
    else:
        assert len(grads) == 1
    numpy.testing.assert_array_equal(_backprop_utils._reduce(grads).array, [12.0, 26.0])


def test_reduce_of_nothing_is_none():
    assert _backprop_utils._reduce([]) is None


def test_debug_checks_the_new_gradients_for_nan():
    x = Variable(numpy.array([1.0], numpy.float32))
    f = _Double()
    f.apply((x,))
    gy = Variable(numpy.array([numpy.nan], numpy.float32))
    with pytest.raises(RuntimeError, match="NaN is detected on backward computation of _Double"):
        _backprop_utils.backprop_step(f, (0,), (gy,), {f.inputs[0]: []}, True)
