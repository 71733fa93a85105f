"""get_cifar10 and get_cifar100 end to end against a local server."""

import pickle

import numpy
import pytest

from chainer import datasets
from chainer.datasets import cifar


def _batch(n, seed, label_key):
    rng = numpy.random.RandomState(seed)
    data = rng.randint(0, 256, (n, 3072)).astype(numpy.uint8)
    labels = rng.randint(0, 100, n).tolist()
    # As in the real files: Python 2 pickles (protocol 2) of dicts with byte-string keys.
    payload = pickle.dumps({b"batch_label": b"x", b"data": data, label_key: labels}, protocol=2)
    return payload, data, numpy.array(labels)


@pytest.fixture
def cifar10(server, dataset_root, monkeypatch, make_tarball):
    monkeypatch.setattr(cifar, "BASE_URL", server.url)
    members, train_x, train_y = {}, [], []
    for i in range(1, 6):
        payload, x, y = _batch(2, i, b"labels")
        members[f"cifar-10-batches-py/data_batch_{i}"] = payload
        train_x.append(x)
        train_y.append(y)
    payload, test_x, test_y = _batch(3, 0, b"labels")
    members["cifar-10-batches-py/test_batch"] = payload
    server.files["/cifar-10-python.tar.gz"] = make_tarball(members)
    return numpy.concatenate(train_x), numpy.concatenate(train_y), test_x, test_y


def test_cifar10(cifar10, dataset_root):
    train_x, train_y, test_x, test_y = cifar10
    train, test = datasets.get_cifar10()
    assert (len(train), len(test)) == (10, 3)
    x, t = train[7]
    assert x.shape == (3, 32, 32) and x.dtype == numpy.float32 and t.dtype == numpy.int32
    numpy.testing.assert_allclose(x, train_x[7].reshape(3, 32, 32) / 255.0, rtol=1e-6)
    assert t == train_y[7]
    flat = datasets.get_cifar10(withlabel=False, ndim=1, scale=3.0, dtype=numpy.float64)[1]
    numpy.testing.assert_allclose(flat, test_x * 3.0 / 255.0)
    assert (dataset_root / "pfnet/chainer/cifar/cifar-10.npz").exists()


def test_cifar100_uses_the_fine_labels(server, dataset_root, monkeypatch, make_tarball):
    monkeypatch.setattr(cifar, "BASE_URL", server.url)
    train_payload, train_x, train_y = _batch(4, 1, b"fine_labels")
    test_payload, _, test_y = _batch(2, 2, b"fine_labels")
    server.files["/cifar-100-python.tar.gz"] = make_tarball(
        {"cifar-100-python/train": train_payload, "cifar-100-python/test": test_payload}
    )
    train, test = datasets.get_cifar100()
    numpy.testing.assert_array_equal([t for _, t in train], train_y)
    numpy.testing.assert_array_equal([t for _, t in test], test_y)


def test_cifar_pickles_may_hold_only_arrays(server, dataset_root, monkeypatch, make_tarball):
    monkeypatch.setattr(cifar, "BASE_URL", server.url)
    evil = pickle.dumps(
        {b"data": numpy.zeros((1, 3072), numpy.uint8), b"fine_labels": [0], b"x": print},
        protocol=2,
    )
    server.files["/cifar-100-python.tar.gz"] = make_tarball(
        {"cifar-100-python/train": evil, "cifar-100-python/test": evil}
    )
    with pytest.raises(
        ValueError, match=r"refusing to unpickle __builtin__.print: only plain data"
    ):
        datasets.get_cifar100()
    assert not list((dataset_root / "_dl_cache").iterdir())


def test_cifar_missing_member_and_bad_ndim(server, dataset_root, monkeypatch, make_tarball):
    monkeypatch.setattr(cifar, "BASE_URL", server.url)
    train_payload = _batch(1, 0, b"fine_labels")[0]
    server.files["/cifar-100-python.tar.gz"] = make_tarball(
        {"cifar-100-python/train": train_payload}
    )
    with pytest.raises(ValueError, match="the archive has no member 'cifar-100-python/test'"):
        datasets.get_cifar100()
    with pytest.raises(ValueError, match="invalid ndim for the CIFAR dataset: 2; expected 1 or 3"):
        datasets.get_cifar10(ndim=2)
