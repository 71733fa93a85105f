"""PlotReport and VariableStatisticsPlot: the PNG files and the data they show."""

import os

import numpy
import pytest

from chainer import serializers
from chainer.training import extensions
from chainer.training.extensions import _plotting


def _read_png(path):
    matplotlib_image = pytest.importorskip("matplotlib.image")
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    return matplotlib_image.imread(path)


def _has_color(image):
    # The plotted lines are blue: some pixels have much more blue than red.
    rgb = image[..., :3]
    return bool(numpy.any(rgb[..., 2] - rgb[..., 0] > 0.3))


def test_plot_report_draws_interval_means(make_trainer, tmp_path):
    pytest.importorskip("matplotlib")
    trainer = make_trainer((3, "epoch"))
    losses = []
    trainer.extend(lambda t: losses.append(float(t.observation["main/loss"].array)), name="rec")
    drawn = []

    def postprocess(figure, axes, summary):
        drawn.append([line.get_xydata().tolist() for line in axes.get_lines()])

    trainer.extend(
        extensions.PlotReport(
            ["main/loss", "missing/key"], "epoch", postprocess=postprocess, filename="loss.png"
        )
    )
    trainer.run()
    means = [numpy.mean(losses[i : i + 6]) for i in (0, 6, 12)]
    assert len(drawn) == 3
    numpy.testing.assert_allclose(
        drawn[-1][0], [[1, means[0]], [2, means[1]], [3, means[2]]], rtol=1e-6
    )
    assert len(drawn[-1]) == 1  # a key never observed draws nothing
    image = _read_png(tmp_path / "result" / "loss.png")
    assert image.ndim == 3 and image.shape[0] > 100 and image.shape[1] > 100
    assert _has_color(image)
    assert sorted(os.listdir(tmp_path / "result")) == ["loss.png"]


def test_plot_report_format_follows_the_extension_and_file_name_is_the_old_keyword(
    make_trainer, tmp_path
):
    pytest.importorskip("matplotlib")
    trainer = make_trainer((1, "epoch"))
    trainer.extend(extensions.PlotReport("main/loss", file_name="loss.svg"))
    trainer.run()
    with open(tmp_path / "result" / "loss.svg") as f:
        assert "<svg" in f.read()


def test_plot_report_points_survive_a_resume(make_trainer, tmp_path):
    pytest.importorskip("matplotlib")
    trainer = make_trainer((2, "epoch"))
    report = extensions.PlotReport("main/loss", trigger=(1, "epoch"))
    trainer.extend(report)
    trainer.run()
    serializers.save_npz(tmp_path / "plot.npz", report)
    restored = extensions.PlotReport("main/loss", trigger=(1, "epoch"))
    serializers.load_npz(tmp_path / "plot.npz", restored)
    assert restored._data == report._data and len(report._data["main/loss"]) == 2


def test_without_matplotlib_plots_are_skipped_with_one_warning(
    make_trainer, monkeypatch, tmp_path
):
    monkeypatch.setattr(
        _plotting, "_state", {"matplotlib": None, "checked": True, "warned": False}
    )
    with pytest.warns(UserWarning, match="matplotlib is not installed") as record:
        report = extensions.PlotReport("main/loss")
        plot = extensions.VariableStatisticsPlot(
            make_trainer().updater.get_optimizer("main").target
        )
        assert not extensions.PlotReport.available()
    assert len(record) == 1
    trainer = make_trainer((1, "epoch"))
    trainer.extend(report)
    trainer.extend(plot)
    trainer.run()
    assert os.listdir(tmp_path / "result") == []


class _RecordingPyplot:
    """Keeps the figure drawn by save_plot_using_module for inspection."""

    figures = []

    @classmethod
    def subplots(cls, *args, **kwargs):
        figure, axes = _plotting.AggPyplot.subplots(*args, **kwargs)
        cls.figures.append(figure)
        return figure, axes

    @staticmethod
    def close(figure):
        pass


def test_variable_statistics_plot_draws_the_statistics_of_every_iteration(make_trainer, tmp_path):
    pytest.importorskip("matplotlib")
    trainer = make_trainer((1, "epoch"))
    model = trainer.updater.get_optimizer("main").target
    history = []
    trainer.extend(
        lambda t: history.append(numpy.concatenate([model.W.array.ravel(), model.head.b.array])),
        name="rec",
    )
    plot = extensions.VariableStatisticsPlot(model, percentile_sigmas=(0, 50, 100))
    trainer.extend(plot)
    trainer.run()
    image = _read_png(tmp_path / "result" / "statistics.png")
    assert _has_color(image)
    _RecordingPyplot.figures.clear()
    plot.save_plot_using_module(str(tmp_path / "again.png"), _RecordingPyplot)
    (figure,) = _RecordingPyplot.figures
    data_mean, grad_mean, data_percentiles, _ = figure.axes
    assert [data_mean.get_title(), grad_mean.get_title()] == ["data", "grad"]
    numpy.testing.assert_allclose(
        data_mean.get_lines()[0].get_ydata(), [h.mean() for h in history], rtol=1e-5
    )
    median = data_percentiles.get_lines()[0]
    numpy.testing.assert_allclose(median.get_xdata(), numpy.arange(1, 7))
    numpy.testing.assert_allclose(
        median.get_ydata(), [numpy.median(h) for h in history], rtol=1e-5
    )
    assert os.path.getsize(tmp_path / "again.png") > 0


def test_variable_statistics_plot_arguments_are_checked(kit):
    with pytest.raises(ValueError, match="needs at least one link or variable"):
        extensions.VariableStatisticsPlot([])
    with pytest.raises(TypeError, match="targets must be Links or Variables .* got int"):
        extensions.VariableStatisticsPlot([3])
    with pytest.raises(ValueError, match="nothing to plot: enable plot_mean or plot_std"):
        extensions.VariableStatisticsPlot(
            kit.LinearRegression(), plot_mean=False, plot_std=False, percentile_sigmas=()
        )


def test_reservoir_keeps_a_uniform_sample_in_index_order():
    from chainer.training.extensions.variable_statistics_plot import Reservoir

    reservoir = Reservoir(size=3, data_shape=(2,))
    for i in range(3):
        reservoir.add(numpy.full(2, i))
    idxs, data = reservoir.get_data()
    assert idxs.tolist() == [0, 1, 2] and data[:, 0].tolist() == [0, 1, 2]
    counts = numpy.zeros(50)
    for i in range(3, 50):
        reservoir.add(numpy.full(2, i), idx=i)
    idxs, data = reservoir.get_data()
    assert len(idxs) == 3 and list(idxs) == sorted(idxs)
    assert (data[:, 0] == idxs).all()
    # Over many reservoirs every element is about equally likely to stay (3 of 50).
    for seed in range(400):
        sample = Reservoir(size=3, data_shape=())
        sample._random = numpy.random.default_rng(seed)
        for i in range(50):
            sample.add(i)
        counts[sample.get_data()[0]] += 1
    assert counts.sum() == 1200 and counts.min() > 5 and counts.max() < 45


def test_statistician_matches_numpy():
    from chainer.training.extensions.variable_statistics_plot import Statistician

    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 7, 3))
    stats = Statistician(True, True, (0.0, 50.0, 100.0))(x, axis=None, dtype=numpy.float32)
    assert all(value.dtype == numpy.float32 for value in stats.values())
    numpy.testing.assert_allclose(stats["mean"], x.mean(), rtol=1e-6)
    numpy.testing.assert_allclose(stats["std"], x.std(), rtol=1e-6)
    numpy.testing.assert_allclose(stats["percentile"], [x.min(), numpy.median(x), x.max()], 1e-6)
    by_row = Statistician(False, True, None)(x, axis=(1, 2))
    assert sorted(by_row) == ["std"] and by_row["std"].dtype == numpy.float64
    numpy.testing.assert_allclose(by_row["std"], x.reshape(2, -1).std(axis=1))
