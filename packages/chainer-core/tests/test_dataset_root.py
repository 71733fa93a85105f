"""The dataset root setting kept in chainer-core: explicit path, environment, home default."""

import os
import pathlib

import pytest

from chainer import _dataset_root


@pytest.fixture(autouse=True)
def unset(monkeypatch):
    monkeypatch.setattr(_dataset_root, "_root", None)
    monkeypatch.delenv("CHAINER_DATASET_ROOT", raising=False)


def test_default_is_under_the_home_directory():
    expected = os.path.join(os.path.expanduser("~"), ".chainer", "dataset")
    assert _dataset_root.get_dataset_root() == expected


def test_environment_then_explicit_path(monkeypatch, tmp_path):
    monkeypatch.setenv("CHAINER_DATASET_ROOT", str(tmp_path / "env"))
    assert _dataset_root.get_dataset_root() == str(tmp_path / "env")
    _dataset_root.set_dataset_root(pathlib.Path(tmp_path / "set"))
    assert _dataset_root.get_dataset_root() == str(tmp_path / "set")
    assert isinstance(_dataset_root.get_dataset_root(), str)


def test_empty_environment_variable_means_the_default(monkeypatch):
    monkeypatch.setenv("CHAINER_DATASET_ROOT", "")
    expected = os.path.join(os.path.expanduser("~"), ".chainer", "dataset")
    assert _dataset_root.get_dataset_root() == expected
