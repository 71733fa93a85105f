"""(Experimental) Export of a Chainer model's computational graph in Caffe's format.

Needs the ``protobuf`` package: ``pip install 'chainer-links[caffe]'``.
"""

from __future__ import annotations

import os
import typing as tp

import numpy
from google.protobuf import text_format

import chainer
from chainer import backend, variable
from chainer.exporters._caffe_layers import CONVERTERS
from chainer.links.caffe._params import fill_blob
from chainer.links.caffe.protobuf3 import caffe_pb2 as caffe_pb
from chainer.serializers._atomic import atomic_write

#: The name of the blob that holds the exported model's input.
INPUT_BLOB = "data"


class CaffeGraph:
    """The Caffe network being written: layers named after the function nodes they come from.

    A node becomes layers ``<label>-<rank>-<n>`` (``n`` counts nodes of one label and rank)
    whose top blob has the same name; the exported input is the blob ``data``.
    """

    def __init__(self, input_node: variable.VariableNode, export_params: bool) -> None:
        self.net = caffe_pb.NetParameter()
        self.input_node = input_node
        self.export_params = export_params
        self._names: dict[tp.Any, str] = {}
        self._counts: dict[str, int] = {}

    def layer_name(self, node: tp.Any) -> str:
        if node not in self._names:
            stem = f"{node.label}-{node.rank}"
            self._counts[stem] = self._counts.get(stem, 0) + 1
            self._names[node] = f"{stem}-{self._counts[stem]}"
        return self._names[node]

    def blob_name(self, input_node: variable.VariableNode, consumer: tp.Any) -> str:
        """The blob holding ``input_node``: its creator's top, or ``data`` for the input."""
        if input_node.creator_node is not None:
            return self.layer_name(input_node.creator_node)
        if input_node is self.input_node:
            return INPUT_BLOB
        raise NotImplementedError(
            f"{consumer.label} takes an input (shape {input_node.shape}) that is neither the "
            "exported argument nor computed from it; Caffe layers take parameters only as "
            "their own weights"
        )

    def add_layer(
        self,
        node: tp.Any,
        layer_type: str,
        data_inputs: int | None,
        name: str | None = None,
        bottoms: list[str] | None = None,
    ) -> tp.Any:
        """Append a layer for ``node`` fed by its first ``data_inputs`` inputs (``None``: all;
        ``bottoms`` names them instead)."""
        layer = self.net.layer.add()
        layer.name = name or self.layer_name(node)
        layer.type = layer_type
        if bottoms is None:
            inputs = node.inputs if data_inputs is None else node.inputs[:data_inputs]
            bottoms = [self.blob_name(v, node) for v in inputs]
        layer.bottom[:] = bottoms
        layer.top[:] = [layer.name]
        layer.phase = caffe_pb.TEST
        return layer

    def array(self, input_node: variable.VariableNode) -> numpy.ndarray:
        """The values of a node's input (a parameter), as a float32 NumPy array."""
        var = input_node.get_variable_or_none()
        array = var.array if var is not None else input_node.data
        if array is None:
            raise RuntimeError(
                f"the values of an input of shape {input_node.shape} were freed before export; "
                "keep the parameter alive (hold it in the model)"
            )
        return numpy.asarray(backend.CpuDevice().send(array), dtype=numpy.float32)

    def add_blob(self, layer: tp.Any, array: numpy.ndarray) -> None:
        if self.export_params:
            fill_blob(layer.blobs.add(), array)


def export(
    model: tp.Callable,
    args: tp.Sequence[tp.Any],
    directory: str | os.PathLike | None = None,
    export_params: bool = True,
    graph_name: str = "Graph",
) -> None:
    """(Experimental) Export a computational graph as Caffe format.

    Runs ``model(*args)`` once in test mode (``chainer.config.train = False``) and writes the
    graph that produced its output(s) as ``chainer_model.prototxt`` (the network, with an
    ``Input`` layer named ``data`` of the argument's shape) and, with ``export_params``,
    ``chainer_model.caffemodel`` (the layers with their weights) in ``directory``. Each file
    is written atomically: it is either complete or left as it was.

    Converted functions: :func:`~chainer.functions.linear`,
    :func:`~chainer.functions.convolution_2d`, :func:`~chainer.functions.deconvolution_2d`,
    :func:`~chainer.functions.max_pooling_2d`, :func:`~chainer.functions.average_pooling_2d`,
    :func:`~chainer.functions.fixed_batch_normalization` (a BatchNorm and a Scale layer; what
    :class:`~chainer.links.BatchNormalization` runs in test mode),
    :func:`~chainer.functions.local_response_normalization`, :func:`~chainer.functions.relu`,
    :func:`~chainer.functions.leaky_relu`, :func:`~chainer.functions.sigmoid`,
    :func:`~chainer.functions.tanh`, :func:`~chainer.functions.softmax` (axis 1),
    :func:`~chainer.functions.concat`, :func:`~chainer.functions.reshape` and the sum of two
    variables of one shape (Eltwise). Any other function raises
    :class:`NotImplementedError` naming it. Layers are named ``<function label>-<rank>-<n>``,
    and each layer's top blob has the layer's name; the last layer computes the output.

    Args:
        model: Called as ``model(*args)``; returns a :class:`~chainer.Variable` or a tuple or
            list of them.
        args: One input (a :class:`~chainer.Variable` or array), in a list or tuple.
        directory: Where to write the files; ``None`` converts without writing anything.
        export_params: Also write the weights (``chainer_model.caffemodel``).
        graph_name: The ``name`` of the Caffe network.

    Raises:
        NotImplementedError: ``args`` has other than one element, or the graph holds a
            function (or an option of one) that Caffe cannot express.
        TypeError: ``args`` or the model's output has the wrong type.

    Example:
        >>> from chainer.exporters import caffe
        >>> model = L.Linear(3, 2)
        >>> x = numpy.zeros((1, 3), numpy.float32)
        >>> caffe.export(model, [x], directory=None, graph_name='linear')
    """
    if not isinstance(args, (tuple, list)):
        raise TypeError(f"args must be a list or tuple of one input, got {type(args).__name__}")
    if len(args) != 1:
        raise NotImplementedError(f"the Caffe exporter takes exactly one input, got {len(args)}")
    x = args[0] if isinstance(args[0], variable.Variable) else variable.Variable(args[0])
    with chainer.force_backprop_mode(), chainer.using_config("train", False):
        outputs = model(x)
    if isinstance(outputs, variable.Variable):
        outputs = [outputs]
    if not isinstance(outputs, (tuple, list)) or not all(
        isinstance(y, variable.Variable) for y in outputs
    ):
        raise TypeError(
            "the model must return a Variable or a tuple or list of Variables, got "
            f"{type(outputs).__name__}"
        )
    graph = CaffeGraph(x.node, export_params)
    graph.net.name = graph_name
    for node in _function_nodes(outputs):
        converter = CONVERTERS.get(type(node).__name__)
        if converter is None:
            raise NotImplementedError(
                f"Cannot convert {node.label} (ranked {node.rank}) to Caffe: convertible "
                f"functions are {sorted(CONVERTERS)}"
            )
        converter(graph, node)
    if directory is not None:
        _write(graph.net, x.shape, os.fspath(directory), export_params)


def _function_nodes(outputs: tp.Sequence[variable.Variable]) -> list[tp.Any]:
    """The function nodes that compute ``outputs``, each after the nodes it depends on."""
    order: list[tp.Any] = []
    visited: set[tp.Any] = set()
    for output in outputs:
        root = output.creator_node
        if root is None or root in visited:
            continue
        visited.add(root)
        stack = [(root, iter(root.inputs))]
        while stack:
            node, pending_inputs = stack[-1]
            for input_node in pending_inputs:
                creator = input_node.creator_node
                if creator is not None and creator not in visited:
                    visited.add(creator)
                    stack.append((creator, iter(creator.inputs)))
                    break
            else:
                stack.pop()
                order.append(node)
    if not order:
        raise ValueError("the model's outputs are not computed by any function of its input")
    return order


def _write(net: tp.Any, input_shape: tuple, directory: str, export_params: bool) -> None:
    definition = caffe_pb.NetParameter(name=net.name)
    data = definition.layer.add(name=INPUT_BLOB, type="Input", top=[INPUT_BLOB])
    data.input_param.shape.add().dim[:] = list(input_shape)
    definition.layer.extend(net.layer)
    for layer in definition.layer:
        del layer.blobs[:]
    _write_atomically(
        os.path.join(directory, "chainer_model.prototxt"),
        text_format.MessageToString(definition).encode("utf-8"),
    )
    if export_params:
        _write_atomically(
            os.path.join(directory, "chainer_model.caffemodel"), net.SerializeToString()
        )


def _write_atomically(path: str, content: bytes) -> None:
    with atomic_write(path) as temp_path, open(temp_path, "wb") as f:
        f.write(content)
