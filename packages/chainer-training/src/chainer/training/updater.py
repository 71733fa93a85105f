"""Old location of the updater classes, kept for existing imports.

Use :class:`chainer.training.Updater` and :mod:`chainer.training.updaters` instead.
"""

from chainer.training._updater import Updater
from chainer.training.updaters.parallel_updater import ParallelUpdater
from chainer.training.updaters.standard_updater import StandardUpdater

__all__ = ["ParallelUpdater", "StandardUpdater", "Updater"]
