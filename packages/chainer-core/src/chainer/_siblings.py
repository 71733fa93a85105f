"""The parts of the ``chainer`` namespace that sibling distributions provide.

``chainer-core`` owns ``chainer/__init__.py``; ``chainer-links`` and ``chainer-training`` add
subpackages to the same namespace. This module resolves those subpackages lazily, turns a missing
provider into an error that says what to install, and lets a sibling check at import time that
the installed core lies in the version window it was built for.
"""

from __future__ import annotations

import importlib
import re
import sys

#: Subpackage of ``chainer`` -> the distribution that ships it.
PROVIDERS: dict[str, str] = {
    "functions": "chainer-links",
    "links": "chainer-links",
    "link_hooks": "chainer-links",
    "distributions": "chainer-links",
    "distribution": "chainer-links",
    "optimizers": "chainer-training",
    "optimizer_hooks": "chainer-training",
    "training": "chainer-training",
    "dataset": "chainer-training",
    "datasets": "chainer-training",
    "iterators": "chainer-training",
}


#: Top-level names of Chainer that live in a sibling's module: name -> subpackage of chainer.
ATTRIBUTES: dict[str, str] = {
    "Distribution": "distribution",
    "cross_entropy": "distribution",
    "kl_divergence": "distribution",
    "register_kl": "distribution",
    # v7's chainer/__init__ imported this module to install the operators, and code reached it
    # as ``from chainer import basic_math``.
    "basic_math": "functions.math",
}


def install_hint(dist: str, requirement: str | None = None) -> str:
    """How to install ``dist`` (as ``requirement``) from this repository, both ways.

    The package index has no release of this monorepo (``chainermn``/``onnx-chainer`` there are
    unrelated older projects), so the hint points at the sources and at a built wheelhouse.
    """
    return (
        f"from a checkout of the Chainer repository, pip install ./packages/{dist} ; or from "
        f"the wheels `nox -s build` puts in dist/, pip install --find-links dist "
        f"'{requirement or dist}'"
    )


def missing_provider_message(name: str) -> str:
    dist = PROVIDERS[name]
    return (
        f"chainer.{name} is provided by the '{dist}' distribution, which is not installed: "
        + install_hint(dist)
    )


def import_sibling(name: str):
    """Import ``chainer.<name>``; the error names the distribution when it is missing."""
    return importlib.import_module("chainer." + name)


class MissingSiblingFinder:
    """Last finder on ``sys.meta_path``: reached only when no installed file provides a module.

    It turns ``import chainer.links`` without chainer-links installed into an error that names
    the distribution instead of a bare ``No module named 'chainer.links'``. (A meta-path
    finder only needs ``find_spec``; importlib.abc is not imported to keep start-up short.)
    """

    def find_spec(self, fullname, path=None, target=None):
        prefix, _, rest = fullname.partition(".")
        if prefix != "chainer" or rest.partition(".")[0] not in PROVIDERS:
            return None
        chainer = sys.modules.get("chainer")
        if path is not None and list(path) != list(getattr(chainer, "__path__", ())):
            # A search in other folders (pytest's importlib mode asks every finder about
            # `<dir>/__init__.py` with `[<dir>]`) gets the "not here" of any other finder.
            return None
        top = rest.partition(".")[0]
        if "." in rest and "chainer." + top in sys.modules:
            # The provider is installed; a genuinely missing submodule keeps Python's message.
            return None
        raise ModuleNotFoundError(missing_provider_message(top), name=fullname)


def install_finder() -> None:
    if not any(isinstance(f, MissingSiblingFinder) for f in sys.meta_path):
        sys.meta_path.append(MissingSiblingFinder())


_VERSION_RE = re.compile(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:(a|b|rc)(\d+))?(?:\.dev\d+|\+.*)?$")
_PRE_RANK = {"a": 0, "b": 1, "rc": 2, None: 3}


def version_key(version: str, *, upper_bound: bool = False) -> tuple[int, ...]:
    """A sortable key for the ``X[.Y[.Z]][{a|b|rc}N]`` versions this project releases.

    As in PEP 440, an upper bound without a pre-release part (``<9``) also excludes the
    pre-releases of that version (``9.0.0a1``).
    """
    match = _VERSION_RE.match(version)
    if match is None:
        raise ValueError(f"unsupported version string {version!r}; expected X.Y.Z[aN|bN|rcN]")
    major, minor, micro, pre, pre_n = match.groups()
    rank = -1 if upper_bound and pre is None else _PRE_RANK[pre]
    return (int(major), int(minor or 0), int(micro or 0), rank, int(pre_n or 0))


def require_core(distribution: str, minimum: str, below: str) -> None:
    """Raise ``ImportError`` unless ``minimum <= chainer-core < below``.

    Siblings call this first thing at import, as jax checks jaxlib, so that a mismatched
    install fails with the exact fix instead of an obscure ``AttributeError`` later.
    """
    from chainer._version import __version__ as core

    if not version_key(minimum) <= version_key(core) < version_key(below, upper_bound=True):
        raise ImportError(
            f"{distribution} needs chainer-core>={minimum},<{below} but chainer-core {core} "
            f"is installed; " + install_hint("chainer-core", f"chainer-core>={minimum},<{below}")
        )
