"""Plotting observed values over the training as an image file."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import Any

from chainer import reporter
from chainer.serializer import Serializer
from chainer.training import extension, util
from chainer.training.extensions import _plotting
from chainer.utils import argument


class PlotReport(extension.Extension):
    """Trainer extension to output plots.

    At every iteration it accumulates the observed ``y_keys``; when ``trigger`` fires it adds
    a point ``(x, mean)`` per key, where ``x`` is the ``x_key`` value (``'iteration'``,
    ``'epoch'`` or an observed key), and redraws the whole plot into
    ``<trainer.out>/<filename>`` (written atomically, in the format of the file extension).

    matplotlib is optional: without it :meth:`available` is ``False`` (with a warning, once
    per process) and the extension does nothing. It draws on an Agg canvas without pyplot, so
    no display is needed and the process's matplotlib backend is left alone.

    Args:
        y_keys: A key or a list of keys of the observed values to plot.
        x_key: Key of the x-axis values.
        trigger: When to add points and redraw.
        postprocess: Called as ``postprocess(figure, axes, summary)`` before saving.
        filename: Output file name (``'plot.png'`` when ``None``; ``file_name`` is the
            deprecated keyword for it).
        marker: Marker of the points (matplotlib's ``marker``), or ``None``.
        grid: Draw a grid.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(PlotReport(['main/loss', 'validation/main/loss'], 'epoch',
        ...                           filename='loss.png'))
    """

    def __init__(
        self,
        y_keys: str | Sequence[str],
        x_key: str = "iteration",
        trigger: Any = (1, "epoch"),
        postprocess: Callable | None = None,
        filename: str | None = None,
        marker: str | None = "x",
        grid: bool = True,
        **kwargs: Any,
    ) -> None:
        (file_name,) = argument.parse_kwargs(kwargs, ("file_name", "plot.png"))
        _plotting.available()  # warn now, when matplotlib is missing
        self._x_key = x_key
        self._y_keys = [y_keys] if isinstance(y_keys, str) else list(y_keys)
        self._trigger = util.get_trigger(trigger)
        self._filename = file_name if filename is None else filename
        self._marker = marker
        self._grid = grid
        self._postprocess = postprocess
        self._summary = reporter.DictSummary()
        self._data: dict[str, list] = {key: [] for key in self._y_keys}

    @staticmethod
    def available() -> bool:
        """Whether matplotlib is installed (warns once per process when it is not)."""
        return _plotting.available()

    def __call__(self, trainer: Any) -> None:
        """Accumulate the observed values; when the trigger fires, add points and redraw."""
        if not self.available():
            return
        observation = trainer.observation
        self._summary.add({k: observation[k] for k in self._y_keys if k in observation})
        if not self._trigger(trainer):
            return
        stats = {name: float(value) for name, value in self._summary.compute_mean().items()}
        stats["epoch"] = trainer.updater.epoch
        stats["iteration"] = trainer.updater.iteration
        x = stats[self._x_key]
        for key in self._y_keys:
            if key in stats:
                self._data[key].append((x, stats[key]))
        self._draw(os.path.join(trainer.out, self._filename))
        self._summary = reporter.DictSummary()

    def _draw(self, path: str) -> None:
        figure = _plotting.new_figure()
        axes = figure.add_subplot(111)
        axes.set_xlabel(self._x_key)
        if self._grid:
            axes.grid()
        for key in self._y_keys:
            points = self._data[key]
            if points:
                xs, ys = zip(*points)
                axes.plot(xs, ys, marker=self._marker, label=key)
        if not axes.has_data():
            return
        if self._postprocess is not None:
            self._postprocess(figure, axes, self._summary)
        legend = axes.legend(bbox_to_anchor=(1.05, 1), loc=2, borderaxespad=0.0)
        _plotting.save_figure(figure, path, bbox_extra_artists=(legend,), bbox_inches="tight")

    def serialize(self, serializer: Any) -> None:
        """Save or load the trigger, the values accumulated so far and the plotted points."""
        if hasattr(self._trigger, "serialize"):
            self._trigger.serialize(serializer["_trigger"])
        self._summary.serialize(serializer["_summary"])
        if isinstance(serializer, Serializer):
            serializer("_data", json.dumps(self._data))
        else:
            loaded = json.loads(str(serializer("_data", "")))
            self._data = {
                key: [tuple(point) for point in loaded.get(key, [])] for key in self._y_keys
            }
