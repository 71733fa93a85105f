"""PrintHook: the function label and statistics of inputs and output gradients."""

import io
import re

import numpy
import pytest

from chainer import Variable
from chainer._ops.exponential import exp
from chainer.function_hooks import PrintHook

X = numpy.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], dtype=numpy.float32)


def statistics(array):
    return f"mean={array.mean():.8f}, std={array.std():.8f}"


def blocks(text):
    """Split the printed text into (function label, [lines]) per call."""
    return [
        (label, body.strip("\n").split("\n"))
        for label, body in re.findall(r"function\t([^\n]+)\n(.*?)(?=function\t|\Z)", text, re.S)
    ]


def test_forward_prints_label_and_each_input():
    out = io.StringIO()
    x, w = Variable(X), Variable(numpy.full((2, 3), 2, dtype=numpy.float32))
    with PrintHook(file=out):
        _ = x * w
    ((label, lines),) = blocks(out.getvalue())
    assert label == "_ * _"  # v7's label of Mul
    assert lines[0] == "input data"
    assert [line for line in lines if line.startswith("- statistics")] == [
        f"- statistics: {statistics(X)}",
        f"- statistics: {statistics(numpy.full((2, 3), 2.0))}",
    ]
    assert lines.count("- shape: (2, 3)") == 2 and lines.count("- dtype: float32") == 2
    assert "output gradient" not in lines


def test_backward_prints_removed_inputs_and_output_gradients():
    out = io.StringIO()
    x = Variable(X)
    y = exp(x)
    gy = numpy.arange(6, dtype=numpy.float32).reshape(2, 3) / 10
    y.grad = gy
    with PrintHook(file=out):
        y.backward()
    (exp_backward, mul_forward) = blocks(out.getvalue())  # exp's backward multiplies
    label, lines = exp_backward
    assert label == "exp"
    # exp keeps its output, not its input: backward no longer holds the input array.
    assert lines[:2] == ["input data", "(removed)"]
    assert lines[2] == "output gradient"
    assert f"- grad: {statistics(gy)}" in lines
    assert mul_forward[0] == "_ * _"


def test_end_separates_items_and_file_is_flushed():
    class Recorder(io.StringIO):
        flushes = 0

        def flush(self):
            self.flushes += 1

    out = Recorder()
    with PrintHook(end=" | ", file=out):
        _ = Variable(X) + 1
    text = out.getvalue()
    assert text.startswith("function\t_ + 1.0 | input data | <variable at 0x")
    assert text.endswith("| ")
    assert "\n- shape: (2, 3)\n" in text  # each item's own lines are kept
    assert out.flushes == 1

    quiet = Recorder()
    with PrintHook(file=quiet, flush=False):
        _ = Variable(X) + 1
    assert quiet.flushes == 0 and quiet.getvalue()


def test_sep_is_deprecated():
    with pytest.warns(DeprecationWarning, match="sep argument of .*PrintHook is deprecated"):
        hook = PrintHook(sep="")
    assert hook.sep == ""


def test_missing_output_gradient_is_printed_as_an_empty_variable():
    out = io.StringIO()
    y = exp(Variable(X))
    PrintHook(file=out).backward_preprocess(y.creator_node, (X,), (None,))
    lines = out.getvalue().split("\n")
    start = lines.index("output gradient")
    assert lines[start + 2 : start + 8] == [
        f"- {key}: None" for key in ("device", "backend", "shape", "dtype", "statistics", "grad")
    ]
