"""chainer.testing._fuzzing.run_case: each rule of a fuzzing case is enforced."""

import os
import time

import numpy
import pytest

from chainer.testing import _fuzzing


def test_an_allowed_exception_is_returned_and_nothing_else_is():
    def fails():
        raise ValueError("bad file")

    caught = _fuzzing.run_case(fails, (ValueError,), os.getcwd())
    assert isinstance(caught, ValueError) and str(caught) == "bad file"
    assert _fuzzing.run_case(lambda: None, (ValueError,), os.getcwd()) is None


def test_an_undocumented_exception_fails_the_case(tmp_path):
    def crashes():
        raise IndexError("deep inside the parser")

    with pytest.raises(_fuzzing.CaseFailure, match="undocumented exception builtins.IndexError"):
        _fuzzing.run_case(crashes, (ValueError,), str(tmp_path))


def test_an_allowed_exception_without_a_message_fails_the_case(tmp_path):
    def mute():
        raise ValueError()

    with pytest.raises(_fuzzing.CaseFailure, match="ValueError without a message"):
        _fuzzing.run_case(mute, (ValueError,), str(tmp_path))


def test_a_case_past_its_time_limit_fails(tmp_path):
    start = time.monotonic()
    with pytest.raises(_fuzzing.CaseFailure, match="ran longer than 0.2 s"):
        _fuzzing.run_case(lambda: time.sleep(5), (ValueError,), str(tmp_path), seconds=0.2)
    assert time.monotonic() - start < 2


def test_a_case_over_the_allocation_bound_fails(tmp_path):
    with pytest.raises(_fuzzing.CaseFailure, match=r"peak traced allocation \d+ bytes exceeds"):
        _fuzzing.run_case(lambda: numpy.ones(2**20), (ValueError,), str(tmp_path), max_bytes=2**20)


def test_a_file_written_into_the_sandbox_fails_the_case(tmp_path):
    (tmp_path / "input").write_bytes(b"x")

    def writes():
        with open("stray", "w") as f:  # relative: the working directory is the sandbox
            f.write("oops")

    with pytest.raises(_fuzzing.CaseFailure, match=r"wrote into its sandbox.*'stray'"):
        _fuzzing.run_case(writes, (ValueError,), str(tmp_path))
    assert os.getcwd() != str(tmp_path)  # the working directory is restored


def test_the_number_of_cases_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv(_fuzzing.EXAMPLES_ENV, raising=False)
    assert _fuzzing.examples() == _fuzzing.CI_EXAMPLES == 1000
    monkeypatch.setenv(_fuzzing.EXAMPLES_ENV, "10000")
    assert _fuzzing.examples() == 10000
    monkeypatch.setenv(_fuzzing.EXAMPLES_ENV, "many")
    with pytest.raises(ValueError, match="must be a positive integer, got 'many'"):
        _fuzzing.examples()


def test_mutate_writes_each_flip_modulo_the_length_then_cuts():
    assert _fuzzing.mutate(b"abcdef", [(1, ord("X")), (9, ord("Y"))], None) == b"aXcYef"
    assert _fuzzing.mutate(b"abcdef", [], 8) == b"ab"
    assert _fuzzing.mutate(b"abcdef", [(0, 0)], 0) == b""
    assert _fuzzing.mutate(b"", [(3, 1)], 2) == b""
