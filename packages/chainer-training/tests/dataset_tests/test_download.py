"""Dataset root, dataset directories, cached_download (file:// URLs) and cache_or_load_file.

Downloads over HTTP (truncation, errors) are tested against a local server in
datasets_tests/test_downloads.py.
"""

import hashlib
import os
import pathlib

import numpy
import pytest

import chainer._dataset_root
from chainer.dataset import download


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.setattr(chainer._dataset_root, "_root", None)
    monkeypatch.setenv("CHAINER_DATASET_ROOT", str(tmp_path / "env-root"))
    return tmp_path / "env-root"


def test_root_comes_from_the_environment_then_set_dataset_root(root, tmp_path, monkeypatch):
    assert download.get_dataset_root() == str(root)
    download.set_dataset_root(tmp_path / "explicit")
    assert download.get_dataset_root() == str(tmp_path / "explicit")
    monkeypatch.setattr(chainer._dataset_root, "_root", None)
    monkeypatch.delenv("CHAINER_DATASET_ROOT")
    expected = os.path.join(os.path.expanduser("~"), ".chainer", "dataset")
    assert download.get_dataset_root() == expected


def test_get_dataset_directory_creates_nested_directories_on_request(root):
    path = download.get_dataset_directory("pfnet/chainer/x", create_directory=False)
    assert path == os.path.join(str(root), "pfnet/chainer/x")
    assert not os.path.exists(path)
    assert download.get_dataset_directory("pfnet/chainer/x") == path
    assert os.path.isdir(path)


def _listing(directory):
    return sorted(p.name for p in pathlib.Path(directory).iterdir())


def test_cached_download_copies_once_into_the_url_hash(root, tmp_path, capsys):
    source = tmp_path / "data.bin"
    source.write_bytes(b"payload")
    url = source.as_uri()
    path = download.cached_download(url)
    assert path == os.path.join(str(root), "_dl_cache", hashlib.md5(url.encode()).hexdigest())
    assert pathlib.Path(path).read_bytes() == b"payload"
    assert f"Downloading from {url}..." in capsys.readouterr().out
    source.write_bytes(b"changed")
    assert download.cached_download(url) == path  # served from the cache
    assert pathlib.Path(path).read_bytes() == b"payload"
    assert capsys.readouterr().out == ""
    assert _listing(os.path.dirname(path)) == [os.path.basename(path)]


def test_cached_download_failure_names_the_url_and_leaves_nothing(root, tmp_path):
    url = (tmp_path / "missing.bin").as_uri()
    with pytest.raises(OSError, match=f"cannot download {url}"):
        download.cached_download(url)
    assert _listing(root / "_dl_cache") == []


def test_cache_or_load_file_creates_with_the_same_file_name_then_loads(root):
    target = root / "sub" / "table.npz"
    created = []

    def creator(path):
        created.append(path)
        numpy.savez(path, x=numpy.arange(3))  # numpy keeps a name that ends with .npz
        return "created"

    def loader(path):
        with numpy.load(path) as data:
            return data["x"].tolist()

    assert download.cache_or_load_file(target, creator, loader) == "created"
    assert os.path.basename(created[0]) == "table.npz"
    assert os.path.dirname(created[0]) != str(target.parent)
    assert download.cache_or_load_file(str(target), creator, loader) == [0, 1, 2]
    assert len(created) == 1
    assert _listing(target.parent) == ["table.npz"]


def test_cache_or_load_file_leaves_nothing_when_the_creator_fails(root):
    target = root / "broken.npz"

    def creator(path):
        pathlib.Path(path).write_bytes(b"half")
        raise RuntimeError("creator broke")

    with pytest.raises(RuntimeError, match="creator broke"):
        download.cache_or_load_file(target, creator, None)
    assert _listing(root) == []


def test_cache_or_load_file_requires_the_creator_to_write_the_file(root):
    with pytest.raises(FileNotFoundError, match="returned without writing the file"):
        download.cache_or_load_file(root / "x.npz", lambda path: None, None)
    assert _listing(root) == []


def test_dataset_root_is_the_one_chainer_core_keeps(root, tmp_path):
    # chainer-links' model zoo reads the root from chainer-core: one setting for both.
    assert download.set_dataset_root is chainer._dataset_root.set_dataset_root
    download.set_dataset_root(tmp_path / "shared")
    assert chainer._dataset_root.get_dataset_root() == str(tmp_path / "shared")


def test_cache_or_load_file_needs_a_dataset_root_directory(tmp_path, monkeypatch):
    not_a_directory = tmp_path / "root-file"
    not_a_directory.write_text("")
    monkeypatch.setattr(chainer._dataset_root, "_root", str(not_a_directory))
    with pytest.raises(RuntimeError, match="cannot create the dataset root directory"):
        download.cache_or_load_file(tmp_path / "x.npz", lambda path: None, None)
    assert not (tmp_path / "x.npz").exists()
