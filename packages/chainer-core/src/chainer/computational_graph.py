"""Build the computational graph behind some variables and write it in the DOT language.

Example:
    >>> import chainer.computational_graph as c
    >>> x = chainer.Variable(numpy.ones(3, numpy.float32))
    >>> loss = F.sum(x * x)
    >>> g = c.build_computational_graph([loss])
    >>> with open('graph.dot', 'w') as f:
    ...     _ = f.write(g.dump())

Render it with Graphviz: ``dot -Tpng graph.dot -o graph.png``.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable, Mapping

from chainer.function_node import FunctionNode
from chainer.variable import Variable, VariableNode

__all__ = ["ComputationalGraph", "build_computational_graph"]

_DEFAULT_VARIABLE_STYLE = {"shape": "octagon", "fillcolor": "#E0E0E0", "style": "filled"}
_DEFAULT_FUNCTION_STYLE = {"shape": "record", "fillcolor": "#6495ED", "style": "filled"}
_RANKDIRS = ("TB", "BT", "LR", "RL")


def _style(style: Mapping | str | None, default: dict, what: str) -> dict:
    if style == "default":
        return dict(default)
    if style is None:
        return {}
    if isinstance(style, Mapping):
        return dict(style)
    raise TypeError(f"{what} must be a dict of DOT attributes, 'default' or None, got {style!r}")


def _quote(value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


class ComputationalGraph:
    """Variable nodes and function nodes, and the edges through which data flows.

    Usually made by :func:`build_computational_graph`.

    Args:
        nodes: :class:`~chainer.VariableNode` and :class:`~chainer.FunctionNode` objects.
        edges: ``(source, destination)`` pairs of nodes, in the direction of the forward pass.
        variable_style: DOT attributes of variable nodes, ``'default'`` (grey octagons) or
            ``None`` (plain ovals).
        function_style: DOT attributes of function nodes, ``'default'`` (blue boxes) or
            ``None`` (plain boxes).
        rankdir: Direction of the drawing: ``'TB'``, ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable: Draw only functions, with an edge from a function to every function
            that consumes one of its outputs.
        show_name: Prefix the label of a named variable with its name.
    """

    def __init__(
        self,
        nodes: Iterable,
        edges: Iterable,
        variable_style: Mapping | str | None = "default",
        function_style: Mapping | str | None = "default",
        rankdir: str = "TB",
        remove_variable: bool = False,
        show_name: bool = True,
    ) -> None:
        if rankdir not in _RANKDIRS:
            raise ValueError(f"rankdir must be one of {', '.join(_RANKDIRS)}, got {rankdir!r}")
        self.nodes = list(nodes)
        self.edges = list(edges)
        for node in self.nodes:
            if not isinstance(node, (VariableNode, FunctionNode)):
                raise TypeError(
                    f"nodes must be VariableNode or FunctionNode objects, got {type(node)}"
                )
        self.variable_style = _style(variable_style, _DEFAULT_VARIABLE_STYLE, "variable_style")
        self.function_style = _style(function_style, _DEFAULT_FUNCTION_STYLE, "function_style")
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def _attributes(self, node) -> dict:
        if isinstance(node, VariableNode):
            label = node.label
            if self.show_name and node.name is not None:
                label = f"{node.name}: {label}"
            return {"label": label, "shape": "oval", **self.variable_style}
        return {"label": node.label, "shape": "box", **self.function_style}

    def _function_edges(self) -> list:
        """Edges from each creator to the functions consuming its outputs."""
        in_graph = {id(node) for node in self.nodes}
        edges = []
        for source, destination in self.edges:
            if isinstance(source, VariableNode) and isinstance(destination, FunctionNode):
                creator = source.creator_node
                if creator is not None and id(creator) in in_graph:
                    edges.append((creator, destination))
        return edges

    def _to_dot(self) -> str:
        if self.remove_variable:
            nodes = [n for n in self.nodes if isinstance(n, FunctionNode)]
            edges = self._function_edges()
        else:
            nodes, edges = self.nodes, self.edges
        lines = ["digraph graphname {", f"  rankdir={self.rankdir};"]
        for node in nodes:
            attributes = sorted(self._attributes(node).items())
            text = ",".join(f"{key}={_quote(value)}" for key, value in attributes)
            lines.append(f"  {id(node)} [{text}];")
        drawn = set()
        for source, destination in edges:
            pair = (id(source), id(destination))
            if pair not in drawn:
                drawn.add(pair)
                lines.append(f"  {pair[0]} -> {pair[1]};")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def dump(self, format: str = "dot") -> str:
        """Return the graph as text; only ``'dot'`` (Graphviz DOT language) is supported."""
        if format == "dot":
            return self._to_dot()
        raise NotImplementedError(f"only the 'dot' format is supported, got {format!r}")


def _start_nodes(outputs) -> list:
    kinds = (Variable, VariableNode, FunctionNode)
    if isinstance(outputs, kinds):
        outputs = [outputs]
    starts = []
    for output in outputs:
        if not isinstance(output, kinds):
            raise TypeError(
                "outputs must be Variable, VariableNode or FunctionNode objects (or a sequence "
                f"of them), got {type(output).__name__}"
            )
        starts.append(output.node if isinstance(output, Variable) else output)
    return starts


def build_computational_graph(
    outputs,
    remove_split: bool = True,
    variable_style: Mapping | str | None = "default",
    function_style: Mapping | str | None = "default",
    rankdir: str = "TB",
    remove_variable: bool = False,
    show_name: bool = True,
) -> ComputationalGraph:
    """Build the graph of every node backward-reachable from ``outputs``.

    Starting from the outputs, it follows each variable to its creator and each function to
    its inputs. Edges point in the direction of the forward pass: ``(input, function)`` and
    ``(function, output)``.

    Args:
        outputs: A :class:`~chainer.Variable`, :class:`~chainer.VariableNode` or
            :class:`~chainer.FunctionNode`, or a sequence of them.
        remove_split: Must be True (split nodes no longer exist; kept for compatibility).
        variable_style: DOT attributes of variable nodes (see :class:`ComputationalGraph`).
        function_style: DOT attributes of function nodes.
        rankdir: Direction of the drawing: ``'TB'``, ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable: Draw only the functions.
        show_name: Prefix the label of a named variable with its name.

    Returns:
        ComputationalGraph: its nodes and edges, in the order they were reached.
    """
    if not remove_split:
        raise ValueError("remove_split=False is not supported anymore: split nodes are gone")
    nodes: dict = {}  # id -> node, in the order reached
    edges: dict = {}  # (id, id) -> (source, destination)
    pending = collections.deque(_start_nodes(outputs))
    for node in pending:
        nodes.setdefault(id(node), node)

    def connect(source, destination) -> None:
        key = (id(source), id(destination))
        if key in edges:
            return
        edges[key] = (source, destination)
        if id(source) not in nodes:
            nodes[id(source)] = source
            pending.append(source)

    while pending:
        node = pending.popleft()
        if isinstance(node, VariableNode):
            if node.creator_node is not None:
                connect(node.creator_node, node)
        else:
            for input_node in node.inputs or ():
                connect(input_node, node)
    return ComputationalGraph(
        nodes.values(),
        edges.values(),
        variable_style,
        function_style,
        rankdir,
        remove_variable,
        show_name,
    )
