"""The converter registry: one module per Chainer function family.

``converters`` maps a Chainer function class name to its converter; ``registered()`` gives the
full specs (family, opset range) that the supported-ops table in the docs is generated from.
"""

from onnx_chainer.functions import (
    activation,
    array,
    connection,
    loss,
    math,
    noise,
    normalization,
    pooling,
    rnn,
    selection,
)
from onnx_chainer.functions._registry import (
    MAXIMUM_OPSET_VERSION,
    MINIMUM_OPSET_VERSION,
    ConverterParams,
    ConverterSpec,
    UnsupportedFunctionError,
    registered,
    support,
)

#: Function class name -> converter.
converters = {name: spec.convert for name, spec in registered().items()}

__all__ = [
    "MAXIMUM_OPSET_VERSION",
    "MINIMUM_OPSET_VERSION",
    "ConverterParams",
    "ConverterSpec",
    "UnsupportedFunctionError",
    "converters",
    "registered",
    "support",
]
