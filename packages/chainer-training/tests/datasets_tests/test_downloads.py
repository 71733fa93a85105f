"""Downloads over HTTP: cached_download against a local server, and what loaders do with
truncated or corrupted downloads (reject them, clearly, and leave nothing in the cache)."""

import gzip
import hashlib
import pathlib

import pytest

from chainer.dataset import download
from chainer.datasets import mnist


def _files_under(root):
    return sorted(str(p.relative_to(root)) for p in pathlib.Path(root).rglob("*") if p.is_file())


def test_cached_download_fetches_once(server, dataset_root, capsys):
    server.files["/a.bin"] = b"x" * 3000
    path = download.cached_download(server.url + "a.bin")
    assert pathlib.Path(path).read_bytes() == b"x" * 3000
    assert download.cached_download(server.url + "a.bin") == path
    assert server.requests == ["/a.bin"]
    digest = hashlib.md5((server.url + "a.bin").encode()).hexdigest()
    assert _files_under(dataset_root) == [f"_dl_cache/{digest}"]


def test_truncated_download_is_rejected_and_not_cached(server, dataset_root):
    server.files["/a.bin"] = b"y" * 1000
    server.missing_bytes["/a.bin"] = 24
    with pytest.raises(
        OSError,
        match=r"download of .*a.bin is truncated: the connection ended "
        r"after 1000 bytes of the 1024 announced; nothing was cached",
    ):
        download.cached_download(server.url + "a.bin")
    assert _files_under(dataset_root) == []
    assert list((dataset_root / "_dl_cache").iterdir()) == []  # no staging directory left
    del server.missing_bytes["/a.bin"]
    assert pathlib.Path(download.cached_download(server.url + "a.bin")).stat().st_size == 1000


def test_http_errors_name_the_url(server, dataset_root):
    with pytest.raises(OSError, match=r"cannot download http://127.0.0.1:\d+/nope: Not Found"):
        download.cached_download(server.url + "nope")
    assert _files_under(dataset_root) == []


def _mnist_files(make_idx_files):
    train = make_idx_files(n=3, seed=0)
    test = make_idx_files(n=2, seed=1)
    names = mnist.FILES
    return {
        "/" + names["train"][0]: train[0],
        "/" + names["train"][1]: train[1],
        "/" + names["test"][0]: test[0],
        "/" + names["test"][1]: test[1],
    }


def test_corrupted_gzip_is_removed_from_the_cache_and_fetched_again(
    server, dataset_root, monkeypatch, make_idx_files
):
    monkeypatch.setattr(mnist, "BASE_URL", server.url)
    good = _mnist_files(make_idx_files)
    server.files.update(good)
    image_file = "/" + mnist.FILES["train"][0]
    damaged = bytearray(good[image_file])
    damaged[len(damaged) // 2] ^= 0xFF
    server.files[image_file] = bytes(damaged)
    with pytest.raises(
        ValueError,
        match=r"downloaded from .*train-images-idx3-ubyte.gz is not a "
        r"valid gzipped IDX image file .*removed from the download cache",
    ):
        mnist.get_mnist()
    assert _files_under(dataset_root) == []
    server.files[image_file] = good[image_file]
    train, test = mnist.get_mnist()
    assert (len(train), len(test)) == (3, 2)
    assert server.requests.count(image_file) == 2


def test_idx_with_a_wrong_size_is_rejected(server, dataset_root, monkeypatch, make_idx_files):
    monkeypatch.setattr(mnist, "BASE_URL", server.url)
    files = _mnist_files(make_idx_files)
    label_file = "/" + mnist.FILES["train"][1]
    files[label_file] = gzip.compress(gzip.decompress(files[label_file])[:-1])
    server.files.update(files)
    with pytest.raises(
        ValueError, match=r"announces shape \(3,\) \(3 bytes\) but the file holds 2"
    ):
        mnist.get_mnist()
    assert [f for f in _files_under(dataset_root) if "mnist" in f] == []


def test_truncated_loader_download_leaves_no_partial_file(
    server, dataset_root, monkeypatch, make_idx_files
):
    monkeypatch.setattr(mnist, "BASE_URL", server.url)
    server.files.update(_mnist_files(make_idx_files))
    server.missing_bytes["/" + mnist.FILES["test"][0]] = 100
    with pytest.raises(OSError, match="is truncated"):
        mnist.get_mnist()
    # The train split was complete and stays cached; of the test split only the labels,
    # which were never requested, are missing too: the truncated images left nothing.
    hashes = [
        hashlib.md5((server.url + name).encode()).hexdigest() for name in mnist.FILES["train"]
    ]
    expected = sorted([f"_dl_cache/{h}" for h in hashes] + ["pfnet/chainer/mnist/train.npz"])
    assert _files_under(dataset_root) == expected
