"""chainer._lazy: package attributes declared by an ``__init__.pyi`` stub, imported on access."""

import importlib
import pickle
import sys
import textwrap
import uuid
from unittest import mock

import pytest

from chainer import _lazy

STUB = '''\
"""A docstring; "from .x import y" here is not a statement."""

from . import family as family  # a subpackage
from .family.alpha import Alpha as Alpha, make_alpha as make_alpha
from .family.beta import (
    beta as beta,
    beta_twice as twice,
)
'''


def _write(root, relative, text):
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A fresh importable package laid out as chainer.functions is; yields its name."""
    name = f"lazy_{uuid.uuid4().hex}"
    _write(
        tmp_path,
        f"{name}/__init__.py",
        """
        from chainer import _lazy

        __getattr__, __dir__, __all__ = _lazy.attach_stub(__name__, __file__)
        """,
    )
    _write(tmp_path, f"{name}/__init__.pyi", STUB)
    _write(
        tmp_path,
        f"{name}/family/__init__.py",
        """
        from chainer import _lazy

        __getattr__, __dir__ = _lazy.attach_submodules(__name__)
        """,
    )
    _write(
        tmp_path,
        f"{name}/family/alpha.py",
        """
        class Alpha:
            def __init__(self, value):
                self.value = value


        def make_alpha(value):
            return Alpha(value)
        """,
    )
    _write(
        tmp_path,
        f"{name}/family/beta.py",
        """
        def beta(x):
            return x + 1


        def beta_twice(x):
            return 2 * beta(x)
        """,
    )
    _write(tmp_path, f"{name}/family/_private.py", "VALUE = 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]


def test_read_stub_maps_each_name_to_its_module(tmp_path):
    path = tmp_path / "__init__.pyi"
    path.write_text(STUB)
    assert _lazy.read_stub("pkg", str(path)) == {
        "family": ("pkg", "family"),
        "Alpha": ("pkg.family.alpha", "Alpha"),
        "make_alpha": ("pkg.family.alpha", "make_alpha"),
        "beta": ("pkg.family.beta", "beta"),
        "twice": ("pkg.family.beta", "beta_twice"),
    }


@pytest.mark.parametrize(
    ("text", "reported"),
    [
        ("import os\n", "import os"),
        ("from chainer.x import y as y\n", "from chainer.x import y as y"),
        ("from .a import b as b\nx = 1\n", "from .a import b as b\nx = 1"),
        ("from .a import b as c as d\n", "b as c as d"),
        ("from .a import b,\n    c\n", "from .a import b,\n    c"),
        ("from .a import (b as b\n", "from .a import (b as b"),
        ("from .a import 1b\n", "from .a import 1b as 1b"),
        ("from .a import b as 2\n", "from .a import b as 2"),
        ("from ..a import b\n", "from ..a import b as b"),
        ("from .a-b import c\n", "from .a-b import c as c"),
    ],
)
def test_read_stub_rejects_what_is_not_a_relative_reexport(tmp_path, text, reported):
    path = tmp_path / "__init__.pyi"
    path.write_text(text)
    with pytest.raises(ValueError) as error:
        _lazy.read_stub("pkg", str(path))
    assert str(error.value) == (
        f"{path}: expected only 'from .module import name as name' statements, got {reported!r}"
    )


def test_read_stub_rejects_a_name_exported_twice(tmp_path):
    path = tmp_path / "__init__.pyi"
    path.write_text("from .a import b as b\nfrom .c import b as b\n")
    with pytest.raises(ValueError, match="'b' is exported twice"):
        _lazy.read_stub("pkg", str(path))


def test_names_are_imported_on_first_access_and_kept(package):
    module = importlib.import_module(package)
    assert f"{package}.family.alpha" not in sys.modules
    assert "Alpha" not in vars(module)
    alpha = importlib.import_module(f"{package}.family.alpha")
    assert module.Alpha is alpha.Alpha
    assert vars(module)["Alpha"] is alpha.Alpha  # later reads skip __getattr__
    assert f"{package}.family.beta" not in sys.modules
    assert module.twice(3) == 8
    assert module.twice is importlib.import_module(f"{package}.family.beta").beta_twice
    assert module.family is importlib.import_module(f"{package}.family")


def test_all_dir_and_star_import(package):
    module = importlib.import_module(package)
    assert module.__all__ == ["Alpha", "make_alpha", "beta", "twice"]  # no subpackage
    assert set(module.__all__) <= set(dir(module))
    namespace: dict = {}
    exec(f"from {package} import *", namespace)
    assert namespace["make_alpha"](2).value == 2
    assert namespace["beta"] is importlib.import_module(f"{package}.family.beta").beta
    assert "family" not in namespace


def test_unknown_names_raise_attribute_error(package):
    module = importlib.import_module(package)
    with pytest.raises(AttributeError) as error:
        module.gamma  # noqa: B018
    assert str(error.value) == f"module '{package}' has no attribute 'gamma'"
    assert not hasattr(module, "gamma")
    assert getattr(module, "gamma", None) is None
    with pytest.raises(ImportError, match="cannot import name 'gamma'"):
        exec(f"from {package} import gamma", {})


def test_submodules_are_attributes_of_their_package(package):
    family = importlib.import_module(f"{package}.family")
    assert f"{package}.family.beta" not in sys.modules
    assert family.beta.beta(1) == 2
    assert family.beta is sys.modules[f"{package}.family.beta"]
    assert family._private.VALUE == 3
    assert {"alpha", "beta", "_private"} <= set(dir(family))
    for missing in ("gamma", "__wrapped__"):
        with pytest.raises(AttributeError) as error:
            getattr(family, missing)
        assert str(error.value) == f"module '{package}.family' has no attribute '{missing}'"


def test_attribute_paths_through_unimported_subpackages(package):
    module = importlib.import_module(package)
    assert module.family.alpha.Alpha is module.Alpha


def test_mock_patch_of_a_lazy_name_is_undone(package):
    module = importlib.import_module(package)
    original = importlib.import_module(f"{package}.family.beta").beta
    with mock.patch(f"{package}.beta", return_value=-1):
        assert module.beta(0) == -1
    assert module.beta is original
    with mock.patch(f"{package}.family.beta.beta_twice", return_value=-2):
        assert module.family.beta.beta_twice(0) == -2


def test_objects_pickle_by_their_defining_module(package):
    module = importlib.import_module(package)
    restored = pickle.loads(pickle.dumps(module.make_alpha(5)))
    assert type(restored) is module.Alpha
    assert restored.value == 5
    assert pickle.loads(pickle.dumps(module.twice)) is module.twice
