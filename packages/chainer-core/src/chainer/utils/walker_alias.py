"""Sampling from a fixed discrete distribution in constant time (Walker's alias method)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy

from chainer import device_resident


class WalkerAlias(device_resident.DeviceResident):
    """Draw indices ``i`` with probability ``probs[i] / sum(probs)``, each in O(1).

    The table has one column per index. Column ``i`` keeps ``i`` with probability
    ``threshold[i]`` and otherwise gives its alias ``values[2 * i + 1]``
    (``values[2 * i]`` is ``i`` itself); a sample picks a column uniformly, then one of its two
    entries. Move the table to a GPU with ``to_gpu()`` / ``to_device()`` to sample there.

    Args:
        probs: Non-negative weights, one per index; they need not sum to one.

    Example:
        >>> sampler = WalkerAlias([0.1, 0.6, 0.3])
        >>> sampler.sample((2, 3)).shape
        (2, 3)
    """

    def __init__(self, probs: Sequence[float]) -> None:
        super().__init__()
        weights = numpy.asarray(probs, dtype=numpy.float64)
        if weights.ndim != 1 or len(weights) == 0:
            raise ValueError(f"probs must be a non-empty 1-D sequence, got shape {weights.shape}")
        if not numpy.all(numpy.isfinite(weights)) or numpy.any(weights < 0):
            raise ValueError(f"probs must be finite and non-negative, got {weights}")
        total = weights.sum()
        if total <= 0:
            raise ValueError("probs must have a positive sum, got all zeros")
        self.threshold, aliases = _alias_table(weights * (len(weights) / total))
        self.values = (
            numpy.stack([numpy.arange(len(weights)), aliases], axis=1).astype(numpy.int32).ravel()
        )

    @property
    def use_gpu(self) -> bool:
        """Whether the table lives on a CUDA GPU (CuPy)."""
        xp = self.device.xp
        if xp is numpy:
            return False
        from chainer.backends import cuda

        if xp is cuda.cupy:
            return True
        raise RuntimeError(f"use_gpu is undefined for a WalkerAlias on device {self.device}")

    def device_resident_accept(self, visitor: Any) -> None:
        super().device_resident_accept(visitor)
        self.threshold = visitor.visit_array(self.threshold)
        self.values = visitor.visit_array(self.values)

    def sample(self, shape: int | tuple[int, ...]) -> Any:
        """Draw an int32 array of indices of ``shape`` on the table's device."""
        xp = self.device.xp
        if xp is not numpy:
            from chainer.backends import cuda

            if xp is cuda.cupy:
                return self.sample_gpu(shape)
        return self.sample_xp(xp, shape)

    def sample_xp(self, xp: Any, shape: int | tuple[int, ...]) -> Any:
        """Draw samples with the array module ``xp`` (NumPy or CuPy) and its global RNG."""
        n = len(self.threshold)
        position = xp.random.uniform(0, n, shape)
        # uniform() may round up to its open upper bound; that lands in the last column.
        column = xp.minimum(position.astype(numpy.int32), n - 1)
        take_alias = (position - column) >= self.threshold[column]
        return self.values[column * 2 + take_alias.astype(numpy.int32)]

    def sample_gpu(self, shape: int | tuple[int, ...]) -> Any:
        """Draw samples on the GPU in one CUDA kernel (the table must be on the GPU)."""
        from chainer.backends import cuda

        uniform = cuda.cupy.random.uniform(size=shape, dtype=numpy.float64)
        kernel = cuda.elementwise(
            "float64 u, raw float32 threshold, raw int32 values, int32 n",
            "int32 sample",
            """
            double position = u * n;
            int column = min((int)position, n - 1);
            sample = values[2 * column + (position - column >= threshold[column])];
            """,
            "chainer_walker_alias_sample",
        )
        return kernel(uniform, self.threshold, self.values, len(self.threshold))


def _alias_table(scaled: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Vose's construction; ``scaled`` are probabilities times their count (mean 1)."""
    n = len(scaled)
    remaining = scaled.copy()
    threshold = numpy.ones(n, dtype=numpy.float32)
    aliases = numpy.arange(n)
    small = [i for i in range(n) if remaining[i] < 1]
    large = [i for i in range(n) if remaining[i] >= 1]
    while small and large:
        short, tall = small.pop(), large[-1]
        threshold[short] = remaining[short]
        aliases[short] = tall
        # The tall index gives the short column what it lacks.
        remaining[tall] -= 1 - remaining[short]
        if remaining[tall] < 1:
            small.append(large.pop())
    # Whatever is left is 1 up to rounding: those columns keep their own index.
    return threshold, aliases
