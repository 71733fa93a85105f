import subprocess
import sys

import pytest

from chainer import testing

# The public names of chainer.testing in Chainer 7.8.1 (plus the documented ``condition``
# module), except those other parts of the project provide: the FunctionTestCase/LinkTestCase
# family (chainer.testing.function_link) and distribution_unittest (needs chainer.distributions).
PUBLIC_NAMES = [
    "BackendConfig",
    "array",
    "assert_allclose",
    "assert_warns",
    "attr",
    "backend",
    "condition",
    "fix_random",
    "from_pytest_parameterize",
    "generate_matrix",
    "generate_seed",
    "get_trainer_with_mock_updater",
    "helper",
    "inject_backend_tests",
    "matrix",
    "parameterize",
    "parameterize_pytest",
    "parameterized",
    "patch",
    "product",
    "product_dict",
    "random",
    "run_module",
    "save_and_load",
    "save_and_load_hdf5",
    "save_and_load_npz",
    "serializer",
    "training",
    "unary_math_function_test",
    "unary_math_function_unittest",
    "with_requires",
    "without_requires",
]


def test_every_spec_name_is_exported():
    assert [name for name in PUBLIC_NAMES if not hasattr(testing, name)] == []


def test_import_is_light():
    code = (
        "import sys, chainer.testing\n"
        "print(','.join(m for m in ('pytest', 'cupy', 'chainerx', 'h5py') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_run_module_does_nothing_when_imported():
    assert testing.run_module("some.module", __file__) is None


@pytest.mark.parametrize(("body", "status"), [("assert True", 0), ("assert False", 1)])
def test_run_module_runs_the_file_as_a_script(tmp_path, body, status):
    script = tmp_path / "test_script.py"
    script.write_text(
        "from chainer import testing\n\n"
        f"def test_it():\n    {body}\n\n"
        "testing.run_module(__name__, __file__)\n"
    )
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == status, result.stdout + result.stderr
    assert "test_script.py::test_it" in result.stdout
