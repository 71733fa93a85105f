"""What a user's TabularDataset subclass receives from the views built on it (v7's contract).

``get_examples`` gets ``None`` for every row / column, slices stay slices, lists stay lists;
the views convert with the subclass's own ``convert``.
"""

import numpy
import pytest

from chainer.dataset import TabularDataset


class Recorded(TabularDataset):
    """Columns ``k`` hold ``100 * k + row``; records every get_examples call."""

    def __init__(self, size=10, keys=("a", "b", "c"), mode=tuple, as_arrays=True):
        self._size, self._keys, self._mode, self._as_arrays = size, keys, mode, as_arrays
        self.calls = []

    def __len__(self):
        return self._size

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        self.calls.append((indices, key_indices))
        table = numpy.arange(len(self._keys))[:, None] * 100 + numpy.arange(self._size)
        if indices is not None:
            table = table[:, indices]
        if key_indices is not None:
            table = table[list(key_indices)]
        return tuple(table) if self._as_arrays else tuple(list(row) for row in table)

    def convert(self, data):
        return ("converted", data)


def test_fetch_passes_none_and_does_not_convert():
    data = Recorded(as_arrays=False)
    assert data.fetch() == (list(range(10)), list(range(100, 110)), list(range(200, 210)))
    assert data.calls == [(None, None)]


def test_get_example_and_iteration_read_one_row_by_a_list():
    data = Recorded(mode=dict)
    assert data.get_example(3) == {"a": 3, "b": 103, "c": 203}
    assert data.calls == [([3], None)]
    assert [row["c"] for row in data] == list(range(200, 210))


@pytest.mark.parametrize(
    "rows, inner, expected",
    [
        (slice(None), None, slice(None)),
        (slice(2, 8), slice(1, None, 2), slice(3, 8, 2)),
        (slice(None, None, -1), slice(7, None), slice(2, None, -1)),
        (slice(None), [1], [1]),
        ([3, -2], slice(None, None, -1), [8, 3]),
        ([True, False] * 5, [1, 0], [2, 0]),
    ],
)
def test_slice_forwards_slices_and_lists(rows, inner, expected):
    data = Recorded()
    view = data.slice[rows, ("c", 0)]
    (c,) = view.get_examples(inner, (0,))
    assert data.calls == [(expected, (2,))]
    numpy.testing.assert_array_equal(c, 200 + numpy.arange(10)[expected])
    assert view.convert("x") == ("converted", "x")


def test_slice_errors_follow_v7():
    data = Recorded()
    with pytest.raises(ValueError, match="boolean row mask"):
        data.slice[[True] * 11]
    with pytest.raises(IndexError, match="row index 11 is out of range"):
        data.slice[[11, 1]]
    with pytest.raises(IndexError):
        data.slice[:, 3]
    with pytest.raises(KeyError):
        data.slice[:, ("d",)]


def test_concat_splits_requests_per_dataset():
    first, second = Recorded(), Recorded(size=5)
    both = first.concat(second)
    a, _, _ = both.get_examples(slice(13, 6, -2), None)
    assert first.calls == [(slice(9, 6, -2), None)] and second.calls == [
        (slice(3, None, -2), None)
    ]
    assert a == [3, 1, 9, 7]
    first.calls.clear(), second.calls.clear()
    (b,) = both.get_examples([3, 12, 1], (1,))
    assert first.calls == [([3, 1], (1,))] and second.calls == [([2], (1,))]
    assert b == [103, 102, 101]
    first.calls.clear(), second.calls.clear()
    (b,) = both.get_examples([4, 1], (1,))
    assert second.calls == [] and isinstance(b, numpy.ndarray)
    assert both.get_examples([], None) == ([], [], [])
    assert both.convert(1) == ("converted", 1)


def test_join_asks_each_dataset_for_its_columns_only():
    left, right = Recorded(), Recorded(keys=("d", "e"), mode=None)
    joined = left.join(right)
    assert joined.mode is tuple and joined.keys == ("a", "b", "c", "d", "e")
    e, a, b = joined.get_examples(None, (4, 0, 1))
    assert left.calls == [(None, (0, 1))] and right.calls == [(None, (1,))]
    assert (e[0], a[0], b[0]) == (100, 0, 100)
    assert right.join(left).mode is tuple and Recorded(mode=None).join(right).mode is tuple
    assert Recorded(mode=None).join(Recorded(keys=("x",), mode=dict)).mode is dict
    assert joined.get_examples(None, ()) == ()
    assert joined.convert(2) == ("converted", 2)


def test_mode_views_and_transforms_convert_with_the_wrapped_convert():
    data = Recorded()
    for view in (
        data.astuple(),
        data.asdict(),
        data.transform("s", lambda a, b, c: a + b + c),
        data.transform_batch("s", lambda a, b, c: a + b + c),
    ):
        assert view.convert(view.fetch())[0] == "converted"


def test_transform_batch_checks_the_length_without_columns():
    data = Recorded()
    view = data.transform_batch(("x",), lambda a, b, c: (a[:2],))
    assert view.get_examples(slice(None, 2), None)[0].tolist() == [0, 1]
    with pytest.raises(ValueError, match="returned 2 values for the column 'x' of a batch of 3"):
        view.get_examples([1, 2, 3], None)
