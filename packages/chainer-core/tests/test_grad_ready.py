"""The gradient-ready hook of the backward engine (used by chainermn's bucketed optimizer)."""

import numpy

import chainer
from chainer import _grad_ready
from chainer._ops import array_ops, exponential


def test_hook_sees_each_leaf_once_with_its_final_gradient_before_backward_ends():
    a = chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
    b = chainer.Variable(numpy.array([3.0, 4.0], numpy.float32))
    unused = chainer.Variable(numpy.array([5.0], numpy.float32))
    # a is used twice (two edges), b once, late in backward; unused gets no gradient.
    y = array_ops.sum(a * a + exponential.exp(b * 0.5) * a)
    del unused
    seen = []

    def hook(var):
        others = [v for v in (a, b) if v is not var]
        seen.append((var, var.grad.copy(), others[0].grad is None))

    _grad_ready.add_grad_ready_hook(hook)
    try:
        y.backward()
    finally:
        _grad_ready.remove_grad_ready_hook(hook)
    assert sorted(id(v) for v, _, _ in seen) == sorted([id(a), id(b)])
    assert seen[0][2]  # the first leaf was announced while the other was still unfinished
    grads = {id(v): g for v, g, _ in seen}
    expected_a = 2 * a.array + numpy.exp(b.array * 0.5)
    expected_b = 0.5 * numpy.exp(b.array * 0.5) * a.array
    numpy.testing.assert_allclose(grads[id(a)], expected_a, rtol=1e-6)
    numpy.testing.assert_allclose(grads[id(b)], expected_b, rtol=1e-6)
    numpy.testing.assert_allclose(a.grad, expected_a, rtol=1e-6)


def test_hook_accumulates_into_an_existing_gradient_and_is_removable():
    a = chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
    a.grad = numpy.array([10.0, 10.0], numpy.float32)
    calls = []
    _grad_ready.add_grad_ready_hook(calls.append)
    array_ops.sum(a * 3).backward()
    _grad_ready.remove_grad_ready_hook(calls.append)
    _grad_ready.remove_grad_ready_hook(calls.append)  # a second removal is a no-op
    array_ops.sum(a * 3).backward()
    assert len(calls) == 1 and calls[0] is a
    numpy.testing.assert_allclose(a.grad, [16.0, 16.0])


def test_chainer_grad_does_not_notify():
    a = chainer.Variable(numpy.array([1.0], numpy.float32))
    calls = []
    _grad_ready.add_grad_ready_hook(calls.append)
    try:
        chainer.grad([array_ops.sum(a * 2)], [a])
    finally:
        _grad_ready.remove_grad_ready_hook(calls.append)
    assert calls == []
