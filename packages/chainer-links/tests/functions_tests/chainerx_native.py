"""Helpers for the tests that a function computes ChainerX inputs natively.

A function node with a ``forward_chainerx`` path must not reach its NumPy ``forward`` (the
fallback) for the inputs that path supports: :func:`forbid_fallback` turns such a call into a
test failure. The tests using these helpers skip where chainerx is not installed.
"""

import numpy
import pytest


def _fallback_called(self, inputs):
    raise AssertionError(f"{type(self).__name__} fell back to its NumPy forward")


def forbid_fallback(monkeypatch: pytest.MonkeyPatch, *node_classes: type) -> None:
    """Make the NumPy ``forward`` of ``node_classes`` fail for the rest of the test."""
    for cls in node_classes:
        monkeypatch.setattr(cls, "forward", _fallback_called)


def to_chainerx(*arrays):
    """ChainerX copies (on ``native:0``) of NumPy arrays; ``None`` stays ``None``."""
    chainerx = pytest.importorskip("chainerx")
    return tuple(None if a is None else chainerx.array(a, device="native:0") for a in arrays)


def to_numpy(array) -> numpy.ndarray:
    """The NumPy copy of a ChainerX array or of a variable holding one."""
    chainerx = pytest.importorskip("chainerx")
    array = getattr(array, "array", array)
    assert isinstance(array, chainerx.ndarray), f"expected a ChainerX array, got {type(array)}"
    return chainerx.to_numpy(array)
