"""The imported Chain: parameter names, training, persistents, inputs, serialization,
Shape-based subgraphs with a dynamic batch, Dropout in train mode."""

from __future__ import annotations

import numpy as np
import onnx_import_node_support as support
import pytest
from onnx import TensorProto, helper, numpy_helper

import chainer
import chainer.functions as F
import onnx_chainer

rand = support.rand


def _graph_model(nodes, inputs, outputs, initializers, opset=13):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def _float(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def _init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def _sum_of(names):
    """A model adding every initializer in ``names`` (all of shape (2,)) to its input."""
    nodes, previous = [], "x"
    for i, name in enumerate(names):
        nodes.append(helper.make_node("Add", [previous, name], [f"s{i}"]))
        previous = f"s{i}"
    inits = [_init(name, rand(2, seed=i)) for i, name in enumerate(names)]
    return _graph_model(nodes, [_float("x", [2])], [_float(previous, [2])], inits)


def test_parameter_names_follow_the_onnx_names():
    names = ["layer1.0.conv.weight", "layer1.0.conv.bias", "fc/kernel:0", "onnx::MatMul_12"]
    names += ["params", "a.b", "a.b.c", "7up"]
    imported = onnx_chainer.import_model(_sum_of(names))
    assert sorted(name for name, _ in imported.namedparams()) == sorted(
        [
            "/layer1_0/conv/weight",
            "/layer1_0/conv/bias",
            "/fc/kernel_0",
            "/onnx__MatMul_12",
            "/params_",  # Chain.params is a method
            "/a_b",  # a.b is also the parent of a.b.c
            "/a/b/c",
            "/_7up",
        ]
    )
    assert isinstance(imported.layer1_0.conv.weight, chainer.Parameter)


def test_float_initializers_train_and_the_rest_are_persistent():
    nodes = [
        helper.make_node("Reshape", ["x", "shape"], ["flat"]),
        helper.make_node("Gemm", ["flat", "fc.weight", "fc.bias"], ["h"], transB=1),
        helper.make_node("BatchNormalization", ["h4", "bn.g", "bn.b", "bn.mean", "bn.var"], ["y"]),
    ]
    nodes.insert(2, helper.make_node("Unsqueeze", ["h", "axes"], ["h4"]))
    inits = [
        _init("shape", np.array([2, -1], np.int64)),
        _init("fc.weight", rand(3, 4)),
        _init("fc.bias", rand(3, seed=1)),
        _init("axes", np.array([2], np.int64)),
        _init("bn.g", rand(3, seed=2)),
        _init("bn.b", rand(3, seed=3)),
        _init("bn.mean", rand(3, seed=4)),
        _init("bn.var", rand(3, low=0.5, high=1.5, seed=5)),
    ]
    model = _graph_model(nodes, [_float("x", [2, 2, 2])], [_float("y", [2, 3, 1])], inits)
    imported = onnx_chainer.import_model(model)
    params = sorted(name for name, _ in imported.namedparams())
    assert params == ["/bn/b", "/bn/g", "/fc/bias", "/fc/weight"]
    assert set(imported._persistent) == {"shape", "axes"}
    assert set(imported.bn._persistent) == {"mean", "var"}

    optimizer = chainer.optimizers.SGD(lr=0.1)
    optimizer.setup(imported)
    x = rand(2, 2, 2, seed=6)
    before = imported.fc.weight.array.copy()
    loss = F.sum(imported(x) ** 2)
    imported.cleargrads()
    loss.backward()
    assert imported.fc.weight.grad is not None and np.abs(imported.fc.weight.grad).sum() > 0
    optimizer.update()
    np.testing.assert_allclose(imported.fc.weight.array, before - 0.1 * imported.fc.weight.grad)
    assert float(F.sum(imported(x) ** 2).array) < float(loss.array)


def test_serialization_round_trip(tmp_path):
    model = _sum_of(["w.a", "w.b"])
    imported = onnx_chainer.import_model(model)
    imported.w.a.array[...] = [5, 6]
    chainer.serializers.save_npz(tmp_path / "m.npz", imported)
    fresh = onnx_chainer.import_model(model)
    chainer.serializers.load_npz(tmp_path / "m.npz", fresh)
    x = rand(2, seed=9)
    np.testing.assert_array_equal(fresh(x).array, imported(x).array)


def test_inputs_by_position_or_name_and_clear_errors():
    nodes = [helper.make_node("Sub", ["a", "b"], ["d"]), helper.make_node("Neg", ["d"], ["n"])]
    model = _graph_model(
        nodes, [_float("a", [2]), _float("b", [2])], [_float("d", [2]), _float("n", [2])], []
    )
    imported = onnx_chainer.import_model(model)
    a, b = rand(2), rand(2, seed=1)
    d, n = imported(a, b)
    np.testing.assert_allclose(d.array, a - b)
    np.testing.assert_allclose(n.array, b - a)
    np.testing.assert_allclose(imported(b=b, a=a)[0].array, a - b)
    assert imported.onnx_input_names == ("a", "b")
    with pytest.raises(TypeError, match=r"missing model inputs \['b'\]"):
        imported(a)
    with pytest.raises(TypeError, match="takes 2 inputs"):
        imported(a, b, a)
    with pytest.raises(TypeError, match="unexpected or repeated input 'c'"):
        imported(a, c=b)


def _dynamic_batch_model():
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus_one"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["flat"]),
        helper.make_node("Gemm", ["flat", "w"], ["y"], transB=1),
    ]
    inits = [
        _init("zero", np.array(0, np.int64)),
        _init("axes", np.array([0], np.int64)),
        _init("minus_one", np.array([-1], np.int64)),
        _init("w", rand(3, 6)),
    ]
    return _graph_model(nodes, [_float("x", ["batch", 2, 3])], [_float("y", ["batch", 3])], inits)


@pytest.mark.parametrize("batch", [1, 4])
def test_shape_subgraph_follows_the_batch(batch):
    model = _dynamic_batch_model()
    x = rand(batch, 2, 3, seed=batch)
    imported = onnx_chainer.import_model(model)
    expected = support.run_onnxruntime(model, {"x": x})[0]
    y = imported(x)
    np.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    y.grad = np.ones_like(y.array)
    y.backward()
    expected_grad = np.ones((batch, 3)).T @ x.reshape(batch, 6)
    np.testing.assert_allclose(imported.w.grad, expected_grad, rtol=1e-5)


def test_dropout_follows_chainer_train_mode():
    node = helper.make_node("Dropout", ["x"], ["y"], ratio=0.5)
    model = _graph_model([node], [_float("x", [1000])], [_float("y", [1000])], [], opset=7)
    imported = onnx_chainer.import_model(model)
    x = np.ones(1000, np.float32)
    with chainer.using_config("train", False):
        np.testing.assert_array_equal(imported(x).array, x)
    with chainer.using_config("train", True):
        y = imported(x).array
    assert set(np.unique(y)) == {0.0, 2.0}


def test_model_from_file_path(tmp_path):
    model = _sum_of(["w"])
    path = tmp_path / "m.onnx"
    path.write_bytes(model.SerializeToString())
    for source in (path, str(path), path.read_bytes()):
        imported = onnx_chainer.import_model(source)
        np.testing.assert_allclose(imported(np.zeros(2, np.float32)).array, rand(2, seed=0))


def test_initializers_listed_as_graph_inputs_are_parameters_not_inputs():
    # IR version 3 models (opsets 7-8 of the model zoo) list every initializer as an input.
    model = _sum_of(["w"])
    model.graph.input.append(_float("w", [2]))
    model.ir_version = 3
    imported = onnx_chainer.import_model(model)
    assert imported.onnx_input_names == ("x",)
    assert [name for name, _ in imported.namedparams()] == ["/w"]
    np.testing.assert_allclose(imported(np.zeros(2, np.float32)).array, rand(2, seed=0))


def test_copies_run_independently():
    imported = onnx_chainer.import_model(_sum_of(["w"]))
    clone = imported.copy(mode="copy")
    clone.w.array[...] = 0
    x = np.ones(2, np.float32)
    np.testing.assert_array_equal(clone(x).array, x)
    np.testing.assert_allclose(imported(x).array, x + rand(2, seed=0))
