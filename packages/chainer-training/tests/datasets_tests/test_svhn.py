"""get_svhn end to end against a local server (needs SciPy for the .mat files)."""

import io
import sys

import numpy
import pytest

from chainer import datasets
from chainer.datasets import svhn

scipy_io = pytest.importorskip("scipy.io")


def _mat(n, seed):
    rng = numpy.random.RandomState(seed)
    images = rng.randint(0, 256, (32, 32, 3, n)).astype(numpy.uint8)
    labels = rng.randint(1, 11, (n, 1)).astype(numpy.uint8)  # 10 stands for the digit 0
    buffer = io.BytesIO()
    scipy_io.savemat(buffer, {"X": images, "y": labels})
    return buffer.getvalue(), images, labels


@pytest.fixture
def served(server, dataset_root, monkeypatch):
    monkeypatch.setattr(svhn, "BASE_URL", server.url)
    raw = {}
    for split, n in (("train", 3), ("test", 2), ("extra", 2)):
        payload, images, labels = _mat(n, len(split))
        server.files[f"/{split}_32x32.mat"] = payload
        raw[split] = (images, labels)
    return raw


def test_svhn(served):
    train, test = datasets.get_svhn()
    images, labels = served["train"]
    assert (len(train), len(test)) == (3, 2)
    for i in range(3):
        x, t = train[i]
        assert x.shape == (3, 32, 32) and x.dtype == numpy.float32 and t.dtype == numpy.int32
        numpy.testing.assert_allclose(x, images[..., i].transpose(2, 0, 1) / 255.0, rtol=1e-6)
        assert t == labels[i, 0] % 10


def test_svhn_with_extra_and_without_labels(served):
    train, _ = datasets.get_svhn(withlabel=False, scale=2.0, add_extra=True)
    reference = numpy.concatenate([served["train"][0], served["extra"][0]], axis=3)
    numpy.testing.assert_allclose(train, reference.transpose(3, 2, 0, 1) * 2.0 / 255.0, rtol=1e-6)


def test_damaged_mat_file_is_rejected(server, dataset_root, monkeypatch):
    monkeypatch.setattr(svhn, "BASE_URL", server.url)
    server.files["/train_32x32.mat"] = b"MATLAB 5.0 MAT-file" + b"\0" * 10
    with pytest.raises(ValueError, match="is not a valid SVHN MATLAB file"):
        datasets.get_svhn()


def test_missing_scipy_is_reported_with_the_fix(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.io", None)
    with pytest.raises(
        ImportError, match="get_svhn reads MATLAB files with SciPy.*pip install scipy"
    ):
        datasets.get_svhn()
