"""Import ONNX models into Chainer: :func:`import_model` returns a trainable Chain.

One module per operator family (activation, array, connection, indexing, logic, math,
normalization, pooling, reduce, resize, rnn) registers an importer per ONNX operator with the
opsets it supports (:func:`registered_importers`).
"""

from __future__ import annotations

import os
from typing import Any

# Each family module registers its importers when imported.
from onnx_chainer.importer import (
    activation,
    array,
    connection,
    indexing,
    logic,
    math,
    normalization,
    pooling,
    reduce,
    resize,
    rnn,
)
from onnx_chainer.importer._model import ImportedModel, build
from onnx_chainer.importer._registry import (
    MAX_ELEMENTS,
    MAXIMUM_OPSET_VERSION,
    MINIMUM_OPSET_VERSION,
    ONNXImportError,
    UnsupportedOperatorError,
    registered_importers,
    supported_table,
)


def import_model(
    model: Any, *, base_dir: str | os.PathLike | None = None, check: bool = True
) -> ImportedModel:
    """Import an ONNX model as a :class:`chainer.Chain` that runs it with ``chainer.functions``.

    Args:
        model: A path to a ``.onnx`` file, its bytes, or an ``onnx.ModelProto``.
        base_dir: Folder holding the model's external data files (default: the model file's
            folder). Files outside it are refused.
        check: Run ``onnx.checker`` on the model first (structure, attribute types).

    Returns:
        An :class:`ImportedModel`: ``model(x)`` (or ``model(**{onnx_input_name: x})``) returns
        the output Variable (a tuple for several outputs); floating-point initializers are its
        ``chainer.Parameter`` s, named after the ONNX names.

    Raises:
        UnsupportedOperatorError: the model uses operators (or options) without importer; the
            message names each with its domain and opset and lists the supported ones.
        ONNXImportError: the file is not a valid model, a tensor's data disagrees with its
            declared shape or exceeds ``MAX_ELEMENTS``, or external data lies outside
            ``base_dir``.

    Example:
        >>> import onnx_chainer
        >>> x = np.ones((1, 3), np.float32)
        >>> _ = onnx_chainer.export_testcase(L.Linear(3, 2), x, "linear")  # linear/model.onnx
        >>> model = onnx_chainer.import_model("linear/model.onnx")
        >>> model(x).shape
        (1, 2)
    """
    return build(model, base_dir, check)


__all__ = [
    "MAX_ELEMENTS",
    "MAXIMUM_OPSET_VERSION",
    "MINIMUM_OPSET_VERSION",
    "ImportedModel",
    "ONNXImportError",
    "UnsupportedOperatorError",
    "import_model",
    "registered_importers",
    "supported_table",
]
