"""Lazy, optional matplotlib for the plotting extensions.

matplotlib is not a dependency: it is imported on first use only, and when it is missing the
plotting extensions warn once and do nothing. Figures are drawn with the Agg canvas directly,
without pyplot, so the process's matplotlib backend and open figures are left alone and
plotting works without a display. Files are written atomically.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from chainer.serializers._atomic import atomic_write

_state: dict[str, Any] = {"matplotlib": None, "checked": False, "warned": False}


def available() -> bool:
    """Whether matplotlib can be imported; warns once per process when it cannot."""
    if not _state["checked"]:
        _state["checked"] = True
        try:
            import matplotlib  # noqa: F401
            from matplotlib.backends import backend_agg
            from matplotlib.figure import Figure
        except ImportError:
            pass
        else:
            _state["matplotlib"] = (Figure, backend_agg.FigureCanvasAgg)
    if _state["matplotlib"] is None and not _state["warned"]:
        _state["warned"] = True
        warnings.warn(
            "matplotlib is not installed on your environment, so nothing will be plotted at "
            "this time. Please install matplotlib to plot figures.\n\n"
            "  $ pip install matplotlib\n",
            stacklevel=3,
        )
    return _state["matplotlib"] is not None


def new_figure(**kwargs: Any) -> Any:
    """Return a new matplotlib ``Figure`` drawn by an Agg canvas (call :func:`available` first)."""
    figure_class, canvas_class = _state["matplotlib"]
    figure = figure_class(**kwargs)
    canvas_class(figure)
    return figure


class AggPyplot:
    """The two pyplot functions :meth:`VariableStatisticsPlot.save_plot_using_module` uses,
    backed by :func:`new_figure` instead of pyplot's global state."""

    @staticmethod
    def subplots(nrows: int = 1, ncols: int = 1, figsize: Any = None, **kwargs: Any) -> tuple:
        figure = new_figure(figsize=figsize)
        return figure, figure.subplots(nrows, ncols, **kwargs)

    @staticmethod
    def close(*args: Any) -> None:
        """Nothing to close: the figures are not registered anywhere."""


def save_figure(figure: Any, path: str, **kwargs: Any) -> None:
    """Save ``figure`` to ``path`` atomically, in the format its extension names (PNG if none)."""
    extension = os.path.splitext(path)[1].lstrip(".").lower() or "png"
    with atomic_write(path) as temp_path:
        figure.savefig(temp_path, format=extension, **kwargs)
