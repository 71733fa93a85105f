"""Our public functions, classes and methods take the arguments Chainer v7.8.1's take.

Reads ``ci/signatures.json`` (see ``ci/signatures.py``). For every v7 parameter that may be
passed by position, ours has the same name at the same position; a v7 default is a default
of ours (the same value where both are plain literals); v7's keyword-only and ``**`` options
are accepted; and nothing v7 did not ask for is required. Extra optional parameters are
fine. Needs the distributions installed (the ``dev`` session); one that is not importable here
is skipped. Entries we deliberately differ in are in ``KNOWN_DIFFERENCES`` with the reason: the
test fails on another difference, and when a listed one is gone.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib
import sys
import warnings

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "ci"), str(ROOT / "docs")]
public_names = importlib.import_module("public_names")
signatures = importlib.import_module("signatures")

TABLE: dict[str, dict[str, list]] = json.loads(signatures.SIGNATURES_FILE.read_text())
_STATIC_GRAPH = (
    "v7's static-graph scheduler internals; ours schedules differently (chainer-core README)"
)
# "module:name" -> why our signature differs.
KNOWN_DIFFERENCES = {
    "chainer.backends.cuda:ndarray.get": "without CuPy, cuda.ndarray is a stand-in class",
    "chainer.backends.cuda:ndarray.set": "without CuPy, cuda.ndarray is a stand-in class",
    "chainer.training.extensions:unchain_variables.initialize": (
        "the base Extension.initialize(trainer); v7 overrode it to name the argument '_'"
    ),
    "chainer.functions.pooling.pooling_2d:Pooling2D.backward_gpu": (
        "the pooling base computes on CuPy in forward/backward; v7's cuDNN-only hooks"
    ),
    "chainer.functions.pooling.pooling_2d:Pooling2D.forward_gpu": (
        "the pooling base computes on CuPy in forward/backward; v7's cuDNN-only hooks"
    ),
    "chainer.graph_optimizations.static_graph:ScheduleInfo.__init__": _STATIC_GRAPH,
    "chainer.graph_optimizations.static_graph:ScheduleInfo.run_post_hooks": _STATIC_GRAPH,
    "chainer.graph_optimizations.static_graph:ScheduleInfo.run_pre_hooks": _STATIC_GRAPH,
    "chainer.graph_optimizations.static_graph:ScheduleManager.get_schedule": _STATIC_GRAPH,
    **{
        f"chainer.graph_optimizations.static_graph:StaticScheduleFunction.{member}": _STATIC_GRAPH
        for member in (
            "__init__",
            "append_function",
            "build_schedule",
            "debug_print_ref_counts",
            "debug_print_unique_arrays_info",
            "get_contained_schedule",
            "get_unique_index_from_array",
            "is_empty",
            "run_in_var_hooks",
            "run_out_var_hooks",
            "run_param_post_hooks",
            "run_param_pre_hooks",
            "set_out_variables",
        )
    },
    "chainer.testing.distribution_test:distribution_unittest.test_dummy": (
        "v7's placeholder test method of the distribution test base"
    ),
}
_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional",
    inspect.Parameter.KEYWORD_ONLY: "keyword",
    inspect.Parameter.VAR_POSITIONAL: "*",
    inspect.Parameter.VAR_KEYWORD: "**",
}


def _ours(module, name: str) -> list | str | None:
    """Our parameters of ``name`` (``Class.member`` too) as ``[name, kind, default repr]``;
    ``'missing'`` for a member our class lacks, None when there is nothing to compare (no
    such name, or no signature to read)."""
    owner_name, _, member = name.partition(".")
    owner = getattr(module, owner_name, None)
    if owner is None:
        return None
    target = owner
    if member:
        static = inspect.getattr_static(owner, member, None)
        if static is None:
            return "missing"
        target = getattr(owner, member)
    try:
        parameters = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return None
    if member and not isinstance(static, staticmethod) and parameters:
        if parameters[0].name in ("self", "cls"):  # looked up on the class
            parameters = parameters[1:]
    return [
        [p.name, _KINDS[p.kind], None if p.default is inspect.Parameter.empty else repr(p.default)]
        for p in parameters
    ]


def differences(v7: list, ours: list) -> list[str]:
    """What code written for ``v7``'s parameters could not pass to ``ours``."""
    problems = []
    positional = [p for p in ours if p[1] == "positional"]
    names = {p[0]: p for p in ours}
    kinds = {p[1] for p in ours}
    v7_positional = [p for p in v7 if p[1] == "positional"]
    for index, (name, _, default) in enumerate(v7_positional):
        if index < len(positional):
            our_name, _, our_default = positional[index]
            if our_name != name:
                problems.append(f"argument {index} is {our_name!r}, v7's is {name!r}")
            elif default is not None and our_default is None:
                problems.append(f"{name!r} is required, v7's defaults to {default}")
            elif default not in (None, our_default) and "<" not in default + our_default:
                problems.append(f"{name!r} defaults to {our_default}, v7's to {default}")
        elif "*" not in kinds:
            problems.append(
                f"{name!r} cannot be passed by position"
                if name in names or "**" in kinds
                else f"{name!r} is missing"
            )
    for name, kind, _ in v7:
        if kind == "keyword" and name not in names and "**" not in kinds:
            problems.append(f"keyword {name!r} is missing")
        elif (
            kind in ("*", "**") and kind not in kinds and not (kind == "**" and "keyword" in kinds)
        ):
            problems.append(f"{kind}{name} is missing")
    v7_names = {p[0] for p in v7}
    for name, kind, default in ours:
        if name not in v7_names and default is None and kind in ("positional", "keyword"):
            problems.append(f"{name!r} is required, v7 has no such argument")
    return problems


def _mismatches(dist: str) -> dict[str, list[str]]:
    found = {}
    for module_name in _OWNED[dist]:
        module = importlib.import_module(module_name)
        for name, v7 in TABLE[module_name].items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # deprecated names warn when looked up
                ours = _ours(module, name)
            if ours is None:
                continue  # an absent name is test_public_names' business
            problems = ["missing"] if ours == "missing" else differences(v7, ours)
            if problems:
                found[f"{module_name}:{name}"] = problems
    return found


# Distribution -> the modules it owns that have signatures listed.
_OWNED: dict[str, list[str]] = {}
for _module in TABLE:
    _OWNED.setdefault(public_names.owner(_module), []).append(_module)


@pytest.mark.parametrize("dist", sorted(_OWNED))
def test_signatures_match_v7(dist: str) -> None:
    for module in _OWNED[dist]:
        pytest.importorskip(module.partition(".")[0], reason=f"{dist} is not installed here")
    found = _mismatches(dist)
    known = {k for k in KNOWN_DIFFERENCES if public_names.owner(k.partition(":")[0]) == dist}
    new = {k: v for k, v in found.items() if k not in KNOWN_DIFFERENCES}
    closed = sorted(known - set(found))
    assert not new, f"{dist} takes other arguments than Chainer v7.8.1: {new}"
    assert not closed, f"{dist} now matches v7 in {closed}: remove them from KNOWN_DIFFERENCES"


@pytest.mark.skipif(
    not (public_names.API_DIR / public_names.NAMES_FILES[0]).is_file(),
    reason=f"no API listing in {public_names.API_DIR}",
)
def test_signatures_file_is_current() -> None:
    current = signatures.render(signatures.from_listing(public_names.API_DIR))
    assert signatures.SIGNATURES_FILE.read_text() == current, (
        "ci/signatures.json is out of date: run python ci/signatures.py"
    )


@pytest.mark.parametrize(
    ("v7", "ours", "expected"),
    [
        ("(x, axis=None)", "(x, axis=None)", []),
        ("(x, axis=None)", "(x, axis=None, *, keepdims=False)", []),
        (
            "(x, axis=None)",
            "(y, axis=None)",
            ["argument 0 is 'y', v7's is 'x'", "'y' is required, v7 has no such argument"],
        ),
        ("(x, axis=None)", "(x, axis)", ["'axis' is required, v7's defaults to None"]),
        ("(x, axis=None)", "(x, axis=0)", ["'axis' defaults to 0, v7's to None"]),
        ("(x, axis=None)", "(x, *, axis=None)", ["'axis' cannot be passed by position"]),
        ("(x, **kwargs)", "(x, *, dilate=1)", []),
        ("(x, *, mode='a')", "(x)", ["keyword 'mode' is missing"]),
        ("(x)", "(x, y)", ["'y' is required, v7 has no such argument"]),
        ("(*xs)", "(xs)", ["*xs is missing"]),
    ],
)
def test_differences(v7: str, ours: str, expected: list[str]) -> None:
    namespace: dict = {}
    exec(f"def f{ours}: pass", namespace)  # a signature written out in the test
    ours_params = _ours(type("M", (), {"f": staticmethod(namespace["f"])}), "f")
    assert differences(signatures.parse(v7), ours_params) == expected
