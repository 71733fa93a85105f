"""Whole models of the export tests round trip: model zoo (random weights), the MNIST MLP, the
LSTM language model."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import onnx_import_node_support as support
import pytest

import chainer.links as L
import onnx_chainer

_TESTS = pathlib.Path(__file__).parents[1]
_spec = importlib.util.spec_from_file_location("export_model_tests", _TESTS / "test_models.py")
export_models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(export_models)

_VISION = {"rtol": 1e-3, "atol": 1e-4}  # deep float32 nets: rounding accumulates


@pytest.mark.parametrize(
    "factory,opset",
    [
        # VGG16's 138M random parameters take ~50 s to create, export and compare on 2 cores.
        pytest.param(lambda: L.VGG16Layers(pretrained_model=None), 28, marks=pytest.mark.slow),
        pytest.param(lambda: L.ResNet50Layers(pretrained_model=None), 28),
        pytest.param(lambda: L.ResNet50Layers(pretrained_model=None), 7, marks=pytest.mark.slow),
        pytest.param(lambda: L.GoogLeNet(pretrained_model=None), 13, marks=pytest.mark.slow),
    ],
    ids=["vgg16", "resnet50", "resnet50-opset7", "googlenet"],
)
def test_model_zoo(factory, opset):
    imported = support.assert_round_trip(factory(), export_models._image(), opset, **_VISION)
    assert sum(p.size for p in imported.params()) > 1_000_000


@pytest.mark.parametrize("opset", [7, 11, onnx_chainer.MAXIMUM_OPSET_VERSION])
def test_mnist_example_mlp(opset):
    example = _TESTS.parents[2] / "examples" / "mnist" / "train_mnist.py"
    if not example.exists():
        pytest.skip("the mnist example is not in this checkout")
    mlp = export_models._load_example(example).MLP(50, 10)
    x = np.random.RandomState(0).rand(3, 64).astype(np.float32)
    imported = support.assert_round_trip(mlp, x, opset)
    assert sorted(name for name, _ in imported.namedparams()) == [
        f"/param_{layer}_{kind}" for layer in ("l1", "l2", "l3") for kind in ("W", "b")
    ]


@pytest.mark.parametrize("opset", [9, 13, onnx_chainer.MAXIMUM_OPSET_VERSION])
def test_lstm_language_model(opset):
    tokens = np.random.RandomState(0).randint(0, 20, (2, 5)).astype(np.int32)
    support.assert_round_trip(export_models.LSTMLanguageModel(), tokens, opset, rtol=1e-5)
