"""chainer.warnings and chainer.types."""

import subprocess
import sys
import typing
import warnings

import numpy
import pytest

import chainer.types
import chainer.warnings


def test_performance_warning_is_a_runtime_warning():
    assert issubclass(chainer.warnings.PerformanceWarning, RuntimeWarning)
    with pytest.warns(chainer.warnings.PerformanceWarning, match="slow path"):
        warnings.warn("slow path", chainer.warnings.PerformanceWarning, stacklevel=1)


def test_type_aliases_accept_what_chainer_accepts():
    assert typing.get_args(chainer.types.Shape) == (int, ...)
    assert numpy.dtype in typing.get_args(chainer.types.DTypeSpec)
    assert {a.__forward_arg__ for a in typing.get_args(chainer.types.NdArray)} == {
        "numpy.ndarray",
        "cupy.ndarray",
        "chainerx.ndarray",
    }
    assert str in typing.get_args(chainer.types.DeviceSpec)
    assert chainer.types.AbstractInitializer in typing.get_args(chainer.types.InitializerSpec)
    assert chainer.types.TYPE_CHECKING is False


def test_types_imports_neither_cupy_nor_chainerx():
    code = "import sys, chainer.types; print('cupy' in sys.modules, 'chainerx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_submodules_are_attributes_of_chainer_after_a_plain_import():
    # v7 code reads chainer.warnings.PerformanceWarning etc. after only `import chainer`.
    code = (
        "import chainer; "
        "print(chainer.warnings.PerformanceWarning.__name__, "
        "chainer.types.__name__, chainer.memory_layouts.__name__, "
        "'memory_layouts' in dir(chainer))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["PerformanceWarning", "chainer.types", "chainer.memory_layouts", "True"]
