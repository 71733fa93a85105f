"""caffe_pb2: Caffe's messages built at import time from our caffe.proto, without protoc."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("google.protobuf", reason="Caffe support needs the protobuf package")

from google.protobuf import descriptor_pb2

from chainer.links.caffe.protobuf3 import _proto_parser, caffe_pb2

HERE = pathlib.Path(__file__).parent
SCHEMA = pathlib.Path(caffe_pb2.__file__).with_name("caffe.proto")


def _normalized(file_proto):
    """Drop what protoc adds on its own (json names) and spell float defaults one way."""
    for message in _all_messages(file_proto.message_type):
        for field in message.field:
            field.ClearField("json_name")
            if field.HasField("default_value") and field.type in (
                field.TYPE_FLOAT,
                field.TYPE_DOUBLE,
            ):
                field.default_value = repr(float(field.default_value))
    return file_proto


def _all_messages(messages):
    for message in messages:
        yield message
        yield from _all_messages(message.nested_type)


def test_the_schema_parses_to_what_protoc_makes_of_it():
    # caffe_proto_descriptor.pb is protoc's reading of caffe.proto; regenerate it after
    # editing caffe.proto (grpcio-tools provides protoc):
    #   python -m grpc_tools.protoc -I<dir of caffe.proto> caffe.proto \
    #       --descriptor_set_out=caffe_proto_descriptor.pb
    protoc_set = descriptor_pb2.FileDescriptorSet.FromString(
        (HERE / "caffe_proto_descriptor.pb").read_bytes()
    )
    ours = _proto_parser.parse_proto(SCHEMA.read_text(), "caffe.proto")
    assert _normalized(ours) == _normalized(protoc_set.file[0])


def test_caffe_field_numbers_are_the_file_format():
    # A few numbers every .caffemodel depends on, written out from Caffe's schema.
    numbers = {
        (caffe_pb2.NetParameter, "layer"): 100,
        (caffe_pb2.NetParameter, "layers"): 2,
        (caffe_pb2.LayerParameter, "blobs"): 7,
        (caffe_pb2.LayerParameter, "convolution_param"): 106,
        (caffe_pb2.LayerParameter, "batch_norm_param"): 139,
        (caffe_pb2.LayerParameter, "scale_param"): 142,
        (caffe_pb2.V1LayerParameter, "convolution_param"): 10,
        (caffe_pb2.V1LayerParameter, "inner_product_param"): 17,
        (caffe_pb2.BlobProto, "data"): 5,
        (caffe_pb2.BlobProto, "shape"): 7,
    }
    for (message, field), number in numbers.items():
        assert message.DESCRIPTOR.fields_by_name[field].number == number, (message, field)


def test_messages_serialize_and_parse_back():
    net = caffe_pb2.NetParameter(name="n")
    conv = net.layer.add(name="c", type="Convolution", bottom=["x"], top=["y"])
    conv.convolution_param.kernel_size.append(3)
    conv.blobs.add().data.extend([1.5, -2.0])
    parsed = caffe_pb2.NetParameter.FromString(net.SerializeToString())
    assert parsed == net
    assert list(parsed.layer[0].blobs[0].data) == [1.5, -2.0]
    # Defaults and presence are proto2's.
    assert parsed.layer[0].convolution_param.bias_term is True
    assert not parsed.layer[0].convolution_param.HasField("group")
    assert caffe_pb2.BatchNormParameter().eps == pytest.approx(1e-5)


def test_enums_as_a_generated_module_exposes_them():
    assert (caffe_pb2.TRAIN, caffe_pb2.TEST) == (0, 1)
    assert caffe_pb2.Phase.Name(1) == "TEST"
    assert (caffe_pb2.PoolingParameter.MAX, caffe_pb2.PoolingParameter.AVE) == (0, 1)
    assert caffe_pb2.V1LayerParameter.CONVOLUTION == 4
    assert caffe_pb2.EltwiseParameter.EltwiseOp.Value("MAX") == 2


def test_every_message_of_the_schema_is_a_module_attribute():
    for name in caffe_pb2.DESCRIPTOR.message_types_by_name:
        assert getattr(caffe_pb2, name).DESCRIPTOR.full_name == f"caffe.{name}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('syntax = "proto3";', "only proto2"),
        ("message A { optional B b = 1; }", "field 'b' has unknown type 'B'"),
        ("message A { optional int32 a = 1 [deprecated = true]; }", "unsupported field option"),
        ("message A { optional int32 a = x; }", "line 1: expected an integer, got 'x'"),
        ("message A {\n  oneof x { }\n}", "line 2: expected a field"),
        ("service S {}", "expected 'message', 'enum'"),
        ("message A { optional int32 a = 1 }", "expected ';', got '}'"),
        ("message A {", "unexpected end of file"),
        ("message A { optional int32 a = 1; } ?", "unexpected '?'"),
    ],
)
def test_parser_errors_name_the_problem(text, message):
    with pytest.raises(_proto_parser.ProtoSyntaxError, match=message):
        _proto_parser.parse_proto(text, "bad.proto")


def test_nested_types_resolve_to_the_innermost_scope():
    proto = _proto_parser.parse_proto(
        "package p; enum E { X = 0; } message M { enum E { Y = 0; } optional E e = 1; "
        "message N { optional E e = 1; } optional N n = 2; } message O { optional E e = 1; }",
        "scopes.proto",
    )
    m, o = proto.message_type
    assert m.field[0].type_name == ".p.M.E"
    assert m.nested_type[0].field[0].type_name == ".p.M.E"
    assert m.field[1].type_name == ".p.M.N"
    assert o.field[0].type_name == ".p.E"


def test_without_protobuf_the_import_error_names_the_extra():
    blocker = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.startswith('google.protobuf'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import chainer.exporters\n"  # imports without protobuf
        "try:\n"
        "    import chainer.links.caffe\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error.name, '|', error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocker], capture_output=True, text=True, timeout=120, check=True
    )
    name, _, message = result.stdout.partition(" | ")
    assert name == "google.protobuf"
    assert "pip install 'chainer-links[caffe]'" in message
