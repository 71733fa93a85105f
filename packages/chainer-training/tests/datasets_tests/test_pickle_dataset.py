"""PickleDataset and its writer."""

import io
import multiprocessing
import os
import pickle
import tracemalloc

import numpy
import pytest

from chainer.datasets import (
    PickleDataset,
    PickleDatasetWriter,
    open_pickle_dataset,
    open_pickle_dataset_writer,
)

EXAMPLES = [(numpy.arange(3) * i, f"label{i}") for i in range(5)] + [{"nested": [1, 2]}]


def _same(a, b):
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, numpy.ndarray):
        return numpy.array_equal(a, b)
    return a == b


def test_round_trip_through_a_file(tmp_path):
    path = tmp_path / "data.pkl"
    with open_pickle_dataset_writer(path, protocol=4) as writer:
        for example in EXAMPLES:
            writer.write(example)
        writer.flush()
    with open_pickle_dataset(path) as dataset:
        assert len(dataset) == len(EXAMPLES)
        for i in (5, 0, 3, -1):
            assert _same(dataset[i], EXAMPLES[i])
        assert [d[1] for d in dataset[1:3]] == ["label1", "label2"]


def test_each_example_is_its_own_pickle(tmp_path):
    buffer = io.BytesIO()
    writer = PickleDatasetWriter(buffer)
    writer.write("a")
    writer.write(["b"])
    buffer.seek(0)
    assert pickle.load(buffer) == "a" and pickle.load(buffer) == ["b"]
    buffer.seek(0)
    assert PickleDataset(buffer)[1] == ["b"]


def test_index_errors():
    buffer = io.BytesIO(pickle.dumps(1))
    with pytest.raises(IndexError, match="index 1 is out of range for a PickleDataset of 1"):
        PickleDataset(buffer)[1]


def test_opened_dataset_survives_pickling(tmp_path):
    path = tmp_path / "data.pkl"
    with open_pickle_dataset_writer(path) as writer:
        for example in EXAMPLES:
            writer.write(example)
    dataset = open_pickle_dataset(path)
    dataset[2]
    clone = pickle.loads(pickle.dumps(dataset))
    assert _same(clone[4], EXAMPLES[4])
    dataset.close()
    clone.close()


def test_a_reader_is_read_from_its_start():
    buffer = io.BytesIO()
    writer = PickleDatasetWriter(buffer)
    writer.write("first")
    writer.write("second")
    writer.flush()  # the buffer is now positioned at its end
    assert PickleDataset(buffer)[:] == ["first", "second"]


class _ForkAwareReader:
    def __init__(self, buffer, pipe):
        self._buffer = buffer
        self._pipe = pipe

    def __getattr__(self, name):
        return getattr(self._buffer, name)

    def after_fork(self):
        self._pipe.send(os.getpid())


def test_after_fork_is_called_in_each_forked_child():
    buffer = io.BytesIO()
    PickleDatasetWriter(buffer).write(1)
    receiver, sender = multiprocessing.Pipe(duplex=False)
    dataset = PickleDataset(_ForkAwareReader(buffer, sender))
    child = multiprocessing.get_context("fork").Process()
    child.start()
    child.join()
    assert receiver.poll(10) and receiver.recv() == child.pid
    assert not receiver.poll(0)  # the parent itself does not call it
    assert dataset[0] == 1


def test_an_opened_dataset_reads_in_forked_workers(tmp_path):
    from chainer.iterators import MultiprocessIterator

    path = tmp_path / "data.pkl"
    with open_pickle_dataset_writer(path) as writer:
        for i in range(20):
            writer.write(i)
    with open_pickle_dataset(path) as dataset:
        iterator = MultiprocessIterator(dataset, 5, repeat=False, shuffle=False, n_processes=2)
        try:
            assert [x for batch in iterator for x in batch] == list(range(20))
        finally:
            iterator.finalize()
        assert dataset[7] == 7  # the parent's file is untouched by the workers


def test_the_reader_of_an_opened_dataset_reopens_after_fork(tmp_path):
    path = tmp_path / "data.pkl"
    with open_pickle_dataset_writer(path) as writer:
        writer.write("x")
    with open_pickle_dataset(path) as dataset:
        reader = dataset._reader
        inherited = reader._file
        reader.after_fork()
        assert inherited.closed and not reader._file.closed
        assert dataset[0] == "x"


class _Sentinel:
    """An object whose unpickling would call a function (a hostile file calls os.system)."""

    def __reduce__(self):
        return (print, ("unpickled code ran",))


def test_plain_data_loads_without_opting_in():
    buffer = io.BytesIO()
    writer = PickleDatasetWriter(buffer)
    plain = [
        None,
        (1, 2.5, 3j, True),
        {"a": [b"x", bytearray(b"y")], "s": {1, 2}, "f": frozenset([3])},
        numpy.float32(1.5),
        numpy.arange(6, dtype=numpy.int16).reshape(2, 3),
        numpy.asfortranarray(numpy.ones((2, 3))),
        numpy.array(["a", "bc"]),
    ]
    for example in plain:
        writer.write(example)
    for protocol in (2, 4):
        PickleDatasetWriter(buffer, protocol=protocol).write(numpy.arange(3.0))
    dataset = PickleDataset(buffer)
    assert len(dataset) == len(plain) + 2
    for i, example in enumerate(plain):
        assert _same(dataset[i], example)
    assert numpy.array_equal(dataset[-1], numpy.arange(3.0))


def test_other_objects_are_refused_unless_trusted(tmp_path, capsys):
    path = tmp_path / "objects.pkl"
    with open_pickle_dataset_writer(path) as writer:
        writer.write(1)
        writer.write(_Sentinel())
    message = (
        r"the pickle at byte \d+: refusing to unpickle builtins.print: only plain data .*"
        r"pass trusted=True to PickleDataset or open_pickle_dataset"
    )
    with pytest.raises(pickle.UnpicklingError, match=message):
        open_pickle_dataset(path)
    assert capsys.readouterr().out == ""  # nothing of the file ran
    with open_pickle_dataset(path, trusted=True) as dataset:  # v7's behaviour, opted into
        assert len(dataset) == 2
        assert dataset[1] is None
    assert capsys.readouterr().out.count("unpickled code ran") == 2  # scan, then access


def test_a_truncated_last_pickle_is_an_error_not_a_shorter_dataset():
    first = len(pickle.dumps("first"))
    data = pickle.dumps("first") + pickle.dumps(numpy.arange(100))
    for cut in (len(data) - 1, first + 3):
        with pytest.raises(pickle.UnpicklingError, match=rf"the pickle at byte {first}\b"):
            PickleDataset(io.BytesIO(data[:cut]))


def test_trusted_dataset_survives_pickling(tmp_path):
    path = tmp_path / "objects.pkl"
    with open_pickle_dataset_writer(path) as writer:
        writer.write(_Sentinel())
    with open_pickle_dataset(path, trusted=True) as dataset:
        clone = pickle.loads(pickle.dumps(dataset))
        assert clone[0] is None
        clone.close()


def test_hostile_sizes_allocate_nothing_in_plain_mode():
    # LONG_BINPUT at index 2**31 (the C unpickler grows its memo to it: gigabytes), a
    # BYTEARRAY8 stating 2**40 bytes, and a call of numpy.ndarray((2**40,)).
    memo = b"\x80\x02K\x01r\x00\x00\x00\x80."
    bytearray8 = b"\x80\x05\x96" + (2**40).to_bytes(8, "little") + b"abc."
    ndarray_call = b"\x80\x02cnumpy\nndarray\n\x8a\x06\x00\x00\x00\x00\x00\x01\x85\x85R."
    tracemalloc.start()
    try:
        assert PickleDataset(io.BytesIO(memo))[0] == 1
        with pytest.raises(pickle.UnpicklingError, match="truncated: 4 of 1099511627776"):
            PickleDataset(io.BytesIO(bytearray8))
        with pytest.raises(pickle.UnpicklingError, match="damaged pickle: TypeError"):
            PickleDataset(io.BytesIO(ndarray_call))
        assert tracemalloc.get_traced_memory()[1] < 2**20
    finally:
        tracemalloc.stop()


def test_a_dtype_state_that_numpy_would_not_write_is_refused():
    # float32 whose state claims an itemsize and alignment of 1 (the -1s NumPy writes)
    valid = pickle.dumps(numpy.dtype("f4"), protocol=2)
    data = valid.replace(b"J\xff\xff\xff\xffJ\xff\xff\xff\xff", b"K\x01K\x01")
    assert data != valid
    with pytest.raises(pickle.UnpicklingError, match="refusing to unpickle a dtype"):
        PickleDataset(io.BytesIO(data))
    assert PickleDataset(io.BytesIO(pickle.dumps(numpy.dtype(">f4"), protocol=2)))[0] == ">f4"
