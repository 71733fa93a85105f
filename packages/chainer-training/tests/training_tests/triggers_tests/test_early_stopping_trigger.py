"""EarlyStoppingTrigger."""

import pytest

from chainer import serializers
from chainer.training import triggers

LOSSES = [1.0, 0.8, 0.9, 0.85, 0.95, 0.7, 0.75, 0.8, 0.9, 1.0]


def _observe(iteration):
    return {"main/loss": LOSSES[iteration - 1], "main/accuracy": 1 - LOSSES[iteration - 1]}


@pytest.mark.parametrize(
    ("kwargs", "stop_at"),
    [
        ({"patience": 2}, 4),  # 0.8 best at 2, then 0.9, 0.85 worse
        ({"patience": 3}, 5),  # 0.9, 0.85, 0.95 after the best 0.8
        ({"patience": 3, "monitor": "main/accuracy"}, 5),  # 'accuracy' is maximized
        ({"patience": 2, "mode": "max"}, 3),  # maximizing the loss: 1.0 stays best
        ({"patience": 100, "max_trigger": (7, "iteration")}, 7),
    ],
)
def test_stops_after_patience_checks_without_improvement(kit, kwargs, stop_at):
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, "iteration"), **kwargs)
    fired = kit.fire_pattern(trigger, kit.StubTrainer(), 10, observe=_observe)
    assert fired[0] == stop_at


def test_patience_three_counts_checks_not_iterations(kit):
    # Checks every 2 iterations: means 0.9, 0.875, 0.825, 0.775, 0.95 -> improving until 8.
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(2, "iteration"), patience=1)
    assert kit.fire_pattern(trigger, kit.StubTrainer(), 10, observe=_observe) == [10]


def test_training_length_is_max_trigger(kit):
    trigger = triggers.EarlyStoppingTrigger(max_trigger=(30, "epoch"))
    assert trigger.get_training_length() == (30, "epoch")


def test_patients_is_a_deprecated_alias(kit):
    assert triggers.EarlyStoppingTrigger(patients=5).patience == 5
    with pytest.raises(TypeError, match="both 'patience' and 'patients' were given"):
        triggers.EarlyStoppingTrigger(patience=1, patients=2)
    with pytest.raises(ValueError, match="mode must be one of auto, max, min, got 'best'"):
        triggers.EarlyStoppingTrigger(mode="best")


def test_missing_monitor_warns_and_does_not_stop(kit):
    trainer = kit.StubTrainer()
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, "iteration"), monitor="val/loss")
    trainer.updater.step()
    with pytest.warns(UserWarning, match="val/loss is not in observation"):
        assert not trigger(trainer)


def test_verbose_prints_direction_and_stop(kit, capsys):
    trigger = triggers.EarlyStoppingTrigger(
        check_trigger=(1, "iteration"), patience=1, verbose=True
    )
    kit.fire_pattern(trigger, kit.StubTrainer(iterations_per_epoch=1), 3, observe=_observe)
    assert capsys.readouterr().out == (
        "early stopping: operator is less\nEpoch 3: early stopping\n"
    )


def test_resume_keeps_best_and_count(kit, tmp_path):
    trainer = kit.StubTrainer()
    trigger = triggers.EarlyStoppingTrigger(check_trigger=(1, "iteration"), patience=2)
    assert kit.fire_pattern(trigger, trainer, 3, observe=_observe) == []
    serializers.save_npz(tmp_path / "t.npz", trigger)
    resumed = triggers.EarlyStoppingTrigger(check_trigger=(1, "iteration"), patience=2)
    serializers.load_npz(tmp_path / "t.npz", resumed)
    assert (resumed.best, resumed.count) == (0.8, 1)
    assert kit.fire_pattern(resumed, trainer, 1, observe=_observe) == [4]
