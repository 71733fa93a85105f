"""Each distribution provides the public modules and names of Chainer v7.8.1 it owns.

Reads ``ci/public-names.json`` (see ``ci/public_names.py``), so it needs no API listing; needs
the distributions installed (the ``dev`` session). A distribution that is not importable here
is skipped. Names we deliberately or not yet provide are in ``KNOWN_GAPS`` with the reason:
the test fails when another name goes missing, and when a gap is closed (remove it there).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "ci"), str(ROOT / "docs")]
public_names = importlib.import_module("public_names")
generate_reference = importlib.import_module("generate_reference")  # its lookup of a name

TABLE: dict[str, dict[str, list[str]]] = json.loads(public_names.NAMES_FILE.read_text())
# The top-level package whose import tells whether a distribution is installed.
TOP_LEVEL = {
    "chainer-core": "chainer",
    "chainer-links": "chainer.functions",
    "chainer-training": "chainer.training",
    "chainermn": "chainermn",
    "chainerx": "chainerx",
    "onnx-chainer": "onnx_chainer",
}
# "module" or "module.name" -> why it is absent.
KNOWN_GAPS = {
    "chainer.get_compute_mode": "not provided yet",
    "chainer.links.TheanoFunction": "Theano is not packaged for current Pythons",
}
_lookup = generate_reference.public_object
_ABSENT = generate_reference.MISSING


def _absent_paths(dist: str) -> set[str]:
    absent = set()
    for module_name, names in TABLE[dist].items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            absent.add(module_name)
            continue
        absent.update(
            f"{module_name}.{name}"
            for name in names
            if _lookup(module, module_name, name) is _ABSENT
        )
    return absent


@pytest.mark.parametrize("dist", sorted(TABLE))
def test_public_modules_and_names_are_provided(dist: str) -> None:
    pytest.importorskip(TOP_LEVEL[dist], reason=f"{dist} is not installed here")
    absent = _absent_paths(dist)
    expected = {path for path in KNOWN_GAPS if public_names.owner(path) == dist}
    new = sorted(absent - set(KNOWN_GAPS))
    closed = sorted(expected - absent)
    assert not new, f"{dist} lacks these public names of Chainer v7.8.1: {new}"
    assert not closed, f"{dist} now provides {closed}: remove them from KNOWN_GAPS"


@pytest.mark.parametrize("dist", sorted(TABLE))
def test_dunder_all_names_exist(dist: str) -> None:
    pytest.importorskip(TOP_LEVEL[dist], reason=f"{dist} is not installed here")
    broken = []
    for module_name in TABLE[dist]:
        module = importlib.import_module(module_name) if module_name not in KNOWN_GAPS else None
        for name in getattr(module, "__all__", ()):
            if _lookup(module, module_name, name) is _ABSENT:
                broken.append(f"{module_name}.{name}")
    assert not broken, f"names in __all__ that do not exist: {broken}"


@pytest.mark.skipif(
    not (public_names.API_DIR / public_names.MODULES_FILE).is_file(),
    reason=f"no API listing in {public_names.API_DIR}",
)
def test_names_file_is_current() -> None:
    current = public_names.render(public_names.from_listing(public_names.API_DIR))
    assert public_names.NAMES_FILE.read_text() == current, (
        "ci/public-names.json is out of date: run python ci/public_names.py"
    )


def test_owner_follows_the_source_tree() -> None:
    assert public_names.owner("chainer") == "chainer-core"
    assert public_names.owner("chainer.functions.activation.relu") == "chainer-links"
    assert public_names.owner("chainer.training.extensions") == "chainer-training"
    with pytest.raises(ValueError, match="no distribution"):
        public_names.owner("theano.tensor")
