"""Build a :class:`chainer.Chain` from an ONNX graph and run the graph in its ``forward``."""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Any

import numpy as np
import onnx

import chainer
from chainer.utils import type_check
from onnx_chainer.importer import _loader
from onnx_chainer.importer._registry import (
    DEFAULT_DOMAINS,
    MAXIMUM_OPSET_VERSION,
    MINIMUM_OPSET_VERSION,
    ImporterSpec,
    NodeContext,
    ONNXImportError,
    UnsupportedOperatorError,
    registered_importers,
)


@dataclasses.dataclass(frozen=True)
class _Node:
    op_type: str
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attributes: dict
    spec: ImporterSpec


class ImportedModel(chainer.Chain):
    """A Chain running an imported ONNX graph with ``chainer.functions``.

    Floating-point initializers are ``chainer.Parameter`` s (so the model trains), placed in
    child chains that follow the ONNX names (``layer1.0.conv.weight`` becomes the parameter
    ``weight`` of ``self.layer1_0.conv``); other initializers are persistent values.
    ``forward`` takes the graph inputs positionally (in ``onnx_input_names`` order) or by their
    ONNX names, and returns one Variable, or a tuple when the graph has several outputs.
    """

    def __init__(self, nodes, initializers, trainable, input_names, output_names, opset):
        super().__init__()
        self.opset_version: int = opset
        self.onnx_input_names: tuple[str, ...] = tuple(input_names)
        self.onnx_output_names: tuple[str, ...] = tuple(output_names)
        self._nodes: tuple[_Node, ...] = tuple(nodes)
        self._value_paths: dict[str, tuple[str, ...]] = _value_paths(initializers)
        for name, array in initializers.items():
            *parents, leaf = self._value_paths[name]
            link = self
            for part in parents:
                if not hasattr(link, part):
                    with link.init_scope():
                        setattr(link, part, chainer.Chain())
                link = getattr(link, part)
            if name in trainable:
                with link.init_scope():
                    setattr(link, leaf, chainer.Parameter(array))
            else:
                link.add_persistent(leaf, array)

    def forward(self, *args, **kwargs):
        values = self._bind_inputs(args, kwargs)
        for name, path in self._value_paths.items():
            target = self
            for part in path:
                target = getattr(target, part)
            values[name] = target
        # ONNX arithmetic is IEEE's (x / 0 is inf, often masked by a later Where): no warnings.
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            for node in self._nodes:
                produced = _run_node(node, [values[n] if n else None for n in node.inputs], self)
                for name, value in zip(node.outputs, produced):
                    if name:
                        values[name] = value
        outputs = tuple(chainer.as_variable(values[name]) for name in self.onnx_output_names)
        return outputs[0] if len(outputs) == 1 else outputs

    def _bind_inputs(self, args, kwargs) -> dict[str, Any]:
        expected = self.onnx_input_names
        if len(args) > len(expected):
            raise TypeError(
                f"the model takes {len(expected)} inputs {list(expected)}, got {len(args)}"
            )
        given = dict(zip(expected, args))
        for key, value in kwargs.items():
            if key not in expected or key in given:
                raise TypeError(
                    f"unexpected or repeated input {key!r}; "
                    f"the model's inputs are {list(expected)}"
                )
            given[key] = value
        missing = [name for name in expected if name not in given]
        if missing:
            raise TypeError(
                f"missing model inputs {missing}; the model's inputs are {list(expected)}"
            )
        return {name: chainer.as_variable(value) for name, value in given.items()}


def _run_node(node: _Node, inputs: list, model: ImportedModel) -> tuple:
    variables = [v for v in inputs if isinstance(v, chainer.Variable)]
    if variables:
        device = chainer.backend.get_device_from_array(variables[0].array)
        inputs = [
            device.send(v) if v is not None and not isinstance(v, chainer.Variable) else v
            for v in inputs
        ]
    context = NodeContext(
        node.op_type, node.name, node.attributes, model.opset_version, inputs, len(node.outputs)
    )
    try:
        result = node.spec.run(context)
    except ONNXImportError:
        raise
    except (ValueError, TypeError, IndexError, ArithmeticError, type_check.InvalidType) as error:
        shapes = [None if v is None else (tuple(v.shape), str(v.dtype)) for v in inputs]
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise context.error(
            f"failed on inputs (shape, dtype) {shapes}: {type(error).__name__}: {first_line}"
        ) from error
    result = result if isinstance(result, tuple) else (result,)
    result = tuple(np.asarray(r) if isinstance(r, (np.generic, int, float)) else r for r in result)
    used = [i for i, name in enumerate(node.outputs) if name]
    if used and used[-1] >= len(result):
        raise context.error(
            f"output {used[-1]} ({node.outputs[used[-1]]!r}) is not supported by the importer",
            unsupported=True,
        )
    if not variables:  # constant inputs (shapes, Constant nodes): keep the results constant
        result = tuple(r.array if isinstance(r, chainer.Variable) else r for r in result)
    return result


_RESERVED = frozenset(dir(ImportedModel)) | {"opset_version"}


def _segments(name: str) -> tuple[str, ...]:
    parts: list[str] = []
    for raw in re.split(r"[./]", name):
        part = re.sub(r"\W", "_", raw)
        if not part:
            continue
        if part.isdigit() and parts:
            parts[-1] = f"{parts[-1]}_{part}"
        else:
            parts.append(part)
    parts = parts or ["unnamed"]
    parts = [p if not p[0].isdigit() else f"_{p}" for p in parts]
    return tuple(p if p not in _RESERVED else f"{p}_" for p in parts)


def _value_paths(names) -> dict[str, tuple[str, ...]]:
    """Attribute path of each initializer: its ONNX name split on ``.``/``/``, sanitized."""
    wanted = {name: _segments(name) for name in names}
    prefixes = {path[:i] for path in wanted.values() for i in range(1, len(path))}
    taken: set[tuple[str, ...]] = set()
    paths = {}
    for name, path in wanted.items():
        if path in prefixes or path in taken:
            path = ("_".join(path),)
        while path in prefixes or path in taken:
            path = path[:-1] + (path[-1] + "_",)
        taken.add(path)
        paths[name] = path
    return paths


def _attributes(node: onnx.NodeProto) -> dict[str, Any]:
    kinds = onnx.AttributeProto
    values: dict[str, Any] = {}
    for attribute in node.attribute:
        if attribute.type == kinds.TENSOR:
            values[attribute.name] = _loader.tensor_to_array(attribute.t)
        elif attribute.type == kinds.STRING:
            values[attribute.name] = attribute.s
        elif attribute.type in (kinds.INT, kinds.FLOAT, kinds.INTS, kinds.FLOATS, kinds.STRINGS):
            value = onnx.helper.get_attribute_value(attribute)
            values[attribute.name] = list(value) if isinstance(value, (list, tuple)) else value
        else:
            values[attribute.name] = attribute  # subgraphs etc.: the importer refuses them
    return values


def _default_opset(model: onnx.ModelProto) -> int:
    versions = [o.version for o in model.opset_import if o.domain in DEFAULT_DOMAINS]
    if not versions:
        raise ONNXImportError("the model imports no opset of the default ONNX domain")
    opset = max(versions)
    if not MINIMUM_OPSET_VERSION <= opset <= MAXIMUM_OPSET_VERSION:
        raise UnsupportedOperatorError(
            f"the model uses opset {opset} of the default domain; import_model supports opsets "
            f"{MINIMUM_OPSET_VERSION} to {MAXIMUM_OPSET_VERSION}"
        )
    return opset


def _check_operators(graph: onnx.GraphProto, opset: int, other_opsets: dict) -> None:
    importers = registered_importers()
    problems = []
    for node in graph.node:
        if node.domain not in DEFAULT_DOMAINS:
            version = other_opsets.get(node.domain, "?")
            problems.append(f"{node.op_type} (domain {node.domain!r}, opset {version})")
            continue
        spec = importers.get(node.op_type)
        if spec is None or not spec.supports(opset):
            problems.append(f"{node.op_type} (domain 'ai.onnx', opset {opset})")
    if problems:
        supported = ", ".join(sorted(s for s, spec in importers.items() if spec.supports(opset)))
        unique = list(dict.fromkeys(problems))
        raise UnsupportedOperatorError(
            f"the model uses operators that import_model does not support: {', '.join(unique)}. "
            f"Supported at opset {opset}: {supported}"
        )


def _check_required_inputs(proto: onnx.NodeProto, name: str, opset: int) -> None:
    try:
        schema = onnx.defs.get_schema(proto.op_type, opset, "")
    except onnx.defs.SchemaError:
        return
    single = onnx.defs.OpSchema.FormalParameterOption.Single
    for position, formal in enumerate(schema.inputs):
        given = position < len(proto.input) and proto.input[position]
        if formal.option == single and not given:
            raise ONNXImportError(
                f"{proto.op_type} node {name!r}: its required input {position} "
                f"({formal.name!r}) is missing"
            )
    if len(proto.input) < schema.min_input or len(proto.input) > schema.max_input:
        raise ONNXImportError(
            f"{proto.op_type} node {name!r} has {len(proto.input)} inputs; opset {opset} "
            f"takes {schema.min_input} to {schema.max_input}"
        )


def build(
    source: Any, base_dir: str | os.PathLike | None = None, check: bool = True
) -> ImportedModel:
    model, base = _loader.load_model(source, base_dir)
    opset = _default_opset(model)
    other_opsets = {o.domain: o.version for o in model.opset_import}
    _check_operators(model.graph, opset, other_opsets)
    _loader.inline_external_data(model, base)
    if check:
        _loader.check_model(model)
    graph = model.graph
    importers = registered_importers()
    initializers = {}
    for tensor in graph.initializer:
        if tensor.name in initializers:
            raise ONNXImportError(f"initializer {tensor.name!r} is defined twice")
        initializers[tensor.name] = _loader.tensor_to_array(tensor)
    nodes, data_uses = [], set()
    defined = set(initializers) | {i.name for i in graph.input}
    for index, proto in enumerate(graph.node):
        spec = importers[proto.op_type]
        for position, name in enumerate(proto.input):
            if name and name not in defined:
                raise ONNXImportError(
                    f"node {proto.name or index!r} ({proto.op_type}) reads {name!r}, which no "
                    "earlier node, input or initializer defines"
                )
            if position not in spec.static_inputs:
                data_uses.add(name)
        defined.update(proto.output)
        name = proto.name or f"{proto.op_type}_{index}"
        _check_required_inputs(proto, name, opset)
        attributes = _attributes(proto)
        nodes.append(
            _Node(proto.op_type, name, tuple(proto.input), tuple(proto.output), attributes, spec)
        )
    missing = [o.name for o in graph.output if o.name not in defined]
    if missing:
        raise ONNXImportError(f"graph outputs {missing} are not computed by any node")
    trainable = {
        name
        for name, array in initializers.items()
        if array.dtype.kind == "f"
        and (name in data_uses or name in {o.name for o in graph.output})
    }
    inputs = [i.name for i in graph.input if i.name not in initializers]
    return ImportedModel(
        nodes,
        {k: np.array(v) for k, v in initializers.items()},
        trainable,
        inputs,
        [o.name for o in graph.output],
        opset,
    )
