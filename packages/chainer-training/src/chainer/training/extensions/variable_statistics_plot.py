"""Plotting how the distribution of variables (parameters, ...) evolves over the training."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy

from chainer import backend
from chainer.link import Link
from chainer.training import extension, util
from chainer.training.extensions import _plotting
from chainer.utils import argument
from chainer.variable import Variable

_COLOR = "#1f77b4"  # matplotlib's first default color
_BAND_ALPHA = 0.2


class Reservoir:
    """A uniform random sample of at most ``size`` of the arrays added so far.

    Reservoir sampling: every added array has the same chance to be in the sample, whatever
    the number added. It draws from its own generator, so sampling never disturbs NumPy's
    global random state (which a reproducible training may depend on).

    Args:
        size: The most arrays kept.
        data_shape: The shape of each added array.
        dtype: The dtype the arrays are stored in.
    """

    def __init__(self, size: int, data_shape: tuple[int, ...], dtype: Any = numpy.float32) -> None:
        self.size = size
        self.data = numpy.zeros((size, *data_shape), dtype=dtype)
        self.idxs = numpy.zeros(size, dtype=numpy.int64)
        self.counter = 0
        self._random = numpy.random.default_rng(0)

    def add(self, x: Any, idx: int | None = None) -> None:
        """Offer ``x`` to the sample, labelled ``idx`` (by default: how many came before)."""
        if idx is None:
            idx = self.counter
        if self.counter < self.size:
            slot = self.counter
        else:
            slot = int(self._random.integers(self.counter + 1))
        if slot < self.size:
            self.data[slot] = x
            self.idxs[slot] = idx
        self.counter += 1

    def get_data(self) -> tuple[numpy.ndarray, numpy.ndarray]:
        """Return the labels of the sampled arrays in increasing order, and the arrays."""
        count = min(self.counter, self.size)
        order = numpy.argsort(self.idxs[:count], kind="stable")
        return self.idxs[:count][order], self.data[:count][order]


class Statistician:
    """Computes the mean, the standard deviation and percentiles of an array.

    Args:
        collect_mean: Compute the mean (key ``'mean'``).
        collect_std: Compute the standard deviation (key ``'std'``).
        percentile_sigmas: The percentiles to compute (key ``'percentile'``); ``None`` or
            ``()`` for none.
    """

    def __init__(
        self, collect_mean: bool, collect_std: bool, percentile_sigmas: Sequence[float] | None
    ) -> None:
        self.collect_mean = collect_mean
        self.collect_std = collect_std
        self.percentile_sigmas = percentile_sigmas

    def __call__(
        self, x: Any, axis: int | tuple[int, ...] | None = 0, dtype: Any = None, xp: Any = None
    ) -> dict[str, Any]:
        """Return the statistics of ``x`` along ``axis`` (``None``: all axes) as a dict.

        Each value has the dtype ``dtype`` (that of ``x`` when ``None``).
        """
        xp = backend.get_array_module(x) if xp is None else xp
        dtype = x.dtype if dtype is None else numpy.dtype(dtype)
        if axis is None:
            axis = tuple(range(x.ndim))
        stats = {}
        if self.collect_mean:
            stats["mean"] = xp.mean(x, axis=axis)
        if self.collect_std:
            stats["std"] = xp.std(x, axis=axis)
        if self.percentile_sigmas is not None and len(self.percentile_sigmas) > 0:
            stats["percentile"] = xp.percentile(x, self.percentile_sigmas, axis=axis)
        return {key: xp.asarray(value).astype(dtype, copy=False) for key, value in stats.items()}


def _check_targets(targets: Any) -> list:
    if isinstance(targets, (Link, Variable)):
        targets = [targets]
    targets = list(targets)
    if not targets:
        raise ValueError("VariableStatisticsPlot needs at least one link or variable, got none")
    for target in targets:
        if not isinstance(target, (Link, Variable)):
            raise TypeError(
                f"targets must be Links or Variables (or a list of them), got "
                f"{type(target).__name__}"
            )
    return targets


def _variables(targets: list) -> list:
    # Resolved at every call: a link's lazily initialized parameters appear once they exist.
    variables = []
    for target in targets:
        if isinstance(target, Link):
            variables.extend(target.params(include_uninit=False))
        elif target.array is not None:
            variables.append(target)
    return variables


class VariableStatisticsPlot(extension.Extension):
    """Trainer extension to plot statistics for :class:`~chainer.Variable` objects.

    At every call it computes, over all elements of the targets together, the mean, the
    standard deviation and the percentiles of their data and of their gradients, and keeps a
    random sample of at most ``max_sample_size`` of these records. When ``trigger`` fires it
    plots them against the iteration into ``<trainer.out>/<filename>`` (written atomically):
    one column per reported attribute (``data``, ``grad``), the mean with a standard deviation
    band in the first row and bands between symmetric percentiles in the second.

    matplotlib is optional: without it :meth:`available` is ``False`` (with a warning, once per
    process) and the extension does nothing.

    Args:
        targets: A link (its initialized parameters), a variable, or a list of them.
        max_sample_size: Number of records kept for the plot (older ones are sampled).
        report_data: Plot the statistics of the data.
        report_grad: Plot the statistics of the gradients.
        plot_mean: Plot the mean.
        plot_std: Plot the standard deviation.
        percentile_sigmas: Percentiles to plot (a number or a sequence), or ``()``.
        trigger: When to redraw the plot.
        filename: Output file name (``'statistics.png'`` when ``None``; ``file_name`` is the
            deprecated keyword for it).
        figsize: Size of the figure in inches.
        marker: Marker of the points, or ``None``.
        grid: Draw grids.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> layer = L.Linear(3, 2)
        >>> trainer.extend(VariableStatisticsPlot(layer))
    """

    def __init__(
        self,
        targets: Any,
        max_sample_size: int = 1000,
        report_data: bool = True,
        report_grad: bool = True,
        plot_mean: bool = True,
        plot_std: bool = True,
        percentile_sigmas: float | Sequence[float] = (
            0,
            0.13,
            2.28,
            15.87,
            50,
            84.13,
            97.72,
            99.87,
            100,
        ),
        trigger: Any = (1, "epoch"),
        filename: str | None = None,
        figsize: tuple[float, float] | None = None,
        marker: str | None = None,
        grid: bool = True,
        **kwargs: Any,
    ) -> None:
        (file_name,) = argument.parse_kwargs(kwargs, ("file_name", "statistics.png"))
        self._targets = _check_targets(targets)
        if numpy.ndim(percentile_sigmas) == 0:
            percentile_sigmas = [percentile_sigmas]
        self._percentiles = [float(p) for p in percentile_sigmas]
        if not (plot_mean or plot_std or self._percentiles):
            raise ValueError(
                "nothing to plot: enable plot_mean or plot_std, or give percentile_sigmas"
            )
        self._keys = [name for name, on in (("data", report_data), ("grad", report_grad)) if on]
        if not self._keys:
            raise ValueError("nothing to plot: enable report_data or report_grad")
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._trigger = util.get_trigger(trigger)
        self._filename = file_name if filename is None else filename
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        self._statistician = Statistician(plot_mean, plot_std, self._percentiles)
        n_stats = int(plot_mean) + int(plot_std) + len(self._percentiles)
        self._samples = Reservoir(max_sample_size, (len(self._keys), n_stats))

    @staticmethod
    def available() -> bool:
        """Whether matplotlib is installed (warns once per process when it is not)."""
        return _plotting.available()

    def _statistics(self, attribute: str) -> numpy.ndarray:
        arrays = [getattr(v, attribute) for v in _variables(self._targets)]
        arrays = [backend.CpuDevice().send(a).ravel() for a in arrays if a is not None]
        if not arrays:  # no gradient yet
            return numpy.full(self._samples.data.shape[-1], numpy.nan, dtype=numpy.float32)
        values = numpy.concatenate(arrays).astype(numpy.float64)
        stats = self._statistician(values, axis=None, dtype=numpy.float64)
        parts = [numpy.ravel(stats[key]) for key in ("mean", "std", "percentile") if key in stats]
        return numpy.concatenate(parts).astype(numpy.float32)

    def __call__(self, trainer: Any) -> None:
        """Record the current statistics; when the trigger fires, redraw the plot."""
        if not self.available():
            return
        row = numpy.stack([self._statistics(key) for key in self._keys])
        self._samples.add(row, trainer.updater.iteration)
        if self._trigger(trainer):
            path = os.path.join(trainer.out, self._filename)
            self.save_plot_using_module(path, _plotting.AggPyplot)

    def save_plot_using_module(self, file_path: str, plt: Any) -> None:
        """Draw the plot with ``plt`` (``matplotlib.pyplot`` or a stand-in) into ``file_path``.

        Only ``plt.subplots`` and ``plt.close`` are used; the file is written atomically.
        """
        n_rows = int(self._plot_mean or self._plot_std) + int(bool(self._percentiles))
        figure, axes = plt.subplots(
            n_rows, len(self._keys), figsize=self._figsize, sharex=True, squeeze=False
        )
        iterations, data = self._samples.get_data()
        offset = int(self._plot_mean) + int(self._plot_std)
        for column, key in enumerate(self._keys):
            row = 0
            axes[0, column].set_title(key)
            if self._plot_mean or self._plot_std:
                self._plot_moments(axes[0, column], iterations, data[:, column])
                row = 1
            if self._percentiles:
                self._plot_percentiles(axes[row, column], iterations, data[:, column, offset:])
            axes[n_rows - 1, column].set_xlabel("iteration")
        for ax in axes.ravel():
            ax.legend()
            if self._grid:
                ax.grid()
                ax.set_axisbelow(True)
        _plotting.save_figure(figure, file_path)
        plt.close(figure)

    def _plot_moments(self, ax: Any, iterations: numpy.ndarray, stats: numpy.ndarray) -> None:
        if self._plot_mean and self._plot_std:
            mean, std = stats[:, 0], stats[:, 1]
            ax.plot(iterations, mean, color=_COLOR, marker=self._marker, label="mean")
            ax.fill_between(
                iterations, mean - std, mean + std, color=_COLOR, alpha=_BAND_ALPHA, label="std"
            )
        else:
            label = "mean" if self._plot_mean else "std"
            ax.plot(iterations, stats[:, 0], color=_COLOR, marker=self._marker, label=label)

    def _plot_percentiles(self, ax: Any, iterations: numpy.ndarray, stats: numpy.ndarray) -> None:
        # Bands between the i-th lowest and i-th highest percentiles, nested; an odd middle one
        # (the median, by default) is drawn as a line.
        n = stats.shape[1]
        for i in range(n // 2):
            label = "percentile" if i == 0 else "_nolegend_"
            ax.fill_between(
                iterations,
                stats[:, i],
                stats[:, n - 1 - i],
                color=_COLOR,
                alpha=_BAND_ALPHA,
                linewidth=0,
                label=label,
            )
        if n % 2:
            label = "percentile" if n == 1 else "_nolegend_"
            ax.plot(iterations, stats[:, n // 2], color=_COLOR, marker=self._marker, label=label)

    def serialize(self, serializer: Any) -> None:
        """Save or load the trigger (the sampled records are not kept across a resume)."""
        if hasattr(self._trigger, "serialize"):
            self._trigger.serialize(serializer["_trigger"])
