"""FunctionNode, old-style Function, hooks and error reporting (the docs' examples included)."""

import numpy
import pytest

import chainer
from chainer import FunctionNode, Variable, backend, gradient_check
from chainer._ops import exponential
from chainer.utils import type_check


def rand(*shape, dtype=numpy.float64, low=-1.0, high=1.0):
    return (
        numpy.random.default_rng(len(shape) + sum(shape)).uniform(low, high, shape).astype(dtype)
    )


class MulAdd(FunctionNode):
    """The docs' new-style MulAdd: w = x * y + z."""

    def forward(self, inputs):
        x, y, z = inputs
        self.retain_inputs((0, 1))
        return (x * y + z,)

    def backward(self, target_input_indexes, grad_outputs):
        x, y = self.get_retained_inputs()
        (gw,) = grad_outputs
        return y * gw, x * gw, gw


class ExpAdd(FunctionNode):
    """The docs' ExpAdd with a unified forward: z = exp(x) + exp(y)."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(*inputs)
        x, y = inputs
        return (xp.exp(x) + xp.exp(y),)

    def backward(self, target_input_indexes, grad_outputs):
        x, y = self.get_retained_inputs()
        (gz,) = grad_outputs
        return gz * exponential.exp(x), gz * exponential.exp(y)


class MulAddOld(chainer.Function):
    """The docs' old-style MulAdd."""

    def forward_cpu(self, inputs):
        x, y, z = inputs
        return (x * y + z,)

    def backward_cpu(self, inputs, grad_outputs):
        x, y, z = inputs
        (gw,) = grad_outputs
        return y * gw, x * gw, gw


def muladd(x, y, z):
    (w,) = MulAdd().apply((x, y, z))
    return w


class TestDocsFunctions:
    def test_muladd_values_and_gradients(self):
        x, y, z = rand(3, 2), rand(3, 2) + 2, rand(3, 2) - 2
        w = muladd(Variable(x), Variable(y), Variable(z))
        numpy.testing.assert_allclose(w.array, x * y + z)
        gw = rand(3, 2) * 3
        gradient_check.check_backward(muladd, (x, y, z), gw)
        gradient_check.check_double_backward(muladd, (x, y, z), gw, (rand(3, 2),) * 3)

    def test_expadd(self):
        x, y = rand(4), rand(4) + 0.5
        z = ExpAdd().apply((Variable(x), Variable(y)))[0]
        numpy.testing.assert_allclose(z.array, numpy.exp(x) + numpy.exp(y))
        f = lambda a, b: ExpAdd().apply((a, b))[0]  # noqa: E731
        gradient_check.check_backward(f, (x, y), rand(4))
        gradient_check.check_double_backward(f, (x, y), rand(4), (rand(4), rand(4) * 2))

    def test_old_style_function(self):
        x, y, z = rand(3, 2), rand(3, 2) + 2, rand(3, 2) - 2
        f = lambda a, b, c: MulAddOld()(a, b, c)  # noqa: E731
        w = f(Variable(x), Variable(y), Variable(z))
        numpy.testing.assert_allclose(w.array, x * y + z)
        assert isinstance(w.creator, MulAddOld)
        assert isinstance(w.creator_node, chainer.FunctionAdapter)
        gradient_check.check_backward(f, (x, y, z), rand(3, 2))

    def test_old_style_retain_and_multiple_outputs(self):
        class SplitSquare(chainer.Function):
            def forward_cpu(self, inputs):
                (x,) = inputs
                self.retain_inputs((0,))
                self.retain_outputs(())
                return x * x, 2 * x

            def backward_cpu(self, inputs, grad_outputs):
                (x,) = inputs
                g1, g2 = grad_outputs
                return (2 * x * g1 + 2 * g2,)

        x = Variable(numpy.array([1.0, 3.0]))
        a, b = SplitSquare()(x)
        a.grad = numpy.ones(2)
        a.backward()  # b's gradient is unknown: old style backward gets zeros for it
        numpy.testing.assert_allclose(x.grad, [2.0, 6.0])


class TestRetention:
    def test_retained_outputs_are_graph_connected(self):
        class Square(FunctionNode):
            def forward(self, inputs):
                self.retain_outputs((0,))
                self.retain_inputs((0,))
                return (inputs[0] ** 2,)

            def backward(self, indexes, grad_outputs):
                (x,) = self.get_retained_inputs()
                (y,) = self.get_retained_outputs()
                # d(x^2)/dx written through the output: 2 * y / x (== 2x)
                return (2 * y / x * grad_outputs[0],)

        f = lambda x: Square().apply((x,))[0]  # noqa: E731
        x = rand(5, low=0.5, high=2)
        gradient_check.check_backward(f, x, rand(5))
        gradient_check.check_double_backward(f, x, rand(5), rand(5))

    def test_retained_output_rebuilt_after_the_output_is_gone(self):
        class Exp(FunctionNode):
            def forward(self, inputs):
                self.retain_outputs((0,))
                return (numpy.exp(inputs[0]),)

            def backward(self, indexes, grad_outputs):
                (y,) = self.get_retained_outputs()
                return (y * grad_outputs[0],)

        x = Variable(numpy.array([0.0, 1.0]))
        y = Exp().apply((x,))[0]
        z = y * 2
        del y
        z.grad = numpy.ones(2)
        z.backward()
        numpy.testing.assert_allclose(x.grad, 2 * numpy.exp([0.0, 1.0]))

    def test_output_data_and_inputs_outputs(self):
        class Double(FunctionNode):
            def forward(self, inputs):
                self.retain_outputs((0,))
                return (inputs[0] * 2,)

        x = Variable(numpy.array([1.0]))
        node = Double()
        (y,) = node.apply((x,))
        numpy.testing.assert_array_equal(node.output_data[0], [2.0])
        assert node.inputs == (x.node,)
        assert node.outputs[0]() is y.node
        assert node.rank == 0 and y.rank == 1


class TestErrors:
    def test_calling_a_function_node_directly(self):
        with pytest.raises(RuntimeError, match="call its apply"):
            MulAdd()(1)

    def test_forward_must_return_a_tuple_of_arrays(self):
        class NotTuple(FunctionNode):
            def forward(self, inputs):
                return inputs[0]

        class Scalar(FunctionNode):
            def forward(self, inputs):
                return (inputs[0].sum(),)

        x = numpy.ones(2)
        with pytest.raises(TypeError, match="NotTuple.forward must return a tuple of arrays"):
            NotTuple().apply((x,))
        message = r"Scalar.forward output must be a tuple of ndarrays \(or None\), got float64"
        with pytest.raises(TypeError, match=message):
            Scalar().apply((x,))

    def test_bad_inputs(self):
        with pytest.raises(TypeError, match="input 1 is a list"):
            MulAdd().apply((numpy.ones(1), [1.0], numpy.ones(1)))

    def test_backward_gradient_shape_and_type_are_checked(self):
        class WrongShape(FunctionNode):
            def forward(self, inputs):
                return (inputs[0] * 1,)

            def backward(self, indexes, grad_outputs):
                return (Variable(numpy.ones(3)),)

        class ArrayGrad(FunctionNode):
            def forward(self, inputs):
                return (inputs[0] * 1,)

            def backward(self, indexes, grad_outputs):
                return (numpy.ones(2),)

        class BareArray(FunctionNode):
            def forward(self, inputs):
                return (inputs[0] * 1,)

            def backward(self, indexes, grad_outputs):
                return numpy.ones(2)

        for cls, error, message in [
            (WrongShape, ValueError, r"gradient of shape \(3,\) for input 0 of shape \(2,\)"),
            (BareArray, TypeError, "BareArray.backward must return a tuple, got ndarray"),
            (BareArray, ValueError, "type of gradients returned from backward is incorrect"),
            (ArrayGrad, TypeError, "type of gradients returned from backward is incorrect"),
            (ArrayGrad, ValueError, "must return Variables"),
        ]:
            x = Variable(numpy.ones(2))
            y = cls().apply((x,))[0]
            y.grad = numpy.ones(2)
            with pytest.raises(error, match=message):
                y.backward()

    def test_gradient_dtype_is_checked_in_debug_mode(self):
        class IntGrad(FunctionNode):
            def forward(self, inputs):
                return (inputs[0] * 1,)

            def backward(self, indexes, grad_outputs):
                return (Variable(numpy.ones(2, numpy.int64)),)

        y = IntGrad().apply((Variable(numpy.ones(2, numpy.float32)),))[0]
        y.grad = numpy.ones(2, numpy.float32)
        with (
            chainer.using_config("debug", True),
            pytest.raises(ValueError, match="dtype of gradients returned from backward"),
        ):
            y.backward()

    def test_overridden_backward_accumulate_gets_the_gathered_gradients(self):
        calls = []

        class Double(FunctionNode):
            def forward(self, inputs):
                return (inputs[0] * 2,)

            def backward(self, indexes, grad_outputs):
                raise AssertionError("backward_accumulate is overridden: not called")

            def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
                calls.append(None if grad_inputs[0] is None else grad_inputs[0].array.copy())
                (gy,) = grad_outputs
                g_old = grad_inputs[0]
                return (gy * 2 if g_old is None else g_old + gy * 2,)

        x = Variable(numpy.array([1.0, 2.0]))
        h = x * 1  # h gets gradients from two paths; the h * 3 one is backpropagated first
        y = h * 3 + Double().apply((h,))[0]
        y.grad = numpy.ones(2)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, [5.0, 5.0])
        (gathered,) = calls
        numpy.testing.assert_array_equal(gathered, [3.0, 3.0])

    def test_backward_returning_wrong_count(self):
        class TwoGrads(FunctionNode):
            def forward(self, inputs):
                return (inputs[0] * 1,)

            def backward(self, indexes, grad_outputs):
                return grad_outputs[0], grad_outputs[0]

        y = TwoGrads().apply((Variable(numpy.ones(2)),))[0]
        y.grad = numpy.ones(2)
        with pytest.raises(
            ValueError, match="number of gradients returned from backward is incorrect: TwoGrads"
        ):
            y.backward()

    def test_type_check_message_names_function_and_inputs(self):
        class NeedsFloat(FunctionNode):
            def check_type_forward(self, in_types):
                type_check.expect(in_types[0].dtype.kind == "f")

            def forward(self, inputs):
                return (inputs[0] * 1.0,)

        with pytest.raises(type_check.InvalidType) as error:
            NeedsFloat().apply((numpy.ones(2, numpy.int32),))
        message = str(error.value)
        assert message.startswith("Invalid operation is performed in: NeedsFloat (Forward)")
        assert "Expect: in_types[0].dtype.kind == f" in message
        assert "Actual: i != f" in message
        assert "[0] shape=(2,) dtype=int32" in message
        with chainer.using_config("type_check", False):
            NeedsFloat().apply((numpy.ones(2, numpy.int32),))

    def test_core_op_dtype_mismatch_is_invalid_type(self):
        a = Variable(numpy.ones(2, numpy.float32))
        b = Variable(numpy.ones(2, numpy.float64))
        with pytest.raises(type_check.InvalidType) as error:
            a + b
        message = str(error.value)
        assert "Invalid operation is performed in: _ + _ (Forward)" in message  # v7's label
        assert "Actual: float32 != float64" in message

    def test_debug_mode_reports_nan(self):
        x = Variable(numpy.array([-1.0, 1.0]))
        with (
            chainer.using_config("debug", True),
            pytest.raises(
                RuntimeError, match=r"NaN or Inf is detected in the output 0 of log \(Forward\)"
            ),
            numpy.errstate(invalid="ignore"),
        ):
            exponential.log(x)

    def test_debug_mode_reports_nan_in_backward(self):
        class NanGrad(FunctionNode):
            def forward(self, inputs):
                return (inputs[0] * 2,)

            def backward(self, indexes, grad_outputs):
                return (Variable(numpy.array([numpy.nan, 0.0])),)

        y = NanGrad().apply((Variable(numpy.array([0.0, 1.0])),))[0]
        y.grad = numpy.ones(2)
        with (
            chainer.using_config("debug", True),
            pytest.raises(
                RuntimeError,
                match=r"NaN is detected on backward computation of NanGrad: NaN or Inf in a "
                r"gradient it computed, target 0",
            ),
        ):
            y.backward()
        y.backward()  # outside debug mode the NaN passes through unchecked


class RecordingHook(chainer.FunctionHook):
    name = "RecordingHook"

    def __init__(self):
        self.events = []

    def added(self, function):
        self.events.append(("added", function))

    def deleted(self, function):
        self.events.append(("deleted", function))

    def forward_preprocess(self, function, in_data):
        self.events.append(("fwd-pre", function.label))

    def forward_postprocess(self, function, in_data):
        self.events.append(("fwd-post", function.label))

    def backward_preprocess(self, function, in_data, out_grad):
        self.events.append(("bwd-pre", function.label))

    def backward_postprocess(self, function, in_data, out_grad):
        self.events.append(("bwd-post", function.label))


class TestHooks:
    def test_global_hook_sees_forward_and_backward(self):
        x = Variable(numpy.ones(2))
        with RecordingHook() as hook:
            assert chainer.get_function_hooks() == {"RecordingHook": hook}
            y = exponential.exp(x)
            y.grad = numpy.ones(2)
            y.backward()
        assert chainer.get_function_hooks() == {}
        assert hook.events[0] == ("added", None)
        assert hook.events[-1] == ("deleted", None)
        labels = [e for e in hook.events[1:-1] if e[1] == "exp"]
        assert labels == [
            ("fwd-pre", "exp"),
            ("fwd-post", "exp"),
            ("bwd-pre", "exp"),
            ("bwd-post", "exp"),
        ]

    def test_hooks_are_per_thread_and_unique_by_name(self):
        import threading

        seen = []
        with RecordingHook():
            thread = threading.Thread(target=lambda: seen.append(chainer.get_function_hooks()))
            thread.start()
            thread.join()
            with pytest.raises(KeyError, match="already exists"), RecordingHook():
                pass
        assert seen == [{}]

    def test_local_hook(self):
        node = MulAdd()
        hook = RecordingHook()
        node.add_hook(hook)
        assert node.local_function_hooks == {"RecordingHook": hook}
        with pytest.raises(KeyError, match="already exists on MulAdd"):
            node.add_hook(hook)
        ones = numpy.ones(1)
        node.apply((ones, ones, ones))
        node.delete_hook("RecordingHook")
        assert [e[0] for e in hook.events] == ["added", "fwd-pre", "fwd-post", "deleted"]
        with pytest.raises(KeyError, match="no hook named 'missing'"):
            node.delete_hook("missing")
        with pytest.raises(TypeError, match="hook must be a FunctionHook"):
            node.add_hook(object())


def test_fallback_is_a_named_singleton():
    assert repr(chainer.Fallback) == "Fallback"
    assert FunctionNode().forward_chainerx(()) is chainer.Fallback


def test_forward_dispatches_to_forward_cpu():
    class CpuOnly(FunctionNode):
        def forward_cpu(self, inputs):
            return (inputs[0] + 1,)

    (y,) = CpuOnly().apply((numpy.zeros(2),))
    numpy.testing.assert_array_equal(y.array, [1, 1])
    with pytest.raises(NotImplementedError, match="does not implement forward_cpu"):
        FunctionNode().apply((numpy.zeros(1),))


def test_unchain_releases_inputs():
    x = Variable(numpy.ones(2))
    y = x * 2
    node = y.creator_node
    node.unchain()
    assert node.inputs is None
    assert y.creator_node is None


@pytest.mark.chainerx
def test_chainerx_arrays_run_through_the_fallback_device():
    from chainer.backends import _chainerx

    if not _chainerx.is_available():
        pytest.skip("needs the chainerx package with its ndarray")
    device = chainer.get_device("native:0")
    x = Variable(device.send(numpy.array([1.0, 2.0, 3.0])))
    y = MulAdd().apply((x, x, x))[0]  # forward_chainerx falls back to NumPy and back
    assert type(y.array) is type(x.array)
    y.grad = device.send(numpy.ones(3))
    y.backward()
    numpy.testing.assert_allclose(backend.CpuDevice().send(x.grad), [3.0, 5.0, 7.0])


@pytest.mark.chainerx
def test_forward_chainerx_without_backward_is_differentiated_by_chainerx():
    from chainer.backends import _chainerx

    if not _chainerx.is_available():
        pytest.skip("needs the chainerx package with its ndarray")
    import chainerx

    class TanhScaleAndMax(FunctionNode):  # v7's ChainerX op tests wrap routines like this
        def forward_chainerx(self, inputs):
            x, w, index = inputs
            return chainerx.tanh(x) * w, chainerx.amax(x * x).reshape(1)[index]

    rng = numpy.random.default_rng(0)
    x, w, gy0, ggx, ggw = (chainerx.array(rng.uniform(-1, 1, (2, 3))) for _ in range(5))
    index = chainerx.array(numpy.array([0, 0]))
    gy1 = chainerx.array(rng.uniform(-1, 1, (2,)))

    def f(x, w):
        return TanhScaleAndMax().apply((x, w, index))

    gradient_check.check_backward(f, (x, w), (gy0, gy1))
    gradient_check.check_double_backward(f, (x, w), (gy0, gy1), (ggx, ggw))
    xv, wv = Variable(x), Variable(w)
    y0, _ = f(xv, wv)  # the second output gets no gradient: zeros stand in for it
    y0.grad = chainerx.ones_like(y0.array)
    y0.backward()
    x_np = chainerx.to_numpy(x)
    numpy.testing.assert_allclose(
        chainerx.to_numpy(xv.grad), (1 - numpy.tanh(x_np) ** 2) * chainerx.to_numpy(w)
    )
    numpy.testing.assert_allclose(chainerx.to_numpy(wv.grad), numpy.tanh(x_np))


def test_a_none_input_reaches_forward_and_gets_no_gradient():
    class FirstOrZero(FunctionNode):
        def forward(self, inputs):
            x, maybe = inputs
            return (x * 2 if maybe is None else x * 0,)

        def backward(self, indexes, grad_outputs):
            return (grad_outputs[0] * 2, None)

    x = Variable(numpy.ones(2))
    (y,) = FirstOrZero().apply((x, None))
    numpy.testing.assert_array_equal(y.array, [2.0, 2.0])
    y.grad = numpy.ones(2)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, 2.0])


def test_check_type_forward_set_on_a_plain_function_node_is_run():
    calls = []
    node = FunctionNode()
    node.check_type_forward = lambda in_types: calls.append(len(in_types))
    node.forward = lambda inputs: (inputs[0] * 2,)
    node.apply((numpy.ones(2), numpy.zeros(3)))
    assert calls == [2]


class _MissingOutputs(FunctionNode):
    """y = (None, 3x + 2, None), keeping outputs 1 and 2; the input may come with Nones."""

    def forward(self, inputs):
        x = inputs[1] if len(inputs) == 3 else inputs[0]
        self.retain_inputs(tuple(range(len(inputs))))
        self.retain_outputs((1, 2))
        return None, x * 3 + 2, None

    def backward(self, indexes, grad_outputs):
        gy1, gy2, gy3 = grad_outputs
        assert gy1 is None and gy3 is None
        y2, y3 = self.get_retained_outputs()
        assert y3 is None
        numpy.testing.assert_array_equal(y2.array, [8.0, 11.0])
        retained = self.get_retained_inputs()
        if len(retained) == 3:
            assert retained[0] is None and retained[2] is None
            return None, gy2 * 3, None
        return (gy2 * 3,)


@pytest.mark.parametrize("with_missing_inputs", [False, True])
def test_missing_inputs_and_outputs_are_none(with_missing_inputs):
    x = Variable(numpy.array([2.0, 3.0], numpy.float32))
    inputs = (None, x, None) if with_missing_inputs else (x,)
    y1, y2, y3 = _MissingOutputs().apply(inputs)
    assert y1.array is None and y3.array is None
    y2.grad = numpy.ones(2, numpy.float32)
    y2.backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_impl_name_is_the_class_name():
    assert exponential.Exp()._impl_name == "Exp"

    class Old(chainer.Function):
        pass

    assert Old().node._impl_name == "Old"


@pytest.mark.chainerx
def test_forward_chainerx_is_differentiated_by_chainerx_even_with_a_backward():
    from chainer.backends import _chainerx

    if not _chainerx.is_available():
        pytest.skip("needs the chainerx package with its ndarray")
    import chainerx

    class Cube(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] ** 3,)

        def backward(self, indexes, grad_outputs):  # serves the NumPy forward only
            raise AssertionError("the ChainerX graph differentiates forward_chainerx")

        def forward_chainerx(self, inputs):
            return (inputs[0] * inputs[0] * inputs[0],)

    rng = numpy.random.default_rng(1)
    x, gy, ggx = (chainerx.array(rng.uniform(-1, 1, (3,))) for _ in range(3))
    gradient_check.check_backward(lambda x: Cube().apply((x,)), (x,), (gy,))
    gradient_check.check_double_backward(lambda x: Cube().apply((x,)), (x,), (gy,), (ggx,))


def test_plain_array_inputs_get_constant_nodes():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    w = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    (y,) = _Affine().apply((x, w, None))
    node_x, node_w, node_none = y.creator_node.inputs
    assert node_w is w.node
    assert node_x.get_variable_or_none() is None  # no variable behind a constant
    assert (node_x.creator_node, node_x.rank, node_x.requires_grad) == (None, 0, False)
    assert (node_x.dtype, node_x.shape, node_x.name) == (x.dtype, x.shape, None)
    assert node_x.data is x  # retained by the function
    retained = node_x.get_variable()  # rebuilt from the retained array
    assert retained.array is x and not retained.requires_grad
    assert (node_none.dtype, node_none.shape, node_none.data) == (None, None, None)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(w.grad, x)


class _Affine(chainer.FunctionNode):
    """``x * w`` with an unused third input; keeps ``x`` for backward."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, w, _ = inputs
        return (x * w,)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return tuple(x * grad_outputs[0] if i == 1 else None for i in indexes)
