"""Shared checks: export, validate with onnx.checker (full), run in onnxruntime, compare."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime
import pytest

import chainer
import onnx_chainer

TOLERANCES = {
    np.dtype(np.float16): {"rtol": 1e-2, "atol": 1e-2},
    np.dtype(np.float32): {"rtol": 1e-4, "atol": 1e-5},
    np.dtype(np.float64): {"rtol": 1e-7, "atol": 1e-9},
}


def _flat(outputs):
    if isinstance(outputs, chainer.Variable):
        return [outputs]
    if isinstance(outputs, dict):
        return list(outputs.values())
    return list(outputs)


def _run_onnxruntime(model: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    names = {i.name for i in session.get_inputs()}
    return session.run(None, {k: v for k, v in feeds.items() if k in names})


def _export_and_compare(model, args, opset_version, **kwargs) -> onnx.ModelProto:
    """Export ``model`` at ``opset_version``, check it fully, compare onnxruntime with Chainer."""
    onnx_model, inputs, outputs = onnx_chainer.export(
        model, args, opset_version=opset_version, return_named_inout=True, **kwargs
    )
    onnx.checker.check_model(onnx_model, full_check=True)
    assert onnx_model.opset_import[0].version == opset_version
    actual = _run_onnxruntime(onnx_model, dict(inputs))
    expected = [np.asarray(v.array) for v in outputs.values()]
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected):
        assert got.shape == want.shape, (got.shape, want.shape)
        tolerance = TOLERANCES.get(want.dtype, {"rtol": 0, "atol": 0})
        np.testing.assert_allclose(got, want, **tolerance)
    return onnx_model


@pytest.fixture
def no_experimental_warning():
    original = chainer.disable_experimental_feature_warning
    chainer.disable_experimental_feature_warning = True
    yield
    chainer.disable_experimental_feature_warning = original


@pytest.fixture
def export_and_compare():
    """``export_and_compare(model, args, opset_version, **export_kwargs)`` -> ModelProto."""
    return _export_and_compare


@pytest.fixture
def run_onnxruntime():
    """``run_onnxruntime(model_proto, {name: array})`` -> list of outputs."""
    return _run_onnxruntime
