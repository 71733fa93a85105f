"""ProgressBar: readable lines in a log, one line redrawn in place on a terminal."""

import io
import re

import pytest

from chainer.training import extensions

STATUS = re.compile(
    r"\[[#.]{20}\] +(?P<pct>\d+\.\d\d)% \| epoch (?P<epoch>\d+) \((?P<epct>\d+\.\d\d)%\) / 4 "
    r"epochs \| iter (?P<iter>\d+) \| [0-9.e+]+ iters/sec \| ETA (\d+:\d\d:\d\d|-)"
)


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _run(make_trainer, out, **kwargs):
    trainer = make_trainer((4, "epoch"))  # 24 iterations
    trainer.extend(extensions.ProgressBar(update_interval=5, bar_length=20, out=out, **kwargs))
    trainer.run()


def test_in_a_log_every_update_is_a_plain_line(make_trainer):
    out = io.StringIO()
    _run(make_trainer, out)
    lines = out.getvalue().splitlines()
    matches = [STATUS.fullmatch(line) for line in lines]
    assert all(matches), lines
    assert [m["iter"] for m in matches] == ["5", "10", "15", "20"]
    assert [m["pct"] for m in matches] == ["20.83", "41.67", "62.50", "83.33"]
    assert [(m["epoch"], m["epct"]) for m in matches][:2] == [("0", "83.33"), ("1", "66.67")]
    assert lines[0].startswith("[####................]")
    assert "\033" not in out.getvalue() and "\r" not in out.getvalue()


def test_on_a_terminal_one_line_is_redrawn_and_kept_at_the_end(make_trainer, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    out = _Terminal()
    _run(make_trainer, out)
    text = out.getvalue()
    draws = text.split("\033[K\r")
    assert len(draws) == 5  # four redraws, then the final line
    assert all("\n" not in d for d in draws[:-1])
    assert all(STATUS.fullmatch(d) for d in draws[:-1])
    assert draws[-1].endswith("\033[K\n") and STATUS.fullmatch(draws[-1][: -len("\033[K\n")])


def test_a_narrow_terminal_gets_a_shorter_line(make_trainer, monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    out = _Terminal()
    trainer = make_trainer((4, "epoch"))
    trainer.extend(extensions.ProgressBar(update_interval=5, out=out))
    trainer.run()
    first = out.getvalue().split("\033[K\r")[0]
    assert len(first) == 59 and first.startswith("[#")


def test_training_length_from_argument_or_stop_trigger(make_trainer):
    out = io.StringIO()
    trainer = make_trainer((6, "iteration"))
    trainer.extend(extensions.ProgressBar(update_interval=3, bar_length=10, out=out))
    trainer.run()
    assert "iter 6 / 6" in out.getvalue().splitlines()[-1]
    assert out.getvalue().splitlines()[-1].startswith("[##########] 100.00%")
    trainer = make_trainer(lambda t: t.updater.iteration >= 2)
    trainer.extend(extensions.ProgressBar(update_interval=1, out=io.StringIO()))
    with pytest.raises(TypeError, match="ProgressBar needs training_length"):
        trainer.run(show_loop_exception_msg=False)


def test_update_interval_must_be_positive():
    with pytest.raises(ValueError, match="update_interval must be a positive int, got 0"):
        extensions.ProgressBar(update_interval=0)
