"""FunctionTestCase / LinkTestCase: they pass for correct code and catch wrong code."""

import io
import unittest

import numpy
import pytest

import chainer
from chainer import FunctionNode, testing
from chainer._ops import basic_math, exponential
from chainer.testing import function_link


class Square(FunctionNode):
    def __init__(self, wrong_backward=False, wrong_double=False):
        self.wrong_backward = wrong_backward
        self.wrong_double = wrong_double

    def forward(self, inputs):
        self.retain_inputs((0,))
        return (inputs[0] * inputs[0],)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        if self.wrong_backward:
            return (3 * x * grad_outputs[0],)
        if self.wrong_double:
            # right value, but the graph of the gradient ignores x (no second derivative)
            return (chainer.Variable(2 * x.array) * grad_outputs[0],)
        return (2 * x * grad_outputs[0],)


@testing.parameterize(*testing.product({"dtype": [numpy.float16, numpy.float32, numpy.float64]}))
@testing.inject_backend_tests(None, [{}])
class TestSquareConforms(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype),)

    def forward(self, inputs, device):
        return Square().apply(inputs)

    def forward_expected(self, inputs):
        (x,) = inputs
        return ((x * x).astype(self.dtype),)


@testing.inject_backend_tests(None, [{}])
class TestAbsoluteDodgesTheKink(testing.FunctionTestCase):
    dodge_nondifferentiable = True

    def generate_inputs(self):
        return (numpy.random.uniform(-0.01, 0.01, (4,)),)

    def forward(self, inputs, device):
        return (basic_math.Absolute().apply(inputs)[0],)

    def forward_expected(self, inputs):
        return (numpy.abs(inputs[0]),)


@testing.inject_backend_tests(None, [{}])
class TestCountingSquare(testing.FunctionTestCase):
    dodge_nondifferentiable = True
    skip_double_backward_test = True
    forward_calls = 0

    def generate_inputs(self):
        return (numpy.random.uniform(0.5, 1.5, (50, 40)),)

    def forward(self, inputs, device):
        type(self).forward_calls += 1
        return Square().apply(inputs)

    def forward_expected(self, inputs):
        return (inputs[0] ** 2,)


def test_dodging_kinks_costs_a_few_forward_passes_whatever_the_input_size():
    # v7 looks for kinks along one direction, not per input element (2,000 here).
    (case_class,) = TestCountingSquare.classes
    case_class.forward_calls = 0
    result = unittest.TextTestRunner(stream=io.StringIO()).run(case_class("test_backward"))
    assert result.wasSuccessful()
    assert 0 < case_class.forward_calls < 20


def _case(**attrs):
    class Case(function_link.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.random.uniform(0.5, 1.5, (3,)),)

        def forward(self, inputs, device):
            return Square(**attrs).apply(inputs)

        def forward_expected(self, inputs):
            return (inputs[0] ** 2,)

    for name, value in attrs.items():
        if name.startswith(("check_", "skip_")):
            setattr(Case, name, value)
    return Case("test_forward")


def _numpy_config():
    return testing.BackendConfig({})


def test_wrong_backward_is_caught():
    case = _case(wrong_backward=True)
    case.run_test_forward(_numpy_config())
    # v7's error type, so that `xfail(raises=FunctionTestError)` works
    with pytest.raises(function_link.FunctionTestError, match="backward failed:\ncheck_backward"):
        case.run_test_backward(_numpy_config())


def test_missing_second_order_graph_is_caught():
    case = _case(wrong_double=True)
    case.run_test_backward(_numpy_config())
    with pytest.raises(function_link.FunctionTestError, match="double backward failed"):
        case.run_test_double_backward(_numpy_config())


def test_wrong_forward_and_bad_return_types_are_reported():
    class WrongForward(function_link.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.ones(2),)

        def forward(self, inputs, device):
            return (exponential.exp(inputs[0]),)

        def forward_expected(self, inputs):
            return (inputs[0] + 1,)

    with pytest.raises(function_link.FunctionTestError, match=r"forward \(output 0\) failed"):
        WrongForward("test_forward").run_test_forward(_numpy_config())

    class ReturnsArray(WrongForward):
        def forward(self, inputs, device):
            return (inputs[0].array,)

    with pytest.raises(function_link.FunctionTestError, match="item 0 is a ndarray"):
        ReturnsArray("test_forward").run_test_forward(_numpy_config())

    class WrongDtype(WrongForward):
        def forward_expected(self, inputs):
            return (numpy.exp(inputs[0]).astype(numpy.float32),)

    with pytest.raises(function_link.FunctionTestError, match="dtype float32, got shape"):
        WrongDtype("test_forward").run_test_forward(_numpy_config())


def test_skip_flags_skip():
    import unittest

    case = _case(skip_backward_test=True)
    with pytest.raises(unittest.SkipTest):
        case.test_backward(_numpy_config())


def test_initializer_argument_and_errors():
    arg = testing.InitializerArgument(None, 2.0)
    assert arg.argument_value is None and arg.expected_initializer == 2.0
    assert issubclass(testing.LinkTestError, testing.FunctionTestError)


class _RecordsLayout(FunctionNode):
    seen: list = []

    def forward(self, inputs):
        (x,) = inputs
        type(self).seen.append(x.flags.c_contiguous)
        return (x * 2,)


@pytest.mark.parametrize(("contiguous", "expected"), [(None, False), ("C", True)])
def test_inputs_are_strided_by_default_and_c_contiguous_on_request(contiguous, expected):
    class Case(function_link.FunctionTestCase):
        def generate_inputs(self):
            return (numpy.random.uniform(-1, 1, (3, 2)),)

        def forward(self, inputs, device):
            return _RecordsLayout().apply(inputs)

        def forward_expected(self, inputs):
            return (inputs[0] * 2,)

    Case.contiguous = contiguous
    _RecordsLayout.seen = []
    Case("test_forward").run_test_forward(chainer.testing.BackendConfig({}))
    assert _RecordsLayout.seen == [expected]


class _ScaleLink(chainer.Link):
    def __init__(self, initial, wrong):
        super().__init__()
        self.wrong = wrong
        with self.init_scope():
            self.w = chainer.Parameter(initial, (3,))

    def forward(self, x):
        return x * (self.w * 2 if self.wrong else self.w)


def _link_case(wrong):
    class Case(function_link.LinkTestCase):
        param_names = ("w",)

        def generate_params(self):
            return (numpy.random.uniform(0.5, 1.5, (3,)),)

        def create_link(self, initializers):
            return _ScaleLink(initializers[0], wrong)

        def generate_inputs(self):
            return (numpy.random.uniform(-1, 1, (2, 3)),)

        def forward_expected(self, link, inputs):
            return (inputs[0] * link.w.array,)

    return Case("test_forward")


def test_link_test_case_reports_link_test_errors():
    _link_case(wrong=False).test_forward(_numpy_config())
    with pytest.raises(function_link.LinkTestError, match=r"forward \(output 0\) failed"):
        _link_case(wrong=True).test_forward(_numpy_config())


class _LazyScaleLink(chainer.Link):
    """A parameter whose shape comes from the first input (initialized lazily)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(chainer.initializers.Constant(0.5, dtype=numpy.float64))

    def forward(self, x):
        if self.w.array is None:
            self.w.initialize(x.shape[1:])
        return x * self.w


def test_forward_expected_runs_after_the_link_so_lazy_parameters_exist():
    case = _link_case(wrong=False)
    case.create_link = lambda initializers: _LazyScaleLink()
    seen = []

    def forward_expected(link, inputs):
        seen.append(link.w.array.copy())  # None before the call: v7 asks after it
        return (inputs[0] * link.w.array,)

    case.forward_expected = forward_expected
    case.test_forward(_numpy_config())
    numpy.testing.assert_array_equal(seen[0], numpy.full(3, 0.5))


def test_create_link_must_return_a_link():
    case = _link_case(wrong=False)
    case.create_link = lambda initializers: numpy.array([1])
    with pytest.raises(
        TypeError, match="create_link\\(\\) must return a chainer.Link, got ndarray"
    ):
        case.test_forward(_numpy_config())


@testing.inject_backend_tests(None, [{}])
class TestBeforeTestSeesTheRunningTest(testing.FunctionTestCase):
    # v7 test cases read self.backend_config and self.test_name in before_test.
    seen: list = []

    def before_test(self, test_name):
        assert self.test_name == test_name
        type(self).seen.append((test_name, self.backend_config.xp.__name__))

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (3,)),)

    def forward(self, inputs, device):
        return Square().apply(inputs)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (x * x,)


def test_before_test_saw_each_test_with_its_backend():
    (case,) = TestBeforeTestSeesTheRunningTest.classes
    methods = sorted(name for name in dir(case) if name.startswith("test_"))
    runner = unittest.TextTestRunner(stream=io.StringIO())
    case.seen.clear()
    result = runner.run(unittest.TestSuite(case(name) for name in methods))
    assert result.wasSuccessful(), result.failures + result.errors
    assert sorted(case.seen) == [
        ("test_backward", "numpy"),
        ("test_double_backward", "numpy"),
        ("test_forward", "numpy"),
    ]


def test_options_updated_in_set_up_stay_with_that_test():
    class LoosensInSetUp(testing.FunctionTestCase):
        def setUp(self):
            self.check_backward_options.update({"eps": 0.25})  # as many v7 tests do

    class KeepsTheDefaults(testing.FunctionTestCase):
        pass

    loose = LoosensInSetUp("run")
    loose.setUp()
    assert loose.check_backward_options == {"eps": 0.25}
    assert KeepsTheDefaults("run").check_backward_options == {}
    assert testing.FunctionTestCase.check_backward_options == {}


@testing.inject_backend_tests(None, [{}])
class TestOutputWithoutGradientIsLeftOut(testing.FunctionTestCase):
    """Two outputs, the second given no gradient (None): both gradient checks pass (v7)."""

    def generate_inputs(self):
        return (numpy.random.uniform(0.5, 1.5, (3,)),)

    def forward(self, inputs, device):
        (x,) = inputs
        return x * x, exponential.exp(x)

    def forward_expected(self, inputs):
        (x,) = inputs
        return x * x, numpy.exp(x)

    def generate_grad_outputs(self, outputs_template):
        return (numpy.random.uniform(-1, 1, outputs_template[0].shape), None)


@pytest.mark.chainerx
def test_link_test_case_gives_forward_expected_the_link_on_the_cpu():
    # forward_expected is NumPy maths: v7 hands it the link's parameters as NumPy arrays
    # whatever device the link ran on.
    from chainer.testing._marks import chainerx_available

    if not chainerx_available():
        pytest.skip("needs the chainerx package with its ndarray")
    case = _link_case(wrong=False)
    seen = []
    expected = type(case).forward_expected

    def forward_expected(self, link, inputs):
        seen.append(type(link.w.array))
        return expected(self, link, inputs)

    type(case).forward_expected = forward_expected
    case.test_forward(testing.BackendConfig({"use_chainerx": True, "chainerx_device": "native:0"}))
    assert seen == [numpy.ndarray]
