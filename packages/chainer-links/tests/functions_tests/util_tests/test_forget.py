"""forget: same values and gradients as without it, recomputation flag, errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer.functions.util.forget import Forget


def _two_layer(x, W):
    return F.tanh(F.sigmoid(x * W) * 2.0 - x)


def test_forget_keeps_values_and_gradients():
    rng = numpy.random.default_rng(0)
    x_data = rng.uniform(-1, 1, (3, 4))
    w_data = rng.uniform(-1, 1, (3, 4))
    gy = rng.uniform(-1, 1, (3, 4))

    x, w = chainer.Variable(x_data), chainer.Variable(w_data)
    y = F.forget(_two_layer, x, w)
    assert isinstance(y.creator_node, Forget)
    y.grad = gy
    y.backward()

    x2, w2 = chainer.Variable(x_data), chainer.Variable(w_data)
    y2 = _two_layer(x2, w2)
    y2.grad = gy
    y2.backward()
    numpy.testing.assert_allclose(y.array, y2.array)
    numpy.testing.assert_allclose(x.grad, x2.grad)
    numpy.testing.assert_allclose(w.grad, w2.grad)
    gradient_check.check_backward(lambda a, b: F.forget(_two_layer, a, b), (x_data, w_data), gy)


def test_forget_drops_the_intermediate_graph():
    x = chainer.Variable(numpy.ones(2))
    y = F.forget(lambda v: F.sigmoid(F.tanh(v)), x)
    assert y.creator_node.inputs[0] is x.node  # one node from x to y: nothing in between


def test_forget_accumulates_gradients_of_parameters_used_inside():
    W = chainer.Parameter(numpy.array([2.0, 3.0]))
    x = chainer.Variable(numpy.array([1.0, -1.0]))
    y = F.forget(lambda v: v * W, x)
    y.grad = numpy.ones(2)
    y.backward()
    numpy.testing.assert_array_equal(W.grad, [1.0, -1.0])
    numpy.testing.assert_array_equal(x.grad, [2.0, 3.0])


def test_forget_recomputes_in_backward_with_in_recomputing_set():
    seen = []

    def func(v):
        seen.append(chainer.config.in_recomputing)
        return v * 2.0

    x = chainer.Variable(numpy.ones(2))
    y = F.forget(func, x)
    assert seen == [False]
    y.grad = numpy.ones(2)
    y.backward()
    assert seen == [False, True]
    assert chainer.config.in_recomputing is False


def test_forget_with_several_outputs_and_an_input_passed_through():
    x = chainer.Variable(numpy.array([1.0, 2.0]))
    z = chainer.Variable(numpy.array([3.0, 4.0]))
    a, b = F.forget(lambda u, v: (u * v, v), x, z)
    chainer.backward([a, b], [numpy.ones(2), numpy.ones(2)])
    numpy.testing.assert_array_equal(x.grad, [3.0, 4.0])
    numpy.testing.assert_array_equal(z.grad, [2.0, 3.0])


def test_forget_gradient_of_an_unused_output_is_skipped():
    x = chainer.Variable(numpy.array([1.0, 2.0]))
    a, _ = F.forget(lambda u: (u * 3.0, u * 5.0), x)
    a.grad = numpy.ones(2)
    a.backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_forget_refuses_double_backprop():
    x = chainer.Variable(numpy.ones(2))
    y = F.forget(lambda v: v * v, x)
    y.grad = numpy.ones(2)
    with pytest.raises(RuntimeError, match=r"double backpropagation through functions\.forget"):
        y.backward(enable_double_backprop=True)


def test_forget_rejects_bad_functions():
    x = chainer.Variable(numpy.ones(2))
    with pytest.raises(TypeError, match=r"func must be callable, got int"):
        F.forget(3, x)
    with pytest.raises(
        RuntimeError, match=r"must return a Variable or a tuple of Variables, .*list"
    ):
        F.forget(lambda v: [v], x)
    with pytest.raises(
        RuntimeError, match=r"the 2nd element of the tuple returned by func is not"
    ):
        F.forget(lambda v: (v, v.array), x)


@pytest.mark.parametrize(
    "make",
    [
        lambda: chainer.links.BatchRenormalization(3, rmax=2.0, dmax=1.0),
        lambda: chainer.links.DecorrelatedBatchNormalization(3, groups=1),
    ],
    ids=["batch_renormalization", "decorrelated_batch_normalization"],
)
def test_forget_with_normalization_links_matches_the_plain_graph(make):
    # The recomputation must see the running statistics as the first pass did and must not
    # count the batch twice: outputs, gradients and statistics equal those without forget.
    rng = numpy.random.RandomState(3)
    warmup = rng.normal(size=(6, 3)).astype(numpy.float32)
    x = rng.normal(1.0, 2.0, size=(6, 3)).astype(numpy.float32)
    gy = rng.normal(size=(6, 3)).astype(numpy.float32)
    results = []
    for use_forget in (False, True):
        link = make()
        link(warmup)  # running statistics away from their initial values
        xv = chainer.Variable(x.copy())
        y = F.forget(link, xv) if use_forget else link(xv)
        y.grad = gy
        y.backward()
        persistent = {name: numpy.copy(getattr(link, name)) for name in sorted(link._persistent)}
        results.append((y.array, xv.grad, persistent))
    (y0, gx0, stats0), (y1, gx1, stats1) = results
    numpy.testing.assert_allclose(y1, y0, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(gx1, gx0, rtol=1e-4, atol=1e-5)
    assert stats1.keys() == stats0.keys()
    for name in stats0:
        numpy.testing.assert_allclose(stats1[name], stats0[name], rtol=1e-6, atol=1e-7)
