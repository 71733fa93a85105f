"""tabular.from_data and the TabularDataset basics it exercises (modes, rows, fetch)."""

import numpy
import pytest

from chainer.dataset import TabularDataset, tabular


def test_unary_dataset_from_an_array():
    table = tabular.from_data(numpy.arange(4) * 2)
    assert isinstance(table, TabularDataset)
    assert (len(table), len(table.keys), table.mode) == (4, 1, None)
    assert table[3] == 6
    assert table[1:3] == [2, 4]
    fetched = table.fetch()
    assert isinstance(fetched, numpy.ndarray)
    numpy.testing.assert_array_equal(fetched, [0, 2, 4, 6])


def test_unnamed_columns_get_keys_unique_in_the_process():
    first = tabular.from_data(numpy.arange(3))
    second = tabular.from_data((numpy.arange(3), [4, 5, 6]))
    keys = first.keys + second.keys
    assert len(set(keys)) == 3
    assert first.join(second)[1] == (1, 1, 5)


def test_named_unary_and_tuple_columns():
    table = tabular.from_data(("a", [1, 2, 3]))
    assert (table.keys, table.mode, table[-1]) == (("a",), None, 3)
    table = tabular.from_data((numpy.arange(3), ("b", ["x", "y", "z"]), [7, 8, 9]))
    assert table.keys[1] == "b" and table.mode is tuple
    assert table[1] == (1, "y", 8)


def test_fetch_keeps_each_column_as_a_list_or_an_array():
    table = tabular.from_data((("a", numpy.arange(3)), ("b", [7, 8, 9]), ("c", lambda i: -i)))
    a, b, c = table.fetch()
    assert isinstance(a, numpy.ndarray) and b == [7, 8, 9] and c == [0, -1, -2]
    a, b, c = table.convert(table.fetch())
    numpy.testing.assert_array_equal(c, [0, -1, -2])
    assert all(isinstance(column, numpy.ndarray) for column in (a, b, c))


def test_dict_mode_and_callable_columns():
    table = tabular.from_data({"i": numpy.arange(5), "sq": lambda i: i * i})
    assert (table.keys, table.mode) == (("i", "sq"), dict)
    assert table[4] == {"i": 4, "sq": 16}
    fetched = table.convert(table.fetch())
    numpy.testing.assert_array_equal(fetched["sq"], numpy.arange(5) ** 2)
    assert isinstance(fetched["sq"], numpy.ndarray)


@pytest.mark.parametrize(
    "function, mode",
    [(lambda i: (i * i, -i), tuple), (lambda i: {"b": -i, "a": i * i}, dict)],
)
def test_a_callable_with_several_keys(function, mode):
    table = tabular.from_data((("a", "b"), function), size=4)
    assert (table.keys, table.mode) == (("a", "b"), mode)
    assert table.get_examples([3, 1], (1,)) == ([-3, -1],)
    in_tuple = tabular.from_data((numpy.arange(4), (("a", "b"), function)))
    assert in_tuple.mode is tuple and in_tuple[2] == (2, 4, -2)
    in_dict = tabular.from_data({"x": numpy.arange(4), ("a", "b"): function})
    assert in_dict[3] == {"x": 3, "a": 9, "b": -3}


def test_only_callables_need_a_size():
    table = tabular.from_data(("f", lambda i: -i), size=3)
    assert [table[i] for i in range(3)] == [0, -1, -2]
    with pytest.raises(ValueError, match="size must be given when every column is a callable"):
        tabular.from_data(("f", lambda i: i))
    with pytest.raises(ValueError, match=r"a callable column needs a key: pass \(key, callable\)"):
        tabular.from_data(lambda i: i, size=3)


def test_lengths_must_agree():
    with pytest.raises(ValueError, match=r"different lengths \{'size': 4, 'a': 3\}"):
        tabular.from_data(("a", [1, 2, 3]), size=4)
    with pytest.raises(ValueError, match="different lengths"):
        tabular.from_data(([1, 2], [1, 2, 3]))


def test_bad_columns_and_keys():
    with pytest.raises(TypeError, match="the column '_[0-9]+' must be a list, an array or a"):
        tabular.from_data(3)
    with pytest.raises(ValueError, match="the key 'a' appears more than once"):
        tabular.from_data((("a", [1]), ("a", [2])))
    with pytest.raises(TypeError, match="a key must be a str or a tuple of str, got 1"):
        tabular.from_data({1: [0]})
    with pytest.raises(TypeError, match=r"only a callable can provide several columns"):
        tabular.from_data({("a", "b"): [0]})
    table = tabular.from_data((("a", "b"), lambda i: i), size=2)
    with pytest.raises(TypeError, match="must return a tuple or a dict, got int"):
        table.fetch()


def test_get_examples_selects_rows_and_columns():
    table = tabular.from_data((("a", numpy.arange(6)), ("b", list("abcdef"))))
    a, b = table.get_examples([5, -6, 2], None)
    numpy.testing.assert_array_equal(a, [5, 0, 2])
    assert b == ["f", "a", "c"]
    (b,) = table.get_examples(slice(None, None, -2), (1,))
    assert b == ["f", "d", "b"]
    with pytest.raises(IndexError):
        table.get_examples([6], None)


def test_convert_stacks_lists_of_arrays():
    table = tabular.from_data([numpy.ones(2) * i for i in range(3)])
    numpy.testing.assert_array_equal(
        table.convert(table.fetch()), numpy.repeat(numpy.arange(3.0), 2).reshape(3, 2)
    )


def test_abstract_members_name_the_class():
    class Bare(TabularDataset):
        pass

    for action in (len, lambda t: t.keys, lambda t: t.mode, lambda t: t.get_examples(None, None)):
        with pytest.raises(NotImplementedError, match="Bare must implement"):
            action(Bare())
