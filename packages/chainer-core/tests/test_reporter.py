"""chainer.reporter: Reporter, report, report_scope, Summary and DictSummary."""

from __future__ import annotations

import math
import threading

import numpy
import pytest

import chainer
from chainer import reporter as reporter_module
from chainer.reporter import DictSummary, Reporter, Summary, get_current_reporter, report
from chainer.serializers import DictionarySerializer, NpzDeserializer, load_npz, save_npz

# -- Reporter -------------------------------------------------------------------------------


def test_docs_example():
    reporter = Reporter()
    observer = object()
    reporter.add_observer("my_observer:", observer)
    observation = {}
    with reporter.scope(observation):
        reporter.report({"x": 1}, observer)
    assert observation == {"my_observer:/x": 1}
    observation = {}
    with reporter.scope(observation):
        report({"x": 1}, observer)
    assert observation == {"my_observer:/x": 1}


def test_report_without_observer_keeps_keys():
    reporter = Reporter()
    observation = {}
    with reporter.scope(observation):
        report({"loss": 0.5, "main/acc": 1.0})
    assert observation == {"loss": 0.5, "main/acc": 1.0}


def test_add_observers_follows_link_naming_rule():
    reporter = Reporter()
    root, predictor, layer = object(), object(), object()
    reporter.add_observer("main", root)
    reporter.add_observers("main", [("/predictor", predictor), ("/predictor/l1", layer)])
    observation = {}
    with reporter.scope(observation):
        report({"loss": 1.0, "accuracy": 0.5}, root)
        report({"sum_y": 3.0}, predictor)
        report({"w": 2.0}, layer)
    assert observation == {
        "main/loss": 1.0,
        "main/accuracy": 0.5,
        "main/predictor/sum_y": 3.0,
        "main/predictor/l1/w": 2.0,
    }


def test_unregistered_observer_is_key_error():
    reporter = Reporter()
    with pytest.raises(KeyError, match=r"is not registered to the reporter.*add_observer"):
        reporter.report({"x": 1}, object())


def test_values_must_be_a_mapping():
    with pytest.raises(TypeError, match=r"expects a dict of name to value, got list"):
        Reporter().report([("x", 1)])


def test_current_reporter_is_a_stack():
    outer, inner = Reporter(), Reporter()
    with outer:
        assert get_current_reporter() is outer
        with inner as entered:
            assert entered is inner
            assert get_current_reporter() is inner
        assert get_current_reporter() is outer


def test_no_current_reporter():
    with pytest.raises(IndexError, match=r"no reporter is current in this thread"):
        get_current_reporter()
    with pytest.raises(IndexError, match=r"no reporter is current"):
        with reporter_module.report_scope({}):
            pass


def test_report_outside_any_reporter_does_nothing():
    reporter = Reporter()
    report({"x": 1})
    assert reporter.observation == {}


def test_scope_restores_previous_observation_after_error():
    reporter = Reporter()
    base = reporter.observation
    with pytest.raises(RuntimeError, match="boom"), reporter.scope({}):
        raise RuntimeError("boom")
    assert reporter.observation is base
    with pytest.raises(IndexError):
        get_current_reporter()


def test_report_scope_redirects_current_reporter():
    reporter = Reporter()
    outer, inner = {}, {}
    with reporter.scope(outer):
        report({"a": 1})
        with reporter_module.report_scope(inner):
            report({"b": 2})
        report({"c": 3})
    assert outer == {"a": 1, "c": 3}
    assert inner == {"b": 2}


def test_current_reporter_is_thread_local():
    seen = []

    def worker():
        try:
            get_current_reporter()
        except IndexError:
            seen.append("none")
        report({"from_thread": 1})  # no reporter here: a no-op

    observation = {}
    with Reporter().scope(observation):
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
    assert seen == ["none"]
    assert observation == {}


def _variable_with_graph():
    x = chainer.Variable(numpy.array([1.0, 2.0], dtype=numpy.float32))
    y = x * 3
    assert y.creator is not None
    return y


def test_reported_variable_is_cut_from_graph_by_default():
    y = _variable_with_graph()
    observation = {}
    with Reporter().scope(observation):
        report({"y": y, "n": 4})
    stored = observation["y"]
    assert stored is not y
    assert stored.array is y.array
    assert stored.creator is None
    assert y.creator is not None
    assert observation["n"] == 4


def test_keep_graph_on_report_stores_variable_as_is():
    y = _variable_with_graph()
    observation = {}
    with chainer.using_config("keep_graph_on_report", True), Reporter().scope(observation):
        report({"y": y})
    assert observation["y"] is y


# -- Summary --------------------------------------------------------------------------------

_VALUES = [1.0, 4.0, 2.5, -3.0]
_WEIGHTS = [1, 2, 0.5, 3]


def _weighted_stats(values, weights):
    values, weights = numpy.asarray(values, float), numpy.asarray(weights, float)
    mean = (values * weights).sum() / weights.sum()
    std = math.sqrt(((values - mean) ** 2 * weights).sum() / weights.sum())
    return mean, std


@pytest.mark.parametrize(
    "wrap",
    [
        float,
        numpy.float64,
        lambda v: numpy.array(v),
        lambda v: chainer.Variable(numpy.array(v)),
    ],
)
def test_summary_weighted_mean_and_std(wrap):
    summary = Summary()
    for value, weight in zip(_VALUES, _WEIGHTS):
        summary.add(wrap(value), weight=weight)
    mean, std = _weighted_stats(_VALUES, _WEIGHTS)
    assert float(summary.compute_mean()) == pytest.approx(mean, rel=1e-12)
    got_mean, got_std = summary.make_statistics()
    assert float(got_mean) == pytest.approx(mean, rel=1e-12)
    assert float(got_std) == pytest.approx(std, rel=1e-12)


def test_summary_default_weight_is_one():
    summary = Summary()
    for value in (2.0, 4.0, 9.0):
        summary.add(value)
    assert summary.compute_mean() == pytest.approx(5.0)
    assert float(summary.make_statistics()[1]) == pytest.approx(numpy.std([2.0, 4.0, 9.0]))


def test_summary_std_of_constant_values_is_zero_not_nan():
    # For 0.1 the float sums make E[x^2] - E[x]^2 come out slightly below zero.
    values = [0.1] * 3
    x = sum(values)
    assert sum(v * v for v in values) / 3 - (x / 3) ** 2 < 0
    summary = Summary()
    for value in values:
        summary.add(value)
    assert float(summary.make_statistics()[1]) == 0.0


def test_empty_summary_is_an_error():
    with pytest.raises(ZeroDivisionError, match="the summary is empty"):
        Summary().compute_mean()
    with pytest.raises(ZeroDivisionError, match="the summary is empty"):
        Summary().make_statistics()


def _round_trip(source, target):
    serializer = DictionarySerializer()
    source.serialize(serializer)
    target.serialize(NpzDeserializer(serializer.target))


def test_summary_serialization_resumes_accumulation():
    full, first_half, resumed = Summary(), Summary(), Summary()
    for value, weight in zip(_VALUES, _WEIGHTS):
        full.add(value, weight)
    for value, weight in zip(_VALUES[:2], _WEIGHTS[:2]):
        first_half.add(value, weight)
    _round_trip(first_half, resumed)
    for value, weight in zip(_VALUES[2:], _WEIGHTS[2:]):
        resumed.add(value, weight)
    assert float(resumed.compute_mean()) == pytest.approx(float(full.compute_mean()))
    assert float(resumed.make_statistics()[1]) == pytest.approx(float(full.make_statistics()[1]))


def test_summary_serialization_keeps_fractional_total_weight():
    source, target = Summary(), Summary()
    source.add(3.0, weight=0.5)
    _round_trip(source, target)
    assert target.compute_mean() == pytest.approx(3.0)


def test_summary_load_without_statistics_warns_and_keeps_state():
    summary = Summary()
    summary.add(2.0)
    with pytest.warns(UserWarning, match="The previous statistics are not saved."):
        summary.serialize(NpzDeserializer({}))
    assert summary.compute_mean() == 2.0


def test_summary_non_strict_load_keeps_missing_sums():
    summary = Summary()
    summary.add(2.0)
    summary.serialize(NpzDeserializer({}, strict=False))
    assert summary.compute_mean() == 2.0


# -- DictSummary ----------------------------------------------------------------------------


def test_dict_summary_means_and_statistics():
    summary = DictSummary()
    summary.add({"main/loss": 1.0, "accuracy": 0.5, "array": numpy.ones(3), "name": "x"})
    summary.add({"main/loss": numpy.float32(3.0), "accuracy": (1.0, 3)})
    summary.add({"main/loss": chainer.Variable(numpy.array(5.0)), "other": [1, 2]})
    means = summary.compute_mean()
    assert set(means) == {"main/loss", "accuracy"}
    assert float(means["main/loss"]) == pytest.approx(3.0)
    assert float(means["accuracy"]) == pytest.approx((0.5 + 3 * 1.0) / 4)
    stats = summary.make_statistics()
    assert set(stats) == {"main/loss", "main/loss.std", "accuracy", "accuracy.std"}
    assert float(stats["main/loss.std"]) == pytest.approx(numpy.std([1.0, 3.0, 5.0]))
    _, accuracy_std = _weighted_stats([0.5, 1.0], [1, 3])
    assert float(stats["accuracy.std"]) == pytest.approx(accuracy_std)


def test_dict_summary_variable_weight():
    summary = DictSummary()
    summary.add({"x": (2.0, chainer.Variable(numpy.array(3.0)))})
    summary.add({"x": (6.0, 1)})
    assert float(summary.compute_mean()["x"]) == pytest.approx((6.0 + 6.0) / 4)


def test_dict_summary_rejects_non_scalar_weight():
    with pytest.raises(ValueError, match=r"the weight given for 'x' must be a scalar or a 0-d"):
        DictSummary().add({"x": (1.0, numpy.ones(2))})


def test_dict_summary_empty():
    assert DictSummary().compute_mean() == {}
    assert DictSummary().make_statistics() == {}


def _filled_dict_summary():
    summary = DictSummary()
    summary.add({"main/loss": 1.0, "validation/main/accuracy": 0.25})
    summary.add({"main/loss": 2.0, "validation/main/accuracy": (0.75, 3)})
    return summary


def test_dict_summary_serialization_round_trip(tmp_path):
    source = _filled_dict_summary()
    target = DictSummary()
    target.add({"stale": 9.0})  # loading replaces every summary
    save_npz(tmp_path / "summary.npz", source)
    load_npz(tmp_path / "summary.npz", target)
    assert target.make_statistics() == pytest.approx(source.make_statistics())
    assert list(target.compute_mean()) == ["main/loss", "validation/main/accuracy"]
    source.add({"main/loss": 6.0})
    target.add({"main/loss": 6.0})
    assert target.compute_mean() == pytest.approx(source.compute_mean())


def test_dict_summary_load_without_names_warns_and_starts_afresh():
    summary = _filled_dict_summary()
    with pytest.warns(UserWarning, match="The names of statistics are not saved."):
        summary.serialize(NpzDeserializer({}))
    assert summary.compute_mean() == {}  # as v7: an older file's statistics are not mixed in
    summary.add({"a": 2.0})
    assert summary.compute_mean() == {"a": 2.0}


@pytest.mark.gpu
def test_summary_stays_on_gpu():
    cupy = pytest.importorskip("cupy")
    if not cupy.is_available():
        pytest.skip("no CUDA device")
    summary = DictSummary()
    for value in (1.0, 2.0, 6.0):
        summary.add({"x": cupy.asarray(value, dtype=cupy.float32)})
    stats = summary.make_statistics()
    assert isinstance(stats["x"], cupy.ndarray)
    assert isinstance(stats["x.std"], cupy.ndarray)
    assert float(stats["x"]) == pytest.approx(3.0)
    assert float(stats["x.std"]) == pytest.approx(numpy.std([1.0, 2.0, 6.0]), rel=1e-5)
