"""Chainer's testing kit: parameterized and multi-backend tests, assertions, test annotations.

pytest is imported only by the features that build pytest marks or parametrizations, and
CuPy/ChainerX only when a test asks for them, so importing this package stays cheap.
"""

from __future__ import annotations

import sys

from chainer.testing import (
    array,
    attr,
    backend,
    condition,
    helper,
    matrix,
    parameterized,
    random,
    serializer,
    training,
    unary_math_function_test,
)
from chainer.testing.array import assert_allclose
from chainer.testing.backend import BackendConfig, inject_backend_tests
from chainer.testing.function_link import (
    FunctionTestCase,
    FunctionTestError,
    InitializerArgument,
    LinkInitializersTestCase,
    LinkTestCase,
    LinkTestError,
)
from chainer.testing.helper import assert_warns, patch, with_requires, without_requires
from chainer.testing.matrix import generate_matrix
from chainer.testing.parameterized import (
    from_pytest_parameterize,
    parameterize,
    parameterize_pytest,
    product,
    product_dict,
)
from chainer.testing.random import fix_random, generate_seed
from chainer.testing.serializer import save_and_load, save_and_load_hdf5, save_and_load_npz
from chainer.testing.training import get_trainer_with_mock_updater
from chainer.testing.unary_math_function_test import unary_math_function_unittest


def __getattr__(name: str):
    # distribution_unittest builds pytest marks at import, so it is loaded on first use to
    # keep ``import chainer.testing`` free of pytest.
    if name in ("distribution_test", "distribution_unittest"):
        import importlib

        module = importlib.import_module("chainer.testing.distribution_test")
        return module if name == "distribution_test" else module.distribution_unittest
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run_module(name: str, file: str) -> None:
    """Run the tests of a test file with pytest when that file is executed as a script.

    Put ``testing.run_module(__name__, __file__)`` at the end of a test file; then
    ``python test_foo.py`` runs its tests and exits with pytest's status. Imported as a module
    (``name != '__main__'``) it does nothing.
    """
    if name != "__main__":
        return
    from chainer.testing import _marks

    pytest = _marks.pytest_module("chainer.testing.run_module")
    sys.exit(pytest.main([file, "-v", "-x"]))
