"""Chainer: a flexible framework of neural networks (define-by-run autograd core).

Reading order for the core: ``variable`` (Variable, Parameter, VariableNode), ``function_node``
(FunctionNode.apply), ``_backprop`` (the backward engine).
"""

__path__ = __import__("pkgutil").extend_path(__path__, __name__)  # shared namespace: see DESIGN

from chainer import (
    _environment,
    _ops,  # installs Variable's operators
    _siblings,
    backend,
    backends,
    computational_graph,
    device_resident,
    function_hooks,
    gradient_check,
    initializer,
    initializers,
    link,
    link_hook,
    optimizer,
    reporter,
    sequential,
    serializer,
    utils,
)
from chainer._backprop import backward
from chainer._dtypes import get_dtype, mixed16
from chainer._function_hooks_registry import get_function_hooks
from chainer._runtime_info import print_runtime_info
from chainer._version import __version__
from chainer.backend import (
    get_array_types,
    get_cpu_array_types,
    get_device,
    is_arrays_compatible,
    using_device,
)
from chainer.backends import cuda
from chainer.backends._host_heap import raise_malloc_thresholds as _raise_malloc_thresholds
from chainer.backends.cuda import should_use_cudnn, should_use_cudnn_tensor_core
from chainer.configuration import config, global_config, using_config
from chainer.device_resident import DeviceResident
from chainer.function import Function, FunctionAdapter, force_backprop_mode, no_backprop_mode
from chainer.function_hook import FunctionHook
from chainer.function_node import Fallback, FunctionNode, grad
from chainer.initializer import Initializer
from chainer.link import Chain, ChainList, Link
from chainer.link_hook import LinkHook, _get_link_hooks
from chainer.optimizer import GradientMethod, Optimizer, UpdateRule
from chainer.reporter import (
    DictSummary,
    Reporter,
    Summary,
    get_current_reporter,
    report,
    report_scope,
)
from chainer.sequential import Sequential
from chainer.serializer import AbstractSerializer, Deserializer, Serializer
from chainer.variable import Parameter, Variable, VariableNode, as_array, as_variable

_environment.apply_defaults(global_config)
__import__("sys").modules["chainer.cuda"] = cuda  # Chainer v1-era alias, still imported
disable_experimental_feature_warning = _environment.experimental_warning_disabled()
_siblings.install_finder()
_raise_malloc_thresholds()  # freed arrays of up to 30 MiB are reused, not faulted in again


def is_debug() -> bool:
    """Return ``True`` when debug mode (``chainer.config.debug``) is on in this thread."""
    return bool(config.debug)


def set_debug(debug: bool) -> None:
    """Turn debug mode on or off for the whole process (``chainer.global_config.debug``)."""
    global_config.debug = debug


class DebugMode:
    """Context manager that sets debug mode for the current thread (prefer ``using_config``)."""

    def __init__(self, debug: bool) -> None:
        self._using = using_config("debug", debug)

    def __enter__(self) -> None:
        self._using.__enter__()

    def __exit__(self, *exc_info) -> None:
        self._using.__exit__(*exc_info)


#: Names of ``chainer.graph_optimizations`` exported at the top level, imported on first use.
_STATIC_GRAPH_NAMES = {
    "static_graph": "chainer.graph_optimizations.static_graph",
    "static_code": "chainer.graph_optimizations.static_graph_utilities",
}


#: Submodules that ``import chainer`` makes reachable as attributes (as in v7), loaded lazily:
#: ``serializers`` brings ``zipfile`` and ``secrets``, which most programs never need.
_LAZY_SUBMODULES = frozenset({"memory_layouts", "serializers", "types", "warnings"})


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return __import__("importlib").import_module(f"chainer.{name}")
    if name in _STATIC_GRAPH_NAMES:
        return getattr(__import__("importlib").import_module(_STATIC_GRAPH_NAMES[name]), name)
    # Subpackages shipped by chainer-links / chainer-training resolve on first access.
    if name in _siblings.PROVIDERS:
        return _siblings.import_sibling(name)
    if name in _siblings.ATTRIBUTES:
        return getattr(_siblings.import_sibling(_siblings.ATTRIBUTES[name]), name)
    raise AttributeError(f"module 'chainer' has no attribute {name!r}")


def __dir__():
    return sorted(
        set(globals())
        | set(_siblings.PROVIDERS)
        | set(_siblings.ATTRIBUTES)
        | set(_STATIC_GRAPH_NAMES)
        | _LAZY_SUBMODULES
    )
