"""Export a model's test case for one opset into a scratch directory."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import chainer
from onnx_chainer.export_testcase import export_testcase

#: Environment variable naming the directory test cases go to (default: a temp directory).
OUT_DIR_ENV = "ONNX_CHAINER_TEST_OUT_DIR"


def gen_test_data_set(model: Any, args: Any, name: str, opset_version: int, **kwargs) -> str:
    """Write ``<out>/opset<N>/<name>`` with :func:`export_testcase`; return its path."""
    root = os.environ.get(OUT_DIR_ENV) or os.path.join(tempfile.gettempdir(), "onnx_chainer_out")
    if isinstance(model, chainer.Link):
        model.xp.random.seed(42)
    path = os.path.join(root, f"opset{opset_version}", name)
    export_testcase(model, args, path, opset_version=opset_version, **kwargs)
    return path
