"""Makes ``node_support`` (the single-node model helpers) importable by the test modules."""

import importlib.util
import pathlib
import sys

_NAME = "onnx_import_node_support"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        _NAME, pathlib.Path(__file__).with_name("node_support.py")
    )
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module  # registered first: dataclasses look their module up there
    _spec.loader.exec_module(_module)
