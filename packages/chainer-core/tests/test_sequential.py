"""chainer.sequential.Sequential: layers of links and plain callables, with list behaviour."""

import numpy
import pytest

import chainer
from chainer import initializers
from chainer.link import Link
from chainer.sequential import Sequential


class Scale(Link):
    """``x * w`` elementwise, ``w`` of the given size drawn from a normal distribution."""

    def __init__(self, size=2):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(initializers.Normal(1.0), (size,))

    def forward(self, x):
        return x * self.w


def double(x):
    return x * 2


def split(x):
    return x, x + 1


def add(a, b):
    return a + b


def names(seq):
    return [path for path, _ in seq.namedparams()]


def test_layers_are_applied_in_order_and_only_links_are_children():
    first, second = Scale(), Scale()
    seq = Sequential(first, double, second)
    x = numpy.array([1.0, -2.0], numpy.float32)
    numpy.testing.assert_allclose(seq(x).array, x * first.w.array * 2 * second.w.array, rtol=1e-6)
    assert list(seq.children()) == [first, second]
    assert (first.name, second.name) == ("0", "1")  # positions among the links
    assert names(seq) == ["/0/w", "/1/w"]


def test_a_tuple_output_is_unpacked_into_the_next_layer():
    seq = Sequential(split, add)
    numpy.testing.assert_array_equal(seq(numpy.float32(3.0)), 7.0)
    assert Sequential(add)(1, 2) == 3


def test_empty_sequential_cannot_be_called():
    with pytest.raises(RuntimeError, match="has no layer to apply"):
        Sequential()(1)


def test_layers_must_be_callable():
    with pytest.raises(ValueError, match="must be callable, got 3"):
        Sequential(3)
    seq = Sequential(double)
    for operation in (lambda: seq.append("x"), lambda: seq.insert(0, "x")):
        with pytest.raises(ValueError, match="must be callable, got 'x'"):
            operation()
    with pytest.raises(ValueError, match="must be callable, got None"):
        seq[0] = None
    with pytest.raises(ValueError, match="must be callable, got 1"):
        seq.extend([double, 1])
    assert list(seq) == [double]


def test_list_operations_match_a_python_list():
    a, b, c = Scale(), Scale(), Scale()
    seq = Sequential(a, double)
    reference = [a, double]

    def check():
        assert list(seq) == reference
        assert len(seq) == len(reference)
        assert list(reversed(seq)) == list(reversed(reference))
        assert list(seq.children()) == [layer for layer in reference if isinstance(layer, Link)]
        n_links = sum(isinstance(layer, Link) for layer in reference)
        assert names(seq) == [f"/{i}/w" for i in range(n_links)]

    operations = [
        lambda s: s.append(b),
        lambda s: s.extend([split, c]),
        lambda s: s.insert(1, add),
        lambda s: s.insert(-1, double),
        lambda s: s.__setitem__(0, c),
        lambda s: s.__setitem__(slice(1, 3), [a, b, split]),
        lambda s: s.__delitem__(2),
        lambda s: s.__delitem__(slice(0, 2)),
        lambda s: s.remove(double),
        lambda s: s.pop(0),
        lambda s: s.pop(),
    ]
    for operation in operations:
        results = operation(seq), operation(reference)
        assert results[0] is results[1]
        check()
    seq.extend([a, double, a])
    reference.extend([a, double, a])
    assert seq.index(a) == reference.index(a)
    assert seq.index(a, 2) == reference.index(a, 2)
    assert seq.count(a) == reference.count(a) == 2
    assert (double in seq, add in seq) == (True, False)
    seq.clear()
    reference.clear()
    check()


def test_slices_give_sequentials_of_the_same_layers():
    a, b = Scale(), Scale()
    seq = Sequential(a, double, b)
    part = seq[1:]
    assert isinstance(part, Sequential)
    assert list(part) == [double, b]
    assert names(part) == ["/0/w"]
    assert b.name == "1"  # still named by its place in seq
    assert seq[0] is a and seq[-1] is b


def test_missing_layers_and_bad_positions_raise():
    seq = Sequential(double)
    with pytest.raises(ValueError, match="is not a layer of this Sequential"):
        seq.remove(add)
    with pytest.raises(ValueError, match="is not a layer of this Sequential"):
        seq.index(add)
    with pytest.raises(IndexError, match="insert index 3 is out of range for a Sequential of 1"):
        seq.insert(3, add)
    with pytest.raises(IndexError):
        seq.pop(5)


def test_counting_and_removing_by_layer_type():
    seq = Sequential(Scale(), double, Scale(), lambda x: x, double)
    assert seq.count_by_layer_type("Scale") == 2
    assert seq.count_by_layer_type("double") == 2
    assert seq.count_by_layer_type("<lambda>") == 1
    seq.remove_by_layer_type("double")
    assert [type(layer).__name__ for layer in seq] == ["Scale", "Scale", "function"]
    seq.remove_by_layer_type("Scale")
    assert len(seq) == 1 and names(seq) == []


def test_addition_concatenates_sequentials():
    a, b = Scale(), Scale()
    left, right = Sequential(a), Sequential(double, b)
    total = left + right
    assert list(total) == [a, double, b]
    assert list(left) == [a]
    # v7: only a Sequential can be added, and the error is a ValueError.
    with pytest.raises(ValueError, match=r"Sequential \+ needs another Sequential, got list"):
        left + [double]
    with pytest.raises(ValueError, match=r"Sequential \+= needs another Sequential, got int"):
        left += 0
    left += Sequential(double)
    assert list(left) == [a, double]


def test_multiplication_repeats_the_layers_with_fresh_links():
    a = Scale()
    seq = Sequential(a, double)
    tripled = seq * 3
    assert len(tripled) == 6
    assert [layer for layer in tripled if not isinstance(layer, Link)] == [double] * 3
    links = [layer for layer in tripled if isinstance(layer, Link)]
    assert len({id(link) for link in links} | {id(a)}) == 4
    assert not numpy.array_equal(links[0].w.array, links[1].w.array)  # re-initialized
    assert len(2 * seq) == 4 and len(seq * 0) == 0
    seq *= 2
    assert len(seq) == 4 and seq[0] is a
    seq *= 0
    assert len(seq) == 0


def test_copy_modes_apply_to_the_links_and_keep_the_functions():
    a = Scale()
    seq = Sequential(a, double)
    shared, copied, fresh = seq.copy("share"), seq.copy("copy"), seq.copy("init")
    for other in (shared, copied, fresh):
        assert isinstance(other, Sequential)
        assert other[1] is double and other[0] is not a
        assert names(other) == ["/0/w"]
    assert shared[0].w.array is a.w.array
    numpy.testing.assert_array_equal(copied[0].w.array, a.w.array)
    assert copied[0].w.array is not a.w.array
    assert not numpy.array_equal(fresh[0].w.array, a.w.array)


def test_repeat_nests_copies_and_flatten_splices_them():
    a = Scale()
    repeated = Sequential(a, double).repeat(2)
    assert len(repeated) == 2 and all(isinstance(layer, Sequential) for layer in repeated)
    assert names(repeated) == ["/0/0/w", "/1/0/w"]
    flat = Sequential(repeated, double).flatten()
    assert len(flat) == 5
    assert [type(layer).__name__ for layer in flat] == [
        "Scale",
        "function",
        "Scale",
        "function",
        "function",
    ]
    assert names(flat) == ["/0/w", "/1/w"]


class KeyRecorder:
    """A saving serializer that only records the keys it is given."""

    def __init__(self, keys, prefix=""):
        self.keys, self.prefix = keys, prefix

    def __getitem__(self, name):
        return KeyRecorder(self.keys, f"{self.prefix}{name}/")

    def __call__(self, key, value):
        self.keys.append(self.prefix + key)
        return value


def test_serialize_uses_positions_among_the_links():
    keys = []
    Sequential(double, Scale(), double, Scale()).serialize(KeyRecorder(keys))
    assert keys == ["0/w", "1/w"]


def test_str_lists_links_functions_and_lambda_sources():
    seq = Sequential(Scale(), double, lambda x: x + 1)
    text = str(seq)
    lines = text.splitlines()
    assert lines[0] == "Sequential("
    assert lines[1] == "  (0): Scale(),"
    assert lines[2].startswith("  (1): <function double at 0x")
    assert lines[3] == "  (2): lambda x: x + 1,"
    assert lines[4] == ")"
    assert repr(Sequential()) == "Sequential()"
