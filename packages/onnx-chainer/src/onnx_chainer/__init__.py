"""onnx_chainer: export Chainer models to ONNX, and import ONNX models into Chainer."""

from chainer._siblings import require_core as _require_core
from onnx_chainer._version import CORE_BELOW as _CORE_BELOW
from onnx_chainer._version import CORE_MINIMUM as _CORE_MINIMUM
from onnx_chainer._version import __version__

_require_core("onnx-chainer", _CORE_MINIMUM, _CORE_BELOW)

from onnx_chainer import context, functions, graph, mapping, onnx_helper, replace_func  # noqa: E402
from onnx_chainer.export import (  # noqa: E402
    MAXIMUM_OPSET_VERSION,
    MINIMUM_OPSET_VERSION,
    convert_parameter,
    export,
)
from onnx_chainer.export_testcase import export_testcase  # noqa: E402
from onnx_chainer.importer import import_model  # noqa: E402

__all__ = [
    "MAXIMUM_OPSET_VERSION",
    "MINIMUM_OPSET_VERSION",
    "__version__",
    "context",
    "convert_parameter",
    "export",
    "export_testcase",
    "functions",
    "graph",
    "import_model",
    "mapping",
    "onnx_helper",
    "replace_func",
]
