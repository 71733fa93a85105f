"""onnx_chainer: export Chainer models to ONNX."""

from chainer._siblings import require_core as _require_core
from onnx_chainer._version import CORE_BELOW as _CORE_BELOW
from onnx_chainer._version import CORE_MINIMUM as _CORE_MINIMUM
from onnx_chainer._version import __version__

_require_core("onnx-chainer", _CORE_MINIMUM, _CORE_BELOW)
