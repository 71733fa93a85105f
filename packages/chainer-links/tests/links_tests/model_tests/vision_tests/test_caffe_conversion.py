"""Model zoo: converting the Caffe releases (layer names as BVLC and MSRA published them) into
NPZ weights. GoogLeNet runs end to end at full size; VGG and ResNet, too large for a test,
go through the same transfer on stand-ins of their structure with few channels."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.links.model.vision import resnet, vgg

pytest.importorskip("google.protobuf", reason="Caffe support needs the protobuf package")

from chainer.links.caffe import CaffeFunction
from chainer.links.caffe._params import fill_blob
from chainer.links.caffe.protobuf3 import caffe_pb2
from chainer.links.model.vision._caffe_conversion import CaffeWeights


def _blob(layer, array):
    fill_blob(layer.blobs.add(), numpy.asarray(array))


def _write_caffemodel(path, links, batch_norms=()):
    """``links``: (Caffe name, Convolution2D or Linear); ``batch_norms``: (BatchNorm layer
    name, Scale layer name, BatchNormalization)."""
    net = caffe_pb2.NetParameter()
    for name, link in links:
        is_conv = isinstance(link, L.Convolution2D)
        layer = net.layer.add(name=name, type="Convolution" if is_conv else "InnerProduct")
        if is_conv:
            kh, kw = link.W.shape[2:]
            layer.convolution_param.kernel_h, layer.convolution_param.kernel_w = kh, kw
            layer.convolution_param.bias_term = link.b is not None
        else:
            layer.inner_product_param.bias_term = link.b is not None
        _blob(layer, link.W.array)
        if link.b is not None:
            _blob(layer, link.b.array)
    for bn_name, scale_name, bn in batch_norms:
        statistics = net.layer.add(name=bn_name, type="BatchNorm")
        statistics.batch_norm_param.use_global_stats = True
        for array in (bn.avg_mean * 2, bn.avg_var * 2, numpy.array([2.0])):  # weight 2
            _blob(statistics, array)
        scale = net.layer.add(name=scale_name, type="Scale")
        scale.scale_param.bias_term = True
        _blob(scale, bn.gamma.array)
        _blob(scale, bn.beta.array)
    path.write_bytes(net.SerializeToString())
    return str(path)


def _randomize(model):
    for _, param in model.namedparams():
        param.array[...] = numpy.random.uniform(-1, 1, param.shape)
    for _, child in model.namedlinks():
        if isinstance(child, L.BatchNormalization):
            child.avg_mean[...] = numpy.random.uniform(-1, 1, child.avg_mean.shape)
            child.avg_var[...] = numpy.random.uniform(0.5, 2, child.avg_var.shape)
    return model


def _assert_same_weights(actual, expected):
    expected_params = dict(expected.namedparams())
    assert sorted(dict(actual.namedparams())) == sorted(expected_params)
    for name, param in actual.namedparams():
        numpy.testing.assert_allclose(param.array, expected_params[name].array, err_msg=name)
    expected_links = dict(expected.namedlinks())
    for name, child in actual.namedlinks():
        if isinstance(child, L.BatchNormalization):
            numpy.testing.assert_allclose(child.avg_mean, expected_links[name].avg_mean, 1e-6)
            numpy.testing.assert_allclose(child.avg_var, expected_links[name].avg_var, 1e-6)


def _googlenet_layers(model):
    layers = [
        ("conv1/7x7_s2", model.conv1),
        ("conv2/3x3_reduce", model.conv2_reduce),
        ("conv2/3x3", model.conv2),
        ("loss3/classifier", model.loss3_fc),
    ]
    suffixes = {"conv1": "1x1", "proj3": "3x3_reduce", "conv3": "3x3"}
    suffixes.update(proj5="5x5_reduce", conv5="5x5", projp="pool_proj")
    for block in ("3a", "3b", "4a", "4b", "4c", "4d", "4e", "5a", "5b"):
        inception = getattr(model, f"inc{block}")
        layers += [(f"inception_{block}/{suffixes[n]}", getattr(inception, n)) for n in suffixes]
    for aux in ("1", "2"):
        layers += [
            (f"loss{aux}/conv", getattr(model, f"loss{aux}_conv")),
            (f"loss{aux}/fc", getattr(model, f"loss{aux}_fc1")),
            (f"loss{aux}/classifier", getattr(model, f"loss{aux}_fc2")),
        ]
    return layers


def test_googlenet_converts_on_first_auto_use(monkeypatch, tmp_path):
    source = _randomize(L.GoogLeNet(pretrained_model=None))
    directory = tmp_path / "pfnet" / "chainer" / "models"
    directory.mkdir(parents=True)
    _write_caffemodel(directory / "bvlc_googlenet.caffemodel", _googlenet_layers(source))
    monkeypatch.setenv("CHAINER_DATASET_ROOT", str(tmp_path))
    converted = L.GoogLeNet()
    assert (directory / "bvlc_googlenet.npz").exists()
    _assert_same_weights(converted, source)


class _TinyResNet(chainer.Chain):
    """ResNetLayers' structure with few channels."""

    def __init__(self, blocks):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 4, 3)
            self.bn1 = L.BatchNormalization(4)
            self.res2 = resnet.BuildingBlock(blocks[0], 4, 2, 4, 1)
            self.res3 = resnet.BuildingBlock(blocks[1], 4, 2, 6, 2)
            self.res4 = resnet.BuildingBlock(blocks[2], 6, 2, 6, 2)
            self.res5 = resnet.BuildingBlock(blocks[3], 6, 3, 8, 2)
            self.fc6 = L.Linear(8, 5)


def _msra_names(n_layers):
    """MSRA's bottleneck names per stage, as in their released prototxt files."""
    if n_layers == 50:
        return [[f"{s}{c}" for c in "abcdef"[:n]] for s, n in zip((2, 3, 4, 5), (3, 4, 6, 3))]
    long_stages = {101: (4, 23), 152: (8, 36)}[n_layers]
    numbered = [[f"{s}a"] + [f"{s}b{i}" for i in range(1, n)] for s, n in zip((3, 4), long_stages)]
    return [["2a", "2b", "2c"], *numbered, ["5a", "5b", "5c"]]


@pytest.mark.parametrize("n_layers", [50, 101, 152])
def test_resnet_reads_msras_layer_names(tmp_path, n_layers):
    stages = _msra_names(n_layers)
    source = _randomize(_TinyResNet([len(names) for names in stages]))
    links, batch_norms = [("conv1", source.conv1), ("fc1000", source.fc6)], []
    batch_norms.append(("bn_conv1", "scale_conv1", source.bn1))
    for stage, names in zip((source.res2, source.res3, source.res4, source.res5), stages):
        for i, name in enumerate(names):
            block = stage.a if i == 0 else getattr(stage, f"b{i}")
            branches = {"2a": 1, "2b": 2, "2c": 3, **({"1": 4} if i == 0 else {})}
            for branch, k in branches.items():
                links.append((f"res{name}_branch{branch}", getattr(block, f"conv{k}")))
                bn = getattr(block, f"bn{k}")
                batch_norms.append((f"bn{name}_branch{branch}", f"scale{name}_branch{branch}", bn))
    path = _write_caffemodel(tmp_path / "resnet.caffemodel", links, batch_norms)
    target = _TinyResNet([len(names) for names in stages])
    resnet._transfer_caffe_weights(CaffeWeights(CaffeFunction(path), "ResNet", path), target)
    _assert_same_weights(target, source)


class _TinyVGG(chainer.Chain):
    """VGGLayers' structure with few channels."""

    def __init__(self, n_layers):
        super().__init__()
        self._blocks = []
        with self.init_scope():
            in_channels = 3
            for block, widths in enumerate(vgg._BLOCKS[n_layers], start=1):
                names = [f"conv{block}_{k}" for k in range(1, len(widths) + 1)]
                for name in names:
                    setattr(self, name, L.Convolution2D(in_channels, 2, 3, 1, 1))
                    in_channels = 2
                self._blocks.append(names)
            self.fc6, self.fc7, self.fc8 = L.Linear(4, 3), L.Linear(3, 3), L.Linear(3, 2)


def _vgg_layers(model):
    # The VGG team's layer names are those of the links: conv1_1, ..., fc8.
    return [(name.lstrip("/"), link) for name, link in model.namedlinks(skipself=True)]


@pytest.mark.parametrize("n_layers", [16, 19])
def test_vgg_reads_the_layers_by_their_names(tmp_path, n_layers):
    source = _randomize(_TinyVGG(n_layers))
    path = _write_caffemodel(tmp_path / "vgg.caffemodel", _vgg_layers(source))
    target = _TinyVGG(n_layers)
    vgg._transfer_caffe_weights(CaffeWeights(CaffeFunction(path), "VGG", path), target)
    _assert_same_weights(target, source)


def test_a_missing_layer_or_shape_mismatch_is_named(tmp_path):
    source = _TinyVGG(16)
    links = _vgg_layers(source)
    path = _write_caffemodel(tmp_path / "a.caffemodel", [x for x in links if x[0] != "fc8"])
    with pytest.raises(ValueError, match=r"has no layer 'fc8'.*not the Caffe release of VGG"):
        vgg._transfer_caffe_weights(CaffeWeights(CaffeFunction(path), "VGG", path), source)
    wrong = [(name, L.Linear(4, 7) if name == "fc6" else link) for name, link in links]
    path = _write_caffemodel(tmp_path / "b.caffemodel", wrong)
    with pytest.raises(ValueError, match=r"W of Caffe layer 'fc6'.*shape \(7, 4\), VGG needs"):
        vgg._transfer_caffe_weights(CaffeWeights(CaffeFunction(path), "VGG", path), source)
