"""PrintReport: the table, blank cells, terminal vs log output."""

import io

import pytest

from chainer.training import extensions


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _run(make_trainer, out, entries, **log_kwargs):
    trainer = make_trainer((2, "epoch"))
    log = extensions.LogReport(**log_kwargs)
    trainer.extend(log)
    trainer.extend(extensions.PrintReport(entries, out=out))
    trainer.run()
    return log


def test_prints_a_header_and_one_row_per_log_entry(make_trainer):
    out = io.StringIO()
    log = _run(make_trainer, out, ["epoch", "iteration", "main/loss", "validation/main/loss"])
    lines = out.getvalue().splitlines()
    assert lines[0] == "epoch       iteration   main/loss   validation/main/loss"
    assert len(lines) == 3
    for line, entry in zip(lines[1:], log.log):
        cells = f"{entry['epoch']:<10g}  {entry['iteration']:<10g}  {entry['main/loss']:<10g}"
        assert line == cells.rstrip()  # the missing validation cell is blank
    assert "\033" not in out.getvalue()  # a log gets plain text


def test_on_a_terminal_each_row_erases_what_follows_the_cursor(make_trainer):
    out = _Terminal()
    _run(make_trainer, out, ["epoch"])
    assert out.getvalue() == "epoch     \n\033[J1\n\033[J2\n"


def test_a_log_report_object_is_driven_by_the_print_report(make_trainer):
    trainer = make_trainer((1, "epoch"))
    log = extensions.LogReport()
    out = io.StringIO()
    report = extensions.PrintReport(["iteration"], log_report=log, out=out)
    trainer.extend(report)
    trainer.run()
    assert [e["iteration"] for e in log.log] == [6]
    assert out.getvalue().splitlines()[1] == "6"


def test_a_wrong_log_report_is_refused(make_trainer):
    trainer = make_trainer((1, "iteration"))
    trainer.extend(extensions.PrintReport(["epoch"], log_report=3, out=io.StringIO()))
    with pytest.raises(TypeError, match="log_report must be a LogReport or the name of one"):
        trainer.run(show_loop_exception_msg=False)


class _WriteOnly:
    """A stream with only write(), which PrintReport and the progress bar accept."""

    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)


def test_a_stream_without_flush_is_written_to(make_trainer):
    out = _WriteOnly()
    _run(make_trainer, out, ["epoch"])
    assert [line.rstrip() for line in "".join(out.parts).splitlines()] == ["epoch", "1", "2"]
    trainer = make_trainer((1, "epoch"))
    trainer.extend(extensions.ProgressBar(update_interval=1, out=out))
    trainer.run()
    assert "100.00% | epoch 1" in "".join(out.parts)
