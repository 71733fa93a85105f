"""The umbrella set: core, links and training share one ``chainer`` namespace."""

import importlib
import importlib.metadata
import pathlib
import re

import pytest

import chainer
from chainer import _siblings


@pytest.mark.parametrize("name", sorted(_siblings.PROVIDERS))
def test_every_sibling_subpackage_resolves(name):
    module = getattr(chainer, name)
    assert module.__name__ == f"chainer.{name}"
    assert module is importlib.import_module(f"chainer.{name}")


def _shipped(dist: str) -> set[str]:
    return {str(f).replace("\\", "/") for f in importlib.metadata.files(dist) or []}


def test_only_core_ships_the_package_init():
    for dist in ("chainer-links", "chainer-training"):
        assert "chainer/__init__.py" not in _shipped(dist)
    origin = pathlib.Path(chainer.__file__).resolve()
    core = importlib.metadata.distribution("chainer-core")
    core_files = {pathlib.Path(core.locate_file(f)).resolve() for f in core.files or []}
    # A wheel install lists the file; an editable one points into packages/chainer-core/src.
    assert origin in core_files or "chainer-core" in origin.parts


def test_subpackages_come_from_their_distributions():
    links_dir = pathlib.Path(chainer.links.__file__).parent.parent
    training_dir = pathlib.Path(chainer.training.__file__).parent.parent
    assert str(links_dir) in chainer.__path__
    assert str(training_dir) in chainer.__path__


def test_installed_versions_form_a_compatible_set():
    core = importlib.metadata.version("chainer-core")
    for dist in ("chainer-links", "chainer-training"):
        version = importlib.metadata.version(dist)
        assert _siblings.version_key(version)[:1] == _siblings.version_key(core)[:1]


@pytest.mark.parametrize(
    ("dist", "module"),
    [("chainerx", "chainerx"), ("chainermn", "chainermn"), ("onnx-chainer", "onnx_chainer")],
)
def test_extras_import_when_installed(dist, module):
    try:
        version = importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"{dist} is not part of this install")
    assert importlib.import_module(module).__version__ == version


# Chainer v7's runtime requirements (canonical names) and a module each provides.
V7_RUNTIME_REQUIREMENTS = {
    "filelock": "filelock",
    "protobuf": "google.protobuf",
    "six": "six",
    "typing-extensions": "typing_extensions",
}


def _requirement_names(requirements):
    names = (re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0] for requirement in requirements)
    return {re.sub(r"[-_.]+", "-", name).lower() for name in names}


def test_declares_the_runtime_requirements_of_chainer_v7():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    assert set(V7_RUNTIME_REQUIREMENTS) <= _requirement_names(declared)
    try:
        installed = importlib.metadata.requires("chainer")
    except importlib.metadata.PackageNotFoundError:
        return  # run from the sources: the file above is what gets installed
    assert set(V7_RUNTIME_REQUIREMENTS) <= _requirement_names(installed)
    for module in V7_RUNTIME_REQUIREMENTS.values():
        importlib.import_module(module)
