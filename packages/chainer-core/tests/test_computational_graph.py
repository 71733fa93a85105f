"""build_computational_graph: nodes and edges of a hand-built graph, options, DOT output."""

import re

import numpy
import pytest

from chainer import Variable
from chainer._ops.exponential import exp
from chainer.computational_graph import ComputationalGraph, build_computational_graph

NODE_LINE = re.compile(r'^  (\d+) \[((?:\w+="(?:[^"\\]|\\.)*",?)+)\];$')
EDGE_LINE = re.compile(r"^  (\d+) -> (\d+);$")
ATTRIBUTE = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


@pytest.fixture
def graph():
    """z = exp(x * w + b) with named x; every node of the expected graph, by role."""
    x = Variable(numpy.ones((2, 3), dtype=numpy.float32), name="x")
    w = Variable(numpy.full((2, 3), 2, dtype=numpy.float32))
    b = Variable(numpy.zeros((2, 3), dtype=numpy.float32))
    h = x * w
    y = h + b
    z = exp(y)
    return {
        "x": x.node,
        "w": w.node,
        "b": b.node,
        "h": h.node,
        "y": y.node,
        "z": z.node,
        "mul": h.creator_node,
        "add": y.creator_node,
        "exp": z.creator_node,
        "z_var": z,
        "h_var": h,
    }


def ids(nodes):
    return {id(n) for n in nodes}


def edge_ids(edges):
    return {(id(a), id(b)) for a, b in edges}


def expected_edges(g):
    pairs = [
        ("x", "mul"),
        ("w", "mul"),
        ("mul", "h"),
        ("h", "add"),
        ("b", "add"),
        ("add", "y"),
        ("y", "exp"),
        ("exp", "z"),
    ]
    return {(id(g[a]), id(g[b])) for a, b in pairs}


def parse_dot(text):
    """Check the DOT text's structure; return ({id: attributes}, [(id, id)], rankdir)."""
    lines = text.rstrip("\n").split("\n")
    assert lines[0] == "digraph graphname {" and lines[-1] == "}"
    assert text.count("{") == text.count("}") == 1  # no braces leak from labels
    (rankdir,) = re.fullmatch(r"  rankdir=(\w+);", lines[1]).groups()
    nodes, edges = {}, []
    for line in lines[2:-1]:
        if match := NODE_LINE.match(line):
            nodes[int(match[1])] = dict(ATTRIBUTE.findall(match[2]))
        elif match := EDGE_LINE.match(line):
            edges.append((int(match[1]), int(match[2])))
        else:
            raise AssertionError(f"not a node or edge statement: {line!r}")
    assert {end for edge in edges for end in edge} <= set(nodes)  # edges join declared nodes
    return nodes, edges, rankdir


def test_nodes_and_edges_of_a_small_graph(graph):
    g = build_computational_graph([graph["z_var"]])
    roles = ["x", "w", "b", "h", "y", "z", "mul", "add", "exp"]
    assert len(g.nodes) == 9 and ids(g.nodes) == ids(graph[r] for r in roles)
    assert len(g.edges) == 8 and edge_ids(g.edges) == expected_edges(graph)
    assert g.nodes[0] is graph["z"]  # the output first, then backward in the order reached


@pytest.mark.parametrize("start", ["z_var", "z"])
def test_single_variable_or_node_is_accepted(graph, start):
    g = build_computational_graph(graph[start])
    assert edge_ids(g.edges) == expected_edges(graph)


def test_a_function_node_starts_from_its_inputs(graph):
    g = build_computational_graph([graph["add"]])
    assert ids(g.nodes) == ids(graph[r] for r in ["add", "h", "b", "mul", "x", "w"])
    assert id(graph["y"]) not in ids(g.nodes)  # outputs are not walked forward


def test_shared_parts_appear_once(graph):
    g = build_computational_graph([graph["z_var"], graph["h_var"]])
    assert len(g.nodes) == 9 and edge_ids(g.edges) == expected_edges(graph)
    x = Variable(numpy.ones(2, dtype=numpy.float32))
    square = x * x  # both inputs are the same node: one edge
    g = build_computational_graph(square)
    assert edge_ids(g.edges) == {
        (id(x.node), id(square.creator_node)),
        (id(square.creator_node), id(square.node)),
    }


def test_a_leaf_alone_is_a_graph_without_edges():
    x = Variable(numpy.ones(2, dtype=numpy.float32))
    g = build_computational_graph([x])
    assert g.nodes == [x.node] and g.edges == []


def test_dot_declares_every_node_and_one_line_per_edge(graph):
    g = build_computational_graph([graph["z_var"]])
    nodes, edges, rankdir = parse_dot(g.dump())
    assert rankdir == "TB"
    assert set(nodes) == ids(g.nodes)
    assert len(edges) == len(set(edges)) == 8 and set(edges) == expected_edges(graph)
    assert nodes[id(graph["x"])] == {
        "label": "x: (2, 3), float32",
        "shape": "octagon",
        "fillcolor": "#E0E0E0",
        "style": "filled",
    }
    assert nodes[id(graph["w"])]["label"] == "(2, 3), float32"
    assert nodes[id(graph["mul"])] == {
        "label": graph["mul"].label,
        "shape": "record",
        "fillcolor": "#6495ED",
        "style": "filled",
    }


def test_show_name_false_drops_variable_names(graph):
    nodes, _, _ = parse_dot(build_computational_graph(graph["z"], show_name=False).dump())
    assert nodes[id(graph["x"])]["label"] == "(2, 3), float32"


def test_custom_and_plain_styles(graph):
    g = build_computational_graph(
        graph["z"],
        variable_style={"color": "red", "shape": "box3d"},
        function_style=None,
        rankdir="LR",
    )
    nodes, _, rankdir = parse_dot(g.dump())
    assert rankdir == "LR"
    assert nodes[id(graph["w"])] == {"label": "(2, 3), float32", "color": "red", "shape": "box3d"}
    assert nodes[id(graph["exp"])] == {"label": "exp", "shape": "box"}


def test_remove_variable_connects_functions_directly(graph):
    g = build_computational_graph([graph["z_var"]], remove_variable=True)
    nodes, edges, _ = parse_dot(g.dump())
    assert set(nodes) == ids(graph[r] for r in ["mul", "add", "exp"])
    assert sorted(edges) == sorted(
        [(id(graph["mul"]), id(graph["add"])), (id(graph["add"]), id(graph["exp"]))]
    )
    assert len(g.nodes) == 9  # the graph itself keeps its variables


def test_labels_are_escaped():
    x = Variable(numpy.array(1.0, dtype=numpy.float32), name='say "hi"\\')
    nodes, _, _ = parse_dot(build_computational_graph(exp(x)).dump())
    assert nodes[id(x.node)]["label"] == 'say \\"hi\\"\\\\: float32'


def test_invalid_arguments(graph):
    with pytest.raises(ValueError, match="remove_split=False is not supported"):
        build_computational_graph(graph["z"], remove_split=False)
    with pytest.raises(TypeError, match="got ndarray"):
        build_computational_graph([graph["z_var"], numpy.ones(2)])
    with pytest.raises(ValueError, match="rankdir must be one of TB, BT, LR, RL, got 'XY'"):
        build_computational_graph(graph["z"], rankdir="XY")
    with pytest.raises(TypeError, match="variable_style must be a dict .*, got 'fancy'"):
        build_computational_graph(graph["z"], variable_style="fancy")
    with pytest.raises(TypeError, match="nodes must be VariableNode or FunctionNode"):
        ComputationalGraph([graph["z_var"]], [])
    with pytest.raises(NotImplementedError, match="only the 'dot' format.*got 'svg'"):
        build_computational_graph(graph["z"]).dump(format="svg")
