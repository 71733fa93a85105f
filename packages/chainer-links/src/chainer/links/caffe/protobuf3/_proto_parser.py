"""Reads a proto2 schema into a ``FileDescriptorProto``, so no ``protoc`` step is needed.

It understands the subset ``caffe.proto`` is written in: ``syntax``, ``package``, nested
``message`` and ``enum`` definitions, ``optional``/``required``/``repeated`` fields of scalar,
message or enum type, and the field options ``default`` and ``packed``. Anything else is a
:class:`ProtoSyntaxError` naming the line.
"""

from __future__ import annotations

import re

from google.protobuf import descriptor_pb2

_Field = descriptor_pb2.FieldDescriptorProto

_SCALAR_TYPES = {
    "double": _Field.TYPE_DOUBLE,
    "float": _Field.TYPE_FLOAT,
    "int64": _Field.TYPE_INT64,
    "uint64": _Field.TYPE_UINT64,
    "int32": _Field.TYPE_INT32,
    "uint32": _Field.TYPE_UINT32,
    "sint32": _Field.TYPE_SINT32,
    "sint64": _Field.TYPE_SINT64,
    "fixed32": _Field.TYPE_FIXED32,
    "fixed64": _Field.TYPE_FIXED64,
    "sfixed32": _Field.TYPE_SFIXED32,
    "sfixed64": _Field.TYPE_SFIXED64,
    "bool": _Field.TYPE_BOOL,
    "string": _Field.TYPE_STRING,
    "bytes": _Field.TYPE_BYTES,
}
_LABELS = {
    "optional": _Field.LABEL_OPTIONAL,
    "required": _Field.LABEL_REQUIRED,
    "repeated": _Field.LABEL_REPEATED,
}
_TOKEN = re.compile(
    r"\s+|//[^\n]*|/\*.*?\*/"  # skipped: whitespace and comments
    r'|(?P<string>"[^"\n]*"|\'[^\'\n]*\')'
    r"|(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_.]*)"
    r"|(?P<symbol>[{}\[\]=;,])",
    re.DOTALL,
)


class ProtoSyntaxError(ValueError):
    """The schema uses syntax outside the supported subset, or is malformed."""


class _Tokens:
    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.items: list[tuple[str, int]] = []
        position = 0
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None:
                line = text.count("\n", 0, position) + 1
                raise ProtoSyntaxError(f"{source}, line {line}: unexpected {text[position]!r}")
            if match.lastgroup is not None:
                self.items.append((match.group(), text.count("\n", 0, position) + 1))
            position = match.end()
        self.index = 0

    def peek(self) -> str | None:
        return self.items[self.index][0] if self.index < len(self.items) else None

    def take(self, expected: str | None = None) -> str:
        if self.index >= len(self.items):
            raise ProtoSyntaxError(f"{self.source}: unexpected end of file")
        token, line = self.items[self.index]
        if expected is not None and token != expected:
            raise ProtoSyntaxError(
                f"{self.source}, line {line}: expected {expected!r}, got {token!r}"
            )
        self.index += 1
        return token

    def error(self, message: str) -> ProtoSyntaxError:
        line = self.items[min(self.index, len(self.items) - 1)][1]
        return ProtoSyntaxError(f"{self.source}, line {line}: {message}")


def parse_proto(text: str, name: str) -> descriptor_pb2.FileDescriptorProto:
    """Parse proto2 ``text`` into the descriptor of a file called ``name``."""
    tokens = _Tokens(text, name)
    file_proto = descriptor_pb2.FileDescriptorProto(name=name)
    # Field types naming a message or enum are resolved once every definition is known.
    pending: list[tuple[_Field, str, str]] = []
    while tokens.peek() is not None:
        keyword = tokens.take()
        if keyword == "syntax":
            tokens.take("=")
            if tokens.take().strip("\"'") != "proto2":
                raise tokens.error("only proto2 schemas are supported")
            tokens.take(";")
        elif keyword == "package":
            file_proto.package = tokens.take()
            tokens.take(";")
        elif keyword == "message":
            _parse_message(tokens, file_proto.message_type.add(), file_proto.package, pending)
        elif keyword == "enum":
            _parse_enum(tokens, file_proto.enum_type.add())
        else:
            raise tokens.error(
                f"expected 'message', 'enum', 'package' or 'syntax', got {keyword!r}"
            )
    _resolve_types(file_proto, pending)
    return file_proto


def _parse_message(
    tokens: _Tokens,
    message: descriptor_pb2.DescriptorProto,
    scope: str,
    pending: list[tuple[_Field, str, str]],
) -> None:
    message.name = tokens.take()
    full_name = f"{scope}.{message.name}"
    tokens.take("{")
    while tokens.peek() != "}":
        keyword = tokens.take()
        if keyword == "message":
            _parse_message(tokens, message.nested_type.add(), full_name, pending)
        elif keyword == "enum":
            _parse_enum(tokens, message.enum_type.add())
        elif keyword in _LABELS:
            field = message.field.add(label=_LABELS[keyword])
            type_name = tokens.take()
            field.name = tokens.take()
            tokens.take("=")
            field.number = _integer(tokens, tokens.take())
            if type_name in _SCALAR_TYPES:
                field.type = _SCALAR_TYPES[type_name]
            else:
                pending.append((field, type_name, full_name))
            if tokens.peek() == "[":
                _parse_field_options(tokens, field)
            tokens.take(";")
        else:
            raise tokens.error(
                f"expected a field, 'message' or 'enum' in {message.name}, got {keyword!r}"
            )
    tokens.take("}")


def _parse_field_options(tokens: _Tokens, field: _Field) -> None:
    tokens.take("[")
    while True:
        option = tokens.take()
        tokens.take("=")
        value = tokens.take()
        if option == "default":
            field.default_value = value[1:-1] if value[:1] in "\"'" else value
        elif option == "packed":
            field.options.packed = value == "true"
        else:
            raise tokens.error(f"unsupported field option {option!r} (supported: default, packed)")
        if tokens.take() == "]":
            return


def _parse_enum(tokens: _Tokens, enum: descriptor_pb2.EnumDescriptorProto) -> None:
    enum.name = tokens.take()
    tokens.take("{")
    while tokens.peek() != "}":
        name = tokens.take()
        tokens.take("=")
        enum.value.add(name=name, number=_integer(tokens, tokens.take()))
        tokens.take(";")
    tokens.take("}")


def _integer(tokens: _Tokens, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise tokens.error(f"expected an integer, got {text!r}") from None


def _resolve_types(
    file_proto: descriptor_pb2.FileDescriptorProto, pending: list[tuple[_Field, str, str]]
) -> None:
    """Give each field of message or enum type its kind and fully qualified type name."""
    kinds: dict[str, int] = {}

    def collect(scope: str, messages, enums) -> None:
        for enum in enums:
            kinds[f"{scope}.{enum.name}"] = _Field.TYPE_ENUM
        for message in messages:
            full_name = f"{scope}.{message.name}"
            kinds[full_name] = _Field.TYPE_MESSAGE
            collect(full_name, message.nested_type, message.enum_type)

    collect(file_proto.package, file_proto.message_type, file_proto.enum_type)
    for field, type_name, scope in pending:
        # Protobuf's scoping: the innermost enclosing scope that defines the name wins.
        parts = scope.split(".")
        for depth in range(len(parts), -1, -1):
            candidate = ".".join(parts[:depth] + [type_name])
            if candidate in kinds:
                field.type = kinds[candidate]
                field.type_name = "." + candidate
                break
        else:
            raise ProtoSyntaxError(
                f"{file_proto.name}: field {field.name!r} has unknown type {type_name!r}"
            )
