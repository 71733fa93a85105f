"""ResNets: every named layer of ResNet50 at 224x224, NPZ reload; ResNet101/152 structure."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.links.model.vision import resnet

from ._zoo_checks import check_layer_shapes, check_npz_reload, evaluate

EXPECTED = {
    "conv1": (1, 64, 112, 112),
    "pool1": (1, 64, 56, 56),
    "res2": (1, 256, 56, 56),
    "res3": (1, 512, 28, 28),
    "res4": (1, 1024, 14, 14),
    "res5": (1, 2048, 7, 7),
    "pool5": (1, 2048),
    "fc6": (1, 1000),
    "prob": (1, 1000),
}
STAGES = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


@pytest.fixture(scope="module")
def resnet50():
    numpy.random.seed(0)
    return L.ResNet50Layers(pretrained_model=None)


def test_every_layer_shape(resnet50):
    outputs = check_layer_shapes(resnet50, EXPECTED)
    numpy.testing.assert_allclose(
        outputs["pool5"], outputs["res5"].mean(axis=(2, 3)), rtol=1e-5, atol=1e-6
    )


def test_bottleneck_b_adds_its_input(resnet50):
    block = resnet50.res2.b1
    x = numpy.random.uniform(0, 1, (1, 256, 5, 5)).astype(numpy.float32)
    with chainer.using_config("train", False):
        h = chainer.functions.relu(block.bn1(block.conv1(x)))
        h = chainer.functions.relu(block.bn2(block.conv2(h)))
        h = block.bn3(block.conv3(h)).array
        out = block(x).array
    numpy.testing.assert_allclose(out, numpy.maximum(h + x, 0), rtol=1e-5, atol=1e-5)


def test_npz_reload_gives_identical_outputs(resnet50, tmp_path):
    # Batch statistics must travel too: give them non-trivial values first.
    for _, link in resnet50.namedlinks():
        if isinstance(link, L.BatchNormalization):
            link.avg_mean[...] = numpy.random.uniform(-0.1, 0.1, link.avg_mean.shape)
            link.avg_var[...] = numpy.random.uniform(0.5, 1.5, link.avg_var.shape)
    check_npz_reload(
        resnet50,
        lambda path: L.ResNet50Layers(pretrained_model=path),
        tmp_path / "resnet50.npz",
        ["res3", "prob"],
    )


def _structure(model):
    return {name: p.shape for name, p in model.namedparams()}


@pytest.mark.parametrize("n_layers", [50, 101, 152])
def test_stage_sizes_and_layer_count(n_layers):
    model = getattr(L, f"ResNet{n_layers}Layers")(pretrained_model=None)
    for stage, n_blocks in zip((model.res2, model.res3, model.res4, model.res5), STAGES[n_layers]):
        blocks = ["a"] + [f"b{i}" for i in range(1, n_blocks)]
        children = {name for name, _ in stage.namedlinks(skipself=True) if name.count("/") == 1}
        assert children == {"/" + block for block in blocks}
        assert stage._forward == blocks  # the order the blocks run in
    # The depth counts conv1, three convolutions per bottleneck and fc6 (not the projections).
    convolutions = [n for n, p in model.namedparams() if n.endswith("/W") and p.ndim == 4]
    projections = [n for n in convolutions if n.endswith("conv4/W")]
    assert len(convolutions) - len(projections) + 1 == n_layers
    assert model.fc6.W.shape == (1000, 2048) and model.conv1.b.shape == (64,)
    assert model.available_layers == list(EXPECTED)


def test_parameter_shapes_of_the_deep_stages():
    shapes = _structure(L.ResNet152Layers(pretrained_model=None))
    assert shapes["/res4/a/conv1/W"] == (256, 512, 1, 1)
    assert shapes["/res4/a/conv4/W"] == (1024, 512, 1, 1)
    assert shapes["/res4/b35/conv2/W"] == (256, 256, 3, 3)
    assert shapes["/res4/b35/bn3/gamma"] == (1024,)
    assert shapes["/res5/b2/conv3/W"] == (2048, 512, 1, 1)
    assert "/res4/b36/conv1/W" not in shapes
    assert "/res2/a/conv1/b" not in shapes  # the block convolutions have no bias


@pytest.mark.parametrize(("downsample_fb", "strides"), [(False, (2, 1)), (True, (1, 2))])
def test_downsampling_convolution(downsample_fb, strides):
    block = resnet.BottleneckA(8, 4, 16, stride=2, downsample_fb=downsample_fb)
    assert (block.conv1.stride, block.conv2.stride) == ((strides[0],) * 2, (strides[1],) * 2)
    assert block.conv4.stride == (2, 2)
    with chainer.using_config("train", False):
        assert block(numpy.ones((1, 8, 6, 6), numpy.float32)).shape == (1, 16, 3, 3)


def test_random_convolutions_are_he_normal():
    numpy.random.seed(2)
    model = L.ResNet50Layers(pretrained_model=None)
    W = model.res4.a.conv2.W.array
    numpy.testing.assert_allclose(W.std(), (2 / (256 * 9)) ** 0.5, rtol=0.02)


def test_wrong_depth_is_a_value_error():
    with pytest.raises(ValueError, match="either 50, 101, or 152, but 34 was given"):
        resnet.ResNetLayers(None, 34)


def test_extract_defaults_to_pool5(resnet50):
    image = numpy.random.RandomState(0).randint(0, 256, (50, 40, 3)).astype(numpy.uint8)
    with chainer.using_config("train", False):
        features = resnet50.extract([image])["pool5"]
    expected = evaluate(resnet50, resnet.prepare(image)[None], ["pool5"])["pool5"]
    numpy.testing.assert_allclose(features.array, expected, rtol=1e-5, atol=1e-6)
