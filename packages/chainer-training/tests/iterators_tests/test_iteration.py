"""Batches, epochs, orders and serialization: the same for every iterator class.

The expected values come from a model written here: an iteration is the concatenation of
each epoch's order, cut into batches (at the end of the first epoch when not repeating).
"""

import numpy
import pytest

from chainer import iterators, serializers
from chainer.serializers import DictionarySerializer, NpzDeserializer


def _expected_batches(orders, batch_size, n_batches):
    stream = numpy.concatenate(orders)
    return [list(stream[k * batch_size : (k + 1) * batch_size]) for k in range(n_batches)]


def _check_bookkeeping(it, k, batch_size, n):
    done = (k + 1) * batch_size
    assert it.epoch == done // n
    assert it.current_position == done % n
    assert it.epoch_detail == pytest.approx(done / n)
    assert it.previous_epoch_detail == pytest.approx(k * batch_size / n)
    assert it.is_new_epoch == (done // n > k * batch_size // n)


@pytest.mark.parametrize(("n", "batch_size"), [(10, 4), (3, 7), (6, 3)])
def test_repeating_in_index_order(make_iterator, n, batch_size):
    it = make_iterator(numpy.arange(n), batch_size, shuffle=False)
    assert (it.epoch, it.epoch_detail, it.previous_epoch_detail) == (0, 0.0, None)
    assert it.is_new_epoch is False
    n_batches = 3 * n // batch_size + 2
    expected = _expected_batches(
        [numpy.arange(n)] * (n_batches * batch_size // n + 1), batch_size, n_batches
    )
    for k in range(n_batches):
        assert [int(x) for x in it.next()] == expected[k]
        _check_bookkeeping(it, k, batch_size, n)


def test_one_epoch_without_repeat(make_iterator):
    it = make_iterator(list("abcdefghij"), 4, repeat=False, shuffle=False)
    assert it.next() == list("abcd") and it.next() == list("efgh")
    assert it.next() == list("ij")
    assert (it.epoch, it.is_new_epoch, it.epoch_detail, it.current_position) == (1, True, 1.0, 0)
    assert it.previous_epoch_detail == pytest.approx(0.8)
    for _ in range(2):
        with pytest.raises(StopIteration):
            it.next()
    it.reset()
    assert list(it) == [list("abcd"), list("efgh"), list("ij")]


def test_shuffled_orders_come_from_the_sampler(make_iterator):
    n, batch_size, n_batches = 7, 3, 9
    it = make_iterator(
        numpy.arange(n),
        batch_size,
        order_sampler=iterators.ShuffleOrderSampler(numpy.random.RandomState(1)),
    )
    reference = numpy.random.RandomState(1)
    orders = [reference.permutation(n) for _ in range(n_batches * batch_size // n + 2)]
    expected = _expected_batches(orders, batch_size, n_batches)
    for k in range(n_batches):
        assert [int(x) for x in it.next()] == expected[k]
        _check_bookkeeping(it, k, batch_size, n)


def test_shuffle_is_the_default(make_iterator):
    numpy.random.seed(0)
    expected = numpy.random.permutation(50)
    numpy.random.seed(0)
    it = make_iterator(numpy.arange(50), 50)
    numpy.testing.assert_array_equal(it.next(), expected)


def test_custom_order_sampler(make_iterator):
    def reverse(order, position):
        return order[::-1].copy()

    it = make_iterator(numpy.arange(4), 3, order_sampler=reverse)
    assert [[int(x) for x in it.next()] for _ in range(3)] == [[3, 2, 1], [0, 0, 1], [2, 3, 3]]


def _run(it, n_batches):
    out = []
    for _ in range(n_batches):
        batch = it.next()
        out.append(
            (
                [int(x) for x in batch],
                it.epoch,
                it.epoch_detail,
                it.previous_epoch_detail,
                it.is_new_epoch,
                it.current_position,
            )
        )
    return out


@pytest.mark.parametrize("shuffle", [False, True])
def test_resume_from_an_npz_snapshot_gives_the_same_sequence(make_iterator, tmp_path, shuffle):
    def sampler(seed):
        return iterators.ShuffleOrderSampler(numpy.random.RandomState(seed)) if shuffle else None

    dataset = numpy.arange(11)
    kwargs = {"shuffle": False} if not shuffle else {}
    original = make_iterator(dataset, 4, order_sampler=sampler(0), **kwargs)
    _run(original, 5)  # mid-epoch: 20 examples seen, epoch 1 of 11
    serializers.save_npz(tmp_path / "it.npz", original)
    expected = _run(original, 9)  # crosses three more epoch boundaries
    resumed = make_iterator(dataset, 4, order_sampler=sampler(123), **kwargs)
    _run(resumed, 2)  # whatever it did before is overwritten
    serializers.load_npz(tmp_path / "it.npz", resumed)
    assert (resumed.epoch, resumed.current_position) == (1, 9)
    assert _run(resumed, 9) == expected


def test_snapshot_is_taken_at_the_returned_batch_not_the_prefetched_one(make_iterator):
    sampler = iterators.ShuffleOrderSampler(numpy.random.RandomState(4))
    it = make_iterator(numpy.arange(5), 4, order_sampler=sampler)
    it.next()  # prefetching iterators have read ahead into the next epoch by now
    saved = DictionarySerializer()
    it.serialize(saved)
    assert saved.target["current_position"] == 4 and saved.target["epoch"] == 0
    expected = _run(it, 6)
    fresh = make_iterator(
        numpy.arange(5),
        4,
        order_sampler=iterators.ShuffleOrderSampler(numpy.random.RandomState(8)),
    )
    fresh.serialize(NpzDeserializer(saved.target))
    assert _run(fresh, 6) == expected


def test_snapshot_of_an_older_chainer_without_previous_epoch_detail(make_iterator):
    it = make_iterator(numpy.arange(10), 3, shuffle=False)
    for _ in range(3):
        it.next()
    saved = DictionarySerializer()
    it.serialize(saved)
    del saved.target["previous_epoch_detail"]
    fresh = make_iterator(numpy.arange(10), 3, shuffle=False)
    fresh.serialize(NpzDeserializer(saved.target))
    assert fresh.previous_epoch_detail == pytest.approx(0.6)
    assert [int(x) for x in fresh.next()] == [9, 0, 1]


def test_loading_a_snapshot_of_another_dataset_size_fails(make_iterator):
    it = make_iterator(numpy.arange(6), 2)
    saved = DictionarySerializer()
    it.serialize(saved)
    other = make_iterator(numpy.arange(8), 2)
    with pytest.raises(ValueError, match="cannot load 'order': expected shape \\(8,\\)"):
        other.serialize(NpzDeserializer(saved.target))
    saved.target["current_position"] = numpy.array(7)
    with pytest.raises(ValueError, match="loaded position 7 is outside the epoch of 6 examples"):
        make_iterator(numpy.arange(6), 2).serialize(NpzDeserializer(saved.target))


def test_argument_errors(make_iterator):
    with pytest.raises(ValueError, match="shuffle must be None when a custom order_sampler"):
        make_iterator([1, 2], 1, shuffle=True, order_sampler=iterators.ShuffleOrderSampler())
    with pytest.raises(ValueError, match="batch_size must be positive, got 0"):
        make_iterator([1, 2], 0)
    with pytest.raises(TypeError, match="batch_size must be an int, got float"):
        make_iterator([1, 2], 1.0)
    shrinking = make_iterator([1, 2, 3], 1, order_sampler=lambda order, position: order[1:])
    # The first order (2 indices) sets the epoch size; the next one is drawn at its end.
    with pytest.raises(ValueError, match="an order of 1 indices after an order of 2"):
        for _ in range(2):
            shrinking.next()


def test_the_first_order_sets_the_epoch_size(make_iterator):
    it = make_iterator([10, 20, 30], 2, order_sampler=lambda order, position: [0, 0, 1, 1, 2, 2])
    batches = [it.next() for _ in range(3)]
    assert sorted(sum(batches, [])) == [10, 10, 20, 20, 30, 30]
    assert it.is_new_epoch and it.epoch == 1 and it.previous_epoch_detail == pytest.approx(4 / 6)


def test_loads_the_order_saved_under_its_old_name(make_iterator):
    it = make_iterator(numpy.arange(6), 2, order_sampler=lambda order, position: order[::-1])
    it.next()
    saved = DictionarySerializer()
    it.serialize(saved)
    saved.target["_order"] = saved.target.pop("order")
    resumed = make_iterator(numpy.arange(6), 2, order_sampler=lambda order, position: order)
    resumed.serialize(NpzDeserializer(saved.target))
    assert [int(x) for x in resumed.next()] == [3, 2]


def test_empty_dataset(make_iterator):
    with pytest.raises(ValueError, match="cannot repeat over an empty dataset"):
        make_iterator([], 2, shuffle=False).next()
    it = make_iterator([], 2, repeat=False, shuffle=False)
    assert it.next() == []
    with pytest.raises(StopIteration):
        it.next()


def test_reset_mid_epoch_starts_over(make_iterator):
    it = make_iterator(numpy.arange(5), 2, shuffle=False)
    it.next()
    it.next()
    it.reset()
    assert (it.epoch, it.current_position, it.previous_epoch_detail) == (0, 0, None)
    assert [int(x) for x in it.next()] == [0, 1]


def test_context_manager_finalizes(make_iterator):
    with make_iterator(numpy.arange(4), 2, shuffle=False) as it:
        assert [int(x) for x in it.next()] == [0, 1]


class _FlatSerializer(serializers.DictionarySerializer):
    """A serializer without children, as v7's base ``Serializer.__getitem__`` is."""

    def __getitem__(self, key):
        raise NotImplementedError


class _FlatDeserializer(NpzDeserializer):
    def __getitem__(self, key):
        raise NotImplementedError


def test_serializer_without_children_keeps_the_v7_keys(make_iterator):
    def sampler():
        return iterators.ShuffleOrderSampler(numpy.random.RandomState(3))

    it = make_iterator(numpy.arange(6), 2, order_sampler=sampler())
    first = _run(it, 2)
    saved = _FlatSerializer()
    it.serialize(saved)  # the sampler's random state needs a child: left out
    keys = {"current_position", "epoch", "is_new_epoch", "order", "previous_epoch_detail"}
    assert set(saved.target) == keys
    fresh = make_iterator(numpy.arange(6), 2, order_sampler=sampler())
    fresh.serialize(_FlatDeserializer(saved.target))
    assert (fresh.epoch, fresh.current_position) == (0, 4)
    assert fresh.epoch_detail == pytest.approx(4 / 6)
    ((last, *_),) = _run(fresh, 1)
    assert sorted(first[0][0] + first[1][0] + last) == list(range(6))
