"""Dumping the computational graph of a reported variable as a Graphviz DOT file."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from typing import Any

from chainer import computational_graph
from chainer.configuration import config
from chainer.serializers._atomic import atomic_write
from chainer.training import extension
from chainer.utils import argument
from chainer.variable import Variable


def is_graphviz_available() -> bool:
    """Whether Graphviz's ``dot`` command is on the ``PATH`` (to render graphs as images)."""
    return shutil.which("dot") is not None


def _render_png(dot_path: str) -> None:
    import subprocess  # only with Graphviz installed; it costs 2 ms at import

    png_path = os.path.splitext(dot_path)[0] + ".png"
    with atomic_write(png_path) as path:
        result = subprocess.run(
            ["dot", "-Tpng", dot_path, "-o", path], capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            raise RuntimeError(
                f"DumpGraph: dot could not render {dot_path} (exit code {result.returncode}): "
                f"{result.stderr.strip()}"
            )


class DumpGraph(extension.Extension):
    """Trainer extension to dump a computational graph.

    At the first iteration it writes the graph behind the observed variable ``root_name``
    (``'main/loss'``, ...) in the DOT language to ``<trainer.out>/<filename>``. When Graphviz's
    ``dot`` command is installed (:func:`is_graphviz_available`) it also renders the graph to
    a PNG image beside it (``cg.dot`` gives ``cg.png``). Reported variables normally drop
    their graph, so the extension turns ``chainer.config.keep_graph_on_report`` on when the
    training starts and restores it once the graph is written.

    Args:
        root_name: Key of the observed variable whose graph is dumped.
        filename: Output file name, relative to the trainer's output directory (``'cg.dot'``
            when ``None``; ``out_name`` is the deprecated keyword for it).
        variable_style: DOT attributes of variable nodes (grey octagons when ``None``).
        function_style: DOT attributes of function nodes (blue boxes when ``None``).

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(DumpGraph('main/loss'))
    """

    default_name = "dump_graph"

    def __init__(
        self,
        root_name: str,
        filename: str | None = None,
        variable_style: Mapping | None = None,
        function_style: Mapping | None = None,
        **kwargs: Any,
    ) -> None:
        (out_name,) = argument.parse_kwargs(kwargs, ("out_name", "cg.dot"))
        self._root_name = root_name
        self._filename = out_name if filename is None else filename
        self._variable_style = "default" if variable_style is None else variable_style
        self._function_style = "default" if function_style is None else function_style
        self._original_flag: bool | None = None
        self._flag_called = False

    def initialize(self, trainer: Any) -> None:
        """Keep graphs of reported variables until the graph has been dumped."""
        if not self._flag_called:
            self._original_flag = config.keep_graph_on_report
            config.keep_graph_on_report = True

    def trigger(self, trainer: Any) -> bool:
        """Fire until the graph has been dumped (that is, once)."""
        return not self._flag_called

    def __call__(self, trainer: Any) -> None:
        """Write the graph of the observed root variable, then restore the configuration."""
        if self._flag_called:
            return
        try:
            root = trainer.observation.get(self._root_name)
            if not isinstance(root, Variable):
                raise TypeError(
                    f"DumpGraph: the observed value {self._root_name!r} must be a Variable, got "
                    f"{type(root).__name__} (observed keys: {sorted(trainer.observation)})"
                )
            graph = computational_graph.build_computational_graph(
                [root],
                variable_style=self._variable_style,
                function_style=self._function_style,
            )
            dot_path = os.path.join(trainer.out, self._filename)
            with atomic_write(dot_path) as path:
                with open(path, "w", encoding="utf-8") as stream:
                    stream.write(graph.dump())
            if is_graphviz_available():
                _render_png(dot_path)
        finally:
            if self._original_flag is not None:
                config.keep_graph_on_report = self._original_flag
            self._flag_called = True

    def serialize(self, serializer: Any) -> None:
        """Save or load whether the graph was dumped and the configuration to restore."""
        original = serializer("_original_flag", self._original_flag)
        self._original_flag = None if original is None else bool(original)
        self._flag_called = bool(serializer("_flag_called", self._flag_called))


dump_graph = DumpGraph
