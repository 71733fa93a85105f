"""Helpers to build ONNX nodes inside converters, and to write tensors.

Converters (built-in and external ones) create nodes with :func:`make_node` or a
:class:`GraphBuilder`. While the exporter converts one Chainer function it sets the name of that
function as the current *node prefix*, so every node gets a readable, unique name: the first one
takes the function's name (``LinearFunction_0``), helpers take ``<name>_tmp_<k>``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import onnx
import onnx.numpy_helper


class _NodeNamer:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.first_taken = False
        self.count = 0

    def main_name(self) -> str:
        if not self.first_taken:
            self.first_taken = True
            return self.prefix
        return self.temp_name()

    def temp_name(self) -> str:
        name = f"{self.prefix}_tmp_{self.count}"
        self.count += 1
        return name


_namers: list[_NodeNamer] = []


@contextlib.contextmanager
def node_prefix(prefix: str) -> Iterator[None]:
    """Nodes made in the block by :func:`make_node`/:class:`GraphBuilder` are named ``prefix``."""
    _namers.append(_NodeNamer(prefix))
    try:
        yield
    finally:
        _namers.pop()


def _current_namer() -> _NodeNamer:
    if not _namers:
        # Outside an export (a converter called by hand): still give unique names.
        _namers.append(_NodeNamer("node"))
    return _namers[-1]


def make_node(
    op_type: str,
    inputs: Sequence[str],
    outputs: Sequence[str],
    name: str | None = None,
    domain: str | None = None,
    **attributes: Any,
) -> onnx.NodeProto:
    """``onnx.helper.make_node`` that names the node after the function being converted."""
    if name is None:
        name = _current_namer().main_name()
    return onnx.helper.make_node(
        op_type, list(inputs), list(outputs), name=name, domain=domain, **attributes
    )


class GraphBuilder:
    """Collects the nodes of one converter; temporary values get unique names.

    Example:
        >>> gb = GraphBuilder()
        >>> shape = gb.op('Shape', ['x'])
        >>> _ = gb.op_output_named('Reshape', ['y', shape], ['out'])
        >>> [n.op_type for n in gb.nodes()]
        ['Shape', 'Reshape']
    """

    def __init__(self) -> None:
        self._nodes: list[onnx.NodeProto] = []

    def op(self, op_type: str, input_names: Sequence[str], num_outputs: int = 1, **kwargs: Any):
        """Add a node whose outputs get fresh names; returns the name (or a tuple of names)."""
        namer = _current_namer()
        base = namer.temp_name()
        if num_outputs == 1:
            outputs = [base]
        else:
            outputs = [f"{base}_{i}" for i in range(num_outputs)]
        self._nodes.append(make_node(op_type, input_names, outputs, name=base, **kwargs))
        return outputs[0] if num_outputs == 1 else tuple(outputs)

    def op_output_named(
        self, op_type: str, input_names: Sequence[str], output_names: Sequence[str], **kwargs: Any
    ) -> onnx.NodeProto:
        """Add a node writing to the given output names (usually the function's outputs)."""
        node = make_node(op_type, input_names, output_names, **kwargs)
        self._nodes.append(node)
        return node

    def nodes(self, output_names: Sequence[str] | None = None) -> list[onnx.NodeProto]:
        """The nodes added so far; with ``output_names``, the last node's outputs are renamed."""
        if output_names is not None:
            last = self._nodes[-1]
            del last.output[:]
            last.output.extend(output_names)
        return list(self._nodes)


def is_support_non_standard_domain() -> bool:
    """Whether ``onnx.checker`` accepts nodes of custom domains (True for every supported onnx)."""
    return True


@contextlib.contextmanager
def atomic_write(path: str) -> Iterator[str]:
    """Yield a temporary path beside ``path``; on success fsync it and rename it onto ``path``."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    os.close(fd)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def write_bytes_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (write, fsync, rename)."""
    with atomic_write(path) as tmp, open(tmp, "wb") as f:
        f.write(data)


def write_tensor_pb(filename: str, name: str, value: np.ndarray) -> None:
    """Write ``value`` as a ``TensorProto`` named ``name`` (read it with ``onnx.load_tensor``)."""
    tensor = onnx.numpy_helper.from_array(np.asarray(value), name)
    write_bytes_atomically(filename, tensor.SerializeToString())
