import importlib.util
import inspect
import unittest

import numpy
import pytest

import chainer
from chainer import testing
from chainer.testing import _marks

ALL_KEYS = {
    "use_chainerx": False,
    "chainerx_device": None,
    "use_cuda": False,
    "cuda_device": None,
    "use_cudnn": "never",
    "cudnn_deterministic": False,
    "autotune": False,
    "cudnn_fast_batch_normalization": False,
    "use_ideep": "never",
}


def needs_backend_module():
    """Skip unless ``chainer.backend`` (devices) is available; BackendConfig's devices use it."""
    if importlib.util.find_spec("chainer.backend") is None:
        pytest.skip("chainer.backend is not written yet")
    return importlib.import_module("chainer.backend")


def mark_summary(marks):
    """``[('gpu', None), ('skipif', True/False), ...]`` for a list of pytest marks."""
    summary = []
    for mark in marks:
        condition = mark.args[0] if mark.name == "skipif" else None
        summary.append((mark.name, condition))
    return summary


@pytest.fixture
def no_hardware(monkeypatch):
    monkeypatch.setattr(_marks, "gpu_count", lambda: 0)
    for probe in ("cudnn_available", "chainerx_available", "ideep_available"):
        monkeypatch.setattr(_marks, probe, lambda: False)


@pytest.fixture
def all_hardware(monkeypatch):
    monkeypatch.setattr(_marks, "gpu_count", lambda: 2)
    for probe in ("cudnn_available", "chainerx_available", "ideep_available"):
        monkeypatch.setattr(_marks, probe, lambda: True)


# BackendConfig


def test_defaults_are_the_numpy_backend():
    config = testing.BackendConfig({})
    assert {key: getattr(config, key) for key in ALL_KEYS} == ALL_KEYS
    assert config.get_func_str() == "numpy"
    assert repr(config) == "<BackendConfig numpy>"


def test_given_keys_become_attributes_and_cuda_device_defaults_to_zero():
    config = testing.BackendConfig({"use_cuda": True, "use_cudnn": "always", "autotune": True})
    assert (config.use_cuda, config.cuda_device, config.use_cudnn, config.autotune) == (
        True,
        0,
        "always",
        True,
    )
    assert config.use_chainerx is False and config.use_ideep == "never"


@pytest.mark.parametrize(("given", "meant"), [(True, "always"), (False, "never")])
def test_boolean_cudnn_and_ideep_settings_mean_always_and_never(given, meant):
    # Chainer v7's suites write {'use_ideep': True}; the config key takes the ternary value.
    config = testing.BackendConfig({"use_ideep": given, "use_cudnn": given})
    assert (config.use_ideep, config.use_cudnn) == (meant, meant)


def test_func_str_names_the_given_keys_in_a_fixed_order():
    chx = testing.BackendConfig({"chainerx_device": "native:0", "use_chainerx": True})
    assert chx.get_func_str() == "use_chainerx_true__chainerx_device_native_0"
    assert chx.get_func_str().isidentifier()
    cuda = testing.BackendConfig({"cuda_device": 1, "use_cuda": True, "use_cudnn": "never"})
    assert cuda.get_func_str() == "use_cuda_true__cuda_device_1__use_cudnn_never"
    assert repr(cuda) == "<BackendConfig use_cuda=True cuda_device=1 use_cudnn='never'>"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"use_gpu": True}, r"unknown keys \['use_gpu'\]; the keys are \["),
        ({"use_chainerx": True}, "use_chainerx=True and chainerx_device .* go together"),
        ({"chainerx_device": "native:0"}, "use_chainerx=True and chainerx_device"),
        ({"cuda_device": 0}, "cuda_device=0 needs use_cuda=True"),
        (
            {"use_cuda": True, "use_chainerx": True, "chainerx_device": "cuda:0"},
            "use_chainerx and use_cuda exclude each other",
        ),
    ],
)
def test_bad_params_are_rejected(params, message):
    with pytest.raises(ValueError, match=message):
        testing.BackendConfig(params)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"use_cudnn": 1}, r"use_cudnn should be one of \('always', 'auto', 'never'\) .*got 1"),
        ({"use_ideep": "sometimes"}, "use_ideep should be one of .*, got 'sometimes'"),
        ({"use_ideep": ["never", "always"]}, r"\['never', 'always'\]; it counts as not 'never'"),
    ],
)
def test_other_ternary_values_warn_and_count_as_not_never(params, message):
    # v7 accepted them (its own test_bilinear.py passes a list): the module must still load.
    with pytest.warns(UserWarning, match=message):
        config = testing.BackendConfig(params)
    key, value = next(iter(params.items()))
    assert getattr(config, key) == value
    assert [m.name for m in config.get_pytest_marks()] == (
        ["skipif"] if key == "use_ideep" and not _marks.ideep_available() else []
    )


def test_params_must_be_a_dict():
    with pytest.raises(TypeError, match="BackendConfig expects a dict of params, got list"):
        testing.BackendConfig([("use_cuda", True)])


@pytest.mark.parametrize(
    ("params", "expected_without", "expected_with"),
    [
        ({}, [], []),
        (
            {"use_cuda": True},
            [("gpu", None), ("skipif", True)],
            [("gpu", None), ("skipif", False)],
        ),
        (
            {"use_cuda": True, "cuda_device": 2},
            [("gpu", None), ("skipif", True)],
            [("gpu", None), ("skipif", True)],  # two GPUs are not enough for device 2
        ),
        (
            {"use_chainerx": True, "chainerx_device": "native:0"},
            [("chainerx", None), ("skipif", True)],
            [("chainerx", None), ("skipif", False)],
        ),
        (
            {"use_chainerx": True, "chainerx_device": "cuda:1"},
            [("chainerx", None), ("skipif", True), ("gpu", None), ("skipif", True)],
            [("chainerx", None), ("skipif", False), ("gpu", None), ("skipif", False)],
        ),
        (
            {"use_cuda": True, "use_cudnn": "always"},
            [("gpu", None), ("skipif", True), ("skipif", True)],
            [("gpu", None), ("skipif", False), ("skipif", False)],
        ),
        ({"use_ideep": "always"}, [("skipif", True)], [("skipif", False)]),
    ],
)
def test_pytest_marks_follow_the_hardware(
    params, expected_without, expected_with, monkeypatch, request
):
    config = testing.BackendConfig(params)
    request.getfixturevalue("no_hardware")
    assert mark_summary(config.get_pytest_marks()) == expected_without
    request.getfixturevalue("all_hardware")
    assert mark_summary(config.get_pytest_marks()) == expected_with


def test_numpy_device_array_and_context():
    backend = needs_backend_module()
    config = testing.BackendConfig({"use_cudnn": "always", "autotune": True})
    assert config.device == backend.get_device("@numpy")
    assert config.xp is numpy
    x = numpy.arange(3, dtype=numpy.float32)
    numpy.testing.assert_array_equal(config.get_array(x), x)
    before = (chainer.config.use_cudnn, chainer.config.autotune)
    with config as entered:
        assert entered is config
        assert (chainer.config.use_cudnn, chainer.config.autotune) == ("always", True)
        assert chainer.config.use_ideep == "never"
    assert (chainer.config.use_cudnn, chainer.config.autotune) == before


@testing.attr.chainerx
def test_chainerx_device_and_array():
    needs_backend_module()
    import chainerx

    config = testing.BackendConfig({"use_chainerx": True, "chainerx_device": "native:0"})
    assert config.xp is chainerx
    array = config.get_array(numpy.ones(2, numpy.float32))
    assert isinstance(array, chainerx.ndarray) and str(array.device) == "native:0"


@testing.attr.gpu
def test_cuda_device_and_array():
    needs_backend_module()
    import cupy

    config = testing.BackendConfig({"use_cuda": True})
    assert config.xp is cupy
    assert isinstance(config.get_array(numpy.ones(2, numpy.float32)), cupy.ndarray)


# inject_backend_tests on classes


PARAMS = [{}, {"use_chainerx": True, "chainerx_device": "native:0"}]


def test_every_test_method_gets_every_backend(fake_module, run_unittest, no_hardware):
    seen = []
    base = fake_module.make_class(
        test_a=lambda self, backend_config: seen.append(("a", backend_config.get_func_str())),
        test_b=lambda self, backend_config: seen.append(("b", backend_config.use_chainerx)),
        helper=lambda self: None,
    )
    record = testing.inject_backend_tests(None, PARAMS)(base)
    names = ["TestFoo_numpy", "TestFoo_use_chainerx_true__chainerx_device_native_0"]
    assert fake_module.class_names() == sorted(names)
    numpy_class = fake_module.get("TestFoo_numpy")
    run_unittest([numpy_class])
    assert sorted(seen) == [("a", "numpy"), ("b", False)]
    chainerx_class = fake_module.get(names[1])
    assert mark_summary(chainerx_class.test_a.pytestmark) == [
        ("chainerx", None),
        ("skipif", True),
    ]
    assert len(record.classes) == 2


def test_listed_methods_get_backends_and_the_others_run_once(fake_module):
    base = fake_module.make_class(
        test_a=lambda self, backend_config: None,
        test_plain=lambda self: None,
    )
    testing.inject_backend_tests(["test_a"], [{}])(base)
    assert fake_module.class_names() == ["TestFoo_no_backend", "TestFoo_numpy"]
    plain = fake_module.get("TestFoo_no_backend")
    injected = fake_module.get("TestFoo_numpy")
    assert plain.test_a is None and callable(plain.test_plain)
    assert injected.test_plain is None and callable(injected.test_a)
    assert unittest.defaultTestLoader.getTestCaseNames(plain) == ["test_plain"]
    assert unittest.defaultTestLoader.getTestCaseNames(injected) == ["test_a"]


def test_injected_methods_hide_backend_config_from_pytest(fake_module):
    def test_a(self, backend_config, tmp_path):
        return backend_config, tmp_path

    base = fake_module.make_class(bases=(), test_a=test_a)
    testing.inject_backend_tests(None, [{}])(base)
    injected = fake_module.get("TestFoo_numpy").test_a
    assert list(inspect.signature(injected).parameters) == ["self", "tmp_path"]
    config, path = injected(object(), "p")
    assert isinstance(config, testing.BackendConfig) and path == "p"


def test_a_wrapped_method_taking_args_gets_the_config_first(fake_module):
    # v7 suites decorate test methods with wrappers of signature (self, *args, **kwargs).
    def wrapper(self, *args, **kwargs):
        return args, kwargs

    base = fake_module.make_class(bases=(), test_a=wrapper)
    testing.inject_backend_tests(None, [{}])(base)
    injected = fake_module.get("TestFoo_numpy").test_a
    assert list(inspect.signature(injected).parameters) == ["self", "kwargs"]
    args, kwargs = injected(object(), extra=1)
    assert len(args) == 1 and isinstance(args[0], testing.BackendConfig) and kwargs == {"extra": 1}


def test_marks_of_the_original_method_are_kept(fake_module, no_hardware):
    @testing.attr.slow
    def test_a(self, backend_config):
        pass

    base = fake_module.make_class(test_a=test_a)
    testing.inject_backend_tests(None, [{"use_cuda": True}])(base)
    method = fake_module.get("TestFoo_use_cuda_true").test_a
    assert mark_summary(method.pytestmark) == [("slow", None), ("gpu", None), ("skipif", True)]


def test_inject_stacks_with_parameterize(fake_module):
    base = fake_module.make_class(test_a=lambda self, backend_config: None)
    record = testing.parameterize({"n": 1}, {"n": 2})(
        testing.inject_backend_tests(None, PARAMS)(base)
    )
    assert len(record.classes) == 4
    assert "TestFoo_numpy_param_1_{n=2}" in fake_module.class_names()


def test_inject_errors(fake_module):
    with pytest.raises(TypeError, match="method_names must be None or a list of names, got str"):
        testing.inject_backend_tests("test_a", [{}])
    with pytest.raises(TypeError, match="params must be a list of dicts, got dict"):
        testing.inject_backend_tests(None, {})
    with pytest.raises(ValueError, match="unknown keys"):
        testing.inject_backend_tests(None, [{"bogus": 1}])
    base = fake_module.make_class(test_a=lambda self, backend_config: None)
    with pytest.raises(ValueError, match=r"TestFoo has no test methods \['test_zz'\]"):
        testing.inject_backend_tests(["test_zz"], [{}])(base)
    base = fake_module.make_class(test_a=lambda self: None)
    with pytest.raises(ValueError, match=r"must take the backend config as its argument"):
        testing.inject_backend_tests(None, [{}])(base)
    with pytest.raises(TypeError, match="decorates a test class or function, got int"):
        testing.inject_backend_tests(None, [{}])(5)


# inject_backend_tests on functions


def test_inject_on_a_function_parametrizes_backend_config(no_hardware):
    def test_f(backend_config):
        pass

    (mark,) = testing.inject_backend_tests(None, PARAMS)(test_f).pytestmark
    assert mark.name == "parametrize" and mark.args[0] == "backend_config"
    numpy_param, chainerx_param = mark.args[1]
    assert numpy_param.id == "numpy" and list(numpy_param.marks) == []
    assert chainerx_param.values[0].use_chainerx is True
    assert mark_summary(chainerx_param.marks) == [("chainerx", None), ("skipif", True)]


def test_inject_on_a_function_takes_no_method_names():
    def test_f(backend_config):
        pass

    with pytest.raises(ValueError, match="give None when decorating the function test_f"):
        testing.inject_backend_tests(["test_f"], [{}])(test_f)


INJECTED_SOURCE = """
import unittest
from chainer import testing

PARAMS = [{}, {'use_cuda': True}, {'use_chainerx': True, 'chainerx_device': 'native:0'}]

@testing.inject_backend_tests(['test_config'], PARAMS)
class TestUnit(unittest.TestCase):
    def test_config(self, backend_config):
        assert isinstance(backend_config, testing.BackendConfig)

    def test_once(self):
        pass

@testing.inject_backend_tests(None, PARAMS)
def test_function(backend_config):
    assert isinstance(backend_config, testing.BackendConfig)
"""


def test_pytest_runs_injected_tests_and_skips_missing_hardware(run_pytest):
    chainerx_state = "PASSED" if _marks.chainerx_available() else "SKIPPED"
    gpu_state = "PASSED" if _marks.gpu_count() else "SKIPPED"
    run = run_pytest(INJECTED_SOURCE)
    assert run.outcomes == {
        "TestUnit_no_backend::test_once": "PASSED",
        "TestUnit_numpy::test_config": "PASSED",
        "TestUnit_use_cuda_true::test_config": gpu_state,
        "TestUnit_use_chainerx_true__chainerx_device_native_0::test_config": chainerx_state,
        "test_function[numpy]": "PASSED",
        "test_function[use_cuda_true]": gpu_state,
        "test_function[use_chainerx_true__chainerx_device_native_0]": chainerx_state,
    }, run.output


def test_gpu_and_chainerx_markers_deselect_injected_tests(run_pytest):
    run = run_pytest(INJECTED_SOURCE, "-m", "not gpu and not chainerx")
    assert run.outcomes == {
        "TestUnit_no_backend::test_once": "PASSED",
        "TestUnit_numpy::test_config": "PASSED",
        "test_function[numpy]": "PASSED",
    }, run.output
