"""Releasing the computational graphs held by reported variables."""

from __future__ import annotations

from typing import Any

from chainer.training import extension
from chainer.variable import Variable


class unchain_variables(extension.Extension):
    """Trainer extension to unchain all comptational graphs.

    With ``chainer.config.keep_graph_on_report`` on, every reported
    :class:`~chainer.Variable` keeps the graph that computed it alive for as long as the
    observation holds it. This extension runs after the other extensions of each iteration
    (lowest priority) and unchains those variables, so the graphs are freed right away.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(unchain_variables())
    """

    #: Below every standard priority: the other extensions see the graphs first.
    priority = 0

    def trigger(self, _: Any) -> bool:
        """Fire at every iteration."""
        return True

    def __call__(self, trainer: Any) -> None:
        """Unchain every variable of the current observation from its graph."""
        for value in trainer.observation.values():
            if isinstance(value, Variable):
                value.unchain_backward()
