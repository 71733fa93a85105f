"""_function_node_forward: an op computed outside ChainerX, with a Python backward."""

import gc
import weakref

import numpy
import pytest

import chainerx
from chainerx import _core


def _array(values):
    return chainerx.array(numpy.asarray(values, numpy.float64))


def _host(array):
    return chainerx.to_numpy(array)


def _cube(x):
    """x ** 3 computed in NumPy, recorded with a backward written in ChainerX routines."""
    y = chainerx.array(_host(x.as_grad_stopped()) ** 3)

    def backward(indexes, grad_outputs, retained_inputs, retained_outputs):
        (gy,) = grad_outputs
        (x_kept,) = retained_inputs
        return [3 * x_kept * x_kept * gy]

    (y,) = _core._function_node_forward([x], [y], [0], [0], backward, "cube")
    return y


def test_first_and_second_order_gradients():
    x = _array([1.0, 2.0, -3.0]).require_grad()
    y = _cube(x)
    assert y.is_grad_required()
    (gx,) = chainerx.grad(
        [y], [x], enable_double_backprop=True, grad_outputs=[chainerx.ones_like(y)]
    )
    numpy.testing.assert_allclose(_host(gx), [3.0, 12.0, 27.0])
    (ggx,) = chainerx.grad([gx], [x], grad_outputs=[chainerx.ones_like(gx)])
    numpy.testing.assert_allclose(_host(ggx), [6.0, 12.0, -18.0])


def test_mixed_with_native_routines_and_backward_into_grad():
    x = _array([0.5, -1.0]).require_grad()
    y = chainerx.exp(_cube(chainerx.sin(x))).sum()
    y.backward()
    a = numpy.array([0.5, -1.0])
    expected = numpy.exp(numpy.sin(a) ** 3) * 3 * numpy.sin(a) ** 2 * numpy.cos(a)
    numpy.testing.assert_allclose(_host(x.grad), expected)


def test_backward_sees_target_indexes_retained_outputs_and_none_inputs():
    calls = []
    x = _array([2.0]).require_grad()
    c = _array([5.0])  # a constant: no gradient asked for it
    y = chainerx.array(_host(x.as_grad_stopped()) + _host(c))

    def backward(indexes, grad_outputs, retained_inputs, retained_outputs):
        # Host copies: the retained arrays are in the graph that owns this callback.
        kept_in = [None if x is None else _host(x).tolist() for x in retained_inputs]
        calls.append((list(indexes), len(grad_outputs), kept_in, _host(retained_outputs[0])))
        return [grad_outputs[0] * 2]

    (y,) = _core._function_node_forward([c, None, x], [y], [1, 2], [0], backward, "f")
    y.backward()
    ((indexes, n_grads, kept_in, kept_out),) = calls
    assert indexes == [2] and n_grads == 1
    assert kept_in == [None, [2.0]]
    assert kept_out.tolist() == [7.0]
    assert _host(x.grad).tolist() == [2.0]


def test_outputs_are_new_arrays_sharing_the_data():
    x = _array([1.0]).require_grad()
    (y,) = _core._function_node_forward([x], [x], [], [], lambda *a: [a[1][0]], "identity")
    assert y is not x and y.data_ptr == x.data_ptr
    y.backward()
    assert _host(x.grad).tolist() == [1.0]


def test_nothing_is_recorded_without_graph_inputs():
    calls = []
    x = _array([1.0])
    (y,) = _core._function_node_forward([x], [_array([2.0])], [], [], calls.append, "f")
    assert not y.is_grad_required() and calls == []


def test_errors_of_the_backward_and_of_the_arguments():
    x = _array([1.0]).require_grad()
    (y,) = _core._function_node_forward([x], [_array([1.0])], [], [], lambda *a: [], "f")
    with pytest.raises(ValueError, match="returned 0 gradients; expected 1"):
        y.backward()

    def fails(*args):
        raise KeyError("from the backward")

    (y,) = _core._function_node_forward([x], [_array([1.0])], [], [], fails, "f")
    with pytest.raises(KeyError, match="from the backward"):
        y.backward()
    (y,) = _core._function_node_forward(
        [x], [_array([1.0])], [], [], lambda *a: [_array([1.0, 2.0])], "g"
    )
    with pytest.raises(chainerx.GradientError, match="backward of g"):
        y.backward()
    with pytest.raises(IndexError, match="retained input index 3"):
        _core._function_node_forward([x], [_array([1.0])], [3], [], fails, "f")
    with pytest.raises(TypeError, match="backward must be callable"):
        _core._function_node_forward([x], [_array([1.0])], [], [], 3, "f")


def test_the_graph_releases_the_callback():
    class Backward:
        def __call__(self, indexes, grad_outputs, retained_inputs, retained_outputs):
            return [grad_outputs[0]]

    callback = Backward()
    ref = weakref.ref(callback)
    x = _array([1.0]).require_grad()
    (y,) = _core._function_node_forward([x], [_array([1.0])], [], [], callback, "f")
    del callback
    gc.collect()
    assert ref() is not None  # the graph holds it
    del y
    gc.collect()
    assert ref() is None


def test_operators_defer_to_operands_that_refuse_ufuncs():
    class Handles:  # like chainer.Variable: a sequence that implements the operators itself
        __array_ufunc__ = None

        def __len__(self):
            return 1

        def __getitem__(self, i):
            return 1.0

        def __mul__(self, other):
            return "Handles.__mul__"

        __rmul__ = __radd__ = __mul__

    a = _array([1.0])
    assert a * Handles() == "Handles.__mul__"
    assert Handles() * a == "Handles.__mul__"
    assert a + Handles() == "Handles.__mul__"
    assert _host(a * [2.0]).tolist() == [2.0]  # sequences still convert
