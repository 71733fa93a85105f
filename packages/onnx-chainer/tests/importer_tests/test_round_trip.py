"""Export -> import round trip: every export test case comes back with the same outputs."""

from __future__ import annotations

import importlib.util
import pathlib

import onnx_import_node_support as support
import pytest

import onnx_chainer
from onnx_chainer.functions import registered

_CASES_FOLDER = pathlib.Path(__file__).parents[1] / "functions_tests"


def _case_modules():
    """Every ``cases*.py`` of the export tests (``cases.py`` and any later additions)."""
    for path in sorted(_CASES_FOLDER.glob("cases*.py")):
        spec = importlib.util.spec_from_file_location(f"export_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module


OPSETS = sorted({onnx_chainer.MINIMUM_OPSET_VERSION, 11, 13, onnx_chainer.MAXIMUM_OPSET_VERSION})


def _exportable(cases, case_id: str, function_name: str, opset: int) -> bool:
    spec = registered()[function_name]
    low = max(spec.min_opset, cases.MIN_OPSET.get(case_id, 0), cases.INEXACT_BELOW.get(case_id, 0))
    return low <= opset <= spec.max_opset


PARAMS = [
    pytest.param(build, opset, id=f"{case_id}-opset{opset}")
    for cases in _case_modules()
    for case_id, function_name, build in cases.CASES
    for opset in OPSETS
    if _exportable(cases, case_id, function_name, opset)
]


@pytest.mark.parametrize("build,opset", PARAMS)
def test_export_case_round_trips(build, opset):
    model, args = build()
    support.assert_round_trip(model, args, opset)
