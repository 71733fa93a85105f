"""What the model-zoo architectures share, on a tiny model: forward up to named layers (with
side branches), extract, predict; image preparation; where pre-trained weights come from."""

import os
import sys

import numpy
import pytest
from PIL import Image

import chainer
import chainer._dataset_root
import chainer.functions as F
import chainer.links as L
from chainer.links.model.vision import _image_model, googlenet, resnet, vgg


class TinyImageModel(chainer.Chain, _image_model.PretrainedImageModel):
    """Global average pooling, a linear map to 1000 classes, and a branch off ``pool``."""

    _default_extract_layer = "pool"
    _branches = {"side": "pool"}

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.fc = L.Linear(3, 1000)

    @property
    def functions(self):
        return {
            "pool": [lambda x: F.mean(x, axis=(2, 3))],
            "fc": [self.fc],
            "prob": [F.softmax],
            "side": [lambda h: h * 2],
        }

    def _prepare(self, image, size):
        return vgg.prepare(image, size)


def _probabilities(model, x):
    logits = x.mean(axis=(2, 3)) @ model.fc.W.array.T + model.fc.b.array
    e = numpy.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _image(seed=0, shape=(40, 30, 3)):
    return numpy.random.RandomState(seed).randint(0, 256, shape).astype(numpy.uint8)


def test_forward_stops_after_the_last_requested_layer_and_starts_branches_at_their_source():
    model = TinyImageModel()
    x = numpy.random.uniform(-1, 1, (2, 3, 4, 4)).astype(numpy.float32)
    calls = []
    model.fc.add_hook(type("Spy", (chainer.LinkHook,), {"forward_preprocess": calls.append})())
    outputs = model(x, layers=["pool"])
    assert list(outputs) == ["pool"] and not calls
    outputs = model(x, layers=["side", "fc"])
    numpy.testing.assert_allclose(outputs["side"].array, 2 * x.mean(axis=(2, 3)), rtol=1e-6)
    assert outputs["fc"].shape == (2, 1000)
    numpy.testing.assert_allclose(model(x)["prob"].array, _probabilities(model, x), rtol=1e-5)
    assert model.available_layers == ["pool", "fc", "prob", "side"]


def test_unknown_layers_and_retired_arguments():
    model = TinyImageModel()
    x = numpy.zeros((1, 3, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"no layer named 'fc9', 'pool6'; available layers: "):
        model(x, layers=["pool6", "fc", "fc9"])
    with pytest.raises(ValueError, match="test argument is not supported anymore"):
        model(x, test=True)
    with pytest.raises(ValueError, match="volatile argument is not supported anymore"):
        model.extract([_image()], volatile=True)


def test_extract_resizes_prepares_and_stacks_images():
    model = TinyImageModel()
    images = [_image(0), Image.fromarray(_image(1, (20, 50, 3)))]
    out = model.extract(images, size=(8, 6))
    assert list(out) == ["pool"]
    expected = numpy.stack([vgg.prepare(image, (8, 6)) for image in images]).mean(axis=(2, 3))
    numpy.testing.assert_allclose(out["pool"].array, expected, rtol=1e-5)
    assert model.extract(images, layers=["fc"])["fc"].creator is not None  # config untouched


def test_predict_averages_ten_crops():
    model = TinyImageModel()
    image = _image(2, (300, 260, 3))
    x = vgg.prepare(image, size=(256, 256))
    corners = [x[:, :224, :224], x[:, :224, 32:], x[:, 32:, :224], x[:, 32:, 32:]]
    crops = corners + [x[:, 16:240, 16:240]]
    crops += [crop[:, :, ::-1] for crop in crops]
    prob = model.predict([image, image])
    assert prob.shape == (2, 1000) and prob.creator is None
    expected = _probabilities(model, numpy.stack(crops)).mean(axis=0)
    numpy.testing.assert_allclose(prob.array[1], expected, rtol=1e-5, atol=1e-9)
    center = model.predict([image], oversample=False)
    numpy.testing.assert_allclose(center.array, _probabilities(model, crops[4][None]), rtol=1e-5)


@pytest.mark.parametrize(
    ("module", "mean_bgr"),
    [
        (vgg, (103.939, 116.779, 123.68)),
        (googlenet, (104.0, 117.0, 123.0)),
        (resnet, (103.063, 115.903, 123.152)),
    ],
)
def test_prepare_gives_bgr_minus_the_mean(module, mean_bgr):
    rgb = _image(3, (5, 7, 3))
    expected = rgb[:, :, ::-1].astype(numpy.float32) - numpy.array(mean_bgr, numpy.float32)
    expected = expected.transpose(2, 0, 1)
    for image in (rgb, rgb.transpose(2, 0, 1), Image.fromarray(rgb)):
        out = module.prepare(image, size=None)
        assert out.dtype == numpy.float32 and out.shape == (3, 5, 7)
        numpy.testing.assert_allclose(out, expected, rtol=1e-6)
    assert module.prepare(rgb).shape == (3, 224, 224)
    assert module.prepare(rgb, size=(9, 4)).shape == (3, 4, 9)  # PIL's (width, height)


def test_prepare_of_gray_images_repeats_the_channel():
    gray = _image(4, (6, 6, 1))[:, :, 0]
    for image in (gray, gray[None]):
        out = vgg.prepare(image, size=None)
        numpy.testing.assert_allclose(out[0] + 103.939, out[2] + 123.68, rtol=1e-6)
        numpy.testing.assert_allclose(out[1] + 116.779, gray, rtol=1e-6)


def test_prepare_uses_the_default_dtype():
    with chainer.using_config("dtype", numpy.float64):
        assert vgg.prepare(_image(), size=None).dtype == numpy.float64


def test_auto_needs_the_cached_npz_or_caffemodel(monkeypatch, tmp_path):
    monkeypatch.setenv("CHAINER_DATASET_ROOT", str(tmp_path))
    expected = os.path.join(str(tmp_path), "pfnet", "chainer", "models", "ResNet-50-model.npz")
    with pytest.raises(OSError, match=r"ResNet50Layers\(pretrained_model='auto'\) needs") as info:
        L.ResNet50Layers()
    assert expected in str(info.value)
    assert "the Caffe model ResNet-50-model.caffemodel in" in str(info.value)
    with pytest.raises(OSError, match="bvlc_googlenet.npz, or the Caffe model bvlc_googlenet"):
        L.GoogLeNet()
    with pytest.raises(
        OSError, match="VGG_ILSVRC_19_layers.npz, or .* VGG_ILSVRC_19_layers.caffe"
    ):
        L.VGG19Layers()


def test_auto_loads_the_cached_npz(monkeypatch, tmp_path):
    directory = tmp_path / "pfnet" / "chainer" / "models"
    directory.mkdir(parents=True)
    source = L.GoogLeNet(pretrained_model=None)
    chainer.serializers.save_npz(str(directory / "bvlc_googlenet.npz"), source)
    monkeypatch.setenv("CHAINER_DATASET_ROOT", str(tmp_path))
    loaded = L.GoogLeNet()
    numpy.testing.assert_array_equal(loaded.inc4c.conv3.W.array, source.inc4c.conv3.W.array)


def test_models_directory_follows_the_dataset_root_without_chainer_training(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "chainer.dataset", None)  # chainer-training absent
    monkeypatch.setattr(chainer._dataset_root, "_root", None)
    monkeypatch.setenv("CHAINER_DATASET_ROOT", str(tmp_path / "root"))
    assert _image_model._models_directory() == os.path.join(
        str(tmp_path / "root"), "pfnet", "chainer", "models"
    )
    monkeypatch.delenv("CHAINER_DATASET_ROOT")
    assert _image_model._models_directory() == os.path.join(
        os.path.expanduser("~"), ".chainer", "dataset", "pfnet", "chainer", "models"
    )
    chainer._dataset_root.set_dataset_root(tmp_path / "explicit")
    assert _image_model._models_directory() == os.path.join(
        str(tmp_path / "explicit"), "pfnet", "chainer", "models"
    )


def test_a_caffemodel_path_is_not_loaded_as_npz():
    message = (
        r"loads NPZ files: convert the Caffe model first with "
        r"ResNet152Layers.convert_caffemodel_to_npz\('x.caffemodel', 'model.npz'\)"
    )
    with pytest.raises(ValueError, match=message):
        L.ResNet152Layers(pretrained_model="x.caffemodel")


def test_a_missing_npz_path_is_reported():
    with pytest.raises(FileNotFoundError, match="no-such.npz"):
        L.GoogLeNet(pretrained_model="no-such.npz")


@pytest.mark.parametrize(
    ("name", "module"),
    [
        ("VGG16Layers", "vgg"),
        ("VGG19Layers", "vgg"),
        ("GoogLeNet", "googlenet"),
        ("ResNet50Layers", "resnet"),
        ("ResNet101Layers", "resnet"),
        ("ResNet152Layers", "resnet"),
    ],
)
def test_each_model_lives_in_chainers_module(name, module):
    cls = getattr(L, name)
    assert cls.__module__ == f"chainer.links.model.vision.{module}"
    assert issubclass(cls, chainer.Chain)
