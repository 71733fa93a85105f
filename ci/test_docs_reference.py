"""The API reference pages cover the public API listing, are current, and nothing is empty.

Needs the listing beside the checkout (``../shared/api/``, or ``$CHAINER_API_LISTING``) and
every distribution installed (the ``dev`` session); skipped without the listing.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
LISTING = pathlib.Path(
    os.environ.get("CHAINER_API_LISTING", ROOT.parent / "shared" / "api" / "chainer-7.8.1.json")
)
pytestmark = pytest.mark.skipif(not LISTING.is_file(), reason=f"no API listing at {LISTING}")

sys.path.insert(0, str(ROOT / "docs"))
generate_reference = importlib.import_module("generate_reference")


def test_pages_are_current(capsys):
    assert generate_reference.main(["--api", str(LISTING), "--check"]) == 0, capsys.readouterr()


def test_every_listed_name_we_provide_is_on_its_page_with_a_docstring():
    undocumented, absent = [], []
    for module_name, names in generate_reference.listed_names(LISTING).items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        page = (ROOT / "docs" / "reference" / f"{module_name}.rst").read_text()
        for name in names:
            obj = generate_reference.public_object(module, module_name, name)
            if obj is generate_reference.MISSING:
                continue
            qualified = f"{module_name}.{name}"
            if qualified not in page:
                absent.append(qualified)
            if inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj):
                doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else obj.__doc__
                if not (doc or "").strip():
                    undocumented.append(qualified)
    assert not absent, f"missing from the reference pages: {absent}"
    assert not undocumented, f"public names without a docstring: {undocumented}"


def test_check_mode_reports_a_stale_page(tmp_path, capsys):
    out = tmp_path / "reference"
    assert generate_reference.main(["--api", str(LISTING), "--out", str(out)]) == 0
    (out / "chainer.rst").write_text("stale\n")
    assert generate_reference.main(["--api", str(LISTING), "--out", str(out), "--check"]) == 1
    printed = capsys.readouterr().out
    assert "out of date" in printed and "chainer.rst" in printed
