"""chainer.serializers.npz: DictionarySerializer, NpzDeserializer, save_npz and load_npz."""

from __future__ import annotations

import io
import pathlib
import zipfile

import numpy
import pytest

import chainer
from chainer import serializers
from chainer.serializers import DictionarySerializer, NpzDeserializer

from . import _objects


def _read_plain(file) -> dict[str, numpy.ndarray]:
    with numpy.load(file, allow_pickle=False) as archive:
        return {key: archive[key] for key in archive.files}


# -- DictionarySerializer ----------------------------------------------------------------


def test_dictionary_serializer_flattens_paths_and_returns_value():
    serializer = DictionarySerializer()
    array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    assert serializer["a"]["b"]("x", array) is array
    assert serializer("/top", 3) == 3
    assert serializer["/c/"]("y", 1.5) == 1.5
    assert sorted(serializer.target) == ["a/b/x", "c/y", "top"]
    assert serializer.target["a/b/x"] is array  # NumPy arrays are stored without a copy
    assert serializer.target["top"].shape == () and serializer.target["top"] == 3


def test_dictionary_serializer_uses_given_target_and_path():
    target = {"keep": numpy.zeros(1)}
    serializer = DictionarySerializer(target, path="p/")
    serializer("v", numpy.ones(2))
    assert serializer.target is target
    assert sorted(target) == ["keep", "p/v"]


def test_dictionary_serializer_converts_values():
    serializer = DictionarySerializer()
    variable = chainer.Variable(numpy.array([1.0, 2.0], dtype=numpy.float32))
    assert serializer("var", variable) is variable
    serializer("flag", True)
    serializer("half", numpy.float16(0.25))
    serializer("text", "héllo")
    target = serializer.target
    assert target["var"] is variable.array
    assert target["flag"].dtype == numpy.bool_ and bool(target["flag"]) is True
    assert target["half"].dtype == numpy.float16 and float(target["half"]) == 0.25
    assert target["text"].dtype.kind == "U" and target["text"].item() == "héllo"


def test_dictionary_serializer_stores_none_without_pickle():
    serializer = DictionarySerializer()
    serializer("nothing", None)
    serializer("empty_param", chainer.Parameter())
    buffer = io.BytesIO()
    numpy.savez(buffer, **serializer.target)
    buffer.seek(0)
    stored = _read_plain(buffer)  # allow_pickle=False: no pickle was needed
    for key in ("nothing", "empty_param"):
        assert stored[key].shape == ()
        assert stored[key].dtype.names == ("chainer_none",)


def test_dictionary_serializer_refuses_values_that_need_pickle():
    serializer = DictionarySerializer()
    with pytest.raises(TypeError, match=r"cannot serialize 'sub/obj'.*got builtins\.dict"):
        serializer["sub"]("obj", {"a": 1})
    assert serializer.target == {}


# -- NpzDeserializer on a mapping -----------------------------------------------------------


def test_deserializer_copies_into_arrays_in_place():
    stored = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    deserializer = NpzDeserializer({"a/x": stored})
    target = numpy.zeros((2, 3), dtype=numpy.float32)
    assert deserializer["a"]("x", target) is target
    numpy.testing.assert_array_equal(target, stored)
    assert target is not stored


def test_deserializer_casts_within_kind():
    deserializer = NpzDeserializer({"x": numpy.array([1.5, 2.5], dtype=numpy.float64)})
    target = numpy.zeros(2, dtype=numpy.float32)
    deserializer("x", target)
    numpy.testing.assert_array_equal(target, numpy.array([1.5, 2.5], dtype=numpy.float32))


def test_deserializer_returns_loaded_array_for_none():
    stored = numpy.arange(3)
    loaded = NpzDeserializer({"x": stored})("x", None)
    numpy.testing.assert_array_equal(loaded, stored)


@pytest.mark.parametrize(
    ("current", "stored", "expected"),
    [
        (0, numpy.array(7, dtype=numpy.int64), 7),
        (0.0, numpy.array(2.5), 2.5),
        (False, numpy.array(True), True),
        ("", numpy.array("text"), "text"),
        (numpy.float32(0), numpy.array(1.25, numpy.float32), numpy.float32(1.25)),
        (0.0, numpy.array(3, numpy.int32), 3.0),
        ([], numpy.array([1, 2, 3]), [1, 2, 3]),
        ((), numpy.array([1.5]), (1.5,)),
    ],
)
def test_deserializer_converts_scalars_to_the_current_type(current, stored, expected):
    loaded = NpzDeserializer({"k": stored})("k", current)
    assert loaded == expected
    assert type(loaded) is type(expected)


@pytest.mark.parametrize(
    ("current", "stored"),
    [
        (0, numpy.array(5.0, numpy.float32)),  # float into int
        (numpy.uint32(0), numpy.array(-5, numpy.int64)),  # into a narrower NumPy int
        (numpy.float32(0), numpy.array(1.25)),  # float64 into float32
    ],
)
def test_deserializer_refuses_lossy_scalar_conversions(current, stored):
    with pytest.raises(TypeError, match="'k': the stored .* does not safely convert to"):
        NpzDeserializer({"k": stored})("k", current)


def test_deserializer_fills_variables():
    variable = chainer.Variable(numpy.zeros(3, dtype=numpy.float32))
    array = variable.array
    stored = numpy.array([1.0, 2.0, 3.0], dtype=numpy.float32)
    assert NpzDeserializer({"v": stored})("v", variable) is variable
    assert variable.array is array
    numpy.testing.assert_array_equal(array, stored)


def test_deserializer_initializes_uninitialized_parameter():
    param = chainer.Parameter()
    stored = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    assert NpzDeserializer({"p": stored})("p", param) is param
    assert param.array.shape == (3, 2) and param.array.dtype == numpy.float32
    numpy.testing.assert_array_equal(param.array, stored)


def test_deserializer_leaves_parameter_uninitialized_on_dtype_mismatch():
    param = chainer.Parameter()
    stored = numpy.ones(2, dtype=numpy.complex64)
    with pytest.raises(ValueError, match=r"'p': expected shape \(2,\) and dtype float32"):
        NpzDeserializer({"p": stored})("p", param)
    assert param.array is None


def test_deserializer_assigns_array_to_empty_variable():
    variable = chainer.Variable()
    stored = numpy.array([4.0, 5.0])
    NpzDeserializer({"v": stored})("v", variable)
    numpy.testing.assert_array_equal(variable.array, stored)
    assert variable.array is not stored


@pytest.mark.parametrize("stored_none", [numpy.zeros((), [("chainer_none", "u1")]), None])
@pytest.mark.parametrize("current", [None, 3, numpy.ones(2)])
def test_deserializer_returns_none_when_none_was_saved(stored_none, current):
    original = numpy.copy(current) if isinstance(current, numpy.ndarray) else None
    assert NpzDeserializer({"k": stored_none})("k", current) is None
    if original is not None:
        numpy.testing.assert_array_equal(current, original)


def test_deserializer_reads_object_none_from_mapping():
    assert NpzDeserializer({"k": numpy.asarray(None)})("k", 1.0) is None


def test_deserializer_strict_missing_key_names_it():
    deserializer = NpzDeserializer({"a/x": numpy.zeros(1)})
    with pytest.raises(KeyError, match=r"'a/y' is not in the NPZ data.*strict=False"):
        deserializer["a"]("y", numpy.zeros(1))


def test_deserializer_missing_key_hints_at_trailing_slash():
    deserializer = NpzDeserializer({"model/x": numpy.zeros(1)}, path="model")
    with pytest.raises(KeyError, match=r"'modelx'.*path='model' usually ends with '/'"):
        deserializer("x", numpy.zeros(1))


def test_deserializer_non_strict_leaves_missing_values_unchanged():
    deserializer = NpzDeserializer({}, strict=False)
    target = numpy.full(2, 9.0)
    assert deserializer["child"]("x", target) is target
    numpy.testing.assert_array_equal(target, [9.0, 9.0])
    assert deserializer("n", 5) == 5


def test_deserializer_path_selects_sub_tree():
    stored = {"outer/x": numpy.array(1.0), "x": numpy.array(2.0)}
    assert NpzDeserializer(stored, path="outer/")("x", 0.0) == 1.0
    assert NpzDeserializer(stored)("x", 0.0) == 2.0


@pytest.mark.parametrize(
    "ignore_names",
    [
        "a/x",
        ["a/x", "unused"],
        lambda name: name.endswith("x"),
        [lambda name: False, "a/x"],
    ],
)
def test_deserializer_ignore_names(ignore_names):
    stored = {"root/a/x": numpy.array(1.0), "root/a/y": numpy.array(2.0)}
    deserializer = NpzDeserializer(stored, path="root/", ignore_names=ignore_names)
    assert deserializer["a"]("x", 0.0) == 0.0
    assert deserializer["a"]("y", 0.0) == 2.0


def test_deserializer_ignored_names_may_be_missing():
    deserializer = NpzDeserializer({}, ignore_names=["gone"])
    assert deserializer("gone", 4) == 4


def test_deserializer_rejects_bad_ignore_names():
    with pytest.raises(TypeError, match=r"ignore_names must be.*got an item of type int: 3"):
        NpzDeserializer({}, ignore_names=["ok", 3])


def test_deserializer_shape_mismatch_names_key_and_shapes():
    deserializer = NpzDeserializer({"l/W": numpy.zeros((2, 3), dtype=numpy.float32)})
    target = numpy.ones((3, 2), dtype=numpy.float32)
    message = (
        r"cannot load 'l/W': expected shape \(3, 2\) and dtype float32, "
        r"found shape \(2, 3\) and dtype float32"
    )
    with pytest.raises(ValueError, match=message):
        deserializer["l"]("W", target)
    numpy.testing.assert_array_equal(target, numpy.ones((3, 2)))


def test_deserializer_dtype_mismatch_names_key_and_dtypes():
    deserializer = NpzDeserializer({"n": numpy.array([0.5, 1.5])})
    with pytest.raises(ValueError, match=r"'n': expected shape \(2,\) and dtype int32.*float64"):
        deserializer("n", numpy.zeros(2, dtype=numpy.int32))


def test_deserializer_scalar_target_rejects_arrays():
    deserializer = NpzDeserializer({"t": numpy.zeros(3)})
    with pytest.raises(ValueError, match=r"'t': expected a scalar \(int\), found an array"):
        deserializer("t", 0)


def test_deserializer_scalar_conversion_failure_names_key():
    deserializer = NpzDeserializer({"t": numpy.array("abc")})
    with pytest.raises(ValueError, match=r"'t': the stored <U3 value 'abc' does not convert"):
        deserializer("t", 0)


# -- save_npz / load_npz --------------------------------------------------------------------


@pytest.mark.parametrize("compression", [True, False])
def test_round_trip_nested_object(tmp_path, compression):
    source, target = _objects.Tree(seed=1), _objects.Tree(seed=7)
    target.left.extra = numpy.ones(2)  # saved None replaces it
    path = tmp_path / "tree.npz"
    serializers.save_npz(path, source, compression=compression)
    serializers.load_npz(path, target)
    _objects.assert_same_state(target, source)
    with zipfile.ZipFile(path) as archive:
        methods = {info.compress_type for info in archive.infolist()}
    assert methods == {zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED}


def test_saved_file_is_plain_npz_with_flat_keys(tmp_path):
    source = _objects.Tree(seed=2)
    path = str(tmp_path / "model")
    serializers.save_npz(path, source)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]  # no '.npz' appended
    stored = _read_plain(path)
    leaf_keys = ["W", "b", "count", "extra", "label", "rate"]
    expected = {"step", "right/scale"}
    expected |= {f"left/{key}" for key in leaf_keys}
    expected |= {f"right/inner/{key}" for key in leaf_keys}
    assert set(stored) == expected
    numpy.testing.assert_array_equal(stored["left/W"], source.left.W)
    numpy.testing.assert_array_equal(stored["right/inner/b"], source.right.inner.b.array)
    assert stored["left/label"].item() == "leaf3"


def test_round_trip_through_file_objects():
    source, target = _objects.Tree(seed=3), _objects.Tree(seed=0)
    buffer = io.BytesIO()
    serializers.save_npz(buffer, source)
    buffer.seek(0)
    serializers.load_npz(buffer, target)
    _objects.assert_same_state(target, source)
    assert not buffer.closed


def test_keys_named_like_savez_arguments_round_trip(tmp_path):
    class Awkward:
        def __init__(self, value):
            self.values = {"file": value, "allow_pickle": value + 1, "args": value + 2}

        def serialize(self, serializer):
            for key in self.values:
                self.values[key] = serializer(key, self.values[key])

    serializers.save_npz(tmp_path / "a.npz", Awkward(10))
    loaded = Awkward(0)
    serializers.load_npz(tmp_path / "a.npz", loaded)
    assert loaded.values == {"file": 10, "allow_pickle": 11, "args": 12}


def test_load_with_path_from_snapshot_like_file(tmp_path):
    class Snapshot:
        def __init__(self, model):
            self.model = model

        def serialize(self, serializer):
            serializer("iteration", 100)
            self.model.serialize(serializer["updater"]["model:main"])

    source = _objects.Tree(seed=4)
    serializers.save_npz(tmp_path / "snapshot", Snapshot(source))
    target = _objects.Tree(seed=0)
    serializers.load_npz(tmp_path / "snapshot", target, path="updater/model:main/")
    _objects.assert_same_state(target, source)


def test_load_initializes_lazy_parameter(tmp_path):
    source = _objects.Lazy()
    source.w.initialize((4, 5))
    serializers.save_npz(tmp_path / "lazy.npz", source)
    target = _objects.Lazy()
    serializers.load_npz(tmp_path / "lazy.npz", target)
    numpy.testing.assert_array_equal(target.w.array, source.w.array)


def test_saved_uninitialized_parameter_stays_uninitialized(tmp_path):
    serializers.save_npz(tmp_path / "lazy.npz", _objects.Lazy())
    target = _objects.Lazy()
    serializers.load_npz(tmp_path / "lazy.npz", target)
    assert target.w.array is None


def test_load_none_slot_receives_saved_array(tmp_path):
    source = _objects.Leaf(seed=1)
    source.extra = numpy.arange(3)
    serializers.save_npz(tmp_path / "leaf.npz", source)
    target = _objects.Leaf(seed=0)
    serializers.load_npz(tmp_path / "leaf.npz", target)
    numpy.testing.assert_array_equal(target.extra, numpy.arange(3))


class _StepOnly:
    def serialize(self, serializer):
        serializer("step", 42)


def test_load_strict_reports_first_missing_key(tmp_path):
    serializers.save_npz(tmp_path / "partial.npz", _StepOnly())
    with pytest.raises(KeyError, match=r"'left/W' is not in the NPZ data"):
        serializers.load_npz(tmp_path / "partial.npz", _objects.Tree(seed=0))


def test_load_non_strict_loads_what_is_there(tmp_path):
    serializers.save_npz(tmp_path / "partial.npz", _StepOnly())
    target, untouched = _objects.Tree(seed=5), _objects.Tree(seed=5)
    serializers.load_npz(tmp_path / "partial.npz", target, strict=False)
    assert target.step == 42
    untouched.step = 42
    _objects.assert_same_state(target, untouched)


@pytest.mark.parametrize(
    "ignore_names", [["left/W", "right/inner/label"], lambda name: name in ("left/W",)]
)
def test_load_ignore_names(tmp_path, ignore_names):
    source, target = _objects.Tree(seed=1), _objects.Tree(seed=6)
    kept_w = target.left.W.copy()
    kept_label = target.right.inner.label
    serializers.save_npz(tmp_path / "tree.npz", source)
    serializers.load_npz(tmp_path / "tree.npz", target, ignore_names=ignore_names)
    numpy.testing.assert_array_equal(target.left.W, kept_w)
    numpy.testing.assert_array_equal(target.left.b.array, source.left.b.array)
    expected_label = kept_label if isinstance(ignore_names, list) else source.right.inner.label
    assert target.right.inner.label == expected_label


def test_load_shape_mismatch_from_file(tmp_path):
    serializers.save_npz(tmp_path / "leaf.npz", _objects.Leaf(seed=1, shape=(2, 3)))
    message = r"cannot load 'W': expected shape \(3, 2\) .* found shape \(2, 3\)"
    with pytest.raises(ValueError, match=message):
        serializers.load_npz(tmp_path / "leaf.npz", _objects.Leaf(seed=0, shape=(3, 2)))


def test_save_refuses_unserializable_value_and_writes_nothing(tmp_path):
    leaf = _objects.Leaf()
    leaf.extra = object()
    with pytest.raises(TypeError, match=r"cannot serialize 'extra'"):
        serializers.save_npz(tmp_path / "leaf.npz", leaf)
    assert list(tmp_path.iterdir()) == []


# -- malformed files ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "content", [b"", b"this is not an archive at all", b"PK\x03\x04 truncated zip header"]
)
def test_load_rejects_files_that_are_not_npz(tmp_path, content):
    path = tmp_path / "bad.npz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=r"bad\.npz' is not a readable NPZ archive"):
        serializers.load_npz(path, _objects.Leaf())


def test_load_rejects_truncated_file(tmp_path):
    path = tmp_path / "leaf.npz"
    serializers.save_npz(path, _objects.Leaf(seed=1))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="is not a readable NPZ archive"):
        serializers.load_npz(path, _objects.Leaf())


def test_load_rejects_single_npy_file(tmp_path):
    path = tmp_path / "array.npy"
    numpy.save(path, numpy.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"is not an NPZ archive: it holds a single array"):
        serializers.load_npz(path, _objects.Leaf())


@pytest.mark.parametrize("compression", [True, False])
def test_load_rejects_corrupted_member(tmp_path, compression):
    leaf = _objects.Leaf(seed=1, shape=(64, 64))
    buffer = io.BytesIO()
    serializers.save_npz(buffer, leaf, compression=compression)
    data = bytearray(buffer.getvalue())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        info = archive.getinfo("W.npy")
    # Damage the middle of the member's data (after its local header).
    middle = info.header_offset + 30 + len(info.filename) + info.compress_size // 2
    data[middle : middle + 16] = bytes(255 - byte for byte in data[middle : middle + 16])
    with pytest.raises(ValueError, match=r"cannot read 'W' from the NPZ data"):
        serializers.load_npz(io.BytesIO(bytes(data)), _objects.Leaf(shape=(64, 64)))


def test_load_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        serializers.load_npz(tmp_path / "absent.npz", _objects.Leaf())


@pytest.mark.parametrize("pickled", [numpy.array([{"a": 1}], dtype=object), numpy.asarray(None)])
def test_load_refuses_pickled_object_arrays(tmp_path, pickled):
    path = tmp_path / "pickled.npz"
    leaf = _objects.Leaf()
    arrays = {"W": leaf.W, "b": leaf.b.array, "count": numpy.array(0), "rate": numpy.array(0.5)}
    arrays.update(label=numpy.array("x"), extra=pickled)
    numpy.savez(path, **arrays)  # numpy.savez pickles object arrays
    with pytest.raises(ValueError, match=r"cannot read 'extra'.*Python objects.*never unpickles"):
        serializers.load_npz(path, _objects.Leaf())


def test_load_accepts_pathlib_and_str(tmp_path):
    source = _objects.Leaf(seed=2)
    serializers.save_npz(str(tmp_path / "a.npz"), source)
    target = _objects.Leaf(seed=0)
    serializers.load_npz(pathlib.Path(tmp_path / "a.npz"), target)
    numpy.testing.assert_array_equal(target.W, source.W)


def test_serialize_gives_the_arrays_save_npz_writes():
    source = _objects.Tree(seed=5)
    arrays = serializers.npz.serialize(source)
    buffer = io.BytesIO()
    serializers.save_npz(buffer, source)
    buffer.seek(0)
    stored = _read_plain(buffer)
    assert sorted(arrays) == sorted(stored) and arrays
    for key, value in stored.items():
        numpy.testing.assert_array_equal(arrays[key], value)


def test_save_npz_of_a_plain_dict_writes_it_key_by_key_and_a_link_loads_it(tmp_path):
    # v7 code saves statistics as a plain dict and loads them into a link.
    path = tmp_path / "stats.npz"
    mean = numpy.array([0.5, -1.0], numpy.float32)
    serializers.save_npz(path, {"mean": mean, "N": numpy.array(3)})
    stored = _read_plain(path)
    assert sorted(stored) == ["N", "mean"]
    numpy.testing.assert_array_equal(stored["mean"], mean)
    link = chainer.Link()
    link.add_persistent("mean", numpy.zeros(2, numpy.float32))
    link.add_persistent("N", 0)
    serializers.load_npz(path, link)
    numpy.testing.assert_array_equal(link.mean, mean)
    assert link.N == 3


def test_an_archive_opened_with_allow_pickle_is_read_as_numpy_reads_it(tmp_path):
    path = tmp_path / "pickled.npz"
    numpy.savez(path, w=numpy.asarray(None), y=numpy.arange(3.0))  # w is pickled
    with numpy.load(path, allow_pickle=True) as archive:
        deserializer = NpzDeserializer(archive)
        assert deserializer("w", numpy.zeros(1)) is None
        numpy.testing.assert_array_equal(deserializer("y", None), numpy.arange(3.0))
    with numpy.load(path, allow_pickle=False) as archive:
        with pytest.raises(ValueError, match=r"cannot read 'w'.*never unpickles"):
            NpzDeserializer(archive)("w", None)
