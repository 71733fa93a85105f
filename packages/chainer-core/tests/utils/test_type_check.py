"""chainer.utils.type_check: expressions, messages, light mode."""

import pickle
import threading

import numpy
import pytest

from chainer.utils import type_check as T


def _types(*arrays, name="in_types"):
    return T.get_types(arrays, name, False)


def _message(*conditions):
    with pytest.raises(T.InvalidType) as info:
        T.expect(*conditions)
    return str(info.value)


@pytest.fixture
def xw():
    x = numpy.zeros((3, 4, 5), numpy.float32)
    w = numpy.zeros((4, 2), numpy.int32)
    return _types(x, w)


class TestTypeInfo:
    def test_get_types_describes_each_array(self, xw):
        assert isinstance(xw, T.TypeInfoTuple)
        assert xw.name == "in_types"
        x, w = xw
        assert isinstance(x, T.Variable)
        assert str(x) == "in_types[0]" and str(w) == "in_types[1]"
        info = x.eval()
        assert info.shape == (3, 4, 5)
        assert info.dtype == numpy.float32
        assert info.ndim == 3
        assert info.size == 60

    def test_shapes_override(self):
        (x,) = T.get_types((numpy.zeros((2, 3)),), "in_types", False, shapes=[(6,)])
        assert x.eval().shape == (6,)
        assert x.eval().ndim == 1

    def test_duck_typed_array(self):
        class Fake:
            shape = (2, 2)
            dtype = numpy.dtype(numpy.float16)

        (x,) = _types(Fake())
        assert T.eval(x.shape) == (2, 2)
        assert T.eval(x.dtype) == numpy.float16

    def test_none_accepted_for_gradients(self):
        (g,) = T.get_types((None,), "out_grad", True)
        assert str(g) == "out_grad[0]"
        assert g.eval().dtype is None and g.eval().shape == ()

    def test_data_must_be_a_sequence(self):
        with pytest.raises(TypeError, match="get_types expects a tuple of arrays, got int"):
            T.get_types(1, "name", False)

    def test_none_rejected(self):
        with pytest.raises(TypeError, match=r"in_types\[0\] must be an array, got None"):
            T.get_types((None,), "in_types", False)

    def test_non_array_rejected(self):
        with pytest.raises(
            TypeError,
            match=r"in_types\[1\] must be an array with shape and "
            r"dtype, got int",
        ):
            T.get_types((numpy.zeros(1), 3), "in_types", False)

    def test_size_of_tuple(self, xw):
        size = xw.size()
        assert str(size) == "in_types.size"
        assert size.eval() == 2

    def test_light_types(self):
        x = numpy.zeros((2, 3), numpy.float32)
        light = T.get_light_types((x,))
        assert light[0] is x
        assert light.size() == 1
        assert light.eval() is light
        reshaped = T.get_light_types((x,), shapes=[(6,)])
        assert reshaped[0].shape == (6,) and reshaped[0].dtype == numpy.float32


class TestExpressions:
    def test_members_items_and_calls(self, xw):
        x, w = xw
        assert str(x.shape) == "in_types[0].shape"
        assert x.shape.eval() == (3, 4, 5)
        assert str(x.shape[1:]) == "in_types[0].shape[1:]"
        assert x.shape[1:].eval() == (4, 5)
        assert str(x.shape[::2]) == "in_types[0].shape[::2]"
        assert x.shape[::2].eval() == (3, 5)
        assert str(x.shape[-1]) == "in_types[0].shape[-1]"
        total = T.Variable(sum, "sum")
        assert str(total(x.shape)) == "sum(in_types[0].shape)"
        assert total(x.shape).eval() == 12
        assert str(x.dtype.kind) == "in_types[0].dtype.kind"
        assert x.dtype.kind.eval() == "f"

    def test_arithmetic_values(self, xw):
        x, w = xw
        three, four = x.shape[0], w.shape[0]
        cases = [
            (three + four, 7),
            (three - four, -1),
            (three * four, 12),
            (four / three, 4 / 3),
            (four // three, 1),
            (four % three, 1),
            (three**2, 9),
            (three << 1, 6),
            (four >> 1, 2),
            (three & four, 0),
            (three ^ four, 7),
            (three | four, 7),
            (-three, -3),
            (+three, 3),
            (~three, -4),
            (10 - three, 7),
            (2**three, 8),
            (12 // four, 3),
            (1 + three, 4),
        ]
        for expr, expected in cases:
            assert isinstance(expr, T.Expr)
            assert expr.eval() == expected, str(expr)

    def test_printing_keeps_python_meaning(self, xw):
        x, w = xw
        a, b, c = x.ndim, w.ndim, x.shape[0]
        cases = [
            (a + b * c, "in_types[0].ndim + in_types[1].ndim * in_types[0].shape[0]"),
            ((a + b) * c, "(in_types[0].ndim + in_types[1].ndim) * in_types[0].shape[0]"),
            (a - (b - c), "in_types[0].ndim - (in_types[1].ndim - in_types[0].shape[0])"),
            ((a - b) - c, "in_types[0].ndim - in_types[1].ndim - in_types[0].shape[0]"),
            ((a**b) ** c, "(in_types[0].ndim ** in_types[1].ndim) ** in_types[0].shape[0]"),
            (a ** (b**c), "in_types[0].ndim ** in_types[1].ndim ** in_types[0].shape[0]"),
            (-(a + b), "-(in_types[0].ndim + in_types[1].ndim)"),
            ((-a) ** 2, "(-in_types[0].ndim) ** 2"),
            ((a + b).bit_length(), "(in_types[0].ndim + in_types[1].ndim).bit_length()"),
            (3 * a, "3 * in_types[0].ndim"),
        ]
        for expr, text in cases:
            assert str(expr) == text
        # The printed text evaluates to the same value as the expression.
        namespace = {"in_types": [x.eval(), w.eval()]}
        for expr, text in cases:
            assert eval(text, namespace) == expr.eval(), text

    def test_constants_print_with_repr(self):
        assert str(T.Constant("f")) == "'f'"
        assert str(T.Constant((1,))) == "(1,)"
        assert str(T.Constant(())) == "()"
        assert str(T.Constant([1, (2, 3)])) == "[1, (2, 3)]"
        assert T.Constant(5).eval() == 5

    def test_lazy_getattr_and_tuple_arguments(self, xw):
        x, _ = xw
        attr = T.GetAttr(x, "ndim")
        assert str(attr) == "in_types[0].ndim" and attr.eval() == 3
        attr = T.GetAttr(x, T.Constant("ndim"))
        assert str(attr) == "in_types[0].ndim" and attr.eval() == 3
        attr = T.GetAttr(x, T.Variable("ndim", "name"))
        assert str(attr) == "getattr(in_types[0], name)" and attr.eval() == 3
        call = T.Variable(max, "max")((x.ndim, 7))
        assert str(call) == "max((in_types[0].ndim, 7))"
        assert call.eval() == 7

    def test_expression_has_no_truth_value(self, xw):
        x, _ = xw
        with pytest.raises(RuntimeError, match="cannot be evaluated as bool"):
            bool(x.ndim == 3)
        with pytest.raises(RuntimeError, match=r"Please use chainer.utils.type_check.eval\(\)"):
            if x.ndim:
                pass

    def test_expression_is_not_iterable(self, xw):
        x, _ = xw
        with pytest.raises(
            TypeError,
            match=r"cannot iterate over the expression "
            r"in_types\[0\].shape",
        ):
            a, b, c = x.shape

    def test_private_names_are_not_members(self, xw):
        x, _ = xw
        with pytest.raises(AttributeError):
            x._anything  # noqa: B018

    def test_numpy_scalar_on_the_left(self, xw):
        x, _ = xw
        cond = numpy.int64(2) < x.ndim
        assert isinstance(cond, T.Testable)
        T.expect(cond)
        total = numpy.int64(2) + x.ndim
        assert isinstance(total, T.Expr) and total.eval() == 5


class TestExpect:
    def test_passing_conditions(self, xw):
        x, w = xw
        T.expect(
            x.ndim == 3,
            x.ndim != 2,
            x.shape[1] == w.shape[0],
            x.dtype.kind == "f",
            x.dtype == numpy.float32,
            w.ndim < x.ndim,
            w.ndim <= 2,
            x.ndim > 2,
            x.ndim >= 3,
            xw.size() == 2,
        )

    @pytest.mark.parametrize(
        ("build", "expect", "actual"),
        [
            (lambda x, w: x.ndim == 2, "in_types[0].ndim == 2", "3 != 2"),
            (lambda x, w: x.ndim != 3, "in_types[0].ndim != 3", "3 == 3"),
            (lambda x, w: x.ndim < 3, "in_types[0].ndim < 3", "3 >= 3"),
            (lambda x, w: x.ndim <= 2, "in_types[0].ndim <= 2", "3 > 2"),
            (lambda x, w: w.ndim > 2, "in_types[1].ndim > 2", "2 <= 2"),
            (lambda x, w: w.ndim >= 3, "in_types[1].ndim >= 3", "2 < 3"),
            (
                lambda x, w: x.shape[0] == w.shape[0] * 4,
                "in_types[0].shape[0] == in_types[1].shape[0] * 4",
                "3 != 16",
            ),
            (lambda x, w: w.dtype.kind == "f", "in_types[1].dtype.kind == f", "i != f"),
            (
                lambda x, w: x.dtype == numpy.float64,
                "in_types[0].dtype == <class 'numpy.float64'>",
                "float32 != <class 'numpy.float64'>",
            ),
            (
                lambda x, w: x.shape[0] == T.Variable(4, "in_size"),
                "in_types[0].shape[0] == in_size",
                "3 != 4",
            ),
            (
                lambda x, w: T.Variable(sum, "sum")(x.shape) == 10,
                "sum(in_types[0].shape) == 10",
                "12 != 10",
            ),
            (lambda x, w: T.prod(w.shape) == 9, "prod(in_types[1].shape) == 9", "8 != 9"),
            (
                lambda x, w: x.shape[1:] == (4, 6),
                "in_types[0].shape[1:] == (4, 6)",
                "(4, 5) != (4, 6)",
            ),
        ],
    )
    def test_failure_message(self, xw, build, expect, actual):
        message = _message(build(*xw))
        assert message == f"Expect: {expect}\nActual: {actual}"

    def test_first_failing_condition_is_reported(self, xw):
        x, w = xw
        message = _message(x.ndim == 3, w.ndim == 5, x.ndim == 7)
        assert message == "Expect: in_types[1].ndim == 5\nActual: 2 != 5"

    def test_error_attributes(self, xw):
        x, _ = xw
        with pytest.raises(T.InvalidType) as info:
            T.expect(x.ndim == 2)
        assert info.value.expect == "in_types[0].ndim == 2"
        assert info.value.actual == "3 != 2"

    def test_expect_rejects_plain_values(self, xw):
        with pytest.raises(TypeError, match=r"expect\(\) takes comparisons .* got bool: True"):
            T.expect(True)

    def test_argname(self, xw):
        T.argname(xw, ("x", "W"))
        x, w = xw
        assert _message(x.shape[1] == w.shape[1]) == (
            "Expect: x.shape[1] == W.shape[1]\nActual: 4 != 2"
        )

    def test_argname_counts_inputs(self, xw):
        with pytest.raises(T.InvalidType) as info:
            T.argname(xw, ("x",))
        assert str(info.value) == "Expect: 1 argument(s)\nActual: 2 argument(s)"
        assert T._argname is T.argname

    def test_function_check_context_prefixes_label(self, xw):
        class Exp:
            label = "Exp"

        x, _ = xw
        with T.get_function_check_context(Exp()):
            message = _message(x.dtype.kind == "i")
        assert message == (
            "\nInvalid operation is performed in: Exp (Forward)\n\n"
            "Expect: in_types[0].dtype.kind == i\nActual: f != i"
        )
        # Outside the block the prefix is gone again.
        assert _message(x.dtype.kind == "i").startswith("Expect:")

    def test_manual_error_and_rewrapping(self):
        error = T.InvalidType("Shape is expected to be ...", "Shape is ...")
        assert str(error) == "Expect: Shape is expected to be ...\nActual: Shape is ..."
        rewrapped = T.InvalidType(error.expect, error.actual, msg="prefix\n" + str(error))
        assert (
            str(rewrapped) == "prefix\nExpect: Shape is expected to be ...\nActual: Shape is ..."
        )
        assert rewrapped.expect == error.expect and rewrapped.actual == error.actual

    def test_pickle_keeps_message_and_fields(self):
        error = T.InvalidType("a", "b", msg="custom")
        copy = pickle.loads(pickle.dumps(error))
        assert (str(copy), copy.expect, copy.actual) == ("custom", "a", "b")
        # Tracebacks print the public name.
        assert f"{T.InvalidType.__module__}.{T.InvalidType.__qualname__}" == (
            "chainer.utils.type_check.InvalidType"
        )


class TestLightMode:
    def test_values_are_eager(self):
        x = numpy.zeros((3, 4), numpy.float32)
        with T.light_mode:
            assert T.in_light_mode()
            types = T.get_light_types((x,))
            (x_type,) = types
            assert T.eval(x_type.shape[0] * 2) == 6
            assert T.make_variable(4, "in_size") == 4
            assert T.prod(x_type.shape) == 12
            T.expect(x_type.ndim == 2, x_type.dtype.kind == "f", types.size() == 1)
            with pytest.raises(T.InvalidType) as info:
                T.expect(x_type.ndim == 2, x_type.ndim == 3)
            assert (info.value.expect, info.value.actual) == ("", "")
        assert not T.in_light_mode()

    def test_named_variables_still_work(self):
        with T.light_mode:
            T.expect(4 == T.Variable(4, "in_size"))
            with pytest.raises(T.InvalidType):
                T.expect(3 == T.Variable(4, "in_size"))

    def test_nesting_and_exceptions_restore(self):
        with T.light_mode:
            with T.light_mode:
                pass
            assert T.in_light_mode()
        with pytest.raises(KeyError), T.light_mode:
            raise KeyError
        assert not T.in_light_mode()

    def test_normal_mode_outside(self):
        assert isinstance(T.make_variable(4, "in_size"), T.Variable)
        assert str(T.make_variable(4, "in_size")) == "in_size"
        assert isinstance(T.prod((2, 3)), T.Call) and T.eval(T.prod((2, 3))) == 6
        assert T.eval(5) == 5

    def test_thread_local(self):
        seen = []
        with T.light_mode:
            thread = threading.Thread(target=lambda: seen.append(T.in_light_mode()))
            thread.start()
            thread.join()
        assert seen == [False]

    def test_argname_in_light_mode(self):
        with T.light_mode:
            types = T.get_light_types((numpy.zeros(1),))
            T.argname(types, ("x",))
            with pytest.raises(T.InvalidType):
                T.argname(types, ("x", "y"))


def test_same_types():
    a, b = numpy.zeros(2), numpy.ones(3)
    assert T.same_types(a, b)
    assert T.same_types()
    assert not T.same_types(a, [1, 2])


def test_v7_priority_and_repr():
    x, y = T.Variable(1, "x"), T.Variable(2, "y")
    assert (x + y).priority == (x - y).priority < (x * y).priority
    assert (x | y).priority < (x ^ y).priority < (x & y).priority
    assert T._repr([[T.Constant(0)]]) == "[[0]]"
    assert T._repr((T.Constant(0),)) == "(0,)"
    assert T._repr(()) == "()"
