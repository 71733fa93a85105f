"""chainer-training plugs into the chainer namespace and checks the core version."""

import importlib
import importlib.metadata

import pytest

import chainer
from chainer import _training_distribution

SUBPACKAGES = ["optimizers", "optimizer_hooks", "training", "dataset", "datasets", "iterators"]


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_subpackage_is_the_imported_module(name):
    assert importlib.import_module(f"chainer.{name}") is getattr(chainer, name)


def test_distribution_version_is_the_installed_one():
    assert importlib.metadata.version("chainer-training") == _training_distribution.__version__


def test_core_below_window_is_refused(monkeypatch):
    monkeypatch.setattr(_training_distribution, "CORE_BELOW", "8.0.0a1")
    with pytest.raises(ImportError) as info:
        _training_distribution.check_core()
    # Both ways to install from this repository: the source folder and the built wheelhouse.
    assert "pip install ./packages/chainer-core" in str(info.value)
    assert "pip install --find-links dist 'chainer-core>=8.0.0a1,<8.0.0a1'" in str(info.value)
