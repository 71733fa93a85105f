"""Opset-dependent node forms shared by the converters (attribute vs input changes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from onnx_chainer.onnx_helper import GraphBuilder


def emit(gb: GraphBuilder, op: str, inputs: Sequence[str], out: Any = None, **attrs: Any):
    """Add ``op``; write to ``out`` (a name or list of names) or to fresh names."""
    if out is None:
        return gb.op(op, inputs, **attrs)
    outs = [out] if isinstance(out, str) else list(out)
    gb.op_output_named(op, inputs, outs, **attrs)
    return out


def const(params, value: Any, name: str, dtype: Any = None) -> str:
    """A ``Constant`` node holding ``value`` (as ``dtype``)."""
    return params.context.add_const(np.asarray(value, dtype=dtype), name)


def ints(params, values: Sequence[int], name: str) -> str:
    return const(params, list(values), name, np.int64)


def input_dtype(params, index: int = 0) -> np.dtype:
    return np.dtype(params.func.inputs[index].dtype)


def input_shape(params, index: int = 0) -> tuple[int, ...]:
    return tuple(params.func.inputs[index].shape)


def scalar(params, value: Any, name: str, index: int = 0) -> str:
    """A scalar constant of the dtype of input ``index``."""
    return const(params, value, name, input_dtype(params, index))


def reduce(gb, params, op: str, x: str, axes, keepdims: bool, out=None):
    """``Reduce*`` over ``axes`` (None: all); axes is an input from opset 13 (Sum) or 18."""
    opset = params.opset_version
    as_input = opset >= (13 if op == "ReduceSum" else 18)
    keep = int(bool(keepdims))
    if axes is None:
        return emit(gb, op, [x], out, keepdims=keep)
    axes = [int(a) for a in (axes if isinstance(axes, (list, tuple)) else [axes])]
    if as_input:
        return emit(gb, op, [x, ints(params, axes, "axes")], out, keepdims=keep)
    return emit(gb, op, [x], out, axes=axes, keepdims=keep)


def squeeze(gb, params, x: str, axes: Sequence[int], out=None):
    if params.opset_version >= 13:
        return emit(gb, "Squeeze", [x, ints(params, axes, "axes")], out)
    return emit(gb, "Squeeze", [x], out, axes=list(axes))


def unsqueeze(gb, params, x: str, axes: Sequence[int], out=None):
    if params.opset_version >= 13:
        return emit(gb, "Unsqueeze", [x, ints(params, axes, "axes")], out)
    return emit(gb, "Unsqueeze", [x], out, axes=list(axes))


def reshape(gb, params, x: str, shape: Sequence[int], out=None):
    return emit(gb, "Reshape", [x, ints(params, shape, "shape")], out)


def slice_(gb, params, x: str, starts, ends, axes, steps=None, out=None):
    """``Slice``: attributes before opset 10 (no steps there), inputs from 10."""
    if params.opset_version < 10:
        if steps is not None and any(s != 1 for s in steps):
            raise ValueError(
                f"{params.func.label}: slicing with steps {list(steps)} needs opset 10 or newer, "
                f"you asked for {params.opset_version}"
            )
        return emit(gb, "Slice", [x], out, starts=list(starts), ends=list(ends), axes=list(axes))
    inputs = [x, ints(params, starts, "starts"), ints(params, ends, "ends")]
    inputs.append(ints(params, axes, "axes"))
    if steps is not None:
        inputs.append(ints(params, steps, "steps"))
    return emit(gb, "Slice", inputs, out)


def split(gb, params, x: str, sizes: Sequence[int], axis: int, outs: Sequence[str]):
    if params.opset_version >= 13:
        return emit(gb, "Split", [x, ints(params, sizes, "split")], list(outs), axis=axis)
    return emit(gb, "Split", [x], list(outs), axis=axis, split=list(sizes))


def pad(gb, params, x: str, pads: Sequence[int], mode: str, value: float, out=None):
    if params.opset_version >= 11:
        inputs = [x, ints(params, pads, "pads")]
        if mode == "constant":
            inputs.append(scalar(params, value, "value"))
        return emit(gb, "Pad", inputs, out, mode=mode)
    attrs = {"value": float(value)} if mode == "constant" else {}
    return emit(gb, "Pad", [x], out, mode=mode, pads=list(pads), **attrs)


def clip(gb, params, x: str, low, high, out=None):
    """``Clip``: min/max attributes before opset 11, optional inputs from 11."""
    if params.opset_version >= 11:
        low_name = scalar(params, low, "min") if low is not None else ""
        high_name = scalar(params, high, "max") if high is not None else ""
        return emit(gb, "Clip", [x, low_name, high_name], out)
    attrs = {}
    if low is not None:
        attrs["min"] = float(low)
    if high is not None:
        attrs["max"] = float(high)
    return emit(gb, "Clip", [x], out, **attrs)


def softmax_like(gb, params, op: str, x: str, axis: int, ndim: int, out=None):
    """``Softmax``/``LogSoftmax`` over one axis; before opset 13 ONNX flattens to 2-D."""
    axis = axis % ndim
    if params.opset_version >= 13 or axis == ndim - 1:
        return emit(gb, op, [x], out, axis=axis if params.opset_version >= 13 else ndim - 1)
    perm = list(range(ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    moved = gb.op("Transpose", [x], perm=perm)
    y = gb.op(op, [moved], axis=ndim - 1)
    return emit(gb, "Transpose", [y], out, perm=perm)


def broadcastable(params, name: str, shape: Sequence[int], ndim: int, start: int = 1):
    """Reshape a per-channel tensor (``x.shape[start:start+k]``) to broadcast against ``x``."""
    full = [1] * start + list(shape) + [1] * (ndim - start - len(shape))
    gb = GraphBuilder()
    out = reshape(gb, params, name, full)
    return out, gb.nodes()


def resize_roi(params, name: str = "roi") -> str:
    """An empty ``roi``/``scales`` input of ``Resize``: required at opsets 11-12 only."""
    if params.opset_version >= 13:
        return ""
    return const(params, np.zeros(0, np.float32), name)


def one_hot(gb, params, indices: str, depth: int, dtype) -> str:
    """``OneHot`` of int64 indices (the index type every runtime implements) as ``dtype``."""
    from onnx_chainer import mapping

    index64 = gb.op("Cast", [indices], to=mapping.onnx_type(np.int64))
    values = const(params, [0, 1], "onehot_values", dtype)
    return gb.op("OneHot", [index64, ints(params, [depth], "depth"), values], axis=-1)
