"""Unsupported operators, malformed and hostile files: clear errors, nothing half built,
no file read outside the model's folder."""

from __future__ import annotations

import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import onnx_chainer
from onnx_chainer.importer import ONNXImportError, UnsupportedOperatorError, _model


def _model_of(nodes, inputs, outputs, initializers=(), opset=13, extra_opsets=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    opsets = [helper.make_opsetid("", opset)] + [
        helper.make_opsetid(d, v) for d, v in extra_opsets
    ]
    model = helper.make_model(graph, opset_imports=opsets)
    model.ir_version = 8
    return model


def _info(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def _linear_model(weight=None):
    weight = np.arange(6, dtype=np.float32).reshape(3, 2) if weight is None else weight
    return _model_of(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        [_info("x", [1, 3])],
        [_info("y", [1, 2])],
        [numpy_helper.from_array(weight, "w")],
    )


def test_unsupported_operators_are_all_named_before_anything_is_built(monkeypatch):
    built = []
    monkeypatch.setattr(_model, "ImportedModel", lambda *a, **k: built.append(a))
    model = _model_of(
        [
            helper.make_node("Relu", ["x"], ["a"]),
            helper.make_node("TfIdfVectorizer", ["a"], ["b"]),
            helper.make_node("MyOp", ["b"], ["y"], domain="com.example"),
        ],
        [_info("x", [2])],
        [_info("y", [2])],
        extra_opsets=[("com.example", 3)],
    )
    with pytest.raises(UnsupportedOperatorError) as info:
        onnx_chainer.import_model(model)
    message = str(info.value)
    assert "TfIdfVectorizer (domain 'ai.onnx', opset 13)" in message
    assert "MyOp (domain 'com.example', opset 3)" in message
    assert "Supported at opset 13: Abs, Acos," in message and "Relu" in message
    assert "Gelu" not in message.split("Supported")[1]  # Gelu needs opset 20
    assert built == []


def test_operator_newer_than_the_model_opset_is_unsupported():
    model = _model_of(
        [helper.make_node("Gelu", ["x"], ["y"])], [_info("x", [2])], [_info("y", [2])]
    )
    with pytest.raises(UnsupportedOperatorError, match=r"Gelu \(domain 'ai.onnx', opset 13\)"):
        onnx_chainer.import_model(model)


@pytest.mark.parametrize("opset", [6, onnx_chainer.importer.MAXIMUM_OPSET_VERSION + 1])
def test_opset_out_of_range(opset):
    model = _model_of(
        [helper.make_node("Relu", ["x"], ["y"])], [_info("x", [2])], [_info("y", [2])]
    )
    model.opset_import[0].version = opset
    with pytest.raises(UnsupportedOperatorError, match=f"opset {opset} .*supports opsets 7 to"):
        onnx_chainer.import_model(model)


def test_unsupported_option_names_the_node():
    node = helper.make_node("Resize", ["x", "", "s"], ["y"], mode="cubic")
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "s")
    model = _model_of([node], [_info("x", [1, 1, 2, 2])], [_info("y", None)], [scales])
    imported = onnx_chainer.import_model(model, check=False)
    with pytest.raises(UnsupportedOperatorError, match=r"Resize node .*mode 'cubic'"):
        imported(np.zeros((1, 1, 2, 2), np.float32))


def test_wrong_source_type():
    with pytest.raises(TypeError, match="path .*bytes or an onnx.ModelProto, got int"):
        onnx_chainer.import_model(42)


def test_missing_file(tmp_path):
    with pytest.raises(ONNXImportError, match="no ONNX model file"):
        onnx_chainer.import_model(tmp_path / "absent.onnx")


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.9, 0.99])
def test_truncated_protobuf(tmp_path, fraction):
    data = _linear_model().SerializeToString()
    path = tmp_path / "cut.onnx"
    path.write_bytes(data[: int(len(data) * fraction)])
    with pytest.raises(ONNXImportError, match="not a valid ONNX model|invalid"):
        onnx_chainer.import_model(path)


def test_garbage_bytes():
    with pytest.raises(ONNXImportError, match="not a valid ONNX model"):
        onnx_chainer.import_model(b"\xff\xfe not a protobuf at all")


def test_attribute_of_the_wrong_type():
    node = helper.make_node("Flatten", ["x"], ["y"], axis=1.5)
    model = _model_of([node], [_info("x", [2, 3])], [_info("y", [2, 3])])
    with pytest.raises(ONNXImportError, match="invalid"):
        onnx_chainer.import_model(model)  # the checker refuses it
    imported = onnx_chainer.import_model(model, check=False)
    with pytest.raises(ONNXImportError, match="attribute 'axis' must be int, got 1.5"):
        imported(np.zeros((2, 3), np.float32))


def test_tensor_data_disagreeing_with_its_shape():
    model = _linear_model()
    model.graph.initializer[0].dims[:] = [3, 5]
    with pytest.raises(ONNXImportError, match=r"'w' declares shape \(3, 5\).*holds 24 bytes"):
        onnx_chainer.import_model(model, check=False)


def test_huge_declared_shape_is_refused_without_allocating():
    model = _linear_model()
    model.graph.initializer[0].dims[:] = [2**20, 2**20, 2**20]
    with pytest.raises(ONNXImportError, match="refusing more than"):
        onnx_chainer.import_model(model, check=False)


def test_huge_shape_built_at_run_time_is_refused():
    node = helper.make_node("ConstantOfShape", ["s"], ["y"])
    shape = numpy_helper.from_array(np.array([2**20, 2**20, 2**10], np.int64), "s")
    model = _model_of([node], [], [_info("y", None)], [shape])
    imported = onnx_chainer.import_model(model, check=False)
    with pytest.raises(ONNXImportError, match=r"refusing to build a tensor of shape"):
        imported()


def test_string_tensors_are_refused():
    model = _linear_model()
    model.graph.initializer.append(helper.make_tensor("s", TensorProto.STRING, [1], [b"a"]))
    with pytest.raises(ONNXImportError, match="'s' has element type STRING"):
        onnx_chainer.import_model(model, check=False)


def test_undefined_value_is_reported():
    model = _model_of([helper.make_node("Relu", ["nowhere"], ["y"])], [], [_info("y", [2])])
    with pytest.raises(ONNXImportError, match="reads 'nowhere', which no earlier node"):
        onnx_chainer.import_model(model, check=False)


def _save_with_external_data(folder):
    model = _linear_model()
    onnx.save_model(
        model,
        folder / "m.onnx",
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location="weights.bin",
        size_threshold=0,
    )
    return folder / "m.onnx"


def test_external_data_inside_the_folder_is_read(tmp_path):
    path = _save_with_external_data(tmp_path)
    imported = onnx_chainer.import_model(path)
    y = imported(np.ones((1, 3), np.float32))
    np.testing.assert_array_equal(y.array, [[6, 9]])


def _point_external_data_to(path, location):
    model = onnx.load_model(path, load_external_data=False)
    for entry in model.graph.initializer[0].external_data:
        if entry.key == "location":
            entry.value = location
    onnx.save_model(model, path)


@pytest.mark.parametrize("where", ["parent", "absolute", "symlink"])
def test_external_data_outside_the_folder_is_refused(tmp_path, where):
    folder = tmp_path / "model"
    folder.mkdir()
    path = _save_with_external_data(folder)
    outside = tmp_path / "secret.bin"
    outside.write_bytes((folder / "weights.bin").read_bytes())  # would import if read
    location = {"parent": "../secret.bin", "absolute": str(outside), "symlink": "link.bin"}[where]
    if where == "symlink":
        os.symlink(outside, folder / "link.bin")
    _point_external_data_to(path, location)
    with pytest.raises(ONNXImportError, match="outside the model's folder .*refused"):
        onnx_chainer.import_model(path)


def test_external_data_needs_a_folder_when_given_as_bytes(tmp_path):
    path = _save_with_external_data(tmp_path)
    with pytest.raises(ONNXImportError, match="pass base_dir="):
        onnx_chainer.import_model(path.read_bytes())
    imported = onnx_chainer.import_model(path.read_bytes(), base_dir=tmp_path)
    assert imported(np.ones((1, 3), np.float32)).shape == (1, 2)


def test_external_data_shorter_than_declared(tmp_path):
    path = _save_with_external_data(tmp_path)
    (tmp_path / "weights.bin").write_bytes(b"\0" * 8)
    with pytest.raises(ONNXImportError, match="does not hold the 24 bytes"):
        onnx_chainer.import_model(path)


def test_constant_attribute_tensor_with_a_huge_shape_is_refused_at_import():
    value = TensorProto(name="v", data_type=TensorProto.FLOAT, dims=[2**40], raw_data=b"\0" * 4)
    node = helper.make_node("Constant", [], ["y"], value=value)
    model = _model_of([node], [], [_info("y", [2**40])])
    with pytest.raises(ONNXImportError, match=r"'v' declares shape \(1099511627776,\)"):
        onnx_chainer.import_model(model, check=False)
