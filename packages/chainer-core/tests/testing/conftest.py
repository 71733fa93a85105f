"""Fixtures for testing chainer.testing: running a generated test file under its own pytest."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import textwrap
import types
import unittest
from dataclasses import dataclass

import pytest

# The same strictness as the repository's root configuration, so that generated tests meet it.
_INI = """\
[pytest]
addopts = --strict-markers --strict-config --import-mode=importlib -p no:cacheprovider
markers =
    gpu: needs a CUDA device
    slow: takes more than a few seconds
    mpi: runs under mpiexec
    chainerx: needs chainerx
filterwarnings = error
"""

_RESULT_LINE = re.compile(r"^test_generated\.py::(.*?) (PASSED|FAILED|SKIPPED|ERROR)(?: |$)")


@dataclass
class PytestRun:
    returncode: int
    outcomes: dict[str, str]  # "Class::test" or "test" -> PASSED / FAILED / SKIPPED / ERROR
    output: str

    def count(self, outcome: str) -> int:
        return sum(1 for value in self.outcomes.values() if value == outcome)


@pytest.fixture
def run_pytest(tmp_path, monkeypatch):
    """Write ``source`` as a test module in a fresh directory and run pytest on it."""
    monkeypatch.delenv("CHAINER_TEST_GPU_LIMIT", raising=False)

    def run(source: str, *args: str) -> PytestRun:
        (tmp_path / "pytest.ini").write_text(_INI)
        (tmp_path / "test_generated.py").write_text(textwrap.dedent(source))
        process = subprocess.run(
            [sys.executable, "-m", "pytest", "-v", "test_generated.py", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        output = process.stdout + process.stderr
        outcomes = {}
        for line in output.splitlines():
            match = _RESULT_LINE.match(line)
            if match:
                outcomes[match.group(1)] = match.group(2)
        return PytestRun(process.returncode, outcomes, output)

    return run


class FakeTestModule:
    """A module registered in ``sys.modules`` for classes whose decorators generate classes."""

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def make_class(self, name="TestFoo", bases=(unittest.TestCase,), **members) -> type:
        return type(name, bases, {"__module__": self.module.__name__, **members})

    def class_names(self) -> list[str]:
        return sorted(name for name, value in vars(self.module).items() if isinstance(value, type))

    def get(self, name: str) -> type:
        return getattr(self.module, name)


@pytest.fixture
def fake_module(monkeypatch):
    module = types.ModuleType("fake_test_module")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return FakeTestModule(module)


@pytest.fixture
def run_unittest():
    """Run unittest classes with the standard runner; returns the ``unittest.TestResult``."""

    def run(classes) -> unittest.TestResult:
        loader = unittest.defaultTestLoader
        suite = unittest.TestSuite(loader.loadTestsFromTestCase(cls) for cls in classes)
        return unittest.TextTestRunner(stream=io.StringIO()).run(suite)

    return run
