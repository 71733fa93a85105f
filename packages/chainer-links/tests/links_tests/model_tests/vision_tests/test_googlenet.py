"""GoogLeNet: every named layer at 224x224, the auxiliary branches, extract, predict, NPZ."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.links.model.vision import googlenet

from ._zoo_checks import check_layer_shapes, check_npz_reload, evaluate, image_batch

EXPECTED = {
    "conv1": (1, 64, 112, 112),
    "pool1": (1, 64, 56, 56),
    "conv2_reduce": (1, 64, 56, 56),
    "conv2": (1, 192, 56, 56),
    "pool2": (1, 192, 28, 28),
    "inception_3a": (1, 256, 28, 28),
    "inception_3b": (1, 480, 28, 28),
    "pool3": (1, 480, 14, 14),
    "inception_4a": (1, 512, 14, 14),
    "inception_4b": (1, 512, 14, 14),
    "inception_4c": (1, 512, 14, 14),
    "inception_4d": (1, 528, 14, 14),
    "inception_4e": (1, 832, 14, 14),
    "pool4": (1, 832, 7, 7),
    "inception_5a": (1, 832, 7, 7),
    "inception_5b": (1, 1024, 7, 7),
    "pool5": (1, 1024, 1, 1),
    "loss3_fc": (1, 1000),
    "prob": (1, 1000),
    "loss1_fc2": (1, 1000),
    "loss2_fc2": (1, 1000),
}


@pytest.fixture(scope="module")
def model():
    numpy.random.seed(0)
    return L.GoogLeNet(pretrained_model=None)


def test_every_layer_shape(model):
    check_layer_shapes(model, EXPECTED)


def test_auxiliary_classifiers_branch_from_inception_4a_and_4d(model):
    x = image_batch()
    outputs = evaluate(model, x, ["inception_4a", "inception_4d", "loss1_fc2", "loss2_fc2"])
    for source, conv, fc1, fc2, target in (
        ("inception_4a", model.loss1_conv, model.loss1_fc1, model.loss1_fc2, "loss1_fc2"),
        ("inception_4d", model.loss2_conv, model.loss2_fc1, model.loss2_fc2, "loss2_fc2"),
    ):
        with chainer.using_config("train", False):
            h = F.average_pooling_2d(outputs[source], ksize=5, stride=3)
            expected = fc2(F.relu(fc1(F.relu(conv(h))))).array
        numpy.testing.assert_allclose(outputs[target], expected, rtol=1e-5, atol=1e-6)


def test_only_the_requested_layers_are_returned(model):
    outputs = model(image_batch(), layers=["pool2"])
    assert list(outputs) == ["pool2"]
    assert set(model.available_layers) >= {"prob", "loss1_fc2"}


def test_prob_is_the_softmax_of_loss3_fc_in_test_mode(model):
    outputs = evaluate(model, image_batch(), ["loss3_fc", "prob"])
    logits = outputs["loss3_fc"].astype(numpy.float64)
    expected = numpy.exp(logits - logits.max()) / numpy.exp(logits - logits.max()).sum()
    numpy.testing.assert_allclose(outputs["prob"], expected, rtol=1e-4, atol=1e-7)


def test_extract_prepares_images_and_defaults_to_pool5(model):
    image = numpy.random.RandomState(0).randint(0, 256, (60, 80, 3)).astype(numpy.uint8)
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        features = model.extract([image])
        assert list(features) == ["pool5"] and features["pool5"].shape == (1, 1024, 1, 1)
        x = googlenet.prepare(image)[None]
        expected = model(x, layers=["pool5"])["pool5"].array
    numpy.testing.assert_allclose(features["pool5"].array, expected, rtol=1e-5, atol=1e-6)


def test_predict_of_the_center_crop(model):
    image = numpy.random.RandomState(1).randint(0, 256, (3, 300, 280)).astype(numpy.uint8)
    prob = model.predict([image], oversample=False)
    assert prob.shape == (1, 1000) and prob.creator is None
    center = googlenet.prepare(image, size=(256, 256))[None, :, 16:240, 16:240]
    expected = evaluate(model, center, ["prob"])["prob"]
    numpy.testing.assert_allclose(prob.array, expected, rtol=1e-5, atol=1e-8)


def test_npz_reload_gives_identical_outputs(model, tmp_path):
    check_npz_reload(
        model,
        lambda path: L.GoogLeNet(pretrained_model=path),
        tmp_path / "googlenet.npz",
        ["prob", "loss1_fc2", "loss2_fc2"],
    )


def test_random_weights_follow_bvlcs_initializers():
    numpy.random.seed(1)
    model = L.GoogLeNet(pretrained_model=None)
    fan_in = 3 * 7 * 7
    bound = (3 / fan_in) ** 0.5  # LeCun uniform
    W = model.conv1.W.array
    assert W.min() >= -bound and W.max() <= bound and W.max() > 0.9 * bound
    numpy.testing.assert_array_equal(model.conv1.b.array, 0)
    assert numpy.abs(model.inc3a.conv1.W.array).max() <= (3 / 192) ** 0.5
