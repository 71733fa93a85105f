import pytest

from chainer import testing
from chainer.testing import training


def test_mock_updater_advances_like_an_epoch_of_three():
    updater = training._mock_updater(iter_per_epoch=3)
    assert (updater.iteration, updater.epoch, updater.epoch_detail) == (0, 0, 0.0)
    assert updater.get_all_optimizers() == {}
    states = []
    for _ in range(7):
        updater.update()
        states.append(
            (
                updater.iteration,
                updater.epoch,
                updater.epoch_detail,
                updater.previous_epoch_detail,
                updater.is_new_epoch,
            )
        )
    expected = [(i, i // 3, i / 3, (i - 1) / 3 if i > 1 else 0.0, i % 3 == 0) for i in range(1, 8)]
    assert states == expected
    assert updater.update_core.call_count == 7


def test_mock_updater_with_fractional_epochs():
    updater = training._mock_updater(iter_per_epoch=1.5)
    new_epochs = []
    for _ in range(6):
        updater.update()
        new_epochs.append(updater.is_new_epoch)
        assert updater.epoch == updater.iteration // 1.5
        assert updater.epoch_detail == updater.iteration / 1.5
    assert new_epochs == [False, True, True, False, True, True]


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [(0, ValueError, "must be positive, got 0"), ("2", TypeError, "must be a number, got str")],
)
def test_bad_iter_per_epoch(value, error, message):
    with pytest.raises(error, match=f"iter_per_epoch {message}"):
        testing.get_trainer_with_mock_updater(iter_per_epoch=value)


def needs_trainer():
    try:
        from chainer import training as chainer_training
    except ImportError as error:
        pytest.skip(str(error))
    if not hasattr(chainer_training, "Trainer"):
        pytest.skip("chainer.training.Trainer is not written yet")


def test_trainer_runs_until_the_stop_trigger():
    needs_trainer()
    calls = []

    def extension(trainer):
        calls.append(trainer.updater.iteration)

    trainer = testing.get_trainer_with_mock_updater(
        (2, "epoch"), iter_per_epoch=4, extensions=[extension]
    )
    trainer.run()
    assert trainer.updater.iteration == 8
    assert trainer.updater.update_core.call_count == 8
    assert calls == list(range(1, 9))
