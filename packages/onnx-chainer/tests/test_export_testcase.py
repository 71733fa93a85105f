"""export_testcase(): ONNX test-case layout that reproduces Chainer's outputs."""

from __future__ import annotations

import os

import numpy as np
import onnx
import onnx.numpy_helper
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer
from onnx_chainer.testing import input_generator
from onnx_chainer.testing.test_onnxruntime import check_model_expect


def _model():
    return chainer.Sequential(
        L.Convolution2D(None, 4, 3, 1, 1), F.relu, L.Linear(None, 5), L.BatchNormalization(5)
    )


def test_layout_and_tensors_reproduce_the_outputs(tmp_path):
    out = tmp_path / "case"
    x = input_generator.increasing(2, 3, 5, 5)
    model = _model()
    onnx_chainer.export_testcase(model, x, str(out), input_names=["x"], output_names=["y"])
    assert sorted(os.listdir(out)) == ["model.onnx", "test_data_set_0"]
    assert sorted(os.listdir(out / "test_data_set_0")) == ["input_0.pb", "output_0.pb"]
    x_tensor = onnx.load_tensor(str(out / "test_data_set_0" / "input_0.pb"))
    y_tensor = onnx.load_tensor(str(out / "test_data_set_0" / "output_0.pb"))
    assert (x_tensor.name, y_tensor.name) == ("x", "y")
    np.testing.assert_array_equal(onnx.numpy_helper.to_array(x_tensor), x)
    with chainer.using_config("train", False):
        expected = model(x).array
    np.testing.assert_allclose(onnx.numpy_helper.to_array(y_tensor), expected, rtol=1e-6)
    check_model_expect(str(out))


def test_default_names_follow_v7(tmp_path):
    onnx_chainer.export_testcase(_model(), input_generator.increasing(1, 3, 4, 4), str(tmp_path))
    data = tmp_path / "test_data_set_0"
    assert onnx.load_tensor(str(data / "input_0.pb")).name == "Input_0"
    assert onnx.load_tensor(str(data / "output_0.pb")).name == "FixedBatchNormalization_0"


def test_output_grad_writes_one_gradient_per_parameter(tmp_path):
    model = _model()
    onnx_chainer.export_testcase(
        model, input_generator.increasing(2, 3, 4, 4), str(tmp_path), output_grad=True
    )
    names = [
        onnx.load_tensor(str(tmp_path / "test_data_set_0" / f"gradient_{i}.pb")).name
        for i in range(6)
    ]
    assert names == ["param" + p.replace("/", "_") for p, _ in model.namedparams()]
    assert not (tmp_path / "test_data_set_0" / "gradient_6.pb").exists()
    for i, (_, param) in enumerate(model.namedparams()):
        path = str(tmp_path / "test_data_set_0" / f"gradient_{i}.pb")
        np.testing.assert_array_equal(
            onnx.numpy_helper.to_array(onnx.load_tensor(path)), param.grad
        )
    assert np.abs(model[0].W.grad).sum() > 0


def test_an_error_leaves_no_directory(tmp_path):
    class NoConverter(chainer.FunctionNode):
        def forward(self, inputs):
            return (inputs[0],)

    out = tmp_path / "case"
    with pytest.raises(ValueError, match="NoConverter"):
        onnx_chainer.export_testcase(
            chainer.Sequential(lambda x: NoConverter().apply((x,))[0]), np.ones(2, "f"), str(out)
        )
    assert list(tmp_path.iterdir()) == []


def test_check_model_expect_detects_a_wrong_output(tmp_path):
    onnx_chainer.export_testcase(chainer.Sequential(F.sigmoid), np.zeros(3, "f"), str(tmp_path))
    onnx_chainer.onnx_helper.write_tensor_pb(
        str(tmp_path / "test_data_set_0" / "output_0.pb"), "Sigmoid_0", np.ones(3, "f")
    )
    with pytest.raises(AssertionError):
        check_model_expect(str(tmp_path))


class _NoConverter(chainer.FunctionNode):
    def forward(self, inputs):
        return (inputs[0] * 2,)


_BAD_EXPORTS = {
    "opset_out_of_range": (
        lambda x: F.relu(x),
        np.ones((2, 3), np.float32),
        {"opset_version": 6},
        ValueError,
        "opset_version must be an int from 7",
    ),
    "non_variable_argument": (
        lambda x: F.relu(x),
        [[1.0, 2.0]],
        {},
        ValueError,
        "must be a chainer.Variable or an array, got list",
    ),
    "unsupported_function": (
        lambda x: _NoConverter().apply((x,))[0],
        np.ones((2, 3), np.float32),
        {},
        onnx_chainer.functions.UnsupportedFunctionError,
        "_NoConverter is not supported by onnx_chainer.*external_converters",
    ),
    "function_newer_than_opset": (
        lambda x: F.sinh(x),
        np.ones((2, 3), np.float32),
        {"opset_version": 8},
        ValueError,
        "Sinh is supported from opset 9, you asked for 8",
    ),
    "inexpressible_arguments": (
        lambda x: F.scatter_add(x, ([0, 0],), np.ones((2, 3), np.float32)),
        np.ones((2, 3), np.float32),
        {"opset_version": 15},
        ValueError,
        "supported from opset 16, you asked for 15",
    ),
}


@pytest.mark.parametrize("case", sorted(_BAD_EXPORTS))
def test_bad_input_writes_nothing(case, tmp_path):
    forward, args, options, error, message = _BAD_EXPORTS[case]
    model = chainer.Sequential(forward)
    with pytest.raises(error, match=message):
        onnx_chainer.export_testcase(model, args, str(tmp_path / "case"), **options)
    with pytest.raises(error, match=message):
        onnx_chainer.export(
            model, args, filename=str(tmp_path / "m.onnx"), no_testcase=True, **options
        )
    assert list(tmp_path.iterdir()) == []
