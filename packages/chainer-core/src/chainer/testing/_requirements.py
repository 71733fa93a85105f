"""Check requirement strings (``'numpy>=1.26'``) against the installed distributions.

``packaging`` does the parsing when it is installed (it almost always is); otherwise a small
parser handles names with ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``, ``~=`` clauses and
``==X.Y.*`` wildcards, which is what test requirements use.
"""

from __future__ import annotations

import importlib.metadata
import math
import re
from collections.abc import Callable

_NAME_AND_CLAUSES = re.compile(r"^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(.*?)\s*$")
_CLAUSE = re.compile(r"^\s*(~=|==|!=|<=|>=|<|>)\s*([A-Za-z0-9.*+!_-]+)\s*$")
_VERSION = re.compile(
    r"^v?(\d+(?:\.\d+)*)(?:[-_.]?(a|b|rc)(\d*))?(?:[-_.]?post(\d*))?(?:[-_.]?dev(\d*))?"
    r"(?:\+[A-Za-z0-9.]*)?$",
    re.IGNORECASE,
)
_PRE_RANK = {"a": 0, "b": 1, "rc": 2}


def _release(version: str) -> tuple[int, ...]:
    match = _VERSION.match(version.strip())
    if match is None:
        raise ValueError(f"cannot parse version {version!r}; expected e.g. '1.2.3' or '2.0rc1'")
    return tuple(int(part) for part in match.group(1).split("."))


def version_key(version: str) -> tuple:
    """A sortable key for a PEP 440 version: (release, pre-release, post-release, dev)."""
    release = list(_release(version))
    match = _VERSION.match(version.strip())
    if match is None:
        raise ValueError(f"not a PEP 440 version: {version!r}")
    _, pre, pre_n, post, dev = match.groups()
    while len(release) > 1 and release[-1] == 0:
        release.pop()  # 1.0 == 1.0.0
    if pre is not None:
        pre_key: tuple = (_PRE_RANK[pre.lower()], int(pre_n or 0))
    elif dev is not None and post is None:
        pre_key = (-1, 0)  # 1.0.dev1 comes before 1.0a1
    else:
        pre_key = (math.inf, 0)
    post_key = -1 if post is None else int(post or 0)
    dev_key = math.inf if dev is None else int(dev or 0)
    return (tuple(release), pre_key, post_key, dev_key)


def _is_final(key: tuple) -> bool:
    return key[1][0] == math.inf and key[3] == math.inf


def _clause_holds(operator: str, wanted: str, installed: str) -> bool:
    if wanted.endswith(".*"):
        if operator not in ("==", "!="):
            raise ValueError(f"a '.*' version is only allowed after == or !=, got {operator}")
        prefix = _release(wanted[:-2])
        have_release = _release(installed) + (0,) * len(prefix)
        matches = have_release[: len(prefix)] == prefix
        return matches if operator == "==" else not matches
    have, want = version_key(installed), version_key(wanted)
    if operator == "~=":
        parts = wanted.split(".")
        if len(parts) < 2:
            raise ValueError(f"~= needs a version with at least two parts, got {wanted!r}")
        return have >= want and _clause_holds("==", ".".join(parts[:-1]) + ".*", installed)
    same_release = have[0] == want[0]
    if operator == ">":
        # PEP 440: >V does not match the post-releases of V (unless V is one).
        return have > want and not (same_release and have[1] == want[1] and want[2] < 0)
    if operator == "<":
        # PEP 440: <V does not match the pre-releases of V (unless V is one).
        return have < want and not (same_release and _is_final(want) and not _is_final(have))
    comparisons: dict[str, Callable[[tuple, tuple], bool]] = {
        "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
        "<=": lambda a, b: a <= b,
        ">=": lambda a, b: a >= b,
    }
    return comparisons[operator](have, want)


def _parse_without_packaging(requirement: str) -> tuple[str, Callable[[str], bool]]:
    match = _NAME_AND_CLAUSES.match(requirement)
    if match is None:
        raise ValueError(f"invalid requirement {requirement!r}; expected e.g. 'numpy>=1.26'")
    name, rest = match.groups()
    clauses = []
    for text in filter(None, (part.strip() for part in rest.split(","))):
        clause = _CLAUSE.match(text)
        if clause is None:
            raise ValueError(
                f"invalid requirement {requirement!r}: cannot read {text!r}; expected clauses "
                "such as '>=1.2' separated by commas"
            )
        clauses.append(clause.groups())
    return name, lambda version: all(_clause_holds(op, v, version) for op, v in clauses)


def parse(requirement: str) -> tuple[str, Callable[[str], bool]]:
    """Split a requirement into the distribution name and a test for an installed version."""
    if not isinstance(requirement, str):
        raise TypeError(f"a requirement must be a string, got {type(requirement).__name__}")
    try:
        from packaging.requirements import InvalidRequirement, Requirement
    except ImportError:
        return _parse_without_packaging(requirement)
    try:
        parsed = Requirement(requirement)
    except InvalidRequirement as error:
        raise ValueError(f"invalid requirement {requirement!r}: {error}") from None
    return parsed.name, lambda version: parsed.specifier.contains(version, prereleases=True)


def check(requirements: tuple[str, ...]) -> tuple[bool, str]:
    """Whether every requirement is met, and a summary of what is installed.

    Returns:
        ``(satisfied, summary)`` where ``summary`` reads like ``'numpy 2.1.0, h5py missing'``.
    """
    satisfied = True
    found = []
    for requirement in requirements:
        name, holds = parse(requirement)
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            satisfied = False
            found.append(f"{name} missing")
            continue
        found.append(f"{name} {version}")
        satisfied = satisfied and holds(version)
    return satisfied, ", ".join(found)
