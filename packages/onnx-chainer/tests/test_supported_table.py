"""The README's supported tables are generated from the registries and must not drift."""

from __future__ import annotations

import importlib.util
import pathlib

_SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "update_supported_table.py"


def _script():
    spec = importlib.util.spec_from_file_location("update_supported_table", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_table_matches_the_registry():
    script = _script()
    readme = script.README.read_text()
    assert script.render(readme) == readme, (
        "README.md is stale: run python packages/onnx-chainer/scripts/update_supported_table.py"
    )


def test_table_lists_every_converter_with_its_opsets():
    from onnx_chainer.functions import registered
    from onnx_chainer.functions._registry import supported_table

    table = supported_table()
    for name, spec in registered().items():
        assert f"| `{name}` | {spec.min_opset}-{spec.max_opset} |" in table


def test_table_lists_every_importer_with_its_opsets():
    from onnx_chainer.importer import registered_importers, supported_table

    table = supported_table()
    for name, spec in registered_importers().items():
        assert f"| {spec.family} | `{name}` | {spec.min_opset}-{spec.max_opset} |" in table
