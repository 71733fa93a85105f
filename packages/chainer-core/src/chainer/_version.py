"""Version of the ``chainer-core`` distribution (the single source read by the build)."""

__version__ = "8.0.0a1"
