"""Chainer on ChainerX: the graph in ChainerX, native paths, the NumPy fallback, Variable API."""

import importlib

import numpy
import pytest

import chainer
from chainer import FunctionNode, Variable, gradient_check
from chainer._ops.array_ops import sum as _sum

chainerx = pytest.importorskip("chainerx")
if not hasattr(importlib.import_module("chainerx._core"), "_function_node_forward"):
    pytest.skip("needs a chainerx with _function_node_forward", allow_module_level=True)

pytestmark = pytest.mark.chainerx


def rand(*shape, seed=0):
    return numpy.random.default_rng(seed).uniform(-1, 1, shape)


def chx(array):
    return chainerx.array(array)


def host(array):
    return chainerx.to_numpy(array)


class NativeSquare(FunctionNode):
    """y = x * x through ChainerX only (no NumPy forward, no Python backward)."""

    def forward_chainerx(self, inputs):
        (x,) = inputs
        return (x * x,)


class FallbackCube(FunctionNode):
    """y = x ** 3 on NumPy only, with a Python backward (retains its input and output)."""

    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return (x**3,)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        self.backward_arrays = type(x.array), type(y.array), type(grad_outputs[0].array)
        (gy,) = grad_outputs
        return (3 * x * x * gy,)


class FallbackMulAdd(FunctionNode):
    """w = x * y + z on NumPy, three inputs, two of them retained."""

    def forward(self, inputs):
        x, y, z = inputs
        self.retain_inputs((0, 1))
        return (x * y + z,)

    def backward(self, indexes, grad_outputs):
        x, y = self.get_retained_inputs()
        (gw,) = grad_outputs
        return y * gw, x * gw, gw


def square(x):
    return NativeSquare().apply((x,))[0]


def cube(x):
    return FallbackCube().apply((x,))[0]


class TestRecording:
    def test_native_output_is_in_chainerx_graph_and_nothing_in_python(self):
        x = Variable(chx(rand(3)))
        y = square(x)
        assert y.requires_grad and y.chx_array.is_grad_required()
        assert y.creator_node is None  # the graph is ChainerX's
        assert not y.array.is_grad_required()  # .array is out of the graph, as in v7
        y.grad = chx(numpy.ones(3))
        y.backward()
        numpy.testing.assert_allclose(host(x.grad), 2 * rand(3))

    def test_fallback_forward_and_backward_agree_with_numpy(self):
        xs = [rand(4, seed=i) for i in range(3)]
        outs = []
        grads = []
        for convert in (lambda a: a, chx):
            vs = [Variable(convert(a)) for a in xs]
            (w,) = FallbackMulAdd().apply(vs)
            w.grad = convert(numpy.ones(4))
            w.backward()
            outs.append(numpy.asarray(chainer.backend.CpuDevice().send(w.array)))
            grads.append([chainer.backend.CpuDevice().send(v.grad) for v in vs])
        numpy.testing.assert_allclose(outs[0], outs[1])
        for g_numpy, g_chx in zip(*grads, strict=True):
            numpy.testing.assert_allclose(g_numpy, g_chx)

    def test_fallback_backward_runs_on_chainerx_arrays(self):
        for double in (False, True):
            node = FallbackCube()
            x = Variable(chx(rand(3)))
            (y,) = node.apply((x,))
            y.grad = chx(numpy.ones(3))
            y.backward(enable_double_backprop=double)
            assert node.backward_arrays == (chainerx.ndarray,) * 3  # v7
            x.cleargrad()  # a gradient in the graph of its own array: a cycle until cleared

    def test_fallback_sees_its_array_attributes_on_numpy(self):
        class Scale(FunctionNode):
            def __init__(self, factor):
                self.factor = factor

            def forward(self, inputs):
                assert isinstance(self.factor, numpy.ndarray)  # v7: converted for the fallback
                return (inputs[0] * self.factor,)

            def backward(self, indexes, grad_outputs):
                assert isinstance(self.factor, chainerx.ndarray)  # v7: back to ChainerX
                return (grad_outputs[0] * self.factor,)

        x = Variable(chx(rand(3)))
        (y,) = Scale(chx(numpy.full(3, 2.0))).apply((x,))
        (gx,) = chainer.grad([y], [x], [chx(numpy.ones(3))], enable_double_backprop=True)
        numpy.testing.assert_array_equal(host(gx.array), numpy.full(3, 2.0))

    def test_fallback_shares_memory_with_the_chainerx_inputs(self):
        seen = []

        class Peek(FunctionNode):
            def forward(self, inputs):
                seen.append(inputs[0])
                return (inputs[0] * 2,)

        x = chx(numpy.arange(3.0))
        Peek().apply((x,))
        assert isinstance(seen[0], numpy.ndarray)
        assert seen[0].ctypes.data == x.data_ptr

    def test_no_backprop_mode_records_nothing(self):
        x = Variable(chx(rand(3)))
        with chainer.no_backprop_mode():
            assert not chainerx.is_backprop_required()
            y, z = square(x), cube(x)
            with chainer.force_backprop_mode():
                assert chainerx.is_backprop_required()
        assert not y.requires_grad and not y.chx_array.is_grad_required()
        assert not z.requires_grad and not z.chx_array.is_grad_required()

    def test_using_config_without_backprop_records_nothing_either(self):
        x = Variable(chx(rand(3)))
        with chainer.using_config("enable_backprop", False):
            y = square(x)
        assert not y.requires_grad


class TestGradients:
    @pytest.mark.parametrize(
        "fn", [square, cube, lambda x: cube(square(x)), lambda x: square(cube(x))]
    )
    def test_first_and_second_order(self, fn):
        x = chx(rand(5))
        gy = chx(rand(5, seed=1))
        ggx = chx(rand(5, seed=2))
        gradient_check.check_backward(fn, x, gy, dtype=numpy.float64, atol=1e-6, rtol=1e-5)
        gradient_check.check_double_backward(
            fn, x, gy, ggx, dtype=numpy.float64, atol=1e-5, rtol=1e-4
        )

    def test_double_backprop_through_native_and_fallback_values(self):
        a = rand(4)
        x = Variable(chx(a))
        y = _sum(cube(square(x)))  # sum(x ** 6)
        (gx,) = chainer.grad([y], [x], enable_double_backprop=True)
        numpy.testing.assert_allclose(host(gx.chx_array), 6 * a**5)
        (ggx,) = chainer.grad([_sum(gx)], [x])
        numpy.testing.assert_allclose(host(ggx.array), 30 * a**4)

    def test_backward_options(self):
        a = rand(3)
        x = Variable(chx(a))
        h = square(x)
        y = cube(h)
        y.grad = chx(numpy.ones(3))
        y.backward(retain_grad=True, loss_scale=2.0)  # v7: ChainerX's come out unscaled
        numpy.testing.assert_allclose(host(h.grad), 3 * a**4)
        numpy.testing.assert_allclose(host(x.grad), 6 * a**5)
        assert y.grad is not None  # retain_grad keeps the output's too
        (gx,) = chainer.grad([cube(x)], [x], [chx(numpy.ones(3))], loss_scale=3.0)
        numpy.testing.assert_allclose(host(gx.array), 3 * a**2)  # unscaled too
        y2 = cube(square(x))
        y2.grad = chx(numpy.ones(3))
        y2.backward()
        assert y2.grad is None  # consumed without retain_grad
        numpy.testing.assert_allclose(host(x.grad), 2 * 6 * a**5)  # accumulated

    def test_retained_output_gradient_is_counted_once(self):
        a = rand(3)
        x = Variable(chx(a))
        y = square(x)
        y.grad = chx(numpy.full(3, 2.0))
        y.backward(retain_grad=True)
        numpy.testing.assert_allclose(host(y.grad), numpy.full(3, 2.0))
        numpy.testing.assert_allclose(host(x.grad), 4 * a)

    def test_backward_from_a_leaf_keeps_its_gradient(self):
        x = Variable(chx(rand(3)))
        x.grad = chx(numpy.full(3, 5.0))
        x.backward()
        numpy.testing.assert_allclose(host(x.grad), numpy.full(3, 5.0))

    @pytest.mark.parametrize("fn", [square, lambda v: chainer.functions.identity(v)])
    def test_double_backprop_reaches_a_gradient_set_by_hand(self, fn):
        a = rand(3)
        x = Variable(chx(a))
        y = fn(x)
        y.grad = chx(numpy.full(3, 0.5))
        gy = y.grad_var
        y.backward(enable_double_backprop=True)
        gx = x.grad_var
        assert gx.requires_grad
        gx.grad = chx(numpy.full(3, 3.0))
        gx.backward()
        # gx = gy * d(fn)/dx, so d(gx)/d(gy) * ggx = d(fn)/dx * 3
        expected = 3 * (2 * a if fn is square else numpy.ones(3))
        numpy.testing.assert_allclose(host(gy.grad), expected)

    def test_fallback_backward_gets_none_for_an_output_without_gradient(self):
        seen = []

        class TwoOutputs(FunctionNode):
            def forward(self, inputs):
                (x,) = inputs
                return x * 2, x * 3

            def backward(self, indexes, grad_outputs):
                seen.append(tuple(g is None for g in grad_outputs))
                g0, g1 = grad_outputs
                return (3 * g1,)

        x = Variable(chx(rand(3)))
        _, y1 = TwoOutputs().apply((x,))
        _sum(y1).backward()
        assert seen == [(True, False)]  # None where no gradient flowed, as on NumPy
        numpy.testing.assert_allclose(host(x.grad), numpy.full(3, 3.0))

    def test_scalar_output_starts_from_one_and_others_need_a_grad(self):
        x = Variable(chx(rand(3)))
        _sum(square(x)).backward()
        numpy.testing.assert_allclose(host(x.grad), 2 * rand(3))
        with pytest.raises(ValueError, match="has no gradient"):
            square(x).backward()

    def test_chainer_grad_with_grad_inputs_and_set_grad(self):
        a = rand(3)
        x = Variable(chx(a))
        y = square(x)
        (gx,) = chainer.grad(
            [y], [x], grad_outputs=[chx(numpy.full(3, 2.0))], grad_inputs=[chx(numpy.ones(3))],
            set_grad=True,
        )  # fmt: skip
        numpy.testing.assert_allclose(host(gx.array), 4 * a + 1)
        numpy.testing.assert_allclose(host(x.grad), 4 * a + 1)
        x32 = Variable(chx(a.astype(numpy.float32)))
        (g32,) = chainer.grad([square(x32)], [x32], [chx(numpy.ones(3))])  # a float64 seed
        assert g32.dtype == numpy.float32  # taken in the output's dtype, as NumPy's backprop


class TestVariableApi:
    def test_requires_grad_false_and_integer_arrays_stay_out_of_the_graph(self):
        x = Variable(chx(rand(3)), requires_grad=False)
        assert not x.chx_array.is_grad_required()
        i = Variable(chainerx.arange(3))
        assert not i.chx_array.is_grad_required() and i.grad is None
        y = square(Variable(chx(rand(3))))
        with pytest.raises(ValueError, match="requires_grad=False"):
            Variable(y.chx_array, requires_grad=False)

    def test_grad_setter_getter_cleargrad_zerograd_addgrad(self):
        x = Variable(chx(rand(3)))
        assert x.grad is None and x.grad_var is None
        x.grad = chx(numpy.ones(3))
        numpy.testing.assert_array_equal(host(x.grad_var.array), numpy.ones(3))
        x.addgrad(Variable(chx(rand(3)), grad=chx(numpy.full(3, 2.0))))
        numpy.testing.assert_array_equal(host(x.grad), numpy.full(3, 3.0))
        x.grad = chx(numpy.full(3, 5.0))
        numpy.testing.assert_array_equal(host(x.grad), numpy.full(3, 5.0))
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        numpy.testing.assert_array_equal(host(x.grad), numpy.zeros(3))
        x.grad_var = Variable(chx(numpy.full(3, 5.0)))  # a gradient in a graph
        with pytest.warns(DeprecationWarning), pytest.raises(chainerx.ChainerxError):
            x.zerograd()  # v7: zeroed in place, refused in a graph
        x.cleargrad()
        assert x.grad is None
        with pytest.raises(TypeError, match="must be a chainerx.* like its array"):
            x.grad = numpy.ones(3)
        with pytest.raises(ValueError, match="shape"):
            x.grad = chx(numpy.ones(4))

    def test_array_setter_copydata_and_unchain(self):
        x = Variable(chx(rand(3)))
        x.array = chx(numpy.ones(3))
        assert x.chx_array.is_grad_required()
        x.copydata(Variable(chx(numpy.full(3, 2.0))))
        numpy.testing.assert_array_equal(host(x.array), numpy.full(3, 2.0))
        y = square(x)
        y.unchain()
        assert y.chx_array.is_grad_required()  # a new leaf
        _sum(y).backward()
        assert x.grad is None and y.grad is not None
        z = cube(x)
        z.unchain_backward()
        _sum(z).backward()
        assert x.grad is None

    def test_to_device_between_native_and_numpy(self):
        x = Variable(rand(3))
        x.grad = numpy.ones(3)
        x.to_device("native:0")
        assert isinstance(x.array, chainerx.ndarray) and x.chx_array.is_grad_required()
        numpy.testing.assert_array_equal(host(x.grad), numpy.ones(3))
        with pytest.raises(RuntimeError, match="cannot move to the non-ChainerX device"):
            x.to_device("@numpy")  # v7: its graph is ChainerX's
        p = chainer.Parameter(rand(3))
        p.to_device("native:0")
        assert p.grad is None  # a parameter made from an array has no gradient yet
        p.grad = chx(numpy.ones(3))
        p.to_device("@numpy")  # a parameter may leave (links move back and forth)
        assert isinstance(p.array, numpy.ndarray)
        numpy.testing.assert_array_equal(p.grad, numpy.ones(3))
        numpy.testing.assert_array_equal(p.array, rand(3))

    def test_grad_of_a_variable_out_of_the_graph_and_addgrad_across_kinds(self):
        x = Variable(chx(rand(3)), requires_grad=False)
        with pytest.raises(RuntimeError, match="does not require grad"):
            x.grad = chx(numpy.ones(3))
        y = Variable(rand(3), grad=numpy.ones(3))
        with pytest.raises(RuntimeError, match="addgrad between a ChainerX variable"):
            Variable(chx(rand(3))).addgrad(y)

    def test_grad_var_is_the_same_object_while_the_gradient_is(self):
        x = Variable(chx(rand(3)))
        gv = Variable(chx(numpy.ones(3)))
        x.grad_var = gv
        assert x.grad_var is gv
        _sum(square(x)).backward()  # accumulates: a new gradient array
        assert x.grad_var is not gv and x.grad_var is x.grad_var
        assert chainer.as_array(x) is x.array

    def test_parameter_with_initializer_on_native(self):
        p = chainer.Parameter(chainer.initializers.Constant(2.0), (2, 3))
        p.to_device("native:0")
        assert isinstance(p.array, chainerx.ndarray) and p.chx_array.is_grad_required()
        q = chainer.Parameter(chainer.initializers.One())
        q.to_device("native:0")
        q.initialize((2,))
        assert q.chx_array.is_grad_required()
        assert numpy.isnan(host(q.grad)).all()  # NaN until cleared, as on NumPy (v7)
        q.cleargrad()
        _sum(square(q)).backward()
        numpy.testing.assert_array_equal(host(q.grad), numpy.full(2, 2.0))
        q.cleargrad()
        assert q.grad is None


class TestErrors:
    def test_numpy_mixed_with_chainerx(self):
        with pytest.raises(TypeError, match="incompatible array types are mixed"):
            FallbackMulAdd().apply((chx(rand(2)), numpy.ones(2), chx(rand(2))))

    def test_forward_outputs_mixing_numpy_and_chainerx(self):
        class Split(FunctionNode):
            def forward(self, inputs):
                return inputs[0], chainerx.array(inputs[0])

        with pytest.raises(TypeError, match=r"mixed in the forward output \(Split\)"):
            Split().apply((numpy.ones(2, numpy.float32),))

    def test_mixed_kinds_are_reported_before_a_failed_type_check(self):
        x = Variable(numpy.ones(2, numpy.float32))
        with pytest.raises(TypeError, match="incompatible array types are mixed"):
            x + chx(numpy.ones(3, numpy.float32))  # shapes that do not broadcast, too

    def test_two_devices_in_one_op(self):
        a = chainerx.ones((2,), device="native:0")
        b = chainerx.ones((2,), device="native:1")
        with pytest.raises(ValueError, match="different ChainerX devices: native:0 and native:1"):
            FallbackMulAdd().apply((a, b, a))

    def test_in_place_change_of_an_array_in_the_graph(self):
        y = square(Variable(chx(rand(3))))
        with pytest.raises(chainerx.ChainerxError):
            y.chx_array[...] = 0

    def test_forward_chainerx_returning_something_else(self):
        class Bad(FunctionNode):
            def forward_chainerx(self, inputs):
                return inputs[0]

        with pytest.raises(TypeError, match="tuple of arrays or chainer.Fallback"):
            Bad().apply((chx(rand(2)),))


def test_fallback_hook_counts_calls_without_a_native_path():
    hook = chainer.function_hooks.ChainerxFallbackHook()
    x = Variable(chx(rand(3)))
    with hook:
        cube(square(cube(x)))
        cube(Variable(rand(3)))  # NumPy: no ChainerX call, no fallback
    assert dict(hook.counts) == {"FallbackCube": 2}
    assert hook.total == 2


def test_grad_skips_outputs_out_of_the_graph_as_numpy_does():
    x = Variable(chainerx.array(numpy.array([1.0, 2.0])))
    y = x * x
    constant = Variable(chainerx.zeros(2), requires_grad=False)  # e.g. an empty gradient
    (gx,) = chainer.grad([y, constant], [x])
    numpy.testing.assert_array_equal(chainerx.to_numpy(gx.array), [2.0, 4.0])
    assert chainer.grad([constant], [x]) == [None]
