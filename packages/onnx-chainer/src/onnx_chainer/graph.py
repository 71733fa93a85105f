"""Turn a recorded Chainer computation into an ONNX graph."""

from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
import onnx.helper

import chainer
from onnx_chainer import mapping, onnx_helper
from onnx_chainer.context import Context
from onnx_chainer.functions import _registry
from onnx_chainer.functions._registry import function_label


def reachable_functions(
    outputs: Sequence[chainer.Variable], recorded: dict[int, int], input_nodes: set[int]
) -> list[Any]:
    """Functions that the outputs depend on, in the order they ran (a topological order)."""
    found: dict[int, Any] = {}
    stack = [out.node for out in outputs]
    while stack:
        node = stack.pop()
        if id(node) in input_nodes:
            continue
        func = node.creator_node
        if func is None or id(func) in found or id(func) not in recorded:
            continue
        found[id(func)] = func
        stack.extend(func.inputs)
    return sorted(found.values(), key=lambda f: recorded[id(f)])


class Graph:
    """Converts recorded functions into ONNX nodes, one converter call per function.

    Args:
        context: Names and tensors of the export.
        opset_version: Target opset of the default domain.
        external_converters: ``{function name: converter}`` taking precedence over the registry.
    """

    def __init__(
        self,
        context: Context,
        opset_version: int,
        external_converters: dict[str, Any] | None,
    ) -> None:
        self.context = context
        self.opset_version = opset_version
        self.external_converters = external_converters or {}
        self.nodes: list[onnx.NodeProto] = []
        self._counts: collections.Counter = collections.Counter()

    def convert(self, functions: Sequence[Any], input_arrays: dict[int, list[Any]]) -> None:
        """Emit the nodes of ``functions`` (in order); ``input_arrays`` holds their inputs."""
        for func in functions:
            label = function_label(func)
            converter, labels = _registry.find_converter(
                label, self.opset_version, self.external_converters
            )
            node_name = f"{label}_{self._counts[label]}"
            self._counts[label] += 1
            input_names = [
                self._input_name(node, array, node_name, labels, i)
                for i, (node, array) in enumerate(zip(func.inputs, input_arrays[id(func)]))
            ]
            output_names = self._output_names(func, node_name)
            self.context.current_name = node_name
            params = _registry.ConverterParams(
                func, self.opset_version, input_names, output_names, self.context
            )
            with onnx_helper.node_prefix(node_name):
                nodes = list(converter(params))
            self.nodes.extend(self.context.take_pending_nodes())
            self.nodes.extend(nodes)

    def _input_name(self, node, array, node_name: str, labels, index: int) -> str:
        ctx = self.context
        if ctx.has_name(node):
            return ctx.get_name(node)
        if ctx.has_name(array):
            name = ctx.get_name(array)
        else:
            param_name = ctx.param_name(node) or ctx.param_name(array)
            label = labels[index] if index < len(labels) else f"input{index}"
            ctx.current_name = node_name
            name = ctx.add_param(
                np.asarray(chainer.backend.CpuDevice().send(array)),
                param_name or label,
                use_original_name=param_name is not None,
            )
            ctx.set_name(array, name)
            if param_name is not None:
                ctx.model_param_names.add(name)
        ctx.set_name(node, name)
        return name

    def _output_names(self, func, node_name: str) -> list[str]:
        refs = func.outputs
        names = []
        for i, ref in enumerate(refs):
            node = ref()
            if node is not None and self.context.has_name(node):
                names.append(self.context.get_name(node))
                continue
            name = node_name if len(refs) == 1 else f"{node_name}_{i}"
            if node is not None:
                self.context.set_name(node, name)
            names.append(name)
        return names


def value_info(name: str, array: Any, shape: Sequence[Any] | None = None) -> onnx.ValueInfoProto:
    """``ValueInfoProto`` for ``array``; ``shape`` may hold symbolic (``str``) or unknown dims."""
    array = np.asarray(array) if not hasattr(array, "dtype") else array
    dims = list(array.shape) if shape is None else list(shape)
    return onnx.helper.make_tensor_value_info(name, mapping.onnx_type(array.dtype), dims)
