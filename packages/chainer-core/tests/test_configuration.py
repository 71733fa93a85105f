"""Global and thread-local configuration, defaults and CHAINER_* environment variables."""

import io
import os
import subprocess
import sys
import threading

import numpy
import pytest

import chainer
from chainer import configuration


def test_documented_defaults():
    g = chainer.global_config
    assert g.train is True
    assert g.enable_backprop is True
    assert g.type_check is True
    assert g.debug is False
    assert g.dtype == numpy.float32
    assert g.use_cudnn == "auto"
    assert g.use_ideep == "never"
    assert g.keep_graph_on_report is False
    assert g.lazy_grad_sum is False
    assert g.cudnn_deterministic is False
    assert g.warn_nondeterministic is False
    assert g.autotune is False
    assert g.in_recomputing is False
    assert g.use_static_graph is True


def test_local_reads_fall_back_to_global():
    chainer.global_config.user_fallback_key = 1
    try:
        assert chainer.config.user_fallback_key == 1
        chainer.global_config.user_fallback_key = 2
        assert chainer.config.user_fallback_key == 2
    finally:
        del chainer.global_config.user_fallback_key
    with pytest.raises(AttributeError, match="user_fallback_key"):
        chainer.config.user_fallback_key  # noqa: B018


def test_local_setting_shadows_global_in_this_thread_only():
    seen = {}
    chainer.config.user_local = "mine"
    try:
        thread = threading.Thread(
            target=lambda: seen.setdefault("v", hasattr(chainer.config, "user_local"))
        )
        thread.start()
        thread.join()
        assert chainer.config.user_local == "mine"
        assert seen["v"] is False
    finally:
        del chainer.config.user_local


def test_using_config_restores_previous_local_value_and_is_per_thread():
    barrier = threading.Barrier(2)
    results = {}

    def worker(name, value):
        with chainer.using_config("train", value):
            barrier.wait()
            results[name] = chainer.config.train
            barrier.wait()
        results[name + "_after"] = chainer.config.train

    threads = [
        threading.Thread(target=worker, args=("a", False)),
        threading.Thread(target=worker, args=("b", True)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {"a": False, "b": True, "a_after": True, "b_after": True}

    chainer.config.train = False
    try:
        with chainer.using_config("train", True):
            assert chainer.config.train is True
        assert chainer.config.train is False
    finally:
        del chainer.config.train
    assert chainer.config.train is True


def test_using_config_restores_on_exception():
    with pytest.raises(RuntimeError), chainer.using_config("debug", True):
        assert chainer.config.debug is True
        raise RuntimeError
    assert chainer.config.debug is False


def test_user_defined_config_objects_are_independent():
    g = configuration.GlobalConfig()
    local = configuration.LocalConfig(g)
    g.user_flag = 3
    assert local.user_flag == 3
    with configuration.using_config("user_flag", 4, local):
        assert local.user_flag == 4
        assert not hasattr(chainer.config, "user_flag")
    assert local.user_flag == 3


def test_show_prints_sorted_keys():
    g = configuration.GlobalConfig()
    g.beta = 2
    g.alpha = 1
    out = io.StringIO()
    g.show(out)
    assert out.getvalue().splitlines() == ["alpha 1", "beta  2"]
    local = configuration.LocalConfig(g)
    local.beta = 5
    out = io.StringIO()
    local.show(out)
    assert out.getvalue().splitlines() == ["alpha 1", "beta  5"]


def test_debug_helpers():
    assert chainer.is_debug() is False
    with chainer.DebugMode(True):
        assert chainer.is_debug() is True
    chainer.set_debug(True)
    try:
        assert chainer.global_config.debug is True
        assert chainer.is_debug() is True
    finally:
        chainer.set_debug(False)


def test_get_dtype():
    assert chainer.get_dtype() == numpy.float32
    assert chainer.get_dtype(numpy.float64) == numpy.float64
    assert chainer.get_dtype(chainer.mixed16) == numpy.float16
    assert chainer.get_dtype(chainer.mixed16, map_mixed16=numpy.float32) == numpy.float32
    with chainer.using_config("dtype", numpy.float16):
        assert chainer.get_dtype() == numpy.float16
    assert repr(chainer.mixed16) == "dtype(mixed16)"


def _run_with_env(env_updates, code):
    env = dict(os.environ)
    env.update(env_updates)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


@pytest.mark.parametrize(
    ("env", "key", "expected"),
    [
        ({"CHAINER_DEBUG": "1"}, "debug", "True"),
        ({"CHAINER_TYPE_CHECK": "0"}, "type_check", "False"),
        ({"CHAINER_KEEP_GRAPH_ON_REPORT": "1"}, "keep_graph_on_report", "True"),
        ({"CHAINER_LAZY_GRAD_SUM": "1"}, "lazy_grad_sum", "True"),
        ({"CHAINER_WARN_NONDETERMINISTIC": "1"}, "warn_nondeterministic", "True"),
        (
            {"CHAINER_CUDNN_FAST_BATCH_NORMALIZATION": "1"},
            "cudnn_fast_batch_normalization",
            "True",
        ),
        ({"CHAINER_USE_CUDNN": "never"}, "use_cudnn", "never"),
        ({"CHAINER_USE_IDEEP": "auto"}, "use_ideep", "auto"),
        ({"CHAINER_DTYPE": "float64"}, "dtype", "float64"),
        ({"CHAINER_DTYPE": "mixed16"}, "dtype", "dtype(mixed16)"),
    ],
)
def test_environment_variables_set_defaults(env, key, expected):
    out = _run_with_env(
        env,
        f"import chainer; print(repr(chainer.config.{key}) "
        f"if '{key}' == 'dtype' and chainer.config.{key} is chainer.mixed16 "
        f"else chainer.config.{key})",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == expected


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"CHAINER_DEBUG": "yes"}, "CHAINER_DEBUG must be '0' or '1', got 'yes'"),
        ({"CHAINER_DTYPE": "int8"}, "CHAINER_DTYPE must be one of"),
        ({"CHAINER_USE_CUDNN": "sometimes"}, "CHAINER_USE_CUDNN must be one of"),
    ],
)
def test_invalid_environment_values_fail_clearly(env, message):
    out = _run_with_env(env, "import chainer")
    assert out.returncode != 0
    assert "ValueError" in out.stderr
    assert message in out.stderr
