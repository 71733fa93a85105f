"""Warnings Chainer issues (``chainer.warnings``)."""

from __future__ import annotations

__all__ = ["PerformanceWarning"]


class PerformanceWarning(RuntimeWarning):
    """The code works, but a slower path than expected is taken (say why in the message)."""
