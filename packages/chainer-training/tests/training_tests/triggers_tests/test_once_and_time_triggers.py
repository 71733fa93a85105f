"""OnceTrigger and TimeTrigger."""

import pytest

from chainer import serializers
from chainer.training import triggers


def test_once_trigger_fires_at_the_first_call_only(kit):
    trigger = triggers.OnceTrigger()
    assert not trigger.finished
    assert kit.fire_pattern(trigger, kit.StubTrainer(), 5) == [1]
    assert trigger.finished


@pytest.mark.parametrize(("call_on_resume", "expected"), [(False, []), (True, [4])])
def test_once_trigger_after_resume(kit, tmp_path, call_on_resume, expected):
    trainer = kit.StubTrainer()
    first = triggers.OnceTrigger(call_on_resume)
    kit.fire_pattern(first, trainer, 3)
    serializers.save_npz(tmp_path / "t.npz", first)
    resumed = triggers.OnceTrigger(call_on_resume)
    serializers.load_npz(tmp_path / "t.npz", resumed)
    assert kit.fire_pattern(resumed, trainer, 3) == expected


def test_time_trigger_fires_after_each_period_of_elapsed_time(kit, tmp_path):
    trainer = kit.StubTrainer()
    trigger = triggers.TimeTrigger(10.0)
    fired = []
    for elapsed in (3.0, 9.9, 10.0, 12.0, 25.0, 29.0, 31.0):
        trainer.elapsed_time = elapsed
        if trigger(trainer):
            fired.append(elapsed)
    # 25.0 is past 20 (fires) and schedules 30; one firing per call even if periods were skipped.
    assert fired == [10.0, 25.0, 31.0]
    serializers.save_npz(tmp_path / "t.npz", trigger)
    resumed = triggers.TimeTrigger(10.0)
    serializers.load_npz(tmp_path / "t.npz", resumed)
    trainer.elapsed_time = 39.0
    assert not resumed(trainer)
    trainer.elapsed_time = 40.0
    assert resumed(trainer)


def test_time_trigger_needs_a_positive_period():
    with pytest.raises(ValueError, match="TimeTrigger: period must be a positive number, got -1"):
        triggers.TimeTrigger(-1)


@pytest.mark.parametrize(("call_on_resume", "expected"), [(False, []), (True, [1])])
def test_once_trigger_from_an_old_snapshot_assumes_the_first_call_happened(
    kit, call_on_resume, expected
):
    trigger = triggers.OnceTrigger(call_on_resume)
    with pytest.warns(UserWarning, match="first-call flag of OnceTrigger is not saved"):
        trigger.serialize(serializers.NpzDeserializer({}))
    assert kit.fire_pattern(trigger, kit.StubTrainer(), 3) == expected
