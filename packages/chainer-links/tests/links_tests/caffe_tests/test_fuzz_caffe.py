"""Fuzzing CaffeFunction: random bytes, mutated valid .caffemodel files (new and legacy V1
layers), spliced wire fragments (truncated varints, huge lengths, wrong wire types) and
edited messages (blob shapes that do not match their data, unknown layer types, parameter
values out of range).

Every case must return or raise ValueError (a damaged or inconsistent file) or RuntimeError
(a parameter Chainer cannot emulate) with a message, within the time limit, under the
allocation bound, writing nothing (see chainer.testing._fuzzing). A model that loads must
hold the file's weights. Cases per harness: 1,000 (CI) or $CHAINER_FUZZ_EXAMPLES (the `fuzz`
nox session).
"""

from __future__ import annotations

import warnings

import numpy
import pytest

from chainer.testing import _fuzzing

pytest.importorskip("google.protobuf", reason="Caffe support needs the protobuf package")
hypothesis = pytest.importorskip("hypothesis")

import chainer.links as L  # noqa: E402
from chainer.links.caffe import CaffeFunction  # noqa: E402
from chainer.links.caffe.protobuf3 import caffe_pb2  # noqa: E402

from ._caffe_nets import blob, layer, v1_layer  # noqa: E402

st = hypothesis.strategies
pytestmark = pytest.mark.fuzz
SETTINGS = _fuzzing.hypothesis_settings()
ALLOWED = (ValueError, RuntimeError)
MAX_BYTES = 16 * 2**20


def _values(*shape):
    return numpy.arange(numpy.prod(shape), dtype=numpy.float32).reshape(shape) / 7 - 1


def _net(layers) -> caffe_pb2.NetParameter:
    net = caffe_pb2.NetParameter(name="seed")
    if isinstance(layers[0], caffe_pb2.V1LayerParameter):
        net.layers.extend(layers)
    else:
        net.layer.extend(layers)
    return net


def _seed_new() -> caffe_pb2.NetParameter:
    """Every supported layer type once, and one Caffe has but Chainer does not."""
    kernel = {"kernel_size": [3], "pad": [1], "group": 2}
    return _net(
        [
            layer("data", "Input", [], ["data"]),
            layer(
                "conv",
                "Convolution",
                ["data"],
                ["conv"],
                [_values(4, 2, 3, 3), _values(4)],
                convolution_param=kernel,
            ),
            layer(
                "deconv",
                "Deconvolution",
                ["conv"],
                ["deconv"],
                [_values(4, 1, 2, 2)],
                convolution_param={"kernel_size": [2], "bias_term": False},
            ),
            layer("bn", "BatchNorm", ["deconv"], ["bn"], [_values(4), _values(4) + 2, [2.0]]),
            layer(
                "scale",
                "Scale",
                ["bn"],
                ["scale"],
                [_values(4), _values(4)],
                scale_param={"bias_term": True},
            ),
            layer("relu", "ReLU", ["scale"], ["scale"], relu_param={"negative_slope": 0.1}),
            layer(
                "pool",
                "Pooling",
                ["scale"],
                ["pool"],
                pooling_param={"kernel_size": 2, "stride": 2},
            ),
            layer("lrn", "LRN", ["pool"], ["lrn"], lrn_param={"local_size": 3}),
            layer("split", "Split", ["lrn"], ["lrn_a", "lrn_b"]),
            layer("slice", "Slice", ["lrn_a"], ["s1", "s2"], slice_param={"slice_point": [1]}),
            layer("concat", "Concat", ["s2", "s1"], ["cat"]),
            layer("sum", "Eltwise", ["cat", "lrn_b"], ["sum"], eltwise_param={"coeff": [1, 2]}),
            layer("flat", "Reshape", ["sum"], ["flat"], reshape_param={"shape": {"dim": [0, -1]}}),
            layer("fc", "InnerProduct", ["flat"], ["fc"], [_values(3, 16), _values(3)]),
            layer("drop", "Dropout", ["fc"], ["fc"]),
            layer("tanh", "TanH", ["fc"], ["tanh"]),
            layer("sigmoid", "Sigmoid", ["tanh"], ["sigmoid"]),
            layer("prob", "Softmax", ["sigmoid"], ["prob"]),
            layer("argmax", "ArgMax", ["prob"], ["argmax"]),
        ]
    )


def _seed_v1() -> caffe_pb2.NetParameter:
    legacy = blob(_values(2, 1, 2, 2), legacy_shape=True)
    return _net(
        [
            v1_layer(
                "conv",
                "CONVOLUTION",
                ["data"],
                ["conv"],
                [legacy, _values(2)],
                convolution_param={"kernel_size": [2]},
            ),
            v1_layer("relu", "RELU", ["conv"], ["conv"]),
            v1_layer(
                "pool", "POOLING", ["conv"], ["pool"], pooling_param={"kernel_size": 2, "pool": 1}
            ),
            v1_layer(
                "fc",
                "INNER_PRODUCT",
                ["pool"],
                ["fc"],
                [blob(_values(3, 8), legacy_shape=True), _values(3)],
            ),
            v1_layer("loss", "SOFTMAX_LOSS", ["fc", "label"], ["loss"]),
        ]
    )


SEEDS = {"new": _seed_new(), "v1": _seed_v1()}


def _load(path: str, result: list) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result.append(CaffeFunction(path))
    for warning in caught:  # only the documented one: a layer type skipped
        assert issubclass(warning.category, UserWarning), warning
        assert "since CaffeFunction does not support" in str(warning.message), warning


def _blob_values(message) -> numpy.ndarray:
    data = (
        message.data if len(message.data) or not len(message.double_data) else message.double_data
    )
    return numpy.asarray(data, dtype=numpy.float32)


_TYPES_CHECKED = {
    "InnerProduct": L.Linear,
    "INNER_PRODUCT": L.Linear,
    "Convolution": L.Convolution2D,
    "CONVOLUTION": L.Convolution2D,
}


def _type_name(message) -> str:
    if isinstance(message, caffe_pb2.LayerParameter):
        return message.type
    return caffe_pb2.V1LayerParameter.LayerType.Name(message.type)


def _check_weights(function: CaffeFunction, net: caffe_pb2.NetParameter) -> None:
    """Every weight of an ungrouped convolution or fully-connected child is the file's."""
    # The last layer of a name that makes a child link of the class checked.
    layers = {
        (message.name, _TYPES_CHECKED[_type_name(message)]): message
        for message in (*net.layer, *net.layers)
        if _type_name(message) in _TYPES_CHECKED
    }
    for name, child in function.namedlinks(skipself=True):
        message = layers.get((name[1:], type(child)))
        if message is None:
            continue
        if isinstance(child, L.Linear) and message.inner_product_param.transpose:
            continue
        if isinstance(child, L.Convolution2D) and message.convolution_param.group != 1:
            continue
        stored = _blob_values(message.blobs[0])
        numpy.testing.assert_array_equal(child.W.array.ravel(), stored)
        if child.b is not None:
            numpy.testing.assert_array_equal(child.b.array, _blob_values(message.blobs[1]))


def _run(tmp_path, data: bytes, net: caffe_pb2.NetParameter | None = None):
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir(exist_ok=True)
    path = tmp_path / "model.caffemodel"
    path.write_bytes(data)
    result: list = []
    caught = _fuzzing.run_case(
        lambda: _load(str(path), result), ALLOWED, str(sandbox), max_bytes=MAX_BYTES
    )
    if caught is None and net is not None:
        _check_weights(result[0], net)
    return caught


# -- bytes ----------------------------------------------------------------------------------

MUTATIONS = st.lists(st.tuples(st.integers(0, 2**16), st.integers(0, 255)), max_size=8)


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _fragment(field: int, wire_type: int, payload: bytes) -> bytes:
    return _varint(field << 3 | wire_type) + payload


# Wire fragments of NetParameter/LayerParameter fields (layer = 100, layers = 2, blobs = 7):
# truncated varints, lengths far beyond the file, wrong wire types, stray group tags.
FRAGMENTS = st.one_of(
    st.integers(1, 11).map(lambda n: b"\x80" * n),
    st.tuples(st.sampled_from([2, 7, 100, 101]), st.integers(2**20, 2**64 - 1)).map(
        lambda t: _fragment(t[0], 2, _varint(t[1]))
    ),
    st.tuples(st.sampled_from([1, 2, 7, 100]), st.sampled_from([0, 1, 3, 4, 5, 6, 7])).map(
        lambda t: _fragment(t[0], t[1], b"\x01" * 8)
    ),
    st.binary(max_size=16),
)


def test_random_mutated_and_spliced_bytes(tmp_path):
    @SETTINGS
    @hypothesis.given(
        seed=st.sampled_from([*sorted(SEEDS), "random"]),
        body=st.binary(max_size=1024),
        flips=MUTATIONS,
        cut=st.one_of(st.none(), st.integers(0, 2**16)),
        splice=st.one_of(st.none(), st.tuples(st.integers(0, 2**16), FRAGMENTS)),
    )
    def case(seed, body, flips, cut, splice):
        if seed == "random":
            data = body
        else:
            data = _fuzzing.mutate(SEEDS[seed].SerializeToString(), flips, cut)
        if splice is not None:
            position, fragment = splice
            position %= len(data) + 1
            data = data[:position] + fragment + data[position:]
        _run(tmp_path, data)

    case()


# -- edited messages ------------------------------------------------------------------------

_Field = caffe_pb2.LayerParameter.DESCRIPTOR.fields[0].__class__
_INTEGERS = st.one_of(st.integers(-3, 8), st.sampled_from([2**31 - 1, -(2**31), 2**40, 2**62]))
_FLOATS = st.one_of(
    st.floats(-4, 4), st.sampled_from([0.0, -1.0, 1e30, float("inf"), float("nan")])
)


def _draw_value(draw, field):
    """A value of ``field``'s type (integers are clipped to what the type holds)."""
    if field.cpp_type in (_Field.CPPTYPE_FLOAT, _Field.CPPTYPE_DOUBLE):
        return draw(_FLOATS)
    if field.cpp_type == _Field.CPPTYPE_BOOL:
        return draw(st.booleans())
    if field.cpp_type == _Field.CPPTYPE_STRING:
        return draw(st.sampled_from(["", "data", "conv", "fc", "nowhere", "ArgMax"]))
    if field.cpp_type == _Field.CPPTYPE_ENUM:
        return draw(st.sampled_from([v.number for v in field.enum_type.values]))
    bits = {_Field.CPPTYPE_INT32: 31, _Field.CPPTYPE_INT64: 63}.get(field.cpp_type)
    value = draw(_INTEGERS)
    if bits is None:  # unsigned
        return abs(value) % 2 ** (32 if field.cpp_type == _Field.CPPTYPE_UINT32 else 64)
    return max(-(2**bits), min(2**bits - 1, value))


def _edit_fields(draw, message) -> str:
    """Give one scalar field of ``message`` or of one of its set sub-messages a new value."""
    path = []
    for _ in range(2):
        present = [f for f, _ in message.ListFields() if f.message_type is not None]
        if not present or draw(st.booleans()):
            break
        field = draw(st.sampled_from(present))
        value = getattr(message, field.name)
        if hasattr(value, "extend"):  # repeated
            if not len(value):
                break
            value = value[draw(st.integers(0, len(value) - 1))]
        path.append(field.name)
        message = value
    scalars = [f for f in message.DESCRIPTOR.fields if f.message_type is None]
    field = draw(st.sampled_from(scalars))
    path.append(field.name)
    if hasattr(getattr(message, field.name), "extend"):  # repeated
        value = [_draw_value(draw, field) for _ in range(draw(st.integers(0, 4)))]
        getattr(message, field.name)[:] = value
    else:
        value = _draw_value(draw, field)
        setattr(message, field.name, value)
    return f"{'.'.join(path)} = {value!r}"


def _clip32(value: int) -> int:
    return max(-(2**31), min(2**31 - 1, value))


def _edit_blob(draw, message) -> str:
    """A shape that does not match the data, data removed or moved to double_data."""
    edit = draw(st.sampled_from(["dims", "legacy", "data", "double"]))
    if edit == "dims":
        message.shape.dim[:] = draw(st.lists(_INTEGERS, max_size=5))
        return f"shape {list(message.shape.dim)}"
    if edit == "legacy":
        message.ClearField("shape")
        dims = [_clip32(draw(_INTEGERS)) for _ in range(4)]
        message.num, message.channels, message.height, message.width = dims
        return f"legacy shape {dims}"
    if edit == "data":
        message.data[:] = draw(st.lists(st.floats(-2, 2, width=32), max_size=40))
        return f"{len(message.data)} values"
    message.double_data[:] = list(message.data)[: draw(st.integers(0, 40))]
    message.ClearField("data")
    return f"{len(message.double_data)} double values"


class _Edited:
    """A net and the edits that made it (hypothesis prints the edits, not the whole net)."""

    def __init__(self, net: caffe_pb2.NetParameter) -> None:
        self.net, self.edits = net, []

    def __repr__(self) -> str:
        return f"<{self.net.name} edited: {'; '.join(self.edits)}>"


_TYPE_NAMES = ["Convolution", "InnerProduct", "Scale", "BatchNorm", "Slice", "Deconvolution"]
_TYPE_NAMES += ["Pooling", "Python", "", "\x00"]


@st.composite
def _edited_seed(draw) -> _Edited:
    seed = draw(st.sampled_from(sorted(SEEDS)))
    edited = _Edited(caffe_pb2.NetParameter())
    edited.net.CopyFrom(SEEDS[seed])
    edited.net.name = seed
    layers = edited.net.layer or edited.net.layers
    for _ in range(draw(st.integers(1, 4))):
        message = layers[draw(st.integers(0, len(layers) - 1))]
        edit = draw(st.sampled_from(["field", "blob", "type", "drop", "names"]))
        if edit == "blob" and len(message.blobs):
            index = draw(st.integers(0, len(message.blobs) - 1))
            change = f"blob {index}: {_edit_blob(draw, message.blobs[index])}"
        elif edit == "type" and isinstance(message, caffe_pb2.LayerParameter):
            message.type = draw(st.sampled_from(_TYPE_NAMES))
            change = f"type {message.type!r}"
        elif edit == "type":
            message.type = draw(st.sampled_from(caffe_pb2.V1LayerParameter.LayerType.values()))
            change = f"type {message.type}"
        elif edit == "drop":
            change = "dropped"
            layers.remove(message)
        elif edit == "names":
            name = draw(st.sampled_from(["conv", "fc", "forward", "W", "", "x/y"]))
            change = f"renamed {name!r}"
            message.name = name
        else:
            change = _edit_fields(draw, message)
        edited.edits.append(f"{message.name}: {change}")
        if not layers:
            break
    return edited


def test_edited_models(tmp_path):
    @SETTINGS
    @hypothesis.given(edited=_edited_seed())
    def case(edited):
        _run(tmp_path, edited.net.SerializeToString(), edited.net)

    case()


def test_seed_models_load(tmp_path):
    for net in SEEDS.values():
        assert _run(tmp_path, net.SerializeToString(), net) is None
