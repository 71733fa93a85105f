"""Every public module path of Chainer v7.8.1 imports from the installed distributions.

``data/chainer-7.8.1-modules.txt`` lists them (one dotted path a line, private ``_`` modules
left out): code written for Chainer v7 imports these paths directly.
"""

import importlib
import importlib.metadata
import pathlib
import sys
import types

import pytest

MODULE_LIST = pathlib.Path(__file__).parent / "data" / "chainer-7.8.1-modules.txt"

#: Top-level packages shipped by an optional distribution of the umbrella's extras.
OPTIONAL_DISTRIBUTIONS = {
    "chainerx": "chainerx",
    "chainermn": "chainermn",
    "onnx_chainer": "onnx-chainer",
}


def _module_names() -> list[str]:
    return [line.strip() for line in MODULE_LIST.read_text().splitlines() if line.strip()]


def _installed(dist: str) -> bool:
    try:
        importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def test_module_list_is_complete():
    names = _module_names()
    assert len(names) == len(set(names)) == 434
    assert names == sorted(names)


@pytest.mark.parametrize("name", _module_names())
def test_public_module_imports(name):
    dist = OPTIONAL_DISTRIBUTIONS.get(name.partition(".")[0])
    if dist is not None and not _installed(dist):
        pytest.skip(f"{name} ships in {dist}, which is not part of this install")
    module = importlib.import_module(name)
    # ``chainer.cuda`` is v7's alias of ``chainer.backends.cuda``: the same module object.
    assert isinstance(module, types.ModuleType)
    assert sys.modules[name] is module
