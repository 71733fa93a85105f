"""Converters of chainer.functions.array functions that only select or place elements.

Their ONNX form is a ``Gather`` of the flattened input at positions computed when exporting
(shapes are static), or ``Pad`` and ``Concat``. ``Shift`` (of chainer.functions.connection)
moves elements too and is here.
"""

from __future__ import annotations

import copy

import numpy as np

from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder


def _gather_flat(params, positions: np.ndarray, zero_at: int | None = None):
    """Output = the input flattened (C order), taken at ``positions`` (an int array).

    With ``zero_at`` (the input's size), that position reads a zero appended to the input.
    """
    gb = GraphBuilder()
    flat = forms.reshape(gb, params, params.input_names[0], [-1])
    if zero_at is not None:
        zero = forms.const(params, np.zeros(1, forms.input_dtype(params)), "zero")
        flat = gb.op("Concat", [flat, zero], axis=0)
    index = forms.ints(params, positions, "positions")
    gb.op_output_named("Gather", [flat, index], params.output_names, axis=0)
    return gb.nodes()


def _element_numbers(params) -> np.ndarray:
    shape = forms.input_shape(params)
    return np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)


@support("Diagonal", family="array")
def convert_diagonal(params):
    func = params.func
    positions = np.diagonal(_element_numbers(params), func.offset, func.axis1, func.axis2)
    return _gather_flat(params, np.ascontiguousarray(positions))


@support("AsStrided", family="array")
def convert_as_strided(params):
    """Storage positions the output reads, mapped to elements of the (contiguous) input."""
    func = params.func
    read = func._out_geometry.positions(np)
    held = func._in_geometry.positions(np).reshape(-1)
    element_at = np.full(int(max(held.max(initial=0), read.max(initial=0))) + 1, -1, np.int64)
    element_at[held] = np.arange(held.size, dtype=np.int64)
    positions = element_at[read]
    if (positions < 0).any():
        raise ValueError(
            "AsStrided reads memory outside its input (a view of a larger array); ONNX only "
            "has the input's own elements"
        )
    return _gather_flat(params, positions)


@support("PadSequence", family="array")
def convert_pad_sequence(params):
    func = params.func
    lengths = [forms.input_shape(params, i)[0] for i in range(len(params.input_names))]
    length = max(lengths) if func.length is None else func.length
    ndim = len(forms.input_shape(params))
    gb = GraphBuilder()
    rows = []
    for x, n in zip(params.input_names, lengths):
        if n < length:
            pads = [0] * ndim + [length - n] + [0] * (ndim - 1)
            x = forms.pad(gb, params, x, pads, "constant", func.padding)
        rows.append(forms.unsqueeze(gb, params, x, [0]))
    gb.op_output_named("Concat", rows, params.output_names, axis=0)
    return gb.nodes()


@support("Shift", family="connection")
def convert_shift(params):
    """Run Chainer's ``Shift`` on element numbers: each output is an input element or 0."""
    shape = forms.input_shape(params)
    size = int(np.prod(shape))
    numbers = np.arange(1, size + 1, dtype=np.float64).reshape(shape)
    (placed,) = copy.copy(params.func).forward((numbers,))
    positions = np.where(placed > 0, placed - 1, size).astype(np.int64)
    return _gather_flat(params, positions, zero_at=size)
