"""Backend modules: ``cuda`` (CuPy), ``intel64`` (iDeep); CPU and ChainerX devices are private.

Their common entry points (``get_device``, ``get_array_module``, ...) are in
:mod:`chainer.backend`. Importing these modules does not import CuPy, iDeep or ChainerX.
"""

from chainer.backends import cuda, intel64

__all__ = ["cuda", "intel64"]
