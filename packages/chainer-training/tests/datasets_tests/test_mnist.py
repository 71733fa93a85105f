"""get_mnist, get_fashion_mnist and get_kuzushiji_mnist end to end against a local server."""

import numpy
import pytest

import chainer
from chainer import datasets
from chainer.datasets import fashion_mnist, kuzushiji_mnist, mnist

LOADERS = [
    (mnist, datasets.get_mnist, "mnist"),
    (fashion_mnist, datasets.get_fashion_mnist, "fashion-mnist"),
    (kuzushiji_mnist, datasets.get_kuzushiji_mnist, "kuzushiji_mnist"),
]


@pytest.fixture(params=LOADERS, ids=[name for _, _, name in LOADERS])
def served(request, server, dataset_root, monkeypatch, make_idx_files):
    """Serve a 4-image train split and a 3-image test split for one loader."""
    module, loader, directory = request.param
    monkeypatch.setattr(module, "BASE_URL", server.url + "base/")
    raw = {}
    for split, n, seed in (("train", 4, 0), ("test", 3, 1)):
        images_gz, labels_gz, images, labels = make_idx_files(n, seed)
        image_file, label_file = module.FILES[split]
        server.files["/base/" + image_file] = images_gz
        server.files["/base/" + label_file] = labels_gz
        raw[split] = (images, labels)
    return loader, raw, dataset_root / "pfnet/chainer" / directory, server


def test_default_format(served):
    loader, raw, _, _ = served
    train, test = loader()
    for dataset, (images, labels) in ((train, raw["train"]), (test, raw["test"])):
        assert len(dataset) == len(labels)
        x, t = dataset[1]
        assert x.shape == (784,) and x.dtype == numpy.float32
        numpy.testing.assert_allclose(x, images[1].reshape(-1) / 255.0, rtol=1e-6)
        assert t.dtype == numpy.int32 and t == labels[1]


def test_shapes_scale_dtypes_and_rgb(served):
    loader, raw, _, _ = served
    images, labels = raw["test"]
    _, test = loader(
        ndim=3, scale=2.0, dtype=numpy.float64, label_dtype=numpy.int64, rgb_format=True
    )
    x, t = test[2]
    assert x.shape == (3, 28, 28) and x.dtype == numpy.float64 and t.dtype == numpy.int64
    for channel in x:
        numpy.testing.assert_allclose(channel, images[2] * 2.0 / 255.0)
    _, test2 = loader(withlabel=False, ndim=2)
    assert isinstance(test2, numpy.ndarray) and test2.shape == (3, 28, 28)
    with chainer.using_config("dtype", numpy.float16):
        assert loader(ndim=1)[0][0][0].dtype == numpy.float16


def test_the_files_are_cached_after_the_first_call(served):
    loader, _, directory, server = served
    loader()
    loader(ndim=2)
    assert len(server.requests) == 4  # two splits of two files, downloaded once
    assert sorted(p.name for p in directory.iterdir()) == ["test.npz", "train.npz"]
    with numpy.load(directory / "train.npz") as cached:
        assert cached["x"].shape == (4, 784) and cached["x"].dtype == numpy.uint8


def test_bad_ndim(served):
    loader = served[0]
    with pytest.raises(ValueError, match="invalid ndim for the .*MNIST dataset: 4; expected 1, 2"):
        loader(ndim=4)


def test_label_names():
    assert datasets.get_fashion_mnist_labels()[9] == "Ankle boot"
    assert len(datasets.get_fashion_mnist_labels()) == 10
    labels = datasets.get_kuzushiji_mnist_labels()
    assert labels[0] == ("o", "\u304a") and labels[-1] == ("wo", "\u3092") and len(labels) == 10
