"""chainer.training (shipped by the chainer-training distribution).

The training loop: :class:`Trainer` runs an updater (:mod:`~chainer.training.updaters`) until
a stop trigger fires (:mod:`~chainer.training.triggers`) and calls extensions
(:mod:`~chainer.training.extensions`) along the way.

Reading order: ``trainer`` (the loop), ``updaters/standard_updater`` (one step),
``extension`` (the extension protocol), ``triggers/interval_trigger``, then the extensions.
"""

from chainer._training_distribution import check_core as _check_core

_check_core()

from chainer.training import (  # noqa: E402
    extension,
    extensions,
    trainer,
    trigger,
    triggers,
    updater,
    updaters,
    util,
)
from chainer.training._updater import Updater  # noqa: E402
from chainer.training.extension import (  # noqa: E402
    PRIORITY_EDITOR,
    PRIORITY_READER,
    PRIORITY_WRITER,
    Extension,
    make_extension,
)
from chainer.training.trainer import Trainer  # noqa: E402
from chainer.training.triggers.interval_trigger import IntervalTrigger  # noqa: E402
from chainer.training.updaters.parallel_updater import ParallelUpdater  # noqa: E402
from chainer.training.updaters.standard_updater import StandardUpdater  # noqa: E402
from chainer.training.util import get_trigger  # noqa: E402

__all__ = [
    "PRIORITY_EDITOR",
    "PRIORITY_READER",
    "PRIORITY_WRITER",
    "Extension",
    "IntervalTrigger",
    "ParallelUpdater",
    "StandardUpdater",
    "Trainer",
    "Updater",
    "extension",
    "extensions",
    "get_trigger",
    "make_extension",
    "trainer",
    "trigger",
    "triggers",
    "updater",
    "updaters",
    "util",
]
