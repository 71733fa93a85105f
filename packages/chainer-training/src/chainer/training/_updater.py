"""The interface between the trainer and the code that updates the parameters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer
    from chainer.training.trainer import Trainer


class Updater:
    """Interface of updater objects for trainers.

    An updater does one step of training per :meth:`update` call and owns the optimizers.
    It must also provide ``iteration`` (the number of updates done) and, for epoch-based
    triggers, ``epoch``, ``epoch_detail``, ``previous_epoch_detail`` and ``is_new_epoch``.

    Example:
        >>> class HalvingUpdater(Updater):
        ...     def __init__(self, optimizer):
        ...         self.optimizer = optimizer
        ...         self.iteration = 0
        ...     def get_optimizer(self, name):
        ...         return self.optimizer
        ...     def get_all_optimizers(self):
        ...         return {'main': self.optimizer}
        ...     def update(self):
        ...         for param in self.optimizer.target.params():
        ...             param.array *= 0.5
        ...         self.iteration += 1
        ...     def serialize(self, serializer):
        ...         self.iteration = serializer('iteration', self.iteration)
    """

    def connect_trainer(self, trainer: Trainer) -> None:
        """Called by the trainer it is given to (to register observers, for example)."""

    def finalize(self) -> None:
        """Release resources (iterators, worker processes) when training ends."""

    def get_optimizer(self, name: str) -> Optimizer:
        """Return the optimizer registered as ``name``."""
        raise NotImplementedError(f"{type(self).__name__} must implement get_optimizer")

    def get_all_optimizers(self) -> dict[str, Optimizer]:
        """Return a dictionary of every optimizer by name."""
        raise NotImplementedError(f"{type(self).__name__} must implement get_all_optimizers")

    def update(self) -> None:
        """Do one step of training and increment ``iteration``."""
        raise NotImplementedError(f"{type(self).__name__} must implement update")

    def serialize(self, serializer: Any) -> None:
        """Save or load the updater's state."""
        raise NotImplementedError(f"{type(self).__name__} must implement serialize")
