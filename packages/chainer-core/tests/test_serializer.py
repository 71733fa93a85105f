"""chainer.serializer: the base classes of the serialization protocol."""

from __future__ import annotations

import pytest

from chainer.serializer import AbstractSerializer, Deserializer, Serializer


class _Recorder:
    def __init__(self):
        self.seen = []

    def serialize(self, serializer):
        self.seen.append(serializer)


def test_save_and_load_call_serialize_with_self():
    obj = _Recorder()
    serializer, deserializer = Serializer(), Deserializer()
    serializer.save(obj)
    deserializer.load(obj)
    assert obj.seen == [serializer, deserializer]


@pytest.mark.parametrize("cls", [AbstractSerializer, Serializer, Deserializer])
def test_abstract_methods_name_the_class(cls):
    instance = cls()
    with pytest.raises(NotImplementedError, match=f"{cls.__name__} does not implement __call__"):
        instance("key", 1)
    with pytest.raises(NotImplementedError, match=rf"{cls.__name__} does not implement __getitem"):
        instance["child"]


def test_hierarchy():
    assert issubclass(Serializer, AbstractSerializer)
    assert issubclass(Deserializer, AbstractSerializer)
    assert not issubclass(Serializer, Deserializer)
