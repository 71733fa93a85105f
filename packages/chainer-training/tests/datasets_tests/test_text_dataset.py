"""TextDataset: random access to lines, parallel files, filtering, pickling, processes."""

import multiprocessing
import pickle
import threading

import pytest

from chainer.datasets import TextDataset


@pytest.fixture
def files(tmp_path):
    source = tmp_path / "source.txt"
    target = tmp_path / "target.txt"
    source.write_text("one\ntwo\n\nfour\nfünf\n", encoding="utf-8")
    target.write_text("1\n2\n3\n4\n5", encoding="utf-8")  # no final newline
    return source, target


def test_lines_keep_their_newline(files):
    dataset = TextDataset(files[0], encoding="utf-8")
    assert len(dataset) == 5
    assert [dataset[i] for i in range(5)] == ["one\n", "two\n", "\n", "four\n", "fünf\n"]
    assert dataset[-1] == "fünf\n" and dataset[1:3] == ["two\n", "\n"]
    dataset.close()


def test_parallel_files_give_tuples(files):
    dataset = TextDataset([str(files[0]), files[1]], encoding="utf-8")
    assert dataset[4] == ("fünf\n", "5")
    assert dataset[0] == ("one\n", "1\n")


def test_a_list_of_one_path_gives_lines_and_close_ends_access(files):
    dataset = TextDataset([files[0]], encoding="utf-8")
    assert dataset[0] == "one\n"
    dataset.close()
    with pytest.raises(ValueError, match="closed TextDataset"):
        dataset[0]


def test_one_encoding_per_file(tmp_path):
    latin, utf8 = tmp_path / "latin.txt", tmp_path / "utf8.txt"
    latin.write_bytes("é\n".encode("latin-1"))
    utf8.write_bytes("é\n".encode())
    dataset = TextDataset([latin, utf8], encoding=["latin-1", "utf-8"], newline=[None, ""])
    assert dataset[0] == ("é\n", "é\n")
    with pytest.raises(ValueError, match="encoding has 1 values for 2 files"):
        TextDataset([latin, utf8], encoding=["latin-1"])


def test_filter_func_sees_one_line_per_file(files):
    dataset = TextDataset(list(files), encoding="utf-8", filter_func=lambda s, t: s.strip() != "")
    assert [dataset[i][1].strip() for i in range(len(dataset))] == ["1", "2", "4", "5"]


def test_newline_and_errors_are_passed_to_open(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"a\r\nb\xff\r\n")
    dataset = TextDataset(path, encoding="utf-8", errors="replace", newline="")
    assert dataset[0] == "a\r\n" and dataset[1] == "b\ufffd\r\n"


def test_files_of_different_lengths_are_rejected(files, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("x\n")
    with pytest.raises(ValueError, match=r"'.*short.txt' ends after 1 lines while the others"):
        TextDataset([files[0], short], encoding="utf-8")


def test_index_errors_and_empty_path_list(files):
    with pytest.raises(IndexError, match="index 5 is out of range for a TextDataset of 5 lines"):
        TextDataset(files[0], encoding="utf-8")[5]
    with pytest.raises(ValueError, match="at least one path"):
        TextDataset([])


def test_pickled_dataset_reopens_its_files(files):
    dataset = TextDataset(files[1], encoding="utf-8")
    dataset[3]
    clone = pickle.loads(pickle.dumps(dataset))
    assert clone[3] == "4\n" and clone[4] == "5"


def test_threads_read_consistent_lines(files):
    dataset = TextDataset(list(files), encoding="utf-8")
    expected = [dataset[i] for i in range(5)]
    errors = []

    def read():
        for _ in range(200):
            for i in range(5):
                if dataset[i] != expected[i]:
                    errors.append(i)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def _read_in_child(dataset, queue):
    queue.put([dataset[i] for i in (4, 0)])


def test_a_forked_process_reads_with_its_own_handles(files):
    dataset = TextDataset(files[1], encoding="utf-8")
    dataset[2]  # the parent's handle is now positioned mid-file
    queue = multiprocessing.get_context().SimpleQueue()
    process = multiprocessing.get_context().Process(target=_read_in_child, args=(dataset, queue))
    process.start()
    process.join(10)
    assert queue.get() == ["5", "1\n"]
    assert dataset[1] == "2\n"
