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


@pytest.mark.parametrize(
    ("offset", "byte", "message"),
    [
        (144, 0x60, "has the flags 0x60: expected a numeric array"),  # X's class byte
        (145, 0x69, "has the flags 0x6909: expected a numeric array"),  # X's flag bits
        (185, 0x58, "unknown MATLAB data type 22530 at byte 184"),  # X's name element
        (132, 0xFF, "states 6399 bytes, but only"),  # X's size, past the end
    ],
)
def test_damaged_elements_are_refused_before_scipy_reads_them(tmp_path, offset, byte, message):
    # Each of these made SciPy's reader crash (SIGSEGV) or reserve the stated size.
    scipy_io = pytest.importorskip("scipy.io")
    path = tmp_path / "train.mat"
    images = numpy.arange(32 * 32 * 3 * 2, dtype=numpy.uint8).reshape(32, 32, 3, 2)
    scipy_io.savemat(path, {"X": images, "y": numpy.array([[10], [3]])})
    data = bytearray(path.read_bytes())
    data[offset] = byte
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=message):
        svhn._check_declared_sizes(scipy_io, str(path))
