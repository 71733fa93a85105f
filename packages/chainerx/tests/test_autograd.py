"""Autograd from Python: backward, grad, double backprop, several graphs, modes."""

import gc
import math

import numpy
import pytest

import chainerx


def _array(values):
    return chainerx.array(numpy.asarray(values, numpy.float64))


def test_tutorial_affine_example():
    x = chainerx.ones(784, dtype=chainerx.float32)
    w = chainerx.random.normal(size=(784, 10)).astype(chainerx.float32).require_grad()
    b = chainerx.random.normal(size=10).astype(chainerx.float32).require_grad()
    y = x.dot(w) + b
    y.grad = chainerx.ones_like(y)
    y.backward()
    assert type(w.grad) is chainerx.ndarray
    numpy.testing.assert_array_equal(
        chainerx.to_numpy(w.grad), numpy.ones((784, 10), numpy.float32)
    )
    numpy.testing.assert_array_equal(chainerx.to_numpy(b.grad), numpy.ones(10, numpy.float32))


def test_require_grad_returns_self_and_grad_lifecycle():
    x = _array([1.0, 2.0])
    assert x.require_grad() is x
    assert x.is_grad_required()
    assert x.grad is None
    (x * x).sum().backward()
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.grad), [2.0, 4.0])
    (x * 3).sum().backward()  # gradients accumulate
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.grad), [5.0, 7.0])
    x.cleargrad()
    assert x.grad is None
    x.grad = _array([9.0, 9.0])
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.get_grad()), [9.0, 9.0])
    x.set_grad(None)
    assert x.grad is None


def test_grad_errors():
    x = chainerx.zeros((2,))
    with pytest.raises(
        chainerx.ChainerxError, match="array is not in graph <BackpropId <default>>"
    ):
        _ = x.grad
    with pytest.raises(
        chainerx.ChainerxError, match="cannot backprop from an array that is not in graph"
    ):
        x.backward()
    with pytest.raises(
        chainerx.DtypeError,
        match="only arrays of a floating dtype can require gradients, got int32",
    ):
        chainerx.zeros((2,), "int32").require_grad()
    x.require_grad()
    with pytest.raises(chainerx.ChainerxError, match="array already requires gradient"):
        x.require_grad()
    with pytest.raises(
        chainerx.DimensionError,
        match=r"gradient shape \(3,\) does not match the array shape \(2,\)",
    ):
        x.grad = chainerx.zeros((3,))
    with pytest.raises(
        chainerx.DtypeError, match="gradient dtype float64 does not match the array dtype float32"
    ):
        x.grad = chainerx.zeros((2,), "float64")
    y = x * 2
    with pytest.raises(chainerx.GradientError, match="the initial gradient has shape"):
        chainerx.grad([y], [x], grad_outputs=[chainerx.zeros((5,))])


def test_retain_grad_keeps_intermediate_gradients():
    x = _array([1.0, 2.0]).require_grad()
    h = x * 3
    y = (h * h).sum()
    y.backward()
    assert h.grad is None
    x.cleargrad()
    y = (h * h).sum()
    y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(chainerx.to_numpy(h.grad), [6.0, 12.0])
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.grad), [18.0, 36.0])


def test_backward_of_several_outputs():
    x = _array([1.0, 2.0]).require_grad()
    chainerx.backward([x.sum(), (x * x).sum()])
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.grad), [3.0, 5.0])


def test_double_backprop():
    x = _array([0.5, 1.0]).require_grad()
    y = chainerx.sin(x).sum()
    y.backward(enable_double_backprop=True)
    gx = x.grad
    numpy.testing.assert_allclose(chainerx.to_numpy(gx), numpy.cos([0.5, 1.0]))
    x.cleargrad()
    gx.sum().backward()
    numpy.testing.assert_allclose(chainerx.to_numpy(x.grad), -numpy.sin([0.5, 1.0]))


def test_grad_function():
    x = _array([1.0, 2.0]).require_grad()
    w = _array([3.0, 4.0]).require_grad()
    unused = _array([0.0]).require_grad()
    y = (x * w).sum()
    gx, gw, gu = chainerx.grad([y], [x, w, unused])
    numpy.testing.assert_array_equal(chainerx.to_numpy(gx), [3.0, 4.0])
    numpy.testing.assert_array_equal(chainerx.to_numpy(gw), [1.0, 2.0])
    assert gu is None
    assert x.grad is None


def test_higher_order_derivatives_of_exp():
    x = _array([0.3]).require_grad()
    y = chainerx.exp(2 * x)
    for order in range(1, 4):
        (y,) = chainerx.grad([y], [x], enable_double_backprop=True)
        numpy.testing.assert_allclose(chainerx.to_numpy(y), [2**order * math.exp(0.6)])


def test_multiple_graphs_are_independent():
    with chainerx.backprop_scope("outer") as outer, chainerx.backprop_scope("inner") as inner:
        assert outer.name == "outer" and outer != inner
        x = _array([3.0]).require_grad(outer)
        w = _array([2.0]).require_grad(inner)
        y = x * x * w
        assert y.is_grad_required(outer) and y.is_grad_required(inner) and not y.is_grad_required()
        y.backward(inner, enable_double_backprop=True)
        gw = w.get_grad(inner)
        numpy.testing.assert_array_equal(chainerx.to_numpy(gw), [9.0])
        assert x.get_grad(outer) is None
        gw.backward(outer)
        numpy.testing.assert_array_equal(chainerx.to_numpy(x.get_grad(outer)), [6.0])


def test_released_backprop_id_is_rejected():
    with chainerx.backprop_scope("temporary") as bp:
        pass
    with pytest.raises(chainerx.ContextError, match="was released"):
        chainerx.zeros((1,)).require_grad(bp)


def test_no_backprop_and_force_backprop_modes():
    x = _array([1.0]).require_grad()
    assert chainerx.is_backprop_required()
    with chainerx.no_backprop_mode():
        assert not chainerx.is_backprop_required()
        assert not chainerx.exp(x).is_grad_required()
        assert not x.is_backprop_required()
        with chainerx.force_backprop_mode():
            assert chainerx.exp(x).is_grad_required()
    assert chainerx.exp(x).is_grad_required()


def test_no_backprop_mode_for_one_graph():
    with chainerx.backprop_scope("other") as other:
        x = _array([1.0]).require_grad().require_grad(other)
        with chainerx.no_backprop_mode(other):
            y = chainerx.exp(x)
        assert y.is_grad_required() and not y.is_grad_required(other)


def test_as_grad_stopped():
    x = _array([1.0, 2.0]).require_grad()
    s = x.as_grad_stopped()
    assert not s.is_grad_required()
    assert s.data_ptr == x.data_ptr
    c = x.as_grad_stopped(copy=True)
    assert c.data_ptr != x.data_ptr
    y = (x * s).sum()  # s is a constant
    y.backward()
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.grad), [1.0, 2.0])


def test_manual_sgd_update_through_grad_stopped_view():
    rng = numpy.random.default_rng(0)
    x = chainerx.array(rng.normal(size=(32, 4)))
    t = chainerx.array(chainerx.to_numpy(x) @ rng.normal(size=(4, 1)))
    w = chainerx.zeros((4, 1), "float64").require_grad()
    losses = []
    for _ in range(50):
        loss = ((chainerx.dot(x, w) - t) ** 2).mean()
        loss.backward()
        w.as_grad_stopped()[...] = w.as_grad_stopped() - 0.1 * w.grad
        w.cleargrad()
        losses.append(float(loss))
    assert losses[-1] < losses[0] * 0.1


def test_graph_survives_dropped_intermediates():
    x = _array([1.0, 2.0]).require_grad()
    y = chainerx.tanh(chainerx.exp(x)).sum()
    gc.collect()
    y.backward()
    e = numpy.exp([1.0, 2.0])
    numpy.testing.assert_allclose(chainerx.to_numpy(x.grad), (1 - numpy.tanh(e) ** 2) * e)


def test_gradients_flow_across_devices():
    x = _array([1.0, 2.0]).require_grad()
    y = (x.to_device("native:1") ** 2).sum()
    y.backward()
    assert x.grad.device.name == "native:0"
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.grad), [2.0, 4.0])


def test_float32_inputs_get_float32_gradients_through_mixed_dtypes():
    x = chainerx.array([1.0, 2.0], dtype="float32").require_grad()
    y = (x * chainerx.array([1.0, 1.0])).sum()  # promoted to float64
    y.backward()
    assert x.grad.dtype == numpy.float32


def test_is_backprop_required_for_any_graph():
    x = chainerx.array([1.0, 2.0])
    assert not x.is_backprop_required(chainerx.anygraph)
    with chainerx.backprop_scope("other") as other:
        x.require_grad(other)
        assert not x.is_backprop_required()
        assert x.is_backprop_required(chainerx.anygraph)
        with chainerx.no_backprop_mode(other):
            assert not x.is_backprop_required(chainerx.anygraph)
    assert repr(chainerx.anygraph) == "chainerx.anygraph"
