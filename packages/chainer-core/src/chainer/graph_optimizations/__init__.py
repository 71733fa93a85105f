"""Graph optimizations: static subgraph optimization (``@static_graph``, ``@static_code``)."""

from chainer.graph_optimizations import static_graph, static_graph_utilities
from chainer.graph_optimizations.static_graph_utilities import static_code
