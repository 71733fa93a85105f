"""Export -> import round trip: every export test case comes back with the same outputs."""

from __future__ import annotations

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest

import chainer
import onnx_chainer
from onnx_chainer.functions import registered

_CASES_FILE = pathlib.Path(__file__).parents[1] / "functions_tests" / "cases.py"
_spec = importlib.util.spec_from_file_location("export_cases", _CASES_FILE)
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)

OPSETS = sorted({onnx_chainer.MINIMUM_OPSET_VERSION, 11, 13, onnx_chainer.MAXIMUM_OPSET_VERSION})


def _exportable(case_id: str, function_name: str, opset: int) -> bool:
    spec = registered()[function_name]
    low = max(spec.min_opset, cases.MIN_OPSET.get(case_id, 0), cases.INEXACT_BELOW.get(case_id, 0))
    return low <= opset <= spec.max_opset


PARAMS = [
    pytest.param(case_id, build, opset, id=f"{case_id}-opset{opset}")
    for case_id, function_name, build in cases.CASES
    for opset in OPSETS
    if _exportable(case_id, function_name, opset)
]


def assert_round_trip(model, args, opset: int, **tolerance) -> None:
    """Export ``model`` at ``opset``, import it back, compare the outputs with Chainer's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # approximate-export warnings
        onnx_model, inputs, outputs = onnx_chainer.export(
            model, args, opset_version=opset, return_named_inout=True
        )
    imported = onnx_chainer.import_model(onnx_model)
    with chainer.using_config("train", False):
        got = imported(**dict(inputs))
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(outputs)
    for actual, expected in zip(got, outputs.values()):
        expected = np.asarray(expected.array)
        assert actual.shape == expected.shape, (actual.shape, expected.shape)
        if expected.dtype.kind == "f":
            np.testing.assert_allclose(
                actual.array, expected, **(tolerance or {"rtol": 1e-5, "atol": 1e-6})
            )
        else:
            np.testing.assert_array_equal(actual.array, expected)


@pytest.mark.parametrize("case_id,build,opset", PARAMS)
def test_export_case_round_trips(case_id, build, opset):
    model, args = build()
    assert_round_trip(model, args, opset)
