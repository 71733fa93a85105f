"""Variable, Parameter and VariableNode: construction, gradients, graph links, text."""

import pickle

import numpy
import pytest

import chainer
from chainer import Parameter, Variable, VariableNode, initializers


def _f32(*shape):
    return numpy.arange(numpy.prod(shape), dtype=numpy.float32).reshape(shape)


class TestConstruction:
    def test_defaults(self):
        x = Variable(_f32(2, 3))
        assert x.array is x.data
        assert x.shape == (2, 3)
        assert x.ndim == 2
        assert x.size == 6
        assert x.dtype == numpy.float32
        assert x.requires_grad is True
        assert x.grad is None and x.grad_var is None
        assert x.name is None
        assert x.creator is None and x.creator_node is None
        assert x.rank == 0
        assert x.xp is numpy

    def test_none_data(self):
        x = Variable()
        assert x.array is None
        assert repr(x) == "variable(None)"

    def test_keyword_options(self):
        g = numpy.ones((2,), numpy.float32)
        x = Variable(numpy.zeros((2,), numpy.float32), name="x", grad=g, requires_grad=False)
        assert x.name == "x"
        numpy.testing.assert_array_equal(x.grad, g)
        assert x.requires_grad is False

    @pytest.mark.parametrize("bad", [[1.0, 2.0], 3.0, numpy.float32(1), "a"])
    def test_non_array_data_is_a_type_error(self, bad):
        with pytest.raises(
            TypeError,
            match=r"must be a numpy.ndarray, cupy.ndarray or "
            r"chainerx.ndarray",
        ):
            Variable(bad)

    def test_array_setter_checks_type_and_updates_node(self):
        x = Variable(_f32(2))
        node = x.node
        x.array = numpy.zeros((3, 1), numpy.float64)
        assert node.shape == (3, 1) and node.dtype == numpy.float64
        with pytest.raises(TypeError, match="got builtins.list"):
            x.array = [1, 2]

    def test_unexpected_keyword(self):
        with pytest.raises(TypeError, match="volatile"):
            Variable(_f32(1), volatile=True)


class TestGrad:
    def test_grad_setter_validates_dtype_shape_type(self):
        x = Variable(_f32(2, 2), name="w")
        with pytest.raises(TypeError, match="variable 'w' must have dtype float32, got float64"):
            x.grad = numpy.zeros((2, 2))
        with pytest.raises(ValueError, match=r"must have shape \(2, 2\), got \(4,\)"):
            x.grad = numpy.zeros(4, numpy.float32)
        with pytest.raises(TypeError, match="got builtins.list"):
            x.grad = [[0, 0], [0, 0]]

    def test_grad_var_round_trip(self):
        x = Variable(_f32(3))
        g = Variable(numpy.ones(3, numpy.float32))
        x.grad_var = g
        assert x.grad_var is g
        assert x.grad is g.array
        x.cleargrad()
        assert x.grad is None

    def test_zerograd(self):
        x = Variable(_f32(3))
        with pytest.warns(DeprecationWarning, match="Variable.zerograd is deprecated"):
            x.zerograd()
        numpy.testing.assert_array_equal(x.grad, numpy.zeros(3, numpy.float32))
        x.grad = numpy.ones(3, numpy.float32)
        g = x.grad
        with pytest.warns(DeprecationWarning, match="Variable.zerograd is deprecated"):
            x.zerograd()
        assert x.grad is g and not g.any()

    def test_addgrad_accumulates_out_of_place(self):
        a = Variable(_f32(3))
        b = Variable(_f32(3))
        b.grad = numpy.full(3, 2, numpy.float32)
        a.addgrad(b)
        numpy.testing.assert_array_equal(a.grad, [2, 2, 2])
        assert a.grad is not b.grad
        shared = a.grad
        a.addgrad(b)
        numpy.testing.assert_array_equal(a.grad, [4, 4, 4])
        numpy.testing.assert_array_equal(shared, [2, 2, 2])

    def test_copydata(self):
        a = Variable(numpy.zeros(3, numpy.float32))
        target = a.array
        a.copydata(Variable(_f32(3)))
        assert a.array is target
        numpy.testing.assert_array_equal(a.array, [0, 1, 2])
        empty = Variable()
        empty.copydata(Variable(_f32(2)))
        numpy.testing.assert_array_equal(empty.array, [0, 1])


class TestGraph:
    def test_creator_and_rank(self):
        x = Variable(_f32(2))
        y = x * 2
        z = y + 1
        assert y.creator_node is not None and y.rank == 1 and z.rank == 2
        assert z.creator_node.inputs[0] is y.node
        assert y.creator is y.creator_node
        assert isinstance(y.node, VariableNode)

    def test_unchain_makes_a_leaf(self):
        x = Variable(_f32(2))
        y = x * 2
        z = y * 3
        y.unchain()
        assert y.creator_node is None
        z.grad = numpy.ones(2, numpy.float32)
        z.backward()
        assert x.grad is None
        numpy.testing.assert_array_equal(y.grad, [3, 3])

    def test_unchain_backward_cuts_everything_upstream(self):
        x = Variable(_f32(2))
        y = x * 2
        z = y * 3
        w = z + 1
        w.unchain_backward()
        assert w.creator_node is None
        assert z.creator_node is None and y.creator_node is None

    def test_retained_data_survives_the_variable(self):
        x = Variable(_f32(3) + 1)
        y = x * x
        node = x.node
        x_ref = x
        del x
        node_var = node.get_variable()
        assert node_var is x_ref
        y.grad = numpy.ones(3, numpy.float32)
        y.backward()
        numpy.testing.assert_array_equal(x_ref.grad, 2 * (numpy.arange(3) + 1))

    def test_no_graph_without_requires_grad_or_in_no_backprop_mode(self):
        x = Variable(_f32(2), requires_grad=False)
        assert (x * 2).creator_node is None
        y = Variable(_f32(2))
        with chainer.no_backprop_mode():
            z = y * 2
        assert z.creator_node is None and z.requires_grad is True
        with chainer.no_backprop_mode(), chainer.force_backprop_mode():
            assert (y * 2).creator_node is not None

    def test_node_label_and_repr(self):
        x = Variable(_f32(2, 3), name="x")
        assert x.node.label == "(2, 3), float32"
        assert Variable(numpy.array(1, numpy.float32)).node.label == "float32"
        assert "name='x'" in repr(x.node)
        x.name = "renamed"
        assert x.node.name == "renamed"


class TestTextAndProtocols:
    def test_repr_and_str(self):
        x = Variable(numpy.array([1.0, 2.0], numpy.float32))
        assert repr(x) == "variable([1., 2.])"
        assert str(x) == "variable([1. 2.])"
        x.name = "v"
        assert repr(x) == "variable v([1., 2.])"

    def test_summary_and_debug_print(self):
        x = Variable(numpy.array([1.0, 3.0], numpy.float32), name="x")
        assert x.summary() == "<variable x>"
        unnamed = Variable()
        assert unnamed.summary() == f"<variable at 0x{id(unnamed):x}>"
        assert x.debug_print() == (
            "<variable x>\n- device: CPU\n- backend: <class 'numpy.ndarray'>\n"
            "- shape: (2,)\n- dtype: float32\n- statistics: mean=2.00000000, std=1.00000000\n"
            "- grad: None"
        )
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        assert x.debug_print().endswith("- grad: 0")
        x.grad = numpy.array([1.0, 1.0], numpy.float32)
        assert x.debug_print().endswith("- grad: mean=1.00000000, std=0.00000000")
        empty = Variable().debug_print().splitlines()[1:]
        assert empty == [
            f"- {key}: None"
            for key in ("device", "backend", "shape", "dtype", "statistics", "grad")
        ]

    def test_len_item_bool(self):
        assert len(Variable(_f32(4, 2))) == 4
        with pytest.raises(TypeError, match="0-dimensional"):
            len(Variable(numpy.array(3, numpy.float32)))
        assert Variable(numpy.array([2.5], numpy.float32)).item() == 2.5

    def test_comparisons_return_boolean_variables(self):
        x = Variable(numpy.array([1.0, 2.0, 3.0], numpy.float32))
        y = Variable(numpy.array([3.0, 2.0, 1.0], numpy.float32))
        for op, expected in [
            ("__lt__", [1, 0, 0]),
            ("__le__", [1, 1, 0]),
            ("__eq__", [0, 1, 0]),
            ("__ne__", [1, 0, 1]),
            ("__gt__", [0, 0, 1]),
            ("__ge__", [0, 1, 1]),
        ]:
            result = getattr(x, op)(y)
            assert isinstance(result, Variable) and result.dtype == bool
            assert result.requires_grad is False
            numpy.testing.assert_array_equal(result.array, numpy.array(expected, bool))
        numpy.testing.assert_array_equal((x > 1.5).array, [False, True, True])
        assert (x == None) is False  # noqa: E711 (identity fallback, not elementwise)
        assert x in [x] and {x: 1}[x] == 1  # hashable by identity

    def test_shape_methods(self):
        x = Variable(_f32(2, 3))
        assert x.reshape(3, 2).shape == (3, 2)
        assert x.reshape((6,)).shape == (6,)
        assert x.transpose().shape == (3, 2)
        assert x.transpose(1, 0).shape == (3, 2)
        assert x.T.shape == (3, 2)
        numpy.testing.assert_allclose(x.mean().array, 2.5)
        numpy.testing.assert_allclose(x.mean(axis=1, keepdims=True).array, [[1.0], [4.0]])
        numpy.testing.assert_allclose(
            x.mean(axis=1, weights=numpy.array([1, 0, 1], numpy.float32)).array, [1.0, 4.0]
        )

    def test_layout_is_not_supported(self):
        x = Variable(_f32(1))
        assert x.layout is None
        assert x.as_layout(None) is x
        with pytest.raises(ValueError, match="memory layouts are not supported"):
            x.as_layout("NHWC")


class TestParameter:
    def test_initialized_from_initializer_and_shape(self):
        p = Parameter(initializers.Constant(3.0), (2, 2))
        numpy.testing.assert_array_equal(p.array, numpy.full((2, 2), 3, numpy.float32))
        assert p.is_initialized
        # v7: the gradient of a parameter made with a shape is NaN until cleared.
        assert p.grad.shape == (2, 2) and p.grad.dtype == numpy.float32
        assert numpy.isnan(p.grad).all()

    def test_lazy_initialization(self):
        p = Parameter(initializers.One())
        assert p.array is None and not p.is_initialized
        assert p.dtype == numpy.float32
        p.initialize((3,))
        numpy.testing.assert_array_equal(p.array, numpy.ones(3, numpy.float32))

    def test_scalar_array_and_none_initializers(self):
        numpy.testing.assert_array_equal(Parameter(2, (2,)).array, [2, 2])
        data = _f32(3)
        p = Parameter(data)
        assert p.array is data
        # None means NaN (v7), also for 1-D and 0-D shapes.
        for shape in [(100, 50), (3,), ()]:
            p = Parameter(None, shape)
            assert p.array.shape == shape and p.dtype == numpy.float32
            assert numpy.isnan(p.array).all()

    def test_dtype_follows_initializer(self):
        p = Parameter(initializers.Zero(dtype=numpy.float64))
        assert p.dtype == numpy.float64
        p.initialize((2,))
        assert p.array.dtype == numpy.float64

    @pytest.mark.parametrize(
        ("config_dtype", "expected"),
        [(numpy.float16, numpy.float16), (chainer.mixed16, numpy.float16), (numpy.float32,) * 2],
    )
    def test_default_dtype_follows_the_configuration(self, config_dtype, expected):
        # As v7: under mixed16 a parameter without its own dtype is float16 (only links such
        # as BatchNormalization ask for float32 explicitly).
        with chainer.using_config("dtype", config_dtype):
            delayed = Parameter(initializers.Zero())
            assert delayed.dtype == expected
            delayed.initialize((2,))
            from_array = Parameter(initializers.Constant(numpy.ones(3)), (3,))
            scalar = Parameter(0.5, (3,))
        assert delayed.array.dtype == from_array.dtype == scalar.dtype == expected

    def test_cleargrad_zerograd_on_uninitialized(self):
        p = Parameter(initializers.One())
        p.cleargrad()
        with pytest.warns(DeprecationWarning):
            p.zerograd()
        assert p.grad is None

    def test_grad_made_by_initialize_follows_the_last_clear(self):
        p = Parameter(initializers.One())
        p.initialize((2,))
        assert numpy.isnan(p.grad).all()
        p = Parameter(initializers.One())
        with pytest.warns(DeprecationWarning):
            p.zerograd()
        p.initialize((2,))
        numpy.testing.assert_array_equal(p.grad, [0, 0])
        p.cleargrad()
        assert p.grad is None
        p = Parameter(initializers.One())
        p.cleargrad()
        p.initialize((2,))
        assert p.grad is None
        q = pickle.loads(pickle.dumps(p))
        q.initialize((1,))
        assert q.grad is None

    def test_update_calls_the_update_rule(self):
        calls = []

        class Rule:
            def update(self, param):
                calls.append(param)

        p = Parameter(initializers.One(), (1,))
        p.update()
        assert calls == []
        p.update_rule = Rule()
        p.update()
        assert calls == [p]

    def test_pickle_round_trip(self):
        p = Parameter(initializers.Constant(1.5), (2,), name="w")
        q = pickle.loads(pickle.dumps(p))
        assert q.name == "w"
        numpy.testing.assert_array_equal(q.array, p.array)

    def test_gradient_flows_into_parameters(self):
        p = Parameter(initializers.Constant(2.0), (3,))
        p.cleargrad()
        y = p * Variable(_f32(3))
        y.grad = numpy.ones(3, numpy.float32)
        y.backward()
        numpy.testing.assert_array_equal(p.grad, [0, 1, 2])


def test_as_variable_and_as_array():
    a = _f32(2)
    v = chainer.as_variable(a)
    assert v.array is a and v.requires_grad is False
    assert chainer.as_variable(v) is v
    assert chainer.as_array(v) is a
    assert chainer.as_array(a) is a
    with pytest.raises(TypeError, match="not a VariableNode"):
        chainer.as_variable(v.node)


class TestParameterDevices:
    def test_uninitialized_parameter_remembers_its_target_device(self):
        from chainer import backend

        p = Parameter(initializers.One())
        p.to_device("@numpy")
        assert p.device == backend.CpuDevice()
        p.to_cpu()
        p.initialize((2,))
        assert isinstance(p.array, numpy.ndarray)

    def test_pickle_keeps_target_device_and_requires_grad(self):
        from chainer import backend

        p = Parameter(initializers.One())
        p.to_device("@numpy")
        p._requires_grad = False
        q = pickle.loads(pickle.dumps(p))
        assert q._initial_device == backend.CpuDevice()
        assert q.requires_grad is False

    def test_to_gpu_without_cuda_fails_clearly(self):
        p = Parameter(initializers.One(), (1,))
        with pytest.raises(RuntimeError, match="CUDA"):
            p.to_gpu()


def test_addgrad_initializes_an_uninitialized_parameter():
    src = Parameter(initializers.One(), (2, 3))
    src.grad = numpy.full((2, 3), 3.0, numpy.float32)
    dst = Parameter(initializers.Zero())
    dst.cleargrad()
    dst.addgrad(src)
    assert dst.shape == (2, 3)
    numpy.testing.assert_array_equal(dst.array, numpy.zeros((2, 3)))
    numpy.testing.assert_array_equal(dst.grad, src.grad)
    untouched = Parameter(initializers.Zero())
    src.cleargrad()
    untouched.addgrad(src)
    assert not untouched.is_initialized


def test_setting_no_creator_cuts_the_graph_and_keeps_the_rank():
    x = Variable(_f32(3))
    y = x * 2
    rank = y.rank
    y.creator = None
    assert y.creator is None and y.rank == rank
    z = x * 3
    z.creator_node = None
    assert z.creator_node is None and z.rank == rank


def test_copydata_initializes_an_uninitialized_source_parameter():
    dst = Parameter(numpy.ones((2, 3), numpy.float32))
    src = Parameter(initializers.Constant(4.0))
    dst.copydata(src)
    assert src.shape == (2, 3)
    numpy.testing.assert_array_equal(dst.array, numpy.full((2, 3), 4.0))


def test_a_gradient_set_by_hand_can_be_differentiated():
    x = Variable(_f32(3))
    y = x * x
    y.grad = numpy.full(3, 2.0, numpy.float32)
    gy = y.grad_var
    assert gy.requires_grad  # v7
    y.backward(enable_double_backprop=True)
    (g,) = chainer.grad([x.grad_var], [gy], [Variable(numpy.ones(3, numpy.float32))])
    numpy.testing.assert_array_equal(g.array, 2 * x.array)  # d(2 x gy)/d gy


class TestV7Compatibility:
    """Names and behaviour code written for Chainer v7 relies on."""

    def test_private_aliases(self):
        x = Variable(_f32(2))
        assert x._node is x.node
        x._node._rank = 3
        assert x.rank == 3 and x.node._rank == 3
        assert x._has_chainerx_array is False
        assert Variable()._has_chainerx_array is False
        x.grad = numpy.ones(2, numpy.float32)
        assert x._grad is x.grad

    def test_init_unchecked(self):
        a = _f32(3)
        x = Variable._init_unchecked(a, name="x", is_chainerx_array=False)
        assert type(x) is Variable and x.array is a and x.name == "x"
        assert x.requires_grad and x.grad is None
        assert Variable._init_unchecked(a, requires_grad=False).requires_grad is False

    def test_node_takes_no_grad(self):
        with pytest.raises(ValueError, match=r"unexpected keyword arguments \['grad'\]"):
            VariableNode(Variable(), "", grad=None)

    def test_label_writes_shapes_as_v7(self):
        assert Variable(_f32(1)).label == "(1), float32"
        assert Variable(_f32(2, 5)).label == "(2, 5), float32"
        assert Variable(numpy.array(1, numpy.float32)).label == "float32"

    def test_text_of_named_empty_and_missing_arrays(self):
        x = Variable(_f32(2, 2), name="x")
        assert repr(x) == "variable x([[0., 1.],\n            [2., 3.]])"
        assert str(x) == "variable x([[0. 1.]\n            [2. 3.]])"
        assert repr(Variable(_f32(0, 0))) == "variable([], shape=(0, 0))"
        assert repr(Variable(_f32(0))) == "variable([])"
        assert str(Variable(_f32(0, 0), name="e")) == "variable e([])"
        assert str(Variable(name="x")) == repr(Variable(name="x")) == "variable x(None)"

    def test_bool_of_several_elements_is_a_type_error(self):
        assert bool(Variable(numpy.array([2.0], numpy.float32)))
        with pytest.raises(TypeError, match=r"variable of shape \(2,\) is ambiguous"):
            bool(Variable(_f32(2)))

    def test_zerograd_zeroes_in_place_and_unchains(self):
        x = Variable(_f32(2))
        x.grad_var = Variable(numpy.full(2, numpy.nan, numpy.float32))
        x.grad_var.creator_node = chainer.FunctionNode()
        before = x.grad
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        assert x.grad is before and x.grad_var.creator_node is None
        numpy.testing.assert_array_equal(x.grad, [0, 0])

    def test_uninitialized_parameter_grad_is_unavailable_until_cleared(self):
        p = Parameter()
        with pytest.raises(RuntimeError, match="uninitialized parameter is not available"):
            _ = p.grad
        with pytest.raises(RuntimeError, match="uninitialized parameter 'w' is not"):
            _ = Parameter(name="w").grad_var
        p.cleargrad()
        assert p.grad is None and p.grad_var is None
        p.initialize((2,))
        assert p.grad is None

    def test_uninitialized_parameter_dtype_needs_the_initializer_dtype(self):
        def initializer(array):
            array[...] = 1

        p = Parameter(initializer)
        with pytest.raises(RuntimeError, match="initializer function has no dtype attribute"):
            _ = p.dtype
        p.initialize((2,))  # float32 by default, as v7's generate_array
        assert p.dtype == numpy.float32
        numpy.testing.assert_array_equal(p.array, [1, 1])
        assert Parameter(initializers.Zero(numpy.float16)).dtype == numpy.float16


def test_layout_argument_takes_only_the_standard_layout():
    assert Variable(_f32(2), layout=None).layout is None
    with pytest.raises(ValueError, match="memory layouts are not supported; got layout 'NHWC'"):
        Variable(_f32(2), layout="NHWC")


class _CopyingDevice(chainer.backend.Device):
    """A user-defined device keeping arrays in NumPy (as v7's tests define one)."""

    xp = numpy
    supported_array_types = (numpy.ndarray,)
    name = "@copying"

    def send_array(self, array):
        return array.copy()


def test_device_is_the_one_given_to_to_device_until_the_array_is_replaced():
    device = _CopyingDevice()
    x = Variable(_f32(2))
    x.to_device(device)
    assert x.device is device
    p = Parameter(_f32(2))
    p.to_device(device)
    assert p.device is device
    lazy = Parameter(initializers.One())
    lazy.to_device(device)
    assert lazy.device is device
    lazy.initialize((2,))
    assert lazy.device is device
    x.array = _f32(3)
    assert x.device == chainer.backend.CpuDevice()


@pytest.mark.chainerx
def test_copydata_into_an_uninitialized_parameter_lands_on_its_device():
    from chainer.testing._marks import chainerx_available

    if not chainerx_available():
        pytest.skip("needs the chainerx package with its ndarray")
    device = chainer.get_device("native:0")
    dst = chainer.Parameter()
    dst.to_device(device)
    src = chainer.Parameter(numpy.arange(3, dtype=numpy.float32))
    dst.copydata(src)
    assert dst.device == device and src.device == chainer.get_device("@numpy")
    numpy.testing.assert_array_equal(chainer.backend.CpuDevice().send(dst.array), [0, 1, 2])
    back = chainer.Parameter()  # never sent anywhere: the CPU
    back.copydata(chainer.Parameter(device.send(numpy.ones(2))))
    assert isinstance(back.array, numpy.ndarray)
