import importlib.util

import numpy
import pytest

from chainer import testing


def square(x):
    return x * x


square.label = "square"

BACKENDS = [
    "numpy",
    "use_cuda_true",
    "use_chainerx_true__chainerx_device_native_0",
    "use_chainerx_true__chainerx_device_cuda_0",
]
SHAPES = [(3, 2), ()]
DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def test_generates_a_class_per_backend_shape_and_dtype(fake_module):
    base = fake_module.make_class(name="TestSquare")
    record = testing.unary_math_function_unittest(square)(base)
    params = sorted(
        (c.__name__.partition("_param_")[0], c.shape, c.dtype.__name__) for c in record.classes
    )
    expected = sorted(
        (f"TestSquare_{backend}", shape, dtype.__name__)
        for backend in BACKENDS + ["no_backend"]
        for shape in SHAPES
        for dtype in DTYPES
    )
    assert params == expected
    assert fake_module.class_names() == sorted(c.__name__ for c in record.classes)
    label_class = next(c for c in record.classes if c.__name__.startswith("TestSquare_no_backend"))
    assert label_class.test_forward is None and callable(label_class.test_label)
    numpy_class = next(c for c in record.classes if c.__name__.startswith("TestSquare_numpy"))
    assert numpy_class.test_label is None
    assert all(
        callable(getattr(numpy_class, n))
        for n in ("test_forward", "test_backward", "test_double_backward")
    )


def test_label_test_only_for_functions_with_a_label(fake_module):
    def cube(x):
        return x * x * x

    record = testing.unary_math_function_unittest(cube, func_expected=lambda x, dtype: x**3)(
        fake_module.make_class()
    )
    assert not any("no_backend" in c.__name__ for c in record.classes)
    assert len(record.classes) == len(BACKENDS) * len(SHAPES) * len(DTYPES)


def test_label_test_checks_the_label(fake_module, run_unittest):
    record = testing.unary_math_function_unittest(square, label_expected="not square")(
        fake_module.make_class()
    )
    label_classes = [c for c in record.classes if "no_backend" in c.__name__]
    result = run_unittest(label_classes)
    assert result.testsRun == 6 and len(result.failures) == 6


def test_needs_a_numpy_reference_or_func_expected():
    def no_such_numpy_function(x):
        return x

    with pytest.raises(
        ValueError,
        match="numpy has no function named 'no_such_numpy_function'; pass func_expected",
    ):
        testing.unary_math_function_unittest(no_such_numpy_function)


def test_rejects_non_callables_and_non_classes():
    with pytest.raises(TypeError, match="expects a function, got 3"):
        testing.unary_math_function_unittest(3)
    with pytest.raises(TypeError, match="decorates a test class, got function"):
        testing.unary_math_function_unittest(square)(square)


def test_is_linear_is_deprecated():
    with pytest.warns(
        DeprecationWarning, match="is_linear of unary_math_function_unittest is deprecated"
    ):
        testing.unary_math_function_unittest(square, is_linear=True)


GENERATED_SOURCE = """
import unittest
import numpy
from chainer import testing

def square(x):
    return x * x

@testing.unary_math_function_unittest(square)
class TestSquare(unittest.TestCase):
    pass

@testing.unary_math_function_unittest(square, func_expected=lambda x, dtype: numpy.abs(x))
class TestWrongReference(unittest.TestCase):
    pass
"""


def test_generated_tests_pass_and_fail_under_pytest(run_pytest):
    if importlib.util.find_spec("chainer.gradient_check") is None:
        pytest.skip("chainer.gradient_check is not written yet")
    run = run_pytest(GENERATED_SOURCE, "-m", "not gpu and not chainerx")
    square_results = {k: v for k, v in run.outcomes.items() if k.startswith("TestSquare_")}
    assert len(square_results) == 18 and set(square_results.values()) == {"PASSED"}, run.output
    wrong = {k: v for k, v in run.outcomes.items() if k.startswith("TestWrongReference_")}
    assert {k.rpartition("::")[2]: v for k, v in wrong.items() if v == "FAILED"} == {
        "test_forward": "FAILED"
    }
    assert sum(v == "FAILED" for v in wrong.values()) == 6, run.output


TINY_STEP_SOURCE = """
import unittest
from chainer import testing

def square(x):
    return x * x

@testing.unary_math_function_unittest(
    square, backward_options={"eps": 1e-6}, double_backward_options={"eps": 1e-6})
class TestTinyStep(unittest.TestCase):
    pass
"""


def test_given_options_update_the_float64_presets(run_pytest):
    # A step of 1e-6 vanishes in float16: the check passes only if the float64 numerical
    # derivative of the presets is kept when options are given (v7 updates the presets).
    run = run_pytest(TINY_STEP_SOURCE, "-m", "not gpu and not chainerx")
    results = {k: v for k, v in run.outcomes.items() if "float16" in k and "backward" in k}
    assert len(results) == 4 and set(results.values()) == {"PASSED"}, run.output
