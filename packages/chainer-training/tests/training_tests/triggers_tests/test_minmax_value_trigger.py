"""BestValueTrigger, MaxValueTrigger and MinValueTrigger."""

import pytest

from chainer import serializers
from chainer.training import triggers

# Per-iteration values; with a check every 2 iterations the means are 2, 1, 3, 0.5, 0.75.
VALUES = [3.0, 1.0, 1.0, 1.0, 2.0, 4.0, 0.5, 0.5, 1.0, 0.5]


def _observe(iteration):
    return {"v": VALUES[iteration - 1]}


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda: triggers.MaxValueTrigger("v", (2, "iteration")), [2, 6]),
        (lambda: triggers.MinValueTrigger("v", (2, "iteration")), [2, 4, 8]),
        (
            lambda: triggers.BestValueTrigger(
                "v", lambda best, new: abs(new - 1) < abs(best - 1), (2, "iteration")
            ),
            [2, 4],
        ),
    ],
)
def test_fires_when_the_mean_since_the_last_check_is_a_new_best(kit, make, expected):
    assert kit.fire_pattern(make(), kit.StubTrainer(), 10, observe=_observe) == expected


def test_resume_keeps_the_best_and_the_partial_summary(kit, tmp_path):
    trainer = kit.StubTrainer()
    trigger = triggers.MinValueTrigger("v", (2, "iteration"))
    assert kit.fire_pattern(trigger, trainer, 7, observe=_observe) == [2, 4]
    serializers.save_npz(tmp_path / "t.npz", trigger)
    resumed = triggers.MinValueTrigger("v", (2, "iteration"))
    serializers.load_npz(tmp_path / "t.npz", resumed)
    assert kit.fire_pattern(resumed, trainer, 3, observe=_observe) == [8]


def test_missing_key_at_a_check_is_an_error(kit):
    trainer = kit.StubTrainer()
    trigger = triggers.MaxValueTrigger("validation/main/accuracy", (1, "iteration"))
    trainer.updater.step()
    trainer.observation = {"main/loss": 1.0}
    with pytest.raises(KeyError, match="'validation/main/accuracy' was not observed"):
        trigger(trainer)
