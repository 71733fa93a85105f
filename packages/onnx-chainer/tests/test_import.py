"""onnx_chainer imports against its declared dependencies."""

import importlib.metadata

import onnx

import onnx_chainer


def test_version_matches_distribution():
    assert onnx_chainer.__version__ == importlib.metadata.version("onnx-chainer")


def test_onnxruntime_accepts_the_versions_we_target():
    import numpy as np
    import onnxruntime
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    graph = helper.make_graph([helper.make_node("Neg", ["x"], ["y"])], "neg", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    session = onnxruntime.InferenceSession(model.SerializeToString())
    out = session.run(None, {"x": np.array([1.5, -2.0], dtype=np.float32)})[0]
    np.testing.assert_array_equal(out, np.array([-1.5, 2.0], dtype=np.float32))
