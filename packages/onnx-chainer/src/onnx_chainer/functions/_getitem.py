"""Converter of ``GetItem`` (NumPy-style indexing): Slice, Gather/GatherND, then Reshape."""

from __future__ import annotations

import numpy as np

from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder

_BIG = np.iinfo(np.int64).max


def _normalize(slices, ndim: int) -> list:
    if not isinstance(slices, tuple):
        slices = (
            tuple(slices) if isinstance(slices, list) and _is_index_list(slices) else (slices,)
        )
    entries = []
    for s in slices:
        if isinstance(s, np.ndarray) and s.ndim == 0:
            s = int(s)
        if isinstance(s, (list, np.ndarray)):
            array = np.asarray(s)
            if array.dtype == np.bool_:
                raise ValueError("GetItem: boolean masks have no static ONNX form")
            s = array.astype(np.int64)
        entries.append(s)
    consuming = sum(1 for s in entries if s is not None and s is not Ellipsis)
    if Ellipsis in [e for e in entries if not isinstance(e, np.ndarray)]:
        i = next(
            i for i, e in enumerate(entries) if e is Ellipsis and not isinstance(e, np.ndarray)
        )
        entries[i : i + 1] = [slice(None)] * (ndim - consuming)
    consuming = sum(1 for s in entries if s is not None)
    entries += [slice(None)] * (ndim - consuming)
    return entries


def _is_index_list(value: list) -> bool:
    # A list of lists/slices/None is a tuple of indices (as in NumPy's legacy rule).
    return any(isinstance(v, (list, slice)) or v is None or v is Ellipsis for v in value)


@support("GetItem", family="array")
def convert_get_item(params):
    shape = forms.input_shape(params)
    out_shape = tuple(params.func.outputs[0]().shape)
    entries = _normalize(params.func.slices, len(shape))
    gb = GraphBuilder()
    x = params.input_names[0]

    starts, ends, axes, steps = [], [], [], []
    advanced = []  # (input axis, index array)
    axis = 0
    for entry in entries:
        if entry is None:
            continue
        dim = shape[axis]
        if isinstance(entry, slice):
            start, stop, step = entry.indices(dim)
            if (start, stop, step) != (0, dim, 1):
                if step < 0 and stop < 0:
                    stop = -_BIG
                starts.append(start), ends.append(stop), axes.append(axis), steps.append(step)
        elif isinstance(entry, np.ndarray):
            advanced.append((axis, np.where(entry < 0, entry + dim, entry)))
        else:
            index = int(entry) + (dim if int(entry) < 0 else 0)
            advanced.append((axis, np.int64(index)))
        axis += 1

    arrays = [a for a in advanced if np.ndim(a[1]) > 0]
    scalars_only = not arrays
    if scalars_only:
        for ax, index in advanced:
            (
                starts.append(int(index)),
                ends.append(int(index) + 1),
                axes.append(ax),
                steps.append(1),
            )
    if starts:
        use_steps = steps if any(s != 1 for s in steps) else None
        x = forms.slice_(gb, params, x, starts, ends, axes, use_steps)
    if len(arrays) == 1:
        positions = [ax for ax, _ in advanced]
        if positions != list(range(positions[0], positions[0] + len(positions))):
            raise ValueError(
                "GetItem: integer and array indices separated by slices or None have no ONNX "
                f"form here: {params.func.slices!r}"
            )
        for ax, index in advanced:
            if np.ndim(index) == 0:
                x = forms.slice_(gb, params, x, [int(index)], [int(index) + 1], [ax])
        ax, index = arrays[0]
        x = gb.op("Gather", [x, forms.ints(params, index, "indices")], axis=ax)
    elif len(arrays) > 1:
        if params.opset_version < 11:
            raise ValueError(
                f"GetItem with several array indices needs GatherND, supported from opset 11, "
                f"you asked for {params.opset_version}"
            )
        positions = [ax for ax, _ in advanced]
        first_consuming = next(i for i, e in enumerate(entries) if e is not None)
        if positions != list(range(len(positions))) or first_consuming != 0:
            raise ValueError(
                "GetItem: several array indices are exported only on the leading axes, got "
                f"{params.func.slices!r}"
            )
        stacked = np.stack(np.broadcast_arrays(*[a for _, a in advanced]), axis=-1)
        x = gb.op("GatherND", [x, forms.ints(params, stacked, "indices")])
    forms.reshape(gb, params, x, out_shape, params.output_names[0])
    return gb.nodes()
