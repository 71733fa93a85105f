"""``print_runtime_info``: the versions of Chainer and of the libraries it can use here."""

from __future__ import annotations

import platform
import sys
from typing import TextIO

import numpy

from chainer._version import __version__


class _RuntimeInfo:
    """A snapshot of the platform and library versions, printed by ``str()``.

    Attributes:
        platform_version: :func:`platform.platform` of this machine.
        chainer_version: Version of the ``chainer`` package.
        chainerx_available: Whether ChainerX can be used.
        numpy_version: Version of NumPy.
        cupy_version: Version of CuPy, or ``None`` when CUDA is not available.
        cuda_info: CuPy's runtime information (CUDA, cuDNN, NCCL versions), or ``None``.
        ideep_version: Version of iDeep, or ``None`` when it is not available.
    """

    def __init__(self) -> None:
        # The optional backends are probed here, not at import: `import chainer` stays light.
        from chainer.backends import _chainerx, cuda, intel64

        self.platform_version = platform.platform()
        self.chainer_version = __version__
        self.chainerx_available = _chainerx.is_available()
        self.numpy_version = numpy.__version__
        if cuda.available:
            import cupyx

            self.cupy_version = cuda.cupy.__version__
            self.cuda_info = cupyx.get_runtime_info()
        else:
            self.cupy_version = None
            self.cuda_info = None
        self.ideep_version = intel64.ideep.__version__ if intel64.is_ideep_available() else None

    def __str__(self) -> str:
        lines = [
            f"Platform: {self.platform_version}",
            f"Chainer: {self.chainer_version}",
            f"ChainerX: {'Available' if self.chainerx_available else 'Not Available'}",
            f"NumPy: {self.numpy_version}",
        ]
        if self.cuda_info is None:
            lines.append("CuPy: Not Available")
        else:
            lines.append("CuPy:")
            lines += [f"  {line}" for line in str(self.cuda_info).splitlines()]
        lines.append(f"iDeep: {self.ideep_version or 'Not Available'}")
        return "\n".join(lines) + "\n"


def print_runtime_info(out: TextIO | None = None) -> None:
    """Print the platform and the versions of Chainer, ChainerX, NumPy, CuPy and iDeep.

    Paste its output into bug reports.

    Args:
        out: Where to write (``sys.stdout`` when ``None``).

    Example:
        The output depends on the machine, so the doctests skip it.

        >>> chainer.print_runtime_info()  # doctest: +SKIP
        Platform: Linux-6.1.0-x86_64-with-glibc2.36
        Chainer: 8.0.0a1
        ChainerX: Not Available
        NumPy: 2.2.1
        CuPy: Not Available
        iDeep: Not Available
    """
    if out is None:
        out = sys.stdout
    out.write(str(_RuntimeInfo()))
    if hasattr(out, "flush"):
        out.flush()


_get_runtime_info = _RuntimeInfo  # v7 compatibility: v7's private name, read by its tests
