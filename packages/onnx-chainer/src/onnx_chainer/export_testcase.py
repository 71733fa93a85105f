"""``export_testcase``: the ONNX model plus input/output tensors in ONNX's test-case layout."""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from typing import Any

import numpy as np

import chainer
from onnx_chainer import onnx_helper
from onnx_chainer.export import export


def _to_cpu(array: Any) -> np.ndarray:
    return np.asarray(chainer.backend.CpuDevice().send(array))


def export_testcase(model: Any, args: Any, out_dir: str, output_grad: bool = False, **kwargs):
    """Export ``model`` to ``out_dir/model.onnx`` with its test data.

    Writes ``out_dir/test_data_set_0/input_<i>.pb`` (the graph inputs) and ``output_<i>.pb``
    (Chainer's outputs), each a ``TensorProto`` named as the graph value (readable with
    ``onnx.load_tensor``). With ``output_grad=True`` it also runs backward (output gradients of
    ones) and writes ``gradient_<i>.pb`` for every parameter of the model. Everything is written
    to a temporary directory first and moved in place once complete.

    Args:
        model: The model, as for :func:`onnx_chainer.export`.
        args: Its inputs, as for :func:`onnx_chainer.export`.
        out_dir: Directory to write (created if missing).
        output_grad: Also write parameter gradients.
        **kwargs: Options of :func:`onnx_chainer.export` (``filename``/``return_named_inout``
            excluded).

    Returns:
        The ``onnx.ModelProto``.
    """
    for reserved in ("filename", "return_named_inout"):
        if reserved in kwargs:
            raise TypeError(f"export_testcase() sets {reserved!r} itself; do not pass it")
    kwargs.pop("no_testcase", None)
    if output_grad and isinstance(model, chainer.Link):
        model.cleargrads()
    onnx_model, inputs, outputs = export(model, args, return_named_inout=True, **kwargs)

    parent = os.path.dirname(os.path.abspath(out_dir))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".onnx-testcase-", dir=parent)
    try:
        data_dir = os.path.join(staging, "test_data_set_0")
        os.makedirs(data_dir)
        onnx_helper.write_bytes_atomically(
            os.path.join(staging, "model.onnx"), onnx_model.SerializeToString()
        )
        initializers = {t.name for t in onnx_model.graph.initializer}
        graph_inputs = [i.name for i in onnx_model.graph.input if i.name not in initializers]
        for i, name in enumerate(graph_inputs):
            value = inputs[name] if name in inputs else None
            if value is None:
                continue
            onnx_helper.write_tensor_pb(
                os.path.join(data_dir, f"input_{i}.pb"), name, _to_cpu(value)
            )
        for i, (name, variable) in enumerate(outputs.items()):
            onnx_helper.write_tensor_pb(
                os.path.join(data_dir, f"output_{i}.pb"), name, _to_cpu(variable.array)
            )
        if output_grad:
            _write_gradients(model, list(outputs.values()), data_dir)
        if os.path.isdir(out_dir):
            shutil.rmtree(out_dir)
        os.replace(staging, out_dir)
    finally:
        if os.path.exists(staging):
            shutil.rmtree(staging)
    return onnx_model


def _write_gradients(model: Any, outputs: list, data_dir: str) -> None:
    for out in outputs:
        out.grad = out.xp.ones_like(out.array)
    for out in outputs:
        out.backward()
    for i, (path, param) in enumerate(model.namedparams()):
        name = "param" + path.replace("/", "_")
        if param.grad is None:
            warnings.warn(
                f"parameter {path} has no gradient; writing zeros", UserWarning, stacklevel=3
            )
            grad = np.zeros(param.shape, dtype=param.dtype)
        else:
            grad = _to_cpu(param.grad)
        onnx_helper.write_tensor_pb(os.path.join(data_dir, f"gradient_{i}.pb"), name, grad)
