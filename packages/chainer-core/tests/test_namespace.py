"""The shared ``chainer`` namespace as seen from chainer-core."""

import importlib.metadata
import subprocess
import sys

import pytest

import chainer
from chainer import _siblings


def _installed(dist: str) -> bool:
    try:
        importlib.metadata.distribution(dist)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def test_version_matches_distribution_metadata():
    assert chainer.__version__ == importlib.metadata.version("chainer-core")


def test_import_chainer_is_lean():
    code = (
        "import sys, chainer\n"
        "heavy = ('cupy', 'chainerx', 'h5py', 'chainer.functions', 'chainer.links',"
        " 'chainer.training', 'chainer.optimizers', 'chainer.datasets', 'chainer.serializers')\n"
        "print(','.join(m for m in heavy if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_serializers_load_on_first_access():
    code = (
        "import sys, chainer\n"
        "assert 'chainer.serializers' not in sys.modules\n"
        "npz = chainer.serializers.npz\n"
        "assert npz is sys.modules['chainer.serializers.npz']\n"
        "assert chainer.serializers.save_npz is npz.save_npz\n"
        "from chainer import serializers\n"
        "assert serializers is sys.modules['chainer.serializers']\n"
        "assert 'serializers' in dir(chainer)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", sorted(_siblings.PROVIDERS))
def test_missing_sibling_names_its_distribution(name):
    dist = _siblings.PROVIDERS[name]
    if _installed(dist):
        pytest.skip(f"{dist} is installed here")
    expected = (
        f"chainer.{name} is provided by the '{dist}' distribution, which is not installed: "
        f"from a checkout of the Chainer repository, pip install ./packages/{dist} ; or from "
        f"the wheels `nox -s build` puts in dist/, pip install --find-links dist '{dist}'"
    )
    with pytest.raises(ImportError) as attribute_error:
        getattr(chainer, name)
    assert str(attribute_error.value) == expected
    with pytest.raises(ImportError) as import_error:
        importlib.import_module(f"chainer.{name}")
    assert str(import_error.value) == expected


def test_unknown_attribute_is_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'no_such_thing'"):
        chainer.no_such_thing  # noqa: B018


def test_dir_lists_sibling_subpackages():
    assert {"links", "functions", "training"} <= set(dir(chainer))


@pytest.mark.parametrize("name", sorted(_siblings.ATTRIBUTES))
def test_sibling_provided_attributes(name):
    module = _siblings.ATTRIBUTES[name]
    dist = _siblings.PROVIDERS[module.partition(".")[0]]
    if not _installed(dist):
        with pytest.raises(ImportError, match=f"pip install ./packages/{dist} ;"):
            getattr(chainer, name)
    else:
        provider = importlib.import_module(f"chainer.{module}")
        assert getattr(chainer, name) is getattr(provider, name)
