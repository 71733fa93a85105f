"""Computing in float32 for float16 inputs."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy


def _fp16_mixed_precision_helper(fn: Callable) -> Callable:
    """Decorate a ``forward(self, inputs)`` method to compute in float32 for float16 inputs.

    When every floating-point input is float16, those inputs are cast to float32 before ``fn``
    runs and its float32 outputs are cast back to float16: the result keeps the input dtype while
    the arithmetic (sums, variances) avoids float16 overflow and rounding. Otherwise ``fn`` runs
    unchanged.
    """

    @functools.wraps(fn)
    def forward(self: Any, inputs: tuple) -> tuple:
        floats = [x for x in inputs if x is not None and x.dtype.kind == "f"]
        if not floats or any(x.dtype != numpy.float16 for x in floats):
            return fn(self, inputs)
        outputs = fn(self, tuple(_cast(x, numpy.float16, numpy.float32) for x in inputs))
        return tuple(_cast(y, numpy.float32, numpy.float16) for y in outputs)

    return forward


def _cast(x: Any, source: type, target: type) -> Any:
    return x.astype(target) if x is not None and x.dtype == source else x
