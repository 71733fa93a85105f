"""chainer.links exports every link from the module where Chainer defines it."""

import importlib

import pytest

import chainer
import chainer.links as L

# Chainer 7.8.1's classes of chainer.links and their modules (TheanoFunction left out: Theano
# is gone).
MODULES = {
    "chainer.links.activation.maxout": ["Maxout"],
    "chainer.links.activation.prelu": ["PReLU"],
    "chainer.links.activation.simplified_dropconnect": ["SimplifiedDropconnect"],
    "chainer.links.activation.swish": ["Swish"],
    "chainer.links.connection.bias": ["Bias"],
    "chainer.links.connection.bilinear": ["Bilinear"],
    "chainer.links.connection.convolution_2d": ["Convolution2D"],
    "chainer.links.connection.convolution_nd": ["Convolution1D", "Convolution3D", "ConvolutionND"],
    "chainer.links.connection.deconvolution_2d": ["Deconvolution2D"],
    "chainer.links.connection.deconvolution_nd": [
        "Deconvolution1D",
        "Deconvolution3D",
        "DeconvolutionND",
    ],
    "chainer.links.connection.deformable_convolution_2d": ["DeformableConvolution2D"],
    "chainer.links.connection.depthwise_convolution_2d": ["DepthwiseConvolution2D"],
    "chainer.links.connection.dilated_convolution_2d": ["DilatedConvolution2D"],
    "chainer.links.connection.embed_id": ["EmbedID"],
    "chainer.links.connection.highway": ["Highway"],
    "chainer.links.connection.inception": ["Inception"],
    "chainer.links.connection.inceptionbn": ["InceptionBN"],
    "chainer.links.connection.linear": ["Linear"],
    "chainer.links.connection.local_convolution_2d": ["LocalConvolution2D"],
    "chainer.links.connection.mlp_convolution_2d": ["MLPConvolution2D"],
    "chainer.links.connection.parameter": ["Parameter"],
    "chainer.links.connection.scale": ["Scale"],
    "chainer.links.loss.black_out": ["BlackOut"],
    "chainer.links.loss.crf1d": ["CRF1d"],
    "chainer.links.loss.hierarchical_softmax": ["BinaryHierarchicalSoftmax"],
    "chainer.links.loss.negative_sampling": ["NegativeSampling"],
    "chainer.links.model.classifier": ["Classifier"],
    "chainer.links.model.vision.googlenet": ["GoogLeNet"],
    "chainer.links.model.vision.resnet": ["ResNet101Layers", "ResNet152Layers", "ResNet50Layers"],
    "chainer.links.model.vision.vgg": ["VGG16Layers", "VGG19Layers"],
    "chainer.links.normalization.batch_normalization": ["BatchNormalization"],
    "chainer.links.normalization.batch_renormalization": ["BatchRenormalization"],
    "chainer.links.normalization.decorrelated_batch_normalization": [
        "DecorrelatedBatchNormalization",
    ],
    "chainer.links.normalization.group_normalization": ["GroupNormalization"],
    "chainer.links.normalization.layer_normalization": ["LayerNormalization"],
    "chainer.links.rnn.gru": ["GRU", "StatefulGRU", "StatelessGRU"],
    "chainer.links.rnn.lstm": ["LSTM", "StatelessLSTM"],
    "chainer.links.rnn.mgu": ["StatefulMGU", "StatelessMGU"],
    "chainer.links.rnn.n_step_gru": ["NStepBiGRU", "NStepGRU"],
    "chainer.links.rnn.n_step_lstm": ["NStepBiLSTM", "NStepLSTM"],
    "chainer.links.rnn.n_step_rnn": [
        "NStepBiRNNReLU",
        "NStepBiRNNTanh",
        "NStepRNNReLU",
        "NStepRNNTanh",
    ],
    "chainer.links.rnn.peephole": ["StatefulPeepholeLSTM"],
    "chainer.links.rnn.tree_lstm": ["ChildSumTreeLSTM", "NaryTreeLSTM"],
    "chainer.links.rnn.zoneoutlstm": ["StatefulZoneoutLSTM"],
}
EXPECTED = {name: module for module, names in MODULES.items() for name in names}


def test_all_lists_exactly_the_links():
    assert sorted(L.__all__) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_link_lives_in_chainers_module(name):
    cls = getattr(L, name)
    assert cls.__module__ == EXPECTED[name]
    assert getattr(importlib.import_module(EXPECTED[name]), name) is cls
    assert issubclass(cls, chainer.Link)


def test_links_resolve_through_the_chainer_namespace():
    assert chainer.links.Linear is L.Linear
