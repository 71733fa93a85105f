"""chainer-links plugs into the chainer namespace and checks the core version."""

import importlib
import importlib.metadata

import pytest

import chainer
from chainer import _links_distribution

SUBPACKAGES = ["functions", "links", "link_hooks", "distributions"]


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_subpackage_resolves_through_chainer(name):
    module = getattr(chainer, name)
    assert module is importlib.import_module(f"chainer.{name}")


def test_version_matches_metadata():
    assert _links_distribution.__version__ == importlib.metadata.version("chainer-links")


def test_out_of_window_core_is_refused(monkeypatch):
    monkeypatch.setattr(_links_distribution, "CORE_MINIMUM", "8.5.0")
    with pytest.raises(ImportError, match=r"chainer-links needs chainer-core>=8\.5\.0,<9"):
        _links_distribution.check_core()
