"""Names of the values of an exported graph, and the constants/parameters converters add."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx.numpy_helper

import chainer
from onnx_chainer import mapping, onnx_helper
from onnx_chainer.functions._registry import MAXIMUM_OPSET_VERSION


def _key(value: Any) -> int:
    if isinstance(value, chainer.Variable):
        return id(value.node)
    return id(value)


class Context:
    """Shared state of one export.

    Values are keyed by identity: a ``Variable`` by its node, a ``VariableNode`` itself, an array
    itself. Parameters of the model are named ``param_<link path>`` (``/l1/W`` gives
    ``param_l1_W``), as Chainer v7's exporter does.

    Args:
        model: The exported ``chainer.Link`` (parameters and persistent arrays are named from it).
        opset_version: Target opset (decides the form of constants).
    """

    def __init__(self, model: Any, opset_version: int = MAXIMUM_OPSET_VERSION) -> None:
        self.opset_version = opset_version
        self.name_list: dict[int, str] = {}
        self._alive: list[Any] = []  # keeps keyed objects alive, so ids stay unique
        #: Initializer name -> array (turned into tensors once the graph is checked).
        self.parameters: dict[str, np.ndarray] = {}
        self._parameter_names: set[str] = set()
        self.pending_nodes: list[onnx.NodeProto] = []
        #: Initializers that hold the model's own parameters and persistent arrays.
        self.model_param_names: set[str] = set()
        self.current_name = ""
        #: Every function node the traced forward pass applied, in order (set by ``export``).
        self.traced_functions: list[Any] = []
        self._links: dict[int, tuple[str, Any]] = {}
        self._params: dict[int, tuple[str, Any]] = {}
        if isinstance(model, chainer.Link):
            for path, link in model.namedlinks():
                for pname, param in link.namedparams(include_uninit=False):
                    if "/" in pname.lstrip("/"):
                        continue  # owned by a child link, visited on its own
                    full = (path.rstrip("/") + pname) if path != "/" else pname
                    self._params[id(param.node)] = (full, param)
                    self._params[id(param.array)] = (full, param)
                    self._links[id(param.node)] = (path, link)
                    self._links[id(param.array)] = (path, link)
                for pname in getattr(link, "_persistent", ()):
                    value = getattr(link, pname, None)
                    if isinstance(value, np.ndarray):
                        full = (path.rstrip("/") + "/" + pname) if path != "/" else "/" + pname
                        self._params[id(value)] = (full, value)

    # -- names -------------------------------------------------------------------------------
    def set_name(self, value: Any, name: str) -> None:
        """Give ``value`` (Variable, VariableNode or array) the ONNX name ``name``."""
        self.name_list[_key(value)] = name
        self._alive.append(value)

    def has_name(self, value: Any) -> bool:
        return _key(value) in self.name_list

    def get_name(self, value: Any) -> str:
        """ONNX name of ``value``; a value met for the first time becomes a constant tensor."""
        key = _key(value)
        if key in self.name_list:
            return self.name_list[key]
        if isinstance(value, chainer.Variable):
            array_key = id(value.array)
            if array_key in self.name_list:
                return self.name_list[array_key]
            array = value.array
        else:
            array = value
        return self.add_param(np.asarray(array), f"v{len(self.name_list)}", use_original_name=True)

    def param_name(self, value: Any) -> str | None:
        """``param_<path>`` when ``value`` is a parameter or persistent array of the model."""
        entry = self._params.get(_key(value))
        if entry is None and isinstance(value, chainer.Variable):
            entry = self._params.get(id(value.array))
        if entry is None:
            return None
        return "param" + entry[0].replace("/", "_")

    def get_link(self, value: Any) -> tuple[str, Any] | None:
        """``(link path, link)`` owning the parameter ``value``, or ``None``."""
        if value is None:
            return None
        entry = self._links.get(_key(value))
        if entry is None and isinstance(value, chainer.Variable):
            entry = self._links.get(id(value.array))
        return entry

    # -- tensors -----------------------------------------------------------------------------
    def add_param(self, array: Any, name: str, use_original_name: bool = False) -> str:
        """Add ``array`` as an initializer; named ``<function>_param_<name>`` unless original."""
        if not use_original_name:
            name = f"{self.current_name}_param_{name}"
        name = self._unique(name)
        array = np.asarray(chainer.backend.CpuDevice().send(array))
        self.parameters[name] = array
        self._parameter_names.add(name)
        return name

    def add_const(self, array: Any, name: str) -> str:
        """Add a ``Constant`` node holding ``array``, emitted before the function's nodes."""
        out = self._unique(f"{self.current_name}_const_{name}")
        array = np.asarray(array)
        self._parameter_names.add(out)
        if self.opset_version < 9 and array.dtype.kind != "f":
            # Constant takes only float tensors before opset 9: hold a double and cast it.
            stored = f"{out}_double"
            tensor = onnx.numpy_helper.from_array(array.astype(np.float64), stored)
            to = mapping.onnx_type(array.dtype)
            self.pending_nodes += [
                onnx_helper.make_node("Constant", [], [stored], name=stored, value=tensor),
                onnx_helper.make_node("Cast", [stored], [out], name=out, to=to),
            ]
            return out
        tensor = onnx.numpy_helper.from_array(array, out)
        self.pending_nodes.append(
            onnx_helper.make_node("Constant", [], [out], name=out, value=tensor)
        )
        return out

    def _unique(self, name: str) -> str:
        candidate, k = name, 1
        taken = self._parameter_names | set(self.name_list.values())
        while candidate in taken:
            candidate = f"{name}_{k}"
            k += 1
        return candidate

    def take_pending_nodes(self) -> list[onnx.NodeProto]:
        nodes, self.pending_nodes = self.pending_nodes, []
        return nodes
