"""Whole models export and match Chainer in onnxruntime: model zoo, the MNIST MLP, an LSTM LM."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer

_REPO = pathlib.Path(__file__).resolve().parents[3]


def _rtol_vision():
    # Deep float32 nets: accumulated rounding differs between the two runtimes.
    return {"rtol": 1e-3, "atol": 1e-5}


def _compare(model, x, opset, run_onnxruntime, **tolerance):
    onnx_model, inputs, outputs = onnx_chainer.export(
        model, x, opset_version=opset, return_named_inout=True
    )
    actual = run_onnxruntime(onnx_model, dict(inputs))
    for got, want in zip(actual, outputs.values()):
        np.testing.assert_allclose(got, want.array, **tolerance)
    return onnx_model


def _image(seed=0):
    return np.random.RandomState(seed).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)


@pytest.mark.parametrize(
    "factory",
    [
        # VGG16's 138M random parameters take ~50 s to create and compare on 2 cores.
        pytest.param(lambda: L.VGG16Layers(pretrained_model=None), marks=pytest.mark.slow),
        lambda: L.ResNet50Layers(pretrained_model=None),
        lambda: L.GoogLeNet(pretrained_model=None),
    ],
    ids=["vgg16", "resnet50", "googlenet"],
)
def test_model_zoo(factory, run_onnxruntime):
    model = factory()
    onnx_model = _compare(
        model, _image(), onnx_chainer.MAXIMUM_OPSET_VERSION, run_onnxruntime, **_rtol_vision()
    )
    assert len(onnx_model.graph.output) == 1


def test_resnet50_at_the_oldest_opset(run_onnxruntime):
    model = L.ResNet50Layers(pretrained_model=None)
    _compare(
        model, _image(1), onnx_chainer.MINIMUM_OPSET_VERSION, run_onnxruntime, **_rtol_vision()
    )


def _load_example(path: pathlib.Path):
    spec = importlib.util.spec_from_file_location("train_mnist_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "opset", [onnx_chainer.MINIMUM_OPSET_VERSION, onnx_chainer.MAXIMUM_OPSET_VERSION]
)
def test_mnist_example_mlp(opset, run_onnxruntime):
    example = _REPO / "examples" / "mnist" / "train_mnist.py"
    if not example.exists():
        pytest.skip("the mnist example is not in this checkout")
    mlp = _load_example(example).MLP(50, 10)
    x = np.random.RandomState(0).rand(3, 64).astype(np.float32)
    _compare(mlp, x, opset, run_onnxruntime, rtol=1e-5, atol=1e-6)


class LSTMLanguageModel(chainer.Chain):
    """Embedding, two stacked LSTMs and a vocabulary projection, unrolled over the sequence."""

    def __init__(self, vocab=20, units=16):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(vocab, units)
            self.lstm1 = L.LSTM(units, units)
            self.lstm2 = L.LSTM(units, units)
            self.out = L.Linear(units, vocab)

    def forward(self, tokens):
        self.lstm1.reset_state()
        self.lstm2.reset_state()
        logits = []
        for t in range(tokens.shape[1]):
            h = self.embed(tokens[:, t])
            h = self.lstm2(self.lstm1(h))
            logits.append(self.out(h))
        return F.log_softmax(F.stack(logits, axis=1), axis=2)


@pytest.mark.parametrize("opset", [9, 13, onnx_chainer.MAXIMUM_OPSET_VERSION])
def test_lstm_language_model(opset, run_onnxruntime):
    tokens = np.random.RandomState(0).randint(0, 20, (2, 5)).astype(np.int32)
    _compare(LSTMLanguageModel(), tokens, opset, run_onnxruntime, rtol=1e-4, atol=1e-5)


class NStepLSTMLanguageModel(chainer.Chain):
    """Sequences of different lengths through ``NStepLSTM`` (sorted, padded steps inside)."""

    def __init__(self, vocab=20, units=8):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(vocab, units)
            self.rnn = L.NStepLSTM(2, units, units, 0.0)
            self.out = L.Linear(units, vocab)

    def forward(self, *sequences):
        _, _, ys = self.rnn(None, None, [self.embed(s) for s in sequences])
        return F.log_softmax(self.out(F.concat(ys, axis=0)))


@pytest.mark.parametrize("opset", [9, onnx_chainer.MAXIMUM_OPSET_VERSION])
def test_n_step_lstm_language_model(opset, run_onnxruntime):
    rng = np.random.RandomState(1)
    sequences = tuple(rng.randint(0, 20, n).astype(np.int32) for n in (3, 5, 4))
    _compare(NStepLSTMLanguageModel(), sequences, opset, run_onnxruntime, rtol=1e-4, atol=1e-5)
