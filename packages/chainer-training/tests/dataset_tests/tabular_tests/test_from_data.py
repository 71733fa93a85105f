"""tabular.from_data and the TabularDataset basics it exercises (modes, rows, fetch)."""

import numpy
import pytest

from chainer.dataset import TabularDataset, tabular


def test_unary_dataset_from_an_array():
    table = tabular.from_data(numpy.arange(4) * 2)
    assert isinstance(table, TabularDataset)
    assert (len(table), table.keys, table.mode) == (4, ("_0",), None)
    assert table[3] == 6
    assert table[1:3] == [2, 4]
    numpy.testing.assert_array_equal(table.fetch(), [0, 2, 4, 6])


def test_named_unary_and_tuple_columns():
    table = tabular.from_data(("a", [1, 2, 3]))
    assert (table.keys, table.mode, table[-1]) == (("a",), None, 3)
    table = tabular.from_data((numpy.arange(3), ("b", ["x", "y", "z"]), [7, 8, 9]))
    assert (table.keys, table.mode) == (("_0", "b", "_2"), tuple)
    assert table[1] == (1, "y", 8)


def test_dict_mode_and_callable_columns():
    table = tabular.from_data({"i": numpy.arange(5), "sq": lambda i: i * i})
    assert (table.keys, table.mode) == (("i", "sq"), dict)
    assert table[4] == {"i": 4, "sq": 16}
    fetched = table.fetch()
    numpy.testing.assert_array_equal(fetched["sq"], numpy.arange(5) ** 2)
    assert isinstance(fetched["sq"], numpy.ndarray)


def test_only_callables_need_a_size():
    table = tabular.from_data(("f", lambda i: -i), size=3)
    assert [table[i] for i in range(3)] == [0, -1, -2]
    with pytest.raises(ValueError, match="size must be given when every column is a callable"):
        tabular.from_data(lambda i: i)


def test_lengths_must_agree():
    with pytest.raises(ValueError, match=r"different lengths \{'size': 4, '_0': 3\}"):
        tabular.from_data([1, 2, 3], size=4)
    with pytest.raises(ValueError, match="different lengths"):
        tabular.from_data(([1, 2], [1, 2, 3]))


def test_bad_columns_and_keys():
    with pytest.raises(TypeError, match="the column '_0' must be a list, an array or a callable"):
        tabular.from_data(3)
    with pytest.raises(ValueError, match="the key 'a' appears more than once"):
        tabular.from_data((("a", [1]), ("a", [2])))
    with pytest.raises(TypeError, match="a key must be a str, got 1"):
        tabular.from_data({1: [0]})


def test_get_examples_selects_rows_and_columns():
    table = tabular.from_data((("a", numpy.arange(6)), ("b", list("abcdef"))))
    a, b = table.get_examples([5, -6, 2], None)
    numpy.testing.assert_array_equal(a, [5, 0, 2])
    assert b == ["f", "a", "c"]
    (b,) = table.get_examples(slice(None, None, -2), (1,))
    assert b == ["f", "d", "b"]
    with pytest.raises(IndexError, match="row index 6 is out of range for a dataset of 6 rows"):
        table.get_examples([6], None)


def test_fetch_stacks_lists_of_arrays():
    table = tabular.from_data([numpy.ones(2) * i for i in range(3)])
    numpy.testing.assert_array_equal(
        table.fetch(), numpy.repeat(numpy.arange(3.0), 2).reshape(3, 2)
    )


def test_abstract_members_name_the_class():
    class Bare(TabularDataset):
        pass

    for action in (len, lambda t: t.keys, lambda t: t.mode, lambda t: t.get_examples(None, None)):
        with pytest.raises(NotImplementedError, match="Bare must implement"):
            action(Bare())
