"""global_except_hook and testing.get_device."""

import os
import subprocess
import sys

import pytest

import chainermn


def test_add_hook_installs_an_excepthook_that_aborts(monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    chainermn.global_except_hook.add_hook()
    assert sys.excepthook is chainermn.global_except_hook._abort_on_exception


def test_an_uncaught_exception_aborts_the_process_with_status_1():
    code = "import chainermn; chainermn.global_except_hook.add_hook(); raise ValueError('boom')"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "[rank 0] chainermn: uncaught exception on rank 0 of 1" in result.stderr
    assert "[rank 0] ValueError: boom" in result.stderr


def test_the_environment_variable_installs_the_hook_at_import():
    code = "import sys, chainermn; print(sys.excepthook.__name__)"
    env = {**os.environ, "CHAINERMN_FORCE_ABORT_ON_EXCEPTION": "1"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env
    )
    assert result.stdout.strip() == "_abort_on_exception", result.stderr


@pytest.mark.parametrize(("args", "name"), [((), "@numpy"), ((None, True), "native:0")])
def test_get_device_on_the_cpu(args, name):
    if args and args[1]:
        pytest.importorskip("chainerx")
    assert chainermn.testing.get_device(*args).name == name
