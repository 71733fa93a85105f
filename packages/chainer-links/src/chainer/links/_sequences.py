"""Sorting a batch of variable-length sequences by length, and undoing the sort."""

from __future__ import annotations

import typing as tp
from collections.abc import Sequence

import numpy


def argsort_list_descent(lst: Sequence[tp.Any]) -> numpy.ndarray:
    """Indices that order ``lst`` by decreasing length (ties keep their order)."""
    return numpy.argsort([-len(x) for x in lst], kind="stable").astype(numpy.int32)


def permutate_list(lst: Sequence[tp.Any], indices: Sequence[int], inv: bool) -> list:
    """``[lst[i] for i in indices]``, or with ``inv`` the permutation that undoes it."""
    if inv:
        ret: list = [None] * len(lst)
        for position, index in enumerate(indices):
            ret[index] = lst[position]
        return ret
    return [lst[index] for index in indices]
