"""Version of the ``chainer`` umbrella distribution (it ships no code)."""

__version__ = "8.0.0a1"
