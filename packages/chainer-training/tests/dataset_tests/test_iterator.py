"""Iterator: the iterator and context-manager protocols of the base class."""

import pytest

from chainer.dataset import Iterator


class CountDown(Iterator):
    def __init__(self, n):
        self.n = n
        self.finalized = 0

    def next(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        return self.n

    def finalize(self):
        self.finalized += 1


def test_python_iteration_uses_next():
    assert list(CountDown(3)) == [2, 1, 0]


def test_context_manager_finalizes_on_exit_even_after_an_error():
    it = CountDown(2)
    with pytest.raises(KeyError), it:
        raise KeyError("boom")
    assert it.finalized == 1


def test_base_next_names_the_class_and_serialize_stores_nothing():
    class Bare(Iterator):
        pass

    with pytest.raises(NotImplementedError, match="Bare must implement next or __next__"):
        next(Bare())
    with pytest.raises(NotImplementedError, match="Bare must implement next or __next__"):
        Bare().next()
    stored = {}
    Bare().serialize(lambda key, value: stored.setdefault(key, value))
    assert stored == {}
    Bare().finalize()  # the default does nothing and is safe to call


def test_a_subclass_may_implement_either_next_or_dunder_next():
    class V7Style(Iterator):
        def __next__(self):
            return "from __next__"

    class NextStyle(Iterator):
        def next(self):
            return "from next"

    assert V7Style().next() == next(V7Style()) == "from __next__"
    assert NextStyle().next() == next(NextStyle()) == "from next"
