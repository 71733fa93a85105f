"""Every registered importer has at least one single-node case compared with onnxruntime."""

from __future__ import annotations

import importlib.util
import pathlib

from onnx_chainer.importer import registered_importers

_CASE_MODULES = [
    "test_activation_math",
    "test_array",
    "test_logic_reduce",
    "test_layers",
    "test_resize_rnn",
]


def _node_cases():
    for name in _CASE_MODULES:
        spec = importlib.util.spec_from_file_location(
            f"importer_cases_{name}", pathlib.Path(__file__).with_name(f"{name}.py")
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for value in vars(module).values():
            if isinstance(value, list):
                yield from (case for case in value if hasattr(case, "op"))


def test_every_importer_has_a_single_node_case():
    tested = {case.op for case in _node_cases()}
    untested = sorted(set(registered_importers()) - tested)
    assert not untested, f"importers without a single-node case: {untested}"
