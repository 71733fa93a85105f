"""Sums over axes. Both functions are the core's own ops (one implementation)."""

from chainer._ops.array_ops import Sum, SumTo, sum, sum_to

__all__ = ["Sum", "SumTo", "sum", "sum_to"]
