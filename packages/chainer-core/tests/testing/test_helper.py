import importlib.metadata
import os
import sys
import warnings

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from chainer import testing
from chainer.testing import _requirements

NUMPY = importlib.metadata.version("numpy")


def skip_state(decorator):
    """(skipped?, reason) of the skipif mark a decorator puts on a test."""

    def test_f():
        pass

    (mark,) = decorator(test_f).pytestmark
    assert mark.name == "skipif"
    return mark.args[0], mark.kwargs["reason"]


# with_requires / without_requires


def test_with_requires_runs_when_satisfied():
    skipped, reason = skip_state(testing.with_requires("numpy>=1.0", "pytest"))
    assert skipped is False
    assert (
        reason
        == f"requires numpy>=1.0, pytest (installed: numpy {NUMPY}, pytest {pytest.__version__})"
    )


def test_with_requires_skips_on_old_versions_and_missing_distributions():
    assert skip_state(testing.with_requires("numpy<1.0"))[0] is True
    skipped, reason = skip_state(testing.with_requires("numpy", "no-such-dist-xyz>=1"))
    assert skipped is True and reason.endswith(
        f"(installed: numpy {NUMPY}, no-such-dist-xyz missing)"
    )


def test_without_requires_is_the_opposite():
    skipped, reason = skip_state(testing.without_requires("numpy>=1.0"))
    assert skipped is True and reason.startswith("runs only without numpy>=1.0")
    assert skip_state(testing.without_requires("no-such-dist-xyz"))[0] is False


def test_requirement_errors():
    with pytest.raises(ValueError, match="with_requires needs at least one requirement"):
        testing.with_requires()
    with pytest.raises(ValueError, match=r"invalid requirement 'numpy>>1'"):
        testing.with_requires("numpy>>1")
    with pytest.raises(TypeError, match="a requirement must be a string, got int"):
        testing.without_requires(3)


# the parser used without ``packaging``

VERSIONS = [
    "0.9",
    "1.0.dev1",
    "1.0a1",
    "1.0a2.dev3",
    "1.0b1",
    "1.0rc1",
    "1.0",
    "1.0.0",
    "1.0.post1",
    "1.0.1",
    "1.2",
    "1.10",
    "2.0.0+local",
    "2024.1",
]


def test_version_key_orders_like_packaging():
    for a in VERSIONS:
        for b in VERSIONS:
            key_a, key_b = _requirements.version_key(a), _requirements.version_key(b)
            assert (key_a < key_b) == (Version(a) < Version(b)), (a, b)
            assert (key_a == key_b) == (Version(a) == Version(b)), (a, b)


@pytest.mark.parametrize(
    "requirement",
    [
        "numpy",
        "numpy>=1.0",
        "numpy<1.2, >=0.9",
        "numpy!=1.0",
        "numpy==1.*",
        "numpy~=1.0",
        "numpy~=1.0.1",
        "numpy>1.0",
        "numpy<=1.0",
        "numpy==1.0.0",
        "numpy!=2.*",
        "numpy<1.0",
        "numpy<1.0rc1",
        "numpy>1.0a1",
        "numpy==1.0.post1",
        "numpy>1.0.post1",
    ],
)
def test_fallback_parser_agrees_with_packaging(requirement):
    name, holds = _requirements._parse_without_packaging(requirement)
    specifier = Requirement(requirement).specifier
    assert name == "numpy"
    for version in VERSIONS:
        assert holds(version) == specifier.contains(version, prereleases=True), version


@pytest.mark.parametrize(
    ("requirement", "message"),
    [
        ("numpy=>1", r"cannot read '=>1'"),
        (">=1", r"invalid requirement '>=1'"),
        ("numpy>=1.*", r"a '\.\*' version is only allowed after == or !=, got >="),
        ("numpy~=1", r"~= needs a version with at least two parts, got '1'"),
        ("numpy>=one", r"cannot parse version 'one'"),
    ],
)
def test_fallback_parser_errors(requirement, message):
    with pytest.raises(ValueError, match=message):
        name, holds = _requirements._parse_without_packaging(requirement)
        holds("1.0")


def test_check_works_without_packaging(monkeypatch):
    monkeypatch.setitem(sys.modules, "packaging.requirements", None)
    assert _requirements.check(("numpy>=1.0",)) == (True, f"numpy {NUMPY}")
    assert _requirements.check(("numpy<1.0",)) == (False, f"numpy {NUMPY}")


# assert_warns


def test_assert_warns_passes_on_the_expected_category():
    with testing.assert_warns(DeprecationWarning):
        warnings.warn("old", DeprecationWarning, stacklevel=1)
    with testing.assert_warns(Warning):  # subclasses match
        warnings.warn("old", FutureWarning, stacklevel=1)


def test_assert_warns_fails_without_the_warning():
    with pytest.raises(
        AssertionError, match=r"DeprecationWarning was not issued \(warnings seen: UserWarning\)"
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with testing.assert_warns(DeprecationWarning):
                warnings.warn("other", UserWarning, stacklevel=1)
    with pytest.raises(
        AssertionError, match=r"RuntimeWarning was not issued \(warnings seen: none\)"
    ):
        with testing.assert_warns(RuntimeWarning):
            pass


def test_assert_warns_issues_other_warnings_again():
    with warnings.catch_warnings(record=True) as outer:
        warnings.simplefilter("always")
        with testing.assert_warns(DeprecationWarning):
            warnings.warn("expected", DeprecationWarning, stacklevel=1)
            warnings.warn("unrelated", UserWarning, stacklevel=1)
    assert [(w.category, str(w.message)) for w in outer] == [(UserWarning, "unrelated")]


def test_assert_warns_needs_a_warning_class():
    with pytest.raises(
        TypeError, match="assert_warns expects a Warning subclass, got <class 'ValueError'>"
    ):
        with testing.assert_warns(ValueError):
            pass


# patch


def test_patch_wraps_the_original_by_default(tmp_path):
    with testing.patch("os.path.exists") as exists:
        assert os.path.exists(tmp_path) is True
        assert os.path.exists(tmp_path / "missing") is False
    assert exists.call_count == 2
    exists.assert_called_with(tmp_path / "missing")
    assert not hasattr(os.path.exists, "call_count")  # restored


def test_patch_with_explicit_return_value_or_new():
    with testing.patch("os.getcwd", wraps=None, return_value="/nowhere"):
        assert os.getcwd() == "/nowhere"
    sentinel = object()
    with testing.patch("os.sep", sentinel):
        assert os.sep is sentinel


def test_patch_of_a_missing_target():
    with pytest.raises(AttributeError, match="no_such_function"):
        testing.patch("os.path.no_such_function")
