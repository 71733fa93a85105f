"""NumPy dtype <-> ONNX tensor element type."""

from __future__ import annotations

import numpy as np
import onnx

#: ONNX element type of each NumPy dtype an exported graph may carry.
NP_TYPE_TO_TENSOR_TYPE: dict[np.dtype, int] = {
    np.dtype(np.bool_): onnx.TensorProto.BOOL,
    np.dtype(np.float16): onnx.TensorProto.FLOAT16,
    np.dtype(np.float32): onnx.TensorProto.FLOAT,
    np.dtype(np.float64): onnx.TensorProto.DOUBLE,
    np.dtype(np.int8): onnx.TensorProto.INT8,
    np.dtype(np.int16): onnx.TensorProto.INT16,
    np.dtype(np.int32): onnx.TensorProto.INT32,
    np.dtype(np.int64): onnx.TensorProto.INT64,
    np.dtype(np.uint8): onnx.TensorProto.UINT8,
    np.dtype(np.uint16): onnx.TensorProto.UINT16,
    np.dtype(np.uint32): onnx.TensorProto.UINT32,
    np.dtype(np.uint64): onnx.TensorProto.UINT64,
}

#: NumPy dtype of each ONNX element type above.
TENSOR_TYPE_TO_NP_TYPE: dict[int, np.dtype] = {v: k for k, v in NP_TYPE_TO_TENSOR_TYPE.items()}

#: Name of each ONNX element type (``'FLOAT'``, ...).
TENSOR_TYPE_TO_NAME: dict[int, str] = {
    v: onnx.TensorProto.DataType.Name(v) for v in NP_TYPE_TO_TENSOR_TYPE.values()
}


def onnx_type(dtype) -> int:
    """The ONNX element type of ``dtype``; ``ValueError`` naming the dtype when ONNX has none."""
    try:
        return NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]
    except KeyError:
        supported = ", ".join(sorted(str(d) for d in NP_TYPE_TO_TENSOR_TYPE))
        raise ValueError(
            f"dtype {np.dtype(dtype)} has no ONNX tensor type; expected one of {supported}"
        ) from None
