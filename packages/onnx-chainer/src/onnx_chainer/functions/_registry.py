"""The converter registry: one entry per Chainer function class, with its opset range."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import onnx

#: Oldest opset any converter targets (as Chainer v7's exporter).
MINIMUM_OPSET_VERSION = 7
#: Newest opset the converters are written and verified for (capped by the installed onnx).
MAXIMUM_OPSET_VERSION = min(onnx.defs.onnx_opset_version(), 28)


class UnsupportedFunctionError(ValueError):
    """A Chainer function has no converter at the requested opset."""


@dataclasses.dataclass
class ConverterParams:
    """What a converter receives.

    Attributes:
        func: The Chainer ``FunctionNode`` being converted (its attributes hold the options).
        opset_version: Target opset of the default ONNX domain.
        input_names: ONNX names of the function's inputs, in order (a list the converter may
            extend, e.g. with constants from ``context.add_const``).
        output_names: ONNX names the converter must write the function's outputs to.
        context: The :class:`onnx_chainer.context.Context` (names, constants, parameters).
    """

    func: Any
    opset_version: int
    input_names: list[str]
    output_names: list[str]
    context: Any


Converter = Callable[[ConverterParams], Sequence[onnx.NodeProto]]


@dataclasses.dataclass(frozen=True)
class ConverterSpec:
    """One registered converter: the function class it handles and its opset range."""

    function_name: str
    convert: Converter
    family: str
    min_opset: int
    max_opset: int
    #: Names of the function's inputs, used to name arrays that are not graph inputs.
    input_labels: tuple[str, ...] = ()

    def supports(self, opset_version: int) -> bool:
        return self.min_opset <= opset_version <= self.max_opset


_REGISTRY: dict[str, ConverterSpec] = {}


def function_label(func: Any) -> str:
    """Name a function is registered under: its class name, or the name given to a wrapper."""
    return getattr(func, "custom_function_node_name", None) or type(func).__name__


def support(
    *function_names: str,
    min_opset: int = MINIMUM_OPSET_VERSION,
    max_opset: int = MAXIMUM_OPSET_VERSION,
    input_labels: tuple[str, ...] = (),
    family: str | None = None,
) -> Callable[[Converter], Converter]:
    """Register the decorated converter for the Chainer function classes ``function_names``.

    ``min_opset``/``max_opset`` bound the opsets the converter emits valid nodes for; inside,
    the converter picks the node form per ``params.opset_version``. ``family`` defaults to the
    converter's module (``activation``, ``array``, ...).
    """

    def register(convert: Converter) -> Converter:
        module_family = family or convert.__module__.rsplit(".", 1)[-1]
        for name in function_names:
            if name in _REGISTRY:
                raise RuntimeError(f"a converter for {name} is already registered")
            _REGISTRY[name] = ConverterSpec(
                name, convert, module_family, min_opset, max_opset, input_labels
            )
        return convert

    return register


def registered() -> dict[str, ConverterSpec]:
    """A copy of the registry, function class name -> spec."""
    return dict(_REGISTRY)


_HOW_TO_EXTEND = (
    "Pass a converter for it with export(..., external_converters={{'{name}': convert}}), where "
    "convert(params) returns ONNX nodes (see onnx_chainer.onnx_helper.make_node)."
)


def find_converter(
    function_name: str, opset_version: int, external: dict[str, Converter] | None
) -> tuple[Converter, tuple[str, ...]]:
    """The converter for ``function_name`` at ``opset_version``, or a clear error."""
    if external and function_name in external:
        spec = _REGISTRY.get(function_name)
        return external[function_name], spec.input_labels if spec else ()
    spec = _REGISTRY.get(function_name)
    if spec is None:
        raise UnsupportedFunctionError(
            f"{function_name} is not supported by onnx_chainer: no converter is registered for "
            "it at any opset. " + _HOW_TO_EXTEND.format(name=function_name)
        )
    if not spec.supports(opset_version):
        if opset_version < spec.min_opset:
            where = f"supported from opset {spec.min_opset}, you asked for {opset_version}"
        else:
            where = f"supported up to opset {spec.max_opset}, you asked for {opset_version}"
        raise UnsupportedFunctionError(
            f"{function_name} is {where}. Export with opset_version between {spec.min_opset} "
            f"and {spec.max_opset}, or "
            + _HOW_TO_EXTEND.format(name=function_name)[0].lower()
            + _HOW_TO_EXTEND.format(name=function_name)[1:]
        )
    return spec.convert, spec.input_labels


def supported_table() -> str:
    """The Markdown table of registered converters (family, function, opsets), sorted."""
    rows = sorted(_REGISTRY.values(), key=lambda s: (s.family, s.function_name))
    lines = ["| family | Chainer function | opsets |", "|---|---|---|"]
    for spec in rows:
        lines.append(
            f"| {spec.family} | `{spec.function_name}` | {spec.min_opset}-{spec.max_opset} |"
        )
    return "\n".join(lines)
