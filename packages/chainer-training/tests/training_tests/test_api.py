"""Public surface: the names, modules, signatures, defaults and members of Chainer 7.8."""

# ruff: noqa: E501 (the signatures below are quoted verbatim, one per line)

import importlib
import inspect
import re

import pytest

from chainer.dataset import concat_examples

# From Chainer 7.8.1's public API (non-literal defaults shown as <converter> / <stdout>).
SPEC = {
    "chainer.training": {
        "Extension": (
            "class",
            "chainer.training.extension",
            "()",
            {
                "__call__": "method",
                "default_name": "property",
                "finalize": "method",
                "initialize": "method",
                "name": "attribute",
                "on_error": "method",
                "priority": "attribute",
                "serialize": "method",
                "trigger": "attribute",
            },
        ),
        "IntervalTrigger": (
            "class",
            "chainer.training.triggers.interval_trigger",
            "(period, unit)",
            {
                "__call__": "method",
                "__init__": "method",
                "get_training_length": "method",
                "serialize": "method",
            },
        ),
        "PRIORITY_EDITOR": ("value",),
        "PRIORITY_READER": ("value",),
        "PRIORITY_WRITER": ("value",),
        "ParallelUpdater": (
            "class",
            "chainer.training.updaters.parallel_updater",
            "(iterator, optimizer, converter=<converter>, models=None, devices=None, loss_func=None, loss_scale=None, auto_new_epoch=True)",
            {"__init__": "method", "connect_trainer": "method", "update_core": "method"},
        ),
        "StandardUpdater": (
            "class",
            "chainer.training.updaters.standard_updater",
            "(iterator, optimizer, converter=<converter>, device=None, loss_func=None, loss_scale=None, auto_new_epoch=True, **kwargs)",
            {
                "__init__": "method",
                "device": "property",
                "epoch": "property",
                "epoch_detail": "property",
                "finalize": "method",
                "get_all_optimizers": "method",
                "get_iterator": "method",
                "get_optimizer": "method",
                "input_device": "property",
                "is_new_epoch": "property",
                "previous_epoch_detail": "property",
                "serialize": "method",
                "update": "method",
                "update_core": "method",
            },
        ),
        "Trainer": (
            "class",
            "chainer.training.trainer",
            "(updater, stop_trigger=None, out='result', extensions=None)",
            {
                "__init__": "method",
                "elapsed_time": "property",
                "extend": "method",
                "get_extension": "method",
                "is_before_training": "property",
                "run": "method",
                "serialize": "method",
            },
        ),
        "Updater": (
            "class",
            "chainer.training._updater",
            "()",
            {
                "connect_trainer": "method",
                "finalize": "method",
                "get_all_optimizers": "method",
                "get_optimizer": "method",
                "serialize": "method",
                "update": "method",
            },
        ),
        "extension": ("module",),
        "extensions": ("module",),
        "get_trigger": ("function", "chainer.training.util", "(trigger)", {}),
        "make_extension": (
            "function",
            "chainer.training.extension",
            "(trigger=None, default_name=None, priority=None, finalizer=None, initializer=None, on_error=None, **kwargs)",
            {},
        ),
        "trainer": ("module",),
        "trigger": ("module",),
        "triggers": ("module",),
        "updater": ("module",),
        "updaters": ("module",),
        "util": ("module",),
    },
    "chainer.training.extensions": {
        "DumpGraph": (
            "class",
            "chainer.training.extensions.computational_graph",
            "(root_name, filename=None, variable_style=None, function_style=None, **kwargs)",
            {
                "__call__": "method",
                "__init__": "method",
                "default_name": "attribute",
                "initialize": "method",
                "serialize": "method",
                "trigger": "method",
            },
        ),
        "Evaluator": (
            "class",
            "chainer.training.extensions.evaluator",
            "(iterator, target, converter=<converter>, device=None, eval_hook=None, eval_func=None, **kwargs)",
            {
                "__call__": "method",
                "__init__": "method",
                "default_name": "attribute",
                "evaluate": "method",
                "finalize": "method",
                "get_all_iterators": "method",
                "get_all_targets": "method",
                "get_iterator": "method",
                "get_target": "method",
                "name": "attribute",
                "priority": "attribute",
                "trigger": "attribute",
            },
        ),
        "ExponentialShift": (
            "class",
            "chainer.training.extensions.exponential_shift",
            "(attr, rate, init=None, target=None, optimizer=None)",
            {
                "__call__": "method",
                "__init__": "method",
                "initialize": "method",
                "serialize": "method",
            },
        ),
        "FailOnNonNumber": (
            "class",
            "chainer.training.extensions.fail_on_nonnumber",
            "()",
            {"__call__": "method"},
        ),
        "InverseShift": (
            "class",
            "chainer.training.extensions.inverse_shift",
            "(attr, gamma, power, init=None, target=None, optimizer=None)",
            {
                "__call__": "method",
                "__init__": "method",
                "initialize": "method",
                "serialize": "method",
            },
        ),
        "LinearShift": (
            "class",
            "chainer.training.extensions.linear_shift",
            "(attr, value_range, time_range, optimizer=None)",
            {
                "__call__": "method",
                "__init__": "method",
                "initialize": "method",
                "serialize": "method",
            },
        ),
        "LogReport": (
            "class",
            "chainer.training.extensions.log_report",
            "(keys=None, trigger=(1, 'epoch'), postprocess=None, filename=None, **kwargs)",
            {"__call__": "method", "__init__": "method", "log": "property", "serialize": "method"},
        ),
        "MicroAverage": (
            "class",
            "chainer.training.extensions.micro_average",
            "(numerator_key, denominator_key, result_key, trigger=(1, 'epoch'))",
            {
                "__call__": "method",
                "__init__": "method",
                "priority": "attribute",
                "serialize": "method",
            },
        ),
        "MultistepShift": (
            "class",
            "chainer.training.extensions.multistep_shift",
            "(attr, gamma, step_value, init, optimizer=None)",
            {
                "__call__": "method",
                "__init__": "method",
                "initialize": "method",
                "serialize": "method",
            },
        ),
        "ParameterStatistics": (
            "class",
            "chainer.training.extensions.parameter_statistics",
            "(links, statistics='default', report_params=True, report_grads=True, prefix=None, trigger=(1, 'epoch'), skip_nan_params=False)",
            {
                "__call__": "method",
                "__init__": "method",
                "default_name": "attribute",
                "default_statistics": "attribute",
                "priority": "attribute",
                "register_statistics": "method",
                "report_key_template": "attribute",
            },
        ),
        "PlotReport": (
            "class",
            "chainer.training.extensions.plot_report",
            "(y_keys, x_key='iteration', trigger=(1, 'epoch'), postprocess=None, filename=None, marker='x', grid=True, **kwargs)",
            {
                "__call__": "method",
                "__init__": "method",
                "available": "staticmethod",
                "serialize": "method",
            },
        ),
        "PolynomialShift": (
            "class",
            "chainer.training.extensions.polynomial_shift",
            "(attr, rate, max_count, init=None, target=None, optimizer=None)",
            {
                "__call__": "method",
                "__init__": "method",
                "initialize": "method",
                "invoke_before_training": "attribute",
                "serialize": "method",
            },
        ),
        "PrintReport": (
            "class",
            "chainer.training.extensions.print_report",
            "(entries, log_report='LogReport', out=<stdout>)",
            {"__call__": "method", "__init__": "method", "serialize": "method"},
        ),
        "ProgressBar": (
            "class",
            "chainer.training.extensions.progress_bar",
            "(training_length=None, update_interval=100, bar_length=50, out=<stdout>)",
            {"__call__": "method", "__init__": "method", "finalize": "method"},
        ),
        "StepShift": (
            "class",
            "chainer.training.extensions.step_shift",
            "(attr, gamma, step, init=None, target=None, optimizer=None)",
            {
                "__call__": "method",
                "__init__": "method",
                "initialize": "method",
                "serialize": "method",
            },
        ),
        "VariableStatisticsPlot": (
            "class",
            "chainer.training.extensions.variable_statistics_plot",
            "(targets, max_sample_size=1000, report_data=True, report_grad=True, plot_mean=True, plot_std=True, percentile_sigmas=(0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100), trigger=(1, 'epoch'), filename=None, figsize=None, marker=None, grid=True, **kwargs)",
            {
                "__call__": "method",
                "__init__": "method",
                "available": "staticmethod",
                "save_plot_using_module": "method",
            },
        ),
        "WarmupShift": (
            "class",
            "chainer.training.extensions.warmup_shift",
            "(attr, warmup_start, warmup_iter, init, optimizer=None)",
            {
                "__call__": "method",
                "__init__": "method",
                "initialize": "method",
                "serialize": "method",
            },
        ),
        "computational_graph": ("module",),
        "dump_graph": (
            "class",
            "chainer.training.extensions.computational_graph",
            "(root_name, filename=None, variable_style=None, function_style=None, **kwargs)",
            {
                "__call__": "method",
                "__init__": "method",
                "default_name": "attribute",
                "initialize": "method",
                "serialize": "method",
                "trigger": "method",
            },
        ),
        "evaluator": ("module",),
        "exponential_shift": ("module",),
        "fail_on_nonnumber": ("module",),
        "inverse_shift": ("module",),
        "linear_shift": ("module",),
        "log_report": ("module",),
        "micro_average": ("module",),
        "multistep_shift": ("module",),
        "observe_lr": (
            "function",
            "chainer.training.extensions.value_observation",
            "(optimizer_name='main', observation_key='lr')",
            {},
        ),
        "observe_value": (
            "function",
            "chainer.training.extensions.value_observation",
            "(observation_key, target_func)",
            {},
        ),
        "parameter_statistics": ("module",),
        "plot_report": ("module",),
        "polynomial_shift": ("module",),
        "print_report": ("module",),
        "progress_bar": ("module",),
        "snapshot": (
            "function",
            "chainer.training.extensions._snapshot",
            "(savefun=None, filename='snapshot_iter_{.updater.iteration}', **kwargs)",
            {},
        ),
        "snapshot_object": (
            "function",
            "chainer.training.extensions._snapshot",
            "(target, filename, savefun=None, **kwargs)",
            {},
        ),
        "snapshot_writers": ("module",),
        "step_shift": ("module",),
        "unchain_variables": (
            "class",
            "chainer.training.extensions.variable_unchain",
            "()",
            {
                "__call__": "method",
                "__init__": "method",
                "initialize": "method",
                "priority": "attribute",
                "trigger": "method",
            },
        ),
        "util": ("module",),
        "value_observation": ("module",),
        "variable_statistics_plot": ("module",),
        "variable_unchain": ("module",),
        "warmup_shift": ("module",),
    },
    "chainer.training.triggers": {
        "BestValueTrigger": (
            "class",
            "chainer.training.triggers.minmax_value_trigger",
            "(key, compare, trigger=(1, 'epoch'))",
            {"__call__": "method", "__init__": "method", "serialize": "method"},
        ),
        "EarlyStoppingTrigger": (
            "class",
            "chainer.training.triggers.early_stopping_trigger",
            "(check_trigger=(1, 'epoch'), monitor='main/loss', patience=None, mode='auto', verbose=False, max_trigger=(100, 'epoch'), **kwargs)",
            {"__call__": "method", "__init__": "method", "get_training_length": "method"},
        ),
        "IntervalTrigger": (
            "class",
            "chainer.training.triggers.interval_trigger",
            "(period, unit)",
            {
                "__call__": "method",
                "__init__": "method",
                "get_training_length": "method",
                "serialize": "method",
            },
        ),
        "ManualScheduleTrigger": (
            "class",
            "chainer.training.triggers.manual_schedule_trigger",
            "(points, unit)",
            {"__call__": "method", "__init__": "method", "serialize": "method"},
        ),
        "MaxValueTrigger": (
            "class",
            "chainer.training.triggers.minmax_value_trigger",
            "(key, trigger=(1, 'epoch'))",
            {"__init__": "method"},
        ),
        "MinValueTrigger": (
            "class",
            "chainer.training.triggers.minmax_value_trigger",
            "(key, trigger=(1, 'epoch'))",
            {"__init__": "method"},
        ),
        "OnceTrigger": (
            "class",
            "chainer.training.triggers.once_trigger",
            "(call_on_resume=False)",
            {
                "__call__": "method",
                "__init__": "method",
                "finished": "property",
                "serialize": "method",
            },
        ),
        "TimeTrigger": (
            "class",
            "chainer.training.triggers.time_trigger",
            "(period)",
            {"__call__": "method", "__init__": "method", "serialize": "method"},
        ),
        "early_stopping_trigger": ("module",),
        "interval_trigger": ("module",),
        "manual_schedule_trigger": ("module",),
        "minmax_value_trigger": ("module",),
        "once_trigger": ("module",),
        "time_trigger": ("module",),
    },
    "chainer.training.updaters": {
        "MultiprocessParallelUpdater": (
            "class",
            "chainer.training.updaters.multiprocess_parallel_updater",
            "(iterators, optimizer, converter=<converter>, devices=None, auto_new_epoch=True, "
            "worker_timeout=None)",  # keyword only: an addition (v7 could wait forever)
            {
                "__init__": "method",
                "available": "staticmethod",
                "finalize": "method",
                "setup_workers": "method",
                "update_core": "method",
            },
        ),
        "ParallelUpdater": (
            "class",
            "chainer.training.updaters.parallel_updater",
            "(iterator, optimizer, converter=<converter>, models=None, devices=None, loss_func=None, loss_scale=None, auto_new_epoch=True)",
            {"__init__": "method", "connect_trainer": "method", "update_core": "method"},
        ),
        "StandardUpdater": (
            "class",
            "chainer.training.updaters.standard_updater",
            "(iterator, optimizer, converter=<converter>, device=None, loss_func=None, loss_scale=None, auto_new_epoch=True, **kwargs)",
            {
                "__init__": "method",
                "device": "property",
                "epoch": "property",
                "epoch_detail": "property",
                "finalize": "method",
                "get_all_optimizers": "method",
                "get_iterator": "method",
                "get_optimizer": "method",
                "input_device": "property",
                "is_new_epoch": "property",
                "previous_epoch_detail": "property",
                "serialize": "method",
                "update": "method",
                "update_core": "method",
            },
        ),
        "multiprocess_parallel_updater": ("module",),
        "parallel_updater": ("module",),
        "standard_updater": ("module",),
    },
}


def _kind_of_member(cls, name):
    static = inspect.getattr_static(cls, name)
    if isinstance(static, property):
        return "property"
    if isinstance(static, staticmethod):
        return "staticmethod"
    if inspect.isroutine(static):  # functions, and slot wrappers such as object.__init__
        return "method"
    return "attribute"


def _default_text(value):
    if value is concat_examples:
        return "<converter>"
    if hasattr(value, "write") and hasattr(value, "flush"):
        return "<stdout>"
    return repr(value)


def _plain_signature(obj):
    # The spec lists names and defaults only: drop annotations, name shared defaults.
    parts = []
    for param in inspect.signature(obj).parameters.values():
        text = str(
            param.replace(annotation=inspect.Parameter.empty, default=inspect.Parameter.empty)
        )
        if param.default is not inspect.Parameter.empty:
            text += "=" + _default_text(param.default)
        parts.append(text)
    text = "(" + ", ".join(parts) + ")"
    # A keyword-only marker is part of the text only when a named keyword-only follows.
    return re.sub(r", \*, \*\*", ", **", text)


CASES = [(module, name) for module, names in SPEC.items() for name in names]


@pytest.mark.parametrize(("module_name", "name"), CASES)
def test_name_matches_chainer(module_name, name):
    spec = SPEC[module_name][name]
    obj = getattr(importlib.import_module(module_name), name)
    kind = spec[0]
    if kind == "module":
        assert inspect.ismodule(obj)
        return
    if kind == "value":
        assert isinstance(obj, int)
        return
    _, module, signature, members = spec
    assert obj.__module__ == module
    assert _plain_signature(obj) == signature
    if kind == "class":
        assert inspect.isclass(obj)
        for member, member_kind in members.items():
            assert _kind_of_member(obj, member) == member_kind, member
    else:
        assert inspect.isfunction(obj)


@pytest.mark.parametrize("module_name", list(SPEC))
def test_all_lists_exactly_the_spec(module_name):
    module = importlib.import_module(module_name)
    assert sorted(module.__all__) == sorted(SPEC[module_name])


def test_priorities_order_writers_before_editors_before_readers():
    from chainer import training

    assert training.PRIORITY_WRITER > training.PRIORITY_EDITOR > training.PRIORITY_READER
    assert (training.PRIORITY_WRITER, training.PRIORITY_EDITOR, training.PRIORITY_READER) == (
        300,
        200,
        100,
    )


def test_old_module_paths_reexport_the_same_objects():
    from chainer import training
    from chainer.training import trigger, updater

    assert trigger.get_trigger is training.get_trigger
    assert trigger.IntervalTrigger is training.triggers.IntervalTrigger
    assert updater.StandardUpdater is training.updaters.StandardUpdater
    assert updater.ParallelUpdater is training.updaters.ParallelUpdater
    assert updater.Updater is training.Updater
    assert training.extensions.dump_graph is training.extensions.DumpGraph


def test_snapshot_writers_module_has_chainers_writers():
    from chainer.training.extensions import snapshot_writers as w

    for name in ("Writer", "SimpleWriter", "StandardWriter", "ThreadWriter", "ProcessWriter"):
        assert issubclass(getattr(w, name), w.Writer)
    for name in ("ThreadQueueWriter", "ProcessQueueWriter"):
        assert issubclass(getattr(w, name), w.QueueWriter)
