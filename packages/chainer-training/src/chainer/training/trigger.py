"""Old location of :func:`get_trigger` and :class:`IntervalTrigger`, kept for existing imports.

Use :func:`chainer.training.get_trigger` and :mod:`chainer.training.triggers` instead.
"""

from chainer.training.triggers.interval_trigger import IntervalTrigger
from chainer.training.util import get_trigger

__all__ = ["IntervalTrigger", "get_trigger"]
