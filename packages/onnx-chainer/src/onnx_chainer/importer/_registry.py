"""The importer registry: one entry per ONNX operator, with its opset range and node context."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnx

import chainer
from chainer.backend import cuda

#: Oldest and newest opsets of the default domain that models may declare (as the exporter).
MINIMUM_OPSET_VERSION = 7
MAXIMUM_OPSET_VERSION = min(onnx.defs.onnx_opset_version(), 28)
#: Domains the importers read (the ONNX default domain under both of its names).
DEFAULT_DOMAINS = ("", "ai.onnx")
#: Largest tensor (in elements) a model may declare or make a node build.
MAX_ELEMENTS = 2**31


class ONNXImportError(ValueError):
    """The ONNX model cannot be imported: malformed, hostile or using what is not supported."""


class UnsupportedOperatorError(ONNXImportError):
    """The model uses an operator (or an option of one) that has no importer."""


@dataclasses.dataclass(frozen=True)
class ImporterSpec:
    """One registered importer: the ONNX operator it runs, its family and opset range.

    ``static_inputs`` are the positions of inputs that configure the operator (shapes, axes,
    scales, ...) rather than carry data: initializers used only there are not trainable.
    """

    op_type: str
    run: Callable[[NodeContext], Any]
    family: str
    min_opset: int
    max_opset: int
    static_inputs: tuple[int, ...]

    def supports(self, opset_version: int) -> bool:
        return self.min_opset <= opset_version <= self.max_opset


_REGISTRY: dict[str, ImporterSpec] = {}


def importer(
    *op_types: str,
    min_opset: int = MINIMUM_OPSET_VERSION,
    max_opset: int = MAXIMUM_OPSET_VERSION,
    static_inputs: Sequence[int] = (),
) -> Callable[[Callable[[NodeContext], Any]], Callable[[NodeContext], Any]]:
    """Register the decorated function as the importer of the ONNX operators ``op_types``.

    The function gets a :class:`NodeContext` and returns the node's outputs (one value or a
    tuple, in the node's output order; trailing optional outputs may be left out).
    """

    def register(run):
        family = run.__module__.rsplit(".", 1)[-1]
        for op_type in op_types:
            if op_type in _REGISTRY:
                raise RuntimeError(f"an importer for {op_type} is already registered")
            _REGISTRY[op_type] = ImporterSpec(
                op_type, run, family, min_opset, max_opset, tuple(static_inputs)
            )
        return run

    return register


def registered_importers() -> dict[str, ImporterSpec]:
    """A copy of the registry, ONNX operator name -> spec."""
    return dict(_REGISTRY)


def supported_table() -> str:
    """The Markdown table of registered importers (family, operator, opsets), sorted."""
    rows = sorted(_REGISTRY.values(), key=lambda s: (s.family, s.op_type))
    lines = ["| family | ONNX operator | opsets |", "|---|---|---|"]
    lines += [f"| {s.family} | `{s.op_type}` | {s.min_opset}-{s.max_opset} |" for s in rows]
    return "\n".join(lines)


#: A value flowing through the graph: a Variable (data), a host array (constant) or None.
Value = Any


class NodeContext:
    """What an importer sees of one node: its inputs, attributes and the model's opset."""

    def __init__(
        self, op_type: str, name: str, attributes: dict, opset: int, inputs: list, num_outputs: int
    ):
        self.op_type = op_type
        self.num_outputs = num_outputs
        self.name = name
        self.attributes = attributes
        self.opset = opset
        self.inputs = inputs

    def error(self, message: str, unsupported: bool = False) -> ONNXImportError:
        kind = UnsupportedOperatorError if unsupported else ONNXImportError
        return kind(f"{self.op_type} node {self.name!r} (opset {self.opset}): {message}")

    def attr(self, name: str, default: Any = None, kind: str = "any") -> Any:
        """Attribute ``name`` (or ``default``), checked to be of ``kind``.

        ``kind``: ``int``, ``float``, ``str``, ``ints``, ``floats``, ``tensor`` or ``any``.
        """
        if name not in self.attributes:
            return default
        value = self.attributes[name]
        expected = {
            "int": lambda v: isinstance(v, int),
            "float": lambda v: isinstance(v, (float, int)),
            "str": lambda v: isinstance(v, bytes),
            "ints": lambda v: isinstance(v, list) and all(isinstance(i, int) for i in v),
            "floats": lambda v: (
                isinstance(v, list) and all(isinstance(i, (int, float)) for i in v)
            ),
            "tensor": lambda v: isinstance(v, np.ndarray),
            "any": lambda v: True,
        }[kind]
        if not expected(value):
            raise self.error(f"attribute {name!r} must be {kind}, got {value!r}")
        if kind == "str":
            return value.decode("utf-8", "replace")
        if kind == "float":
            return float(value)
        if kind == "floats":
            return [float(v) for v in value]
        return value

    def input(self, index: int) -> Value:
        """Input ``index`` as given (None when absent)."""
        return self.inputs[index] if index < len(self.inputs) else None

    def const(self, index: int, default: Any = None) -> np.ndarray | None:
        """Input ``index`` as a host array (a configuring input: shape, axes, scales, ...)."""
        value = self.input(index)
        if value is None:
            return default
        if isinstance(value, chainer.Variable):
            value = value.array
        return np.asarray(cuda.to_cpu(value))

    def ints(self, index: int, default: Any = None) -> list[int] | None:
        """Input ``index`` as a list of Python ints."""
        array = self.const(index)
        if array is None:
            return default
        if array.dtype.kind not in "iub":
            raise self.error(f"input {index} must be integers, got dtype {array.dtype}")
        return [int(v) for v in array.reshape(-1)]

    def array(self, index: int) -> Any:
        """Input ``index`` as a raw array on its device (indices, conditions: no gradient)."""
        value = self.input(index)
        return value.array if isinstance(value, chainer.Variable) else value

    def check_size(self, shape: Sequence[int]) -> tuple[int, ...]:
        """``shape`` as a tuple, refused when negative or larger than ``MAX_ELEMENTS``."""
        shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in shape) or int(np.prod(shape, dtype=object)) > MAX_ELEMENTS:
            raise self.error(f"refusing to build a tensor of shape {shape}")
        return shape

    def axis(self, axis: int, ndim: int) -> int:
        """``axis`` normalized into ``[0, ndim)``, or a clear error."""
        if not -ndim <= axis < ndim:
            raise self.error(f"axis {axis} is out of range for a {ndim}-d input")
        return axis % ndim
