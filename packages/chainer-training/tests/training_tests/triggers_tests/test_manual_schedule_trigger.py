"""ManualScheduleTrigger."""

import pytest

from chainer import serializers
from chainer.training import triggers


@pytest.mark.parametrize(
    ("points", "unit", "expected"),
    [
        (4, "iteration", [4]),
        ([2, 5, 5, 9], "iteration", [2, 5, 9]),
        ([0.5, 2], "epoch", [2, 8]),  # 4 iterations per epoch
    ],
)
def test_fires_at_the_points(kit, points, unit, expected):
    trainer = kit.StubTrainer(iterations_per_epoch=4)
    trigger = triggers.ManualScheduleTrigger(points, unit)
    assert kit.fire_pattern(trigger, trainer, 10) == expected
    assert trigger.finished


def test_finished_only_after_the_last_point_and_survives_a_resume(kit, tmp_path):
    trainer = kit.StubTrainer()
    trigger = triggers.ManualScheduleTrigger([2, 6], "iteration")
    kit.fire_pattern(trigger, trainer, 3)
    assert not trigger.finished
    serializers.save_npz(tmp_path / "t.npz", trigger)
    resumed = triggers.ManualScheduleTrigger([2, 6], "iteration")
    serializers.load_npz(tmp_path / "t.npz", resumed)
    assert kit.fire_pattern(resumed, trainer, 5) == [6]
    assert resumed.finished


def test_bad_arguments():
    with pytest.raises(ValueError, match="points must be a number or a non-empty sequence"):
        triggers.ManualScheduleTrigger([], "epoch")
    with pytest.raises(ValueError, match="unit must be either 'epoch' or 'iteration'"):
        triggers.ManualScheduleTrigger([1], "second")


def test_loading_an_old_snapshot_without_state_warns_and_recomputes_finished(kit):
    trainer = kit.StubTrainer()
    trigger = triggers.ManualScheduleTrigger([2, 3], "iteration")
    with pytest.warns(UserWarning) as record:
        trigger.serialize(serializers.NpzDeserializer({}))
    assert "finished flag of ManualScheduleTrigger is not saved" in str(record[-1].message)
    trainer.updater.iteration = 2
    assert trigger(trainer) and not trigger.finished
    assert kit.fire_pattern(trigger, trainer, 1) == [3] and trigger.finished
