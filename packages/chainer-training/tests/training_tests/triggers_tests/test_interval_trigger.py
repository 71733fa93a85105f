"""IntervalTrigger and get_trigger."""

import numpy
import pytest

from chainer import serializers, training
from chainer.training import triggers


@pytest.mark.parametrize(
    ("period", "unit", "expected"),
    [
        (3, "iteration", [3, 6, 9, 12]),
        (1, "epoch", [5, 10]),  # 5 iterations per epoch
        (0.5, "epoch", [3, 5, 8, 10]),  # 2.5 iterations per half epoch: first step past it
        (2, "epoch", [10]),
    ],
)
def test_fires_each_time_a_multiple_of_the_period_is_passed(kit, period, unit, expected):
    trainer = kit.StubTrainer(iterations_per_epoch=5)
    trigger = triggers.IntervalTrigger(period, unit)
    assert kit.fire_pattern(trigger, trainer, 12) == expected
    assert trigger.get_training_length() == (period, unit)


def test_fires_when_called_only_now_and_then(kit):
    # Called at iterations 2, 4, 7, 8 only: the multiples 3 and 6 fall between calls.
    trainer = kit.StubTrainer()
    trigger = triggers.IntervalTrigger(3, "iteration")
    fired = []
    for iteration in range(1, 9):
        trainer.updater.step()
        if iteration in (2, 4, 7, 8) and trigger(trainer):
            fired.append(iteration)
    assert fired == [4, 7]


def test_resumed_trigger_continues_the_pattern(kit, tmp_path):
    trainer = kit.StubTrainer(iterations_per_epoch=4)
    trigger = triggers.IntervalTrigger(3, "iteration")
    assert kit.fire_pattern(trigger, trainer, 4) == [3]
    serializers.save_npz(tmp_path / "t.npz", trigger)
    resumed = triggers.IntervalTrigger(3, "iteration")
    serializers.load_npz(tmp_path / "t.npz", resumed)
    assert kit.fire_pattern(resumed, trainer, 5) == [6, 9]


def test_loading_without_the_state_warns_and_guesses(kit):
    trainer = kit.StubTrainer()
    trigger = triggers.IntervalTrigger(2, "iteration")
    empty = serializers.NpzDeserializer({})
    with pytest.warns(UserWarning) as record:
        trigger.serialize(empty)
    assert [str(w.message).split(".")[0] for w in record] == [
        "The previous value of iteration is not saved",
        "The previous value of epoch_detail is not saved",
    ]
    trainer.updater.iteration = 7
    assert kit.fire_pattern(trigger, trainer, 2) == [8]


def test_str_and_bad_arguments():
    assert str(triggers.IntervalTrigger(5, "epoch")) == "IntervalTrigger(5, 'epoch')"
    with pytest.raises(ValueError, match="unit must be either 'epoch' or 'iteration', got 'iter'"):
        triggers.IntervalTrigger(1, "iter")
    with pytest.raises(ValueError, match="period must be a positive number, got 0"):
        triggers.IntervalTrigger(0, "epoch")


def test_get_trigger_accepts_callables_tuples_and_none(kit):
    def every_time(trainer):
        return True

    assert training.get_trigger(every_time) is every_time
    interval = training.get_trigger((2, "iteration"))
    assert isinstance(interval, triggers.IntervalTrigger)
    assert interval.get_training_length() == (2, "iteration")
    never = training.get_trigger(None)
    assert kit.fire_pattern(never, kit.StubTrainer(), 20) == []
    with pytest.raises(TypeError, match=r"a \(period, unit\) tuple or None, got 5"):
        training.get_trigger(5)


def test_fractional_epoch_positions_are_exact_at_epoch_ends(kit):
    # 3 iterations per epoch: epoch_detail 1/3, 2/3, 1.0 ... must fire exactly at 3 and 6.
    trainer = kit.StubTrainer(iterations_per_epoch=3)
    assert kit.fire_pattern(triggers.IntervalTrigger(1, "epoch"), trainer, 7) == [3, 6]
    assert numpy.isclose(trainer.updater.epoch_detail, 7 / 3)
