"""VGG16/VGG19: every named layer of VGG16 at 224x224, NPZ reload, VGG19's structure."""

import numpy
import pytest

import chainer.links as L
from chainer.links.model.vision import vgg

from ._zoo_checks import check_layer_shapes, check_npz_reload

EXPECTED = {
    "conv1_1": (1, 64, 224, 224),
    "conv1_2": (1, 64, 224, 224),
    "pool1": (1, 64, 112, 112),
    "conv2_1": (1, 128, 112, 112),
    "conv2_2": (1, 128, 112, 112),
    "pool2": (1, 128, 56, 56),
    "conv3_1": (1, 256, 56, 56),
    "conv3_2": (1, 256, 56, 56),
    "conv3_3": (1, 256, 56, 56),
    "pool3": (1, 256, 28, 28),
    "conv4_1": (1, 512, 28, 28),
    "conv4_2": (1, 512, 28, 28),
    "conv4_3": (1, 512, 28, 28),
    "pool4": (1, 512, 14, 14),
    "conv5_1": (1, 512, 14, 14),
    "conv5_2": (1, 512, 14, 14),
    "conv5_3": (1, 512, 14, 14),
    "pool5": (1, 512, 7, 7),
    "fc6": (1, 4096),
    "fc7": (1, 4096),
    "fc8": (1, 1000),
    "prob": (1, 1000),
}


@pytest.fixture(scope="module")
def vgg16():
    numpy.random.seed(0)
    return L.VGG16Layers(pretrained_model=None)


def test_every_layer_shape(vgg16):
    outputs = check_layer_shapes(vgg16, EXPECTED)
    conv = outputs["conv5_3"]
    pooled = conv.reshape(1, 512, 7, 2, 7, 2).max(axis=(3, 5))
    numpy.testing.assert_array_equal(outputs["pool5"], pooled)
    assert (outputs["fc7"] >= 0).all()  # after ReLU


def test_random_weights_are_normal_with_std_001(vgg16):
    numpy.testing.assert_allclose(vgg16.fc6.W.array[:256].std(), 0.01, rtol=0.02)
    numpy.testing.assert_array_equal(vgg16.conv3_2.b.array, 0)


@pytest.mark.slow
def test_npz_reload_gives_identical_outputs(vgg16, tmp_path):
    check_npz_reload(
        vgg16, lambda path: L.VGG16Layers(pretrained_model=path), tmp_path / "vgg16.npz", ["prob"]
    )


@pytest.mark.slow
def test_vgg19_structure():
    model = L.VGG19Layers(pretrained_model=None)
    convolutions = [name for name, _ in model.namedlinks(skipself=True) if "conv" in name]
    assert len(convolutions) + 3 == 19
    assert model.available_layers == [
        *(f"conv1_{k}" for k in (1, 2)), "pool1",
        *(f"conv2_{k}" for k in (1, 2)), "pool2",
        *(f"conv3_{k}" for k in (1, 2, 3, 4)), "pool3",
        *(f"conv4_{k}" for k in (1, 2, 3, 4)), "pool4",
        *(f"conv5_{k}" for k in (1, 2, 3, 4)), "pool5",
        "fc6", "fc7", "fc8", "prob",
    ]  # fmt: skip
    assert model.conv3_4.W.shape == (256, 256, 3, 3)
    assert model.conv5_4.W.shape == (512, 512, 3, 3)
    assert model.fc6.W.shape == (4096, 25088)


def test_wrong_depth_is_a_value_error():
    with pytest.raises(ValueError, match="either 16 or 19, but 11 was given"):
        vgg.VGGLayers(None, n_layers=11)
