"""The lazy operations of TabularDataset: slice, concat, join, transforms, modes, converters."""

import numpy
import pytest

from chainer.dataset import tabular


@pytest.fixture
def table():
    # a: 0..9, b: 10..19 (a list column), c: a squared
    return tabular.from_data(
        (("a", numpy.arange(10)), ("b", list(range(10, 20))), ("c", lambda i: i * i)), size=10
    )


@pytest.mark.parametrize(
    "rows",
    [slice(2, 8), slice(None, None, -3), slice(8, 1, -2), [9, 0, 3, 3], numpy.array([1, -1])],
)
def test_slice_rows_match_numpy(table, rows):
    sliced = table.slice[rows]
    expected = numpy.arange(10)[rows]
    assert len(sliced) == len(expected)
    assert sliced.mode is tuple and sliced.keys == ("a", "b", "c")
    a, b, c = sliced.fetch()
    numpy.testing.assert_array_equal(a, expected)
    numpy.testing.assert_array_equal(b, expected + 10)
    numpy.testing.assert_array_equal(c, expected**2)


def test_slice_by_boolean_mask(table):
    mask = numpy.arange(10) % 3 == 0
    numpy.testing.assert_array_equal(table.slice[mask, "a"].fetch(), [0, 3, 6, 9])
    with pytest.raises(ValueError, match=r"one entry per row \(10\), got 3"):
        table.slice[[True, False, True]]
    # A list mixing bools and ints is a list of row numbers (False is row 0, True row 1).
    numpy.testing.assert_array_equal(table.slice[[False, 3, True], "a"].fetch(), [0, 3, 1])


def test_slice_keys_set_the_mode(table):
    unary = table.slice[:, "c"]
    assert (unary.keys, unary.mode, unary[3]) == (("c",), None, 9)
    pair = table.slice[:, ("c", 0)]
    assert (pair.keys, pair.mode, pair[2]) == (("c", "a"), tuple, (4, 2))
    as_dict = table.asdict().slice[1:3, ["b"]]
    assert as_dict.mode is dict and as_dict[0] == {"b": 11}
    assert table.slice[:, "a"].slice[:, ("a",)].mode is tuple


def test_slices_compose(table):
    nested = table.slice[::-1].slice[1:8:2].slice[[2, 0]]
    reference = numpy.arange(10)[::-1][1:8:2][[2, 0]]
    numpy.testing.assert_array_equal(nested.slice[:, "a"].fetch(), reference)
    assert nested.get_examples(slice(None, None, -1), (1,)) == (
        [int(reference[1] + 10), int(reference[0] + 10)],
    )


def test_slice_errors(table):
    with pytest.raises(KeyError, match=r"no column named 'z'; the keys are \('a', 'b', 'c'\)"):
        table.slice[:, "z"]
    with pytest.raises(IndexError, match="column index 3 is out of range for 3 columns"):
        table.slice[:, 3]
    with pytest.raises(TypeError, match="selected by its key .str. or position .int., got float"):
        table.slice[:, 1.5]
    with pytest.raises(
        TypeError, match="selects rows by a slice, a sequence of ints or a sequence of bools"
    ):
        table.slice[3]
    with pytest.raises(IndexError, match=r"takes \[rows\] or \[rows, keys\], got 3"):
        table.slice[1, 2, 3]


def test_concat_reads_rows_across_datasets_in_order(table):
    other = tabular.from_data((("a", [100, 101]), ("b", [200, 201]), ("c", [300, 301])))
    both = table.concat(other, table.slice[:2])
    assert len(both) == 14 and both.keys == ("a", "b", "c")
    a, b, c = both.get_examples([11, 0, 10, 13, 9], None)
    assert list(a) == [101, 0, 100, 1, 9]
    assert list(b) == [201, 10, 200, 11, 19]
    a_all = both.slice[:, "a"].fetch()
    numpy.testing.assert_array_equal(a_all, [*range(10), 100, 101, 0, 1])
    assert isinstance(both.get_examples(None, (0,))[0], list)  # rows of several datasets
    (a_twice,) = table.concat(table).get_examples(None, (0,))
    assert a_twice == [*range(10), *range(10)]
    (a_first,) = table.concat(table).get_examples([3, 1], (0,))
    assert isinstance(a_first, numpy.ndarray)  # rows of one dataset come as it gives them
    assert both.get_examples([], (1,)) == ([],)
    with pytest.raises(ValueError, match=r"same keys, got \('a', 'b', 'c'\) and \('a',\)"):
        table.concat(table.slice[:, ("a",)])


def test_join_puts_columns_side_by_side(table):
    extra = tabular.from_data(("d", numpy.arange(10) * -1))
    joined = table.join(extra)
    assert joined.keys == ("a", "b", "c", "d") and joined.mode is tuple
    assert joined[4] == (4, 14, 16, -4)
    assert joined.get_examples([1], (3, 0)) == (numpy.array([-1]), numpy.array([1]))
    unary_first = extra.join(table.slice[:, "a"])
    assert unary_first.mode is tuple and unary_first[2] == (-2, 2)
    with pytest.raises(ValueError, match="distinct keys, but 'a' appears twice"):
        table.join(table.slice[:, "a"])
    with pytest.raises(ValueError, match="same length, got 10 and 3 rows"):
        table.join(tabular.from_data(("z", [1, 2, 3])))


def test_transform_maps_each_example(table):
    sums = table.transform(("s", "p"), lambda a, b, c: (a + b, a * c))
    assert sums.keys == ("s", "p") and sums.mode is tuple
    assert sums[3] == (16, 27)
    as_dict = table.asdict().transform("total", lambda a, b, c: a + b + c)
    assert as_dict.mode is None and as_dict[2] == 2 + 12 + 4
    dict_out = table.slice[:, "a"].transform(("x", "y"), lambda a: {"y": a, "x": -a})
    assert dict_out.mode is dict and dict_out[5] == {"x": -5, "y": 5}
    numpy.testing.assert_array_equal(dict_out.fetch()["x"], -numpy.arange(10))


def test_transform_checks_its_outputs(table):
    with pytest.raises(ValueError, match=r"returned a tuple of 1 values for the 2 keys"):
        table.transform(("x", "y"), lambda a, b, c: (a,))[0]
    with pytest.raises(
        ValueError, match=r"returned a dict with the keys \['q'\], expected \['x'\]"
    ):
        table.transform("x", lambda a, b, c: {"q": a})[0]
    with pytest.raises(ValueError, match="returned a single int64, but there are 2 keys"):
        _ = table.transform(("x", "y"), lambda a, b, c: a).mode
    flip = table.transform("x", lambda a, b, c: a if a else (a,))
    with pytest.raises(ValueError, match="returned a single value after returning a tuple"):
        flip.get_examples([0, 1], None)
    with pytest.raises(TypeError, match="keys must be a str or a non-empty tuple of str"):
        table.transform(["x"], lambda *args: args)


def test_transform_of_an_empty_dataset_guesses_the_mode_from_the_keys(table):
    empty = table.slice[:0]
    assert empty.transform("x", lambda *a: a).mode is None
    assert empty.transform(("x", "y"), lambda *a: a).mode is tuple


def test_transform_batch_maps_whole_columns(table):
    scaled = table.slice[2:6].transform_batch(
        ("a2", "bc"), lambda a, b, c: (numpy.asarray(a) * 2, [x + y for x, y in zip(b, c)])
    )
    a2, bc = scaled.fetch()
    numpy.testing.assert_array_equal(a2, [4, 6, 8, 10])
    numpy.testing.assert_array_equal(bc, [12 + 4, 13 + 9, 14 + 16, 15 + 25])
    assert scaled[1] == (6, 22)
    with pytest.raises(ValueError, match="returned 1 values for the column 'a2' of a batch of 4"):
        table.slice[:4].transform_batch("a2", lambda a, b, c: a[:1]).fetch()


def test_astuple_and_asdict(table):
    single = table.slice[:, "a"]
    assert single.astuple()[3] == (3,)
    assert single.asdict()[3] == {"a": 3}
    assert table.asdict().astuple()[0] == (0, 10, 0)


def test_with_converter_is_used_by_fetch(table):
    calls = []

    def convert(a, b, c):
        calls.append((type(a), type(b), type(c)))
        return a.sum() + sum(b)

    converting = table.with_converter(convert)
    assert converting.convert(converting.fetch()) == 45 + 145
    assert calls == [(numpy.ndarray, list, list)]
    by_name = table.asdict().with_converter(lambda **kw: sorted(kw))
    assert by_name.convert(by_name.fetch()) == ["a", "b", "c"]
    assert table.slice[:, "a"].with_converter(len).convert([1, 2]) == 2


def test_delegate_dataset_forwards_everything(table):
    class Scores(tabular.DelegateDataset):
        def __init__(self):
            super().__init__(table.slice[:, ("a", "c")].with_converter(lambda a, c: a + c))

    scores = Scores()
    assert (len(scores), scores.keys, scores.mode, scores[3]) == (10, ("a", "c"), tuple, (3, 9))
    numpy.testing.assert_array_equal(
        scores.convert(scores.fetch()), numpy.arange(10) + numpy.arange(10) ** 2
    )
