"""TimerHook: per-call times with nesting, summary, total and the printed report."""

import io
import time

import numpy
import pytest

from chainer import FunctionNode, Variable
from chainer.backends import cuda
from chainer.function_hooks import TimerHook, timer

# Seconds each pass takes on the fake clock (binary fractions: sums are exact).
DURATIONS = {"Outer.forward": 0.5, "Outer.backward": 0.25, "Inner.forward": 0.125}


@pytest.fixture
def fake_clock(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(timer.time, "perf_counter", lambda: clock[0])

    def work(event):
        clock[0] += DURATIONS[event]

    return work


@pytest.fixture
def timed(fake_clock, forward_backward):
    with TimerHook() as hook:
        x = forward_backward(fake_clock)
    numpy.testing.assert_array_equal(x.grad, [2, 2, 2])  # d(2x)/dx, computed by Inner
    return hook


def test_call_history_records_nested_calls_inside_the_outer_one(timed):
    # Outer's backward (0.25 s) applies Inner (0.125 s): the Outer entry includes it.
    assert timed.call_history == [("Outer", 0.5), ("Inner", 0.125), ("Outer", 0.375)]


def test_total_time_counts_only_outermost_calls(timed):
    assert timed.total_time() == 0.875


def test_summary_adds_up_per_label_in_first_call_order(timed):
    summary = timed.summary()
    assert list(summary) == ["Outer", "Inner"]
    assert summary == {
        "Outer": {"elapsed_time": 0.875, "occurrence": 2},
        "Inner": {"elapsed_time": 0.125, "occurrence": 1},
    }


def test_print_report_auto_unit(timed):
    out = io.StringIO()
    timed.print_report(file=out)
    assert out.getvalue() == (
        "FunctionName  ElapsedTime  Occurrence\n"
        "       Outer     875.00ms           2\n"
        "       Inner     125.00ms           1\n"
    )


def test_print_report_fixed_unit(timed):
    out = io.StringIO()
    timed.print_report(unit="us", file=out)
    assert out.getvalue().splitlines()[1:] == [
        "       Outer  875000.00us           2",
        "       Inner  125000.00us           1",
    ]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (2.0, "2.00sec"),
        (1.0, "1.00sec"),
        (0.0025, "2.50ms"),
        (4e-6, "4.00us"),
        (3e-9, "3.00ns"),
        (0.0, "0.00ns"),
    ],
)
def test_print_report_picks_the_largest_unit_with_a_value_of_at_least_one(seconds, text):
    hook = TimerHook()
    hook.call_history.append(("F", seconds))
    out = io.StringIO()
    hook.print_report(file=out)
    assert out.getvalue().splitlines()[1].split() == ["F", text, "1"]


def test_print_report_rejects_unknown_unit():
    with pytest.raises(ValueError, match=r"one of \['sec', 'ms', 'us', 'ns'\], got 'hours'"):
        TimerHook().print_report(unit="hours", file=io.StringIO())


def test_empty_report_has_only_the_header():
    out = io.StringIO()
    TimerHook().print_report(file=out)
    assert out.getvalue() == "FunctionName  ElapsedTime  Occurrence\n"
    assert TimerHook().total_time() == 0


class Sleep(FunctionNode):
    def forward(self, inputs):
        time.sleep(0.02)
        return (inputs[0].copy(),)


def test_real_clock_measures_the_forward_pass():
    with TimerHook() as hook:
        Sleep().apply((numpy.zeros(2, dtype=numpy.float32),))
    ((label, elapsed),) = hook.call_history
    assert label == "Sleep"
    assert 0.02 <= elapsed < 1.0
    assert hook.total_time() == elapsed


def test_local_hook_times_only_its_function():
    x = Variable(numpy.ones(2, dtype=numpy.float32))
    sleep = Sleep()
    hook = TimerHook()
    sleep.add_hook(hook)
    (y,) = sleep.apply((x,))
    _ = y * 3  # another function: not hooked
    assert [label for label, _ in hook.call_history] == ["Sleep"]


def test_hook_is_removed_after_the_with_block(fake_clock, forward_backward):
    with TimerHook() as hook:
        pass
    forward_backward(fake_clock)
    assert hook.call_history == []


def test_postprocess_without_preprocess_is_an_error():
    with pytest.raises(RuntimeError, match="TimerHook: Sleep finished without having started"):
        TimerHook().forward_postprocess(Sleep(), ())


def test_cupy_arrays_are_timed_with_cuda_events(fake_cuda):
    gpu = fake_cuda()
    array = gpu.cupy.ndarray()
    hook = TimerHook()
    function = Sleep()
    hook.forward_preprocess(function, (array,))
    gpu.clock += 0.75
    hook.forward_postprocess(function, (array,))
    assert hook.call_history == [("Sleep", 0.75)]
    assert gpu.synchronized == 1  # waited for the stop event before reading it


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason="needs a CUDA GPU through CuPy")
def test_real_gpu_forward_and_backward_are_timed():
    x = Variable(cuda.cupy.arange(1 << 20, dtype=numpy.float32))
    with TimerHook() as hook:
        y = x * x
        y.grad = cuda.cupy.ones_like(y.array)
        y.backward()
    labels = [label for label, _ in hook.call_history]
    assert labels[0] == "Mul" and len(labels) >= 2
    assert all(elapsed > 0 for _, elapsed in hook.call_history)


def test_auto_unit_is_one_unit_for_all_rows_and_auto_foreach_one_per_row():
    hook = TimerHook()
    hook.call_history += [("A", 2.0), ("B", 0.003)]
    for unit, expected in [
        ("auto", ["2.00sec", "0.00sec"]),
        ("auto_foreach", ["2.00sec", "3.00ms"]),
    ]:
        out = io.StringIO()
        hook.print_report(unit=unit, file=out)
        assert [line.split()[1] for line in out.getvalue().splitlines()[1:]] == expected
