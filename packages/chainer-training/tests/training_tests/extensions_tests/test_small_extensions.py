"""FailOnNonNumber, MicroAverage, observe_value / observe_lr, ParameterStatistics,
unchain_variables."""

import numpy
import pytest

import chainer
from chainer import serializers, training
from chainer.training import extensions


def test_fail_on_nonnumber_stops_a_diverging_training(make_trainer):
    trainer = make_trainer((5, "iteration"))

    @training.make_extension(priority=training.PRIORITY_WRITER)
    def diverge_at_two(t):
        if t.updater.iteration == 2:
            t.updater.get_optimizer("main").target.head.b.array[1] = numpy.inf

    trainer.extend(diverge_at_two)
    trainer.extend(extensions.FailOnNonNumber())
    with pytest.raises(RuntimeError, match="in optimizer 'main' diverge \\(parameter '/head/b'"):
        trainer.run(show_loop_exception_msg=False)
    assert trainer.updater.iteration == 2


def test_fail_on_nonnumber_passes_finite_parameters(make_trainer):
    trainer = make_trainer((3, "iteration"))
    trainer.extend(extensions.FailOnNonNumber())
    trainer.run()


def test_micro_average_is_the_ratio_of_sums(kit, tmp_path):
    trainer = kit.StubTrainer()
    average = extensions.MicroAverage("correct", "total", "accuracy", trigger=(3, "iteration"))
    assert average.priority == training.PRIORITY_EDITOR
    reported = []
    reporter = chainer.Reporter()
    samples = [(3, 4), (1, 4), (2, 2), (0, 4), (4, 4), (1, 1)]
    for index, (correct, total) in enumerate(samples):
        trainer.updater.step()
        trainer.observation = {
            "correct": numpy.int64(correct),
            "total": chainer.Variable(numpy.array(total)),
        }
        observation = {}
        with reporter.scope(observation):
            average(trainer)
        reported.append(observation.get("accuracy"))
        if index == 3:
            serializers.save_npz(tmp_path / "m.npz", average)
    assert reported == [None, None, 6 / 10, None, None, 5 / 9]
    restored = extensions.MicroAverage("correct", "total", "accuracy", trigger=(3, "iteration"))
    serializers.load_npz(tmp_path / "m.npz", restored)
    assert (restored._numerator, restored._denominator) == (0, 4)


def test_observe_value_and_observe_lr(make_trainer):
    trainer = make_trainer((2, "epoch"), lr=0.25)
    lr_ext = extensions.observe_lr()
    assert lr_ext.trigger == (1, "epoch") and lr_ext.priority == training.PRIORITY_WRITER
    trainer.extend(lr_ext)
    trainer.extend(
        extensions.observe_value("iter_x2", lambda t: 2 * t.updater.iteration),
        trigger=(3, "iteration"),
    )
    trainer.extend(extensions.ExponentialShift("lr", 0.5), trigger=(1, "epoch"))
    seen = []
    trainer.extend(
        lambda t: seen.append({k: t.observation.get(k) for k in ("lr", "iter_x2")}), name="spy"
    )
    trainer.run()
    # lr is observed before the shift (WRITER runs first) at each epoch end.
    assert [s["lr"] for s in seen if s["lr"] is not None] == [0.25, 0.125]
    assert [s["iter_x2"] for s in seen if s["iter_x2"] is not None] == [6, 12, 18, 24]


def test_parameter_statistics_reports_interval_means(make_trainer):
    trainer = make_trainer((4, "iteration"))
    model = trainer.updater.get_optimizer("main").target
    snapshots = []

    @training.make_extension(priority=training.PRIORITY_WRITER + 1)
    def record(t):
        snapshots.append((model.W.array.copy(), model.W.grad.copy(), model.head.b.array.copy()))

    trainer.extend(record)
    stats = extensions.ParameterStatistics(
        [model, model.head], prefix="stats", trigger=(2, "iteration")
    )
    stats.register_statistics("absmax", lambda x: numpy.abs(x).max())
    trainer.extend(stats)
    seen = []
    trainer.extend(lambda t: seen.append(dict(t.observation)), name="spy")
    trainer.run()
    reported = seen[1]
    expected_mean = numpy.mean([s[0].mean() for s in snapshots[:2]])
    assert reported["stats/None/W/data/mean"] == pytest.approx(expected_mean, rel=1e-5)
    assert reported["stats/None/W/grad/absmax"] == pytest.approx(
        numpy.mean([numpy.abs(s[1]).max() for s in snapshots[:2]]), rel=1e-5
    )
    assert reported["stats/head/b/data/zeros"] == pytest.approx(0.0)
    percentiles = [reported[f"stats/None/W/data/percentile/{i}"] for i in range(7)]
    assert percentiles == sorted(percentiles)
    assert reported["stats/head/b/data/max"] == pytest.approx(
        numpy.mean([s[2].max() for s in snapshots[:2]]), rel=1e-5
    )
    assert reported["stats/None/head/b/data/max"] == reported["stats/head/b/data/max"]
    assert "stats/None/W/data/mean" not in seen[0]  # nothing is reported between triggers


def test_parameter_statistics_options(kit):
    model = kit.LinearRegression()
    model.W.array[0, 0] = numpy.nan
    stats = extensions.ParameterStatistics(
        model,
        statistics={"mean": numpy.mean},
        report_grads=False,
        skip_nan_params=True,
        trigger=(1, "iteration"),
    )
    trainer = kit.StubTrainer()
    trainer.updater.step()
    observation = {}
    with chainer.Reporter().scope(observation):
        stats(trainer)
    # A root link is named 'None' in the keys, as in Chainer v7.
    assert sorted(observation) == ["None/W/data/mean", "None/head/b/data/mean"]
    assert numpy.isnan(observation["None/W/data/mean"])
    assert extensions.ParameterStatistics(model, statistics=None)._statistics == {}
    with pytest.raises(
        ValueError, match="statistics must be a dict, 'default' or None, got 'all'"
    ):
        extensions.ParameterStatistics(model, statistics="all")


@pytest.mark.parametrize("skip_nan_params", [True, False])
def test_parameter_statistics_of_a_missing_gradient_are_nan(kit, skip_nan_params):
    model = kit.LinearRegression()  # no backward yet: the gradients are None
    stats = extensions.ParameterStatistics(
        model.head, report_params=False, skip_nan_params=skip_nan_params, trigger=(1, "iteration")
    )
    trainer = kit.StubTrainer()
    trainer.updater.step()
    observation = {}
    with chainer.Reporter().scope(observation):
        stats(trainer)
    assert model.head.b.grad is None
    percentiles = [key for key in observation if "/percentile" in key]
    # Skipped NaN statistics are one NaN each; computed ones give every percentile.
    assert len(percentiles) == (1 if skip_nan_params else 7)
    assert len(observation) == 5 + len(percentiles)
    for key, value in observation.items():
        assert key.startswith("head/b/grad/")
        if key.endswith("zeros") and not skip_nan_params:
            assert value == 0  # NaN is not zero
        else:
            assert numpy.isnan(value), key


def test_unchain_variables_frees_the_reported_graphs(make_trainer):
    trainer = make_trainer((2, "iteration"))
    creators = []

    @training.make_extension(priority=-1000)
    def after_unchain(t):
        creators.append(t.observation["main/loss"].creator)

    trainer.extend(after_unchain)
    trainer.extend(extensions.unchain_variables())
    with chainer.using_config("keep_graph_on_report", True):
        seen_graph = []
        trainer.extend(
            lambda t: seen_graph.append(t.observation["main/loss"].creator is not None),
            name="before",
        )
        trainer.run()
    assert seen_graph == [True, True]
    assert creators == [None, None]
