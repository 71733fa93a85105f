"""Reading ONNX models safely: parse errors, external data confined to the model's folder,
tensors whose declared shape and data disagree or exceed :data:`MAX_ELEMENTS`."""

from __future__ import annotations

import os
import pathlib
from typing import Any

import numpy as np
import onnx
from google.protobuf.message import DecodeError
from onnx import numpy_helper

from onnx_chainer.importer._registry import MAX_ELEMENTS, ONNXImportError
from onnx_chainer.mapping import TENSOR_TYPE_TO_NP_TYPE

#: Protobuf's own limit on one serialized message.
_MAX_PROTO_BYTES = 2**31 - 1


def load_model(source: Any, base_dir: str | os.PathLike | None) -> tuple[onnx.ModelProto, Any]:
    """``source`` (a path, bytes or a ModelProto) as a ModelProto, and its data folder."""
    if isinstance(source, onnx.ModelProto):
        model = onnx.ModelProto()
        model.CopyFrom(source)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        model = _parse(bytes(source), "the given bytes")
    elif isinstance(source, (str, os.PathLike)):
        path = pathlib.Path(source)
        if not path.is_file():
            raise ONNXImportError(f"no ONNX model file at {str(path)!r}")
        if path.stat().st_size > _MAX_PROTO_BYTES:
            raise ONNXImportError(
                f"{str(path)!r} is larger than a protobuf message can be (2 GiB)"
            )
        model = _parse(path.read_bytes(), repr(str(path)))
        if base_dir is None:
            base_dir = path.parent
    else:
        raise TypeError(
            "import_model expects a path (str or os.PathLike), bytes or an onnx.ModelProto, "
            f"got {type(source).__name__}"
        )
    return model, None if base_dir is None else pathlib.Path(base_dir)


def _parse(data: bytes, what: str) -> onnx.ModelProto:
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError) as error:
        raise ONNXImportError(f"{what} is not a valid ONNX model (protobuf: {error})") from None
    if not model.HasField("graph"):
        raise ONNXImportError(f"{what} is not a valid ONNX model: it has no graph")
    return model


def check_model(model: onnx.ModelProto) -> None:
    """onnx's structural checks (types, attributes, topological order) as our error."""
    if model.ByteSize() >= _MAX_PROTO_BYTES:
        return  # the checker needs a path then; the importers check what they read
    try:
        onnx.checker.check_model(model)
    except (onnx.checker.ValidationError, ValueError, RuntimeError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ONNXImportError(f"the ONNX model is invalid: {first}") from None


def inline_external_data(model: onnx.ModelProto, base_dir: pathlib.Path | None) -> None:
    """Read every initializer kept in an external file (confined to ``base_dir``) into the
    model, so that nothing later (the checker included) opens files by itself."""
    for tensor in model.graph.initializer:
        if tensor.data_location != onnx.TensorProto.EXTERNAL:
            continue
        dtype = TENSOR_TYPE_TO_NP_TYPE.get(tensor.data_type)
        count = _element_count(tensor)
        if dtype is None:
            raise ONNXImportError(f"tensor {tensor.name!r} has an element type with no importer")
        raw = _read_external(tensor, tensor.name, base_dir, count * dtype.itemsize)
        del tensor.external_data[:]
        tensor.data_location = onnx.TensorProto.DEFAULT
        tensor.raw_data = raw
    for node in model.graph.node:
        for attribute in node.attribute:
            if attribute.HasField("t") and attribute.t.data_location == onnx.TensorProto.EXTERNAL:
                raise ONNXImportError(
                    f"node {node.name!r}: attribute {attribute.name!r} keeps its tensor in an "
                    "external file, which import_model does not read"
                )


def _element_count(tensor: onnx.TensorProto) -> int:
    shape = tuple(tensor.dims)
    count = int(np.prod(shape, dtype=object)) if shape else 1
    if any(d < 0 for d in shape) or count > MAX_ELEMENTS:
        raise ONNXImportError(
            f"tensor {tensor.name or '<unnamed>'!r} declares shape {shape}: refusing more than "
            f"{MAX_ELEMENTS} elements"
        )
    return count


def tensor_to_array(tensor: onnx.TensorProto) -> np.ndarray:
    """The tensor's values, after checking its type, its shape against its data and limits."""
    name = tensor.name or "<unnamed>"
    dtype = TENSOR_TYPE_TO_NP_TYPE.get(tensor.data_type)
    if dtype is None:
        type_name = (
            onnx.TensorProto.DataType.Name(tensor.data_type)
            if (tensor.data_type in onnx.TensorProto.DataType.values())
            else str(tensor.data_type)
        )
        raise ONNXImportError(
            f"tensor {name!r} has element type {type_name}, which has no importer"
        )
    shape = tuple(tensor.dims)
    count = _element_count(tensor)
    if tensor.data_location == onnx.TensorProto.EXTERNAL:
        raise ONNXImportError(f"tensor {name!r} keeps its data in an external file")
    if tensor.HasField("raw_data"):
        raw = tensor.raw_data
    else:
        return _typed_field_to_array(tensor, name, count, shape)
    if len(raw) != count * dtype.itemsize:
        raise ONNXImportError(
            f"tensor {name!r} declares shape {shape} of {np.dtype(dtype)} "
            f"({count * dtype.itemsize} bytes) but holds {len(raw)} bytes"
        )
    return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(shape)


def _typed_field_to_array(tensor, name: str, count: int, shape: tuple) -> np.ndarray:
    field = onnx.helper.tensor_dtype_to_field(tensor.data_type)
    held = len(getattr(tensor, field))
    if tensor.data_type == onnx.TensorProto.FLOAT16:
        held = len(tensor.int32_data)
    if held != count:
        raise ONNXImportError(
            f"tensor {name!r} declares shape {shape} ({count} values) but holds {held}"
        )
    try:
        return numpy_helper.to_array(tensor)
    except (ValueError, TypeError) as error:
        raise ONNXImportError(f"tensor {name!r} cannot be read: {error}") from None


def _read_external(tensor, name: str, base_dir: pathlib.Path | None, nbytes: int) -> bytes:
    info = {entry.key: entry.value for entry in tensor.external_data}
    location = info.get("location", "")
    if base_dir is None:
        raise ONNXImportError(
            f"tensor {name!r} keeps its data in the file {location!r}, but the model was not "
            "given as a path: pass base_dir= (the folder of the model)"
        )
    base = os.path.realpath(base_dir)
    target = os.path.realpath(os.path.join(base, location))
    if not location or os.path.isabs(location) or os.path.commonpath([base, target]) != base:
        raise ONNXImportError(
            f"tensor {name!r} refers to external data {location!r} outside the model's folder "
            f"{base!r}: refused"
        )
    if not os.path.isfile(target):
        raise ONNXImportError(f"tensor {name!r}: external data file {location!r} does not exist")
    try:
        offset = int(info.get("offset", 0))
        length = int(info.get("length", nbytes))
    except ValueError:
        raise ONNXImportError(
            f"tensor {name!r}: external data offset/length are not integers"
        ) from None
    size = os.path.getsize(target)
    if offset < 0 or length != nbytes or offset + length > size:
        raise ONNXImportError(
            f"tensor {name!r}: external data {location!r} (offset {offset}, length {length}) "
            f"does not hold the {nbytes} bytes its shape needs (file has {size} bytes)"
        )
    with open(target, "rb") as stream:
        stream.seek(offset)
        return stream.read(length)
