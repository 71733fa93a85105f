"""TimerHook: per-link elapsed times on a fake clock, totals of outermost calls, the report."""

import io

import numpy
import pytest

import chainer
from chainer.link_hooks import TimerHook, timer


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Leaf(chainer.Link):
    def __init__(self, clock, seconds):
        super().__init__()
        self.clock, self.seconds = clock, seconds

    def forward(self, x):
        self.clock.now += self.seconds
        return x


class Outer(chainer.Chain):
    def __init__(self, clock, leaf_seconds=0.002, own_seconds=0.001):
        super().__init__()
        self.clock, self.own_seconds = clock, own_seconds
        with self.init_scope():
            self.first = Leaf(clock, leaf_seconds)
            self.second = Leaf(clock, leaf_seconds)

    def forward(self, x):
        self.clock.now += self.own_seconds
        return self.second(self.first(x))


@pytest.fixture
def clock(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(timer, "perf_counter", clock)
    return clock


def test_every_call_is_recorded_and_only_outermost_calls_count_in_the_total(clock):
    model = Outer(clock)
    x = numpy.zeros(2, numpy.float32)
    with TimerHook() as hook:
        model(x)
        model.first(x)
    assert [name for name, _ in hook.call_history] == ["Leaf", "Leaf", "Outer", "Leaf"]
    numpy.testing.assert_allclose([t for _, t in hook.call_history], [0.002, 0.002, 0.005, 0.002])
    assert hook.total_time() == pytest.approx(0.007)
    summary = hook.summary()
    assert list(summary) == ["Leaf", "Outer"]
    assert summary["Leaf"]["occurrence"] == 3
    assert summary["Leaf"]["elapsed_time"] == pytest.approx(0.006)
    assert summary["Outer"] == {"elapsed_time": pytest.approx(0.005), "occurrence": 1}


def test_a_hook_on_one_link_times_only_that_link(clock):
    model = Outer(clock)
    hook = TimerHook()
    model.second.add_hook(hook)
    model(numpy.zeros(1, numpy.float32))
    assert [name for name, _ in hook.call_history] == ["Leaf"]
    assert hook.total_time() == pytest.approx(0.002)


def _report(hook, **kwargs):
    out = io.StringIO()
    hook.print_report(file=out, **kwargs)
    return out.getvalue()


def test_report_aligns_units_to_the_longest_time(clock):
    with TimerHook() as hook:
        Outer(clock)(numpy.zeros(1, numpy.float32))
    assert _report(hook) == (
        "LinkName  ElapsedTime  Occurrence\n"
        "    Leaf       4.00ms           2\n"
        "   Outer       5.00ms           1\n"
    )
    assert _report(hook, unit="us").splitlines()[1] == "    Leaf    4000.00us           2"


def test_report_auto_foreach_picks_a_unit_per_row(clock):
    with TimerHook() as hook:
        Outer(clock, leaf_seconds=0.000004, own_seconds=2.0)(numpy.zeros(1, numpy.float32))
    lines = _report(hook, unit="auto_foreach").splitlines()
    assert lines[1].split() == ["Leaf", "8.00us", "2"]
    assert lines[2].split() == ["Outer", "2.00sec", "1"]
    assert _report(hook).splitlines()[1].split() == ["Leaf", "0.00sec", "2"]


def test_an_unknown_unit_is_a_value_error():
    with pytest.raises(
        ValueError, match=r"unit must be 'auto', 'auto_foreach' or one of .*'hours'"
    ):
        TimerHook().print_report(unit="hours")


def test_the_unit_table_and_an_empty_report():
    assert TimerHook.table == {"sec": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}
    assert _report(TimerHook()) == "LinkName  ElapsedTime  Occurrence\n"


def test_real_clock_measures_a_real_link():
    link = chainer.links.Linear(3, 2)
    with TimerHook() as hook:
        link(numpy.zeros((1, 3), numpy.float32))
    ((name, elapsed),) = hook.call_history
    assert name == "Linear" and 0 < elapsed < 10


def test_a_postprocess_without_preprocess_is_reported():
    hook = TimerHook()

    class Args:
        link = chainer.links.Linear(1, 1)

    with pytest.raises(RuntimeError, match="Linear.forward finished without having started"):
        hook.forward_postprocess(Args())
