"""The optimizer-attribute schedules: values per call, initialization, resume, checks."""

import pytest

from chainer import optimizers, serializers
from chainer.training import extensions


def _values(kit, shift, n_calls, lr=1.0):
    optimizer = optimizers.MomentumSGD(lr=lr).setup(kit.LinearRegression())
    shift._optimizer = optimizer
    shift.initialize(None)
    values = [optimizer.lr]
    for _ in range(n_calls):
        shift(None)
        values.append(optimizer.lr)
    return values


CASES = [
    (
        lambda: extensions.ExponentialShift("lr", 0.5, init=1.0, target=0.2),
        [1, 0.5, 0.25, 0.2, 0.2],
    ),
    (lambda: extensions.ExponentialShift("lr", 2, init=1.0, target=5), [1, 2, 4, 5, 5]),
    (
        lambda: extensions.ExponentialShift("lr", 0.5, init=-1.0, target=-0.3),
        [-1, -0.5, -0.3, -0.3, -0.3],
    ),
    (
        lambda: extensions.InverseShift("lr", 0.5, 1, init=1.0, target=0.45),
        [1, 1 / 1.5, 0.5, 0.45, 0.45],
    ),
    (lambda: extensions.InverseShift("lr", 1, -1, init=1.0), [1, 2, 3, 4, 5]),
    (lambda: extensions.PolynomialShift("lr", 2, 4, init=1.0), [1, 0.5625, 0.25, 0.0625, 0]),
    (
        lambda: extensions.PolynomialShift("lr", 1, 4, init=1.0, target=0.4),
        [1, 0.75, 0.5, 0.4, 0.4],
    ),
    (lambda: extensions.StepShift("lr", 0.1, 2, init=1.0), [1, 1, 0.1, 0.1, 0.01]),
    (
        lambda: extensions.StepShift("lr", 0.1, 1, init=1.0, target=0.01),
        [1, 0.1, 0.01, 0.01, 0.01],
    ),
    (lambda: extensions.MultistepShift("lr", 0.1, [2, 3], 1.0), [1, 1, 0.1, 0.01, 0.01]),
    (lambda: extensions.LinearShift("lr", (1.0, 3.0), (1, 3)), [1, 1, 2, 3, 3]),
    (lambda: extensions.WarmupShift("lr", 0.1, 4, 0.5), [0.1, 0.2, 0.3, 0.4, 0.5]),
]


@pytest.mark.parametrize(("make", "expected"), CASES)
def test_values_after_each_call(kit, make, expected):
    assert _values(kit, make(), 4) == pytest.approx(expected)


def test_init_defaults_to_the_optimizers_value(kit):
    assert _values(kit, extensions.ExponentialShift("lr", 0.5), 2, lr=0.8) == pytest.approx(
        [0.8, 0.4, 0.2]
    )
    assert _values(
        kit, extensions.MultistepShift("lr", 0.5, [1], None), 1, lr=0.8
    ) == pytest.approx([0.8, 0.4])


@pytest.mark.parametrize(
    "make",
    [
        lambda: extensions.ExponentialShift("lr", 0.5),
        lambda: extensions.InverseShift("lr", 1, 1),
        lambda: extensions.PolynomialShift("lr", 1, 4),
        lambda: extensions.StepShift("lr", 0.5, 1),
        lambda: extensions.MultistepShift("lr", 0.5, [1, 2, 3], None),
    ],
)
def test_a_resumed_shift_reads_init_from_the_new_optimizer(kit, tmp_path, make):
    reference = _values(kit, make(), 4, lr=0.8)
    shift = make()
    _values(kit, shift, 2, lr=0.8)
    serializers.save_npz(tmp_path / "s.npz", shift)
    resumed = make()
    serializers.load_npz(tmp_path / "s.npz", resumed)
    assert _values(kit, resumed, 2, lr=0.8) == pytest.approx(reference[2:])


def test_other_attributes_and_the_trainers_main_optimizer(make_trainer):
    trainer = make_trainer((2, "epoch"))
    optimizer = trainer.updater.get_optimizer("main")
    shift = extensions.ExponentialShift("lr", 0.5)
    trainer.extend(shift, trigger=(1, "epoch"))
    trainer.run()
    assert optimizer.lr == pytest.approx(0.1 * 0.25)


@pytest.mark.parametrize(("make", "expected"), CASES)
def test_a_resumed_shift_sets_the_last_value_then_continues(kit, tmp_path, make, expected):
    optimizer = optimizers.MomentumSGD(lr=1.0).setup(kit.LinearRegression())
    shift = make()
    shift._optimizer = optimizer
    shift.initialize(None)
    shift(None)
    shift(None)
    serializers.save_npz(tmp_path / "s.npz", shift)
    fresh_optimizer = optimizers.MomentumSGD(lr=1.0).setup(kit.LinearRegression())
    resumed = make()
    serializers.load_npz(tmp_path / "s.npz", resumed)
    resumed._optimizer = fresh_optimizer
    resumed.initialize(None)
    values = [fresh_optimizer.lr]
    for _ in range(2):
        resumed(None)
        values.append(fresh_optimizer.lr)
    assert values == pytest.approx(expected[2:])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: extensions.ExponentialShift("lr", -0.5),
            "ExponentialShift does not support a negative rate, got -0.5",
        ),
        (
            lambda: extensions.InverseShift("lr", -1, 1),
            "InverseShift does not support a negative gamma, got -1",
        ),
        (
            lambda: extensions.PolynomialShift("lr", 1, 0),
            "PolynomialShift: max_count must be positive, got 0",
        ),
        (lambda: extensions.StepShift("lr", 0.1, 0), "StepShift: step must be positive, got 0"),
        (
            lambda: extensions.WarmupShift("lr", 0.1, 0, 1.0),
            "WarmupShift: warmup_iter must be positive, got 0",
        ),
    ],
)
def test_bad_arguments(make, message):
    with pytest.raises(ValueError, match=message):
        make()
