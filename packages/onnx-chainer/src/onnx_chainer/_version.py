"""Version of the ``onnx-chainer`` distribution and the chainer-core window it works with."""

__version__ = "8.0.0a1"

CORE_MINIMUM = "8.0.0a1"
CORE_BELOW = "9"
