"""LogReport: means over each interval, the JSON file, keys, postprocess, serialization."""

import json
import os

import numpy
import pytest

from chainer import serializers
from chainer.training import extensions


def _loss_recorder(trainer, losses):
    trainer.extend(lambda t: losses.append(float(t.observation["main/loss"].array)), name="rec")


def test_entries_hold_interval_means_and_the_file_holds_the_log(make_trainer, tmp_path):
    trainer = make_trainer((2, "epoch"))  # 6 iterations per epoch
    losses = []
    _loss_recorder(trainer, losses)
    log = extensions.LogReport()
    trainer.extend(log)
    trainer.run()
    assert [e["iteration"] for e in log.log] == [6, 12]
    assert [e["epoch"] for e in log.log] == [1, 2]
    for entry, chunk in zip(log.log, (losses[:6], losses[6:])):
        assert entry["main/loss"] == pytest.approx(numpy.mean(chunk), rel=1e-6)
        assert set(entry) == {
            "main/loss",
            "main/head/bias_norm",
            "epoch",
            "iteration",
            "elapsed_time",
        }
    assert log.log[0]["elapsed_time"] < log.log[1]["elapsed_time"]
    with open(tmp_path / "result" / "log") as f:
        assert json.load(f) == log.log
    assert sorted(os.listdir(tmp_path / "result")) == ["log"]  # no temporary file left


def test_keys_trigger_postprocess_and_filename_template(make_trainer, tmp_path):
    trainer = make_trainer((4, "iteration"))

    def postprocess(entry):
        entry["double"] = 2 * entry["main/loss"]

    log = extensions.LogReport(
        keys=["main/loss"],
        trigger=(2, "iteration"),
        postprocess=postprocess,
        filename="log_{iteration}",
    )
    trainer.extend(log)
    trainer.run()
    assert [sorted(e) for e in log.log] == [
        ["double", "elapsed_time", "epoch", "iteration", "main/loss"]
    ] * 2
    assert log.log[1]["double"] == 2 * log.log[1]["main/loss"]
    with open(tmp_path / "result" / "log_4") as f:
        assert json.load(f) == log.log
    with open(tmp_path / "result" / "log_2") as f:
        assert json.load(f) == log.log[:1]


def test_log_name_is_the_old_keyword_and_none_writes_no_file(make_trainer, tmp_path):
    trainer = make_trainer((1, "epoch"))
    silent = extensions.LogReport(log_name=None)
    trainer.extend(silent)
    trainer.extend(extensions.LogReport(log_name="old_style"))
    trainer.run()
    assert os.listdir(tmp_path / "result") == ["old_style"]
    assert len(silent.log) == 1
    with pytest.raises(TypeError, match="unexpected keyword argument\\(s\\) 'file_name'"):
        extensions.LogReport(file_name="x")


def test_serialize_keeps_the_log_and_the_partial_interval(make_trainer, kit, tmp_path):
    trainer = make_trainer((3, "iteration"))
    losses = []
    _loss_recorder(trainer, losses)
    log = extensions.LogReport(trigger=(2, "iteration"))
    trainer.extend(log)
    trainer.run()
    serializers.save_npz(tmp_path / "log.npz", log)
    restored = extensions.LogReport(trigger=(2, "iteration"))
    serializers.load_npz(tmp_path / "log.npz", restored)
    assert restored.log == log.log
    # The third iteration's loss is still pending in the restored summary.
    stub = kit.StubTrainer()
    stub.out = str(tmp_path)
    stub.updater.iteration = 3
    stub.updater.step()
    stub.observation = {"main/loss": numpy.float32(1.0)}
    restored(stub)
    assert restored.log[-1]["main/loss"] == pytest.approx((losses[2] + 1.0) / 2, rel=1e-6)
    assert restored.log[-1]["iteration"] == 4
