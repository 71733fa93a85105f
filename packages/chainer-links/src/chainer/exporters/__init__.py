"""Exporters of Chainer models to other frameworks' formats.

``chainer.exporters.caffe`` (needs ``protobuf``: ``pip install 'chainer-links[caffe]'``) is
imported on first access, so this package imports without protobuf.
"""

import importlib


def __getattr__(name: str):
    if name == "caffe":
        return importlib.import_module("chainer.exporters.caffe")
    raise AttributeError(f"module 'chainer.exporters' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), "caffe"])
