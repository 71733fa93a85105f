"""Version windows that siblings check against chainer-core at import."""

import pytest

import chainer
from chainer import _siblings


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("8.0.0a1", "8.0.0a2"),
        ("8.0.0a2", "8.0.0b1"),
        ("8.0.0b1", "8.0.0rc1"),
        ("8.0.0rc1", "8.0.0"),
        ("8.0.0", "8.0.1"),
        ("8.0.1", "8.1"),
        ("8.9.9", "9"),
    ],
)
def test_version_key_orders_releases(lower, higher):
    assert _siblings.version_key(lower) < _siblings.version_key(higher)


def test_upper_bound_excludes_its_prereleases():
    assert _siblings.version_key("9.0.0a1") >= _siblings.version_key("9", upper_bound=True)
    assert _siblings.version_key("8.99") < _siblings.version_key("9", upper_bound=True)


def test_version_key_rejects_garbage():
    with pytest.raises(ValueError, match="unsupported version string 'eight'"):
        _siblings.version_key("eight")


def test_require_core_accepts_the_installed_core():
    _siblings.require_core("chainer-links", "8.0.0a1", "9")


@pytest.mark.parametrize(("minimum", "below"), [("8.0.1", "9"), ("7.0.0", "8.0.0a1")])
def test_require_core_outside_window_says_what_to_install(minimum, below):
    with pytest.raises(ImportError) as error:
        _siblings.require_core("chainer-links", minimum, below)
    message = str(error.value)
    assert f"chainer-links needs chainer-core>={minimum},<{below}" in message
    assert "chainer-core 8.0.0a1 is installed" in message
    assert "pip install ./packages/chainer-core ;" in message
    assert f"pip install --find-links dist 'chainer-core>={minimum},<{below}'" in message


def test_missing_sibling_finder_names_the_distribution_for_chainer_searches():
    finder = _siblings.MissingSiblingFinder()
    for path in (None, list(chainer.__path__)):
        with pytest.raises(ModuleNotFoundError, match="'chainer-links' distribution"):
            finder.find_spec("chainer.link_hooks", path)


def test_missing_sibling_finder_leaves_searches_in_other_folders_to_others(tmp_path):
    # pytest's importlib mode asks every meta-path finder about a package's __init__.py
    # with the package's own folder; a finder without the module must answer None.
    assert (
        _siblings.MissingSiblingFinder().find_spec("chainer.link_hooks", [str(tmp_path)]) is None
    )
