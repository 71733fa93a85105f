"""Trainer: the loop, extension registration, ordering, life cycle and serialization."""

import numpy
import pytest

import chainer
from chainer import serializers, training
from chainer.training import extensions


def test_run_calls_updates_until_the_stop_trigger(make_trainer, tmp_path):
    trainer = make_trainer((3, "epoch"))  # 24 examples, batch 4: 6 iterations per epoch
    assert trainer.is_before_training
    trainer.run()
    assert trainer.updater.iteration == 18 and trainer.updater.epoch == 3
    assert not trainer.is_before_training
    assert (tmp_path / "result").is_dir()
    assert trainer.elapsed_time > 0
    with pytest.raises(RuntimeError, match="cannot run the training loop of a trainer multiple"):
        trainer.run()


def test_observation_names_follow_the_link_hierarchy(make_trainer):
    trainer = make_trainer((1, "iteration"))
    seen = {}
    trainer.extend(lambda t: seen.update(t.observation), name="spy")
    trainer.run()
    assert sorted(seen) == ["main/head/bias_norm", "main/loss"]
    assert isinstance(seen["main/loss"], chainer.Variable)
    assert seen["main/loss"].creator is None  # reported values are cut from the graph


def test_elapsed_time_before_run_is_an_error(make_trainer):
    with pytest.raises(RuntimeError, match="training has not been started yet"):
        _ = make_trainer().elapsed_time


def test_extension_names_defaults_and_duplicates(make_trainer):
    trainer = make_trainer()

    def plain(trainer):
        pass

    def other(trainer):
        pass

    trainer.extend(plain)
    trainer.extend(other, name="custom")
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.Evaluator([], trainer.updater.get_optimizer("main").target))
    for name in ("plain", "custom", "LogReport", "LogReport_1", "LogReport_2", "validation"):
        assert trainer.get_extension(name).name == name
    with pytest.raises(ValueError, match="extension 'nope' not found; registered extensions:"):
        trainer.get_extension("nope")
    with pytest.raises(ValueError, match='the name "training" is reserved'):
        trainer.extend(plain, name="training")


def test_an_extension_without_a_name_is_refused(make_trainer):
    class Nameless:
        def __call__(self, trainer):
            pass

    with pytest.raises(TypeError, match="has no name: give extend\\(..., name=...\\)"):
        make_trainer().extend(Nameless())


def test_removed_and_unknown_keywords_are_refused(make_trainer):
    trainer = make_trainer()
    with pytest.raises(ValueError, match="invoke_before_training has been removed"):
        trainer.extend(lambda t: None, name="x", invoke_before_training=True)
    with pytest.raises(TypeError, match="unexpected keyword argument\\(s\\) 'trigers'"):
        trainer.extend(lambda t: None, name="x", trigers=(1, "epoch"))


def test_priorities_order_extensions_and_ties_keep_insertion_order(make_trainer):
    trainer = make_trainer((1, "iteration"))
    calls = []

    def recorder(label, priority=None):
        @training.make_extension(priority=priority)
        def record(trainer):
            calls.append(label)

        return record

    trainer.extend(recorder("reader-1"), name="a")
    trainer.extend(recorder("writer", training.PRIORITY_WRITER), name="b")
    trainer.extend(recorder("reader-2"), name="c")
    trainer.extend(recorder("editor", training.PRIORITY_EDITOR), name="d")
    trainer.extend(recorder("custom-500"), name="e", priority=500)
    trainer.run()
    assert calls == ["custom-500", "writer", "editor", "reader-1", "reader-2"]


def test_trigger_precedence_extend_then_extension_then_every_iteration(make_trainer):
    trainer = make_trainer((2, "epoch"))  # 12 iterations, 6 per epoch
    calls = {"given": [], "own": [], "plain": []}

    def epochly(label):
        @training.make_extension(trigger=(1, "epoch"))
        def record(trainer):
            calls[label].append(trainer.updater.iteration)

        return record

    trainer.extend(epochly("given"), name="given", trigger=(5, "iteration"))
    trainer.extend(epochly("own"), name="own")
    trainer.extend(lambda t: calls["plain"].append(t.updater.iteration), name="plain")
    trainer.run()
    assert calls == {"given": [5, 10], "own": [6, 12], "plain": list(range(1, 13))}


def test_call_before_training_runs_once_before_the_first_update(make_trainer):
    trainer = make_trainer((2, "iteration"))
    iterations = []
    trainer.extend(
        lambda t: iterations.append(t.updater.iteration),
        name="x",
        trigger=(1, "epoch"),
        call_before_training=True,
    )
    trainer.run()
    assert iterations == [0]


class _LifeCycle(training.Extension):
    def __init__(self, events, fail_at=None):
        self.events = events
        self.fail_at = fail_at

    def initialize(self, trainer):
        self.events.append(("initialize", trainer.updater.iteration))

    def __call__(self, trainer):
        self.events.append(("call", trainer.updater.iteration))
        if trainer.updater.iteration == self.fail_at:
            raise ValueError("planned failure")

    def on_error(self, trainer, exc, tb):
        self.events.append(("on_error", str(exc), tb is not None))

    def finalize(self):
        self.events.append(("finalize",))


def test_initialize_call_finalize_in_order(make_trainer):
    events = []
    trainer = make_trainer((2, "iteration"))
    trainer.extend(_LifeCycle(events))
    trainer.run()
    assert events == [("initialize", 0), ("call", 1), ("call", 2), ("finalize",)]


def test_errors_call_every_on_error_then_finalize_and_propagate(make_trainer, capsys):
    events, other = [], []
    trainer = make_trainer((5, "iteration"))
    trainer.extend(_LifeCycle(events, fail_at=2))

    @training.make_extension(on_error=lambda t, e, tb: other.append("handled"))
    def failing_handler_owner(trainer):
        pass

    def broken_handler(trainer, exc, tb):
        raise OSError("handler broke")

    broken = training.make_extension(on_error=broken_handler)(lambda t: None)
    trainer.extend(failing_handler_owner)
    trainer.extend(broken, name="broken")
    with pytest.raises(ValueError, match="planned failure"):
        trainer.run()
    assert events[-2:] == [("on_error", "planned failure", True), ("finalize",)]
    assert other == ["handled"]
    err = capsys.readouterr().err
    assert "Exception in main training loop: planned failure" in err
    assert "Will finalize trainer extensions and updater before reraising" in err
    assert "Exception in error handler: handler broke" in err


def test_the_loop_message_can_be_silenced(make_trainer, capsys):
    trainer = make_trainer((3, "iteration"))
    trainer.extend(_LifeCycle([], fail_at=1))
    with pytest.raises(ValueError, match="planned failure"):
        trainer.run(show_loop_exception_msg=False)
    assert capsys.readouterr().err == ""


def test_extensions_of_a_finished_trigger_are_not_initialized(make_trainer):
    events = []
    trainer = make_trainer((1, "iteration"))
    done = training.triggers.OnceTrigger()
    done(trainer)
    trainer.extend(_LifeCycle(events), trigger=done)
    trainer.run()
    assert events == [("finalize",)]


def test_extensions_argument_of_the_constructor(make_trainer, kit):
    trainer = make_trainer()
    other = training.Trainer(trainer.updater, extensions=[extensions.LogReport()])
    assert isinstance(other.get_extension("LogReport"), extensions.LogReport)


def test_serialize_round_trip_includes_extensions_triggers_and_elapsed_time(
    make_trainer, tmp_path
):
    trainer = make_trainer((4, "iteration"))
    log = extensions.LogReport(trigger=(2, "iteration"))
    trainer.extend(log)
    trainer.extend(lambda t: None, name="tick", trigger=(3, "iteration"))
    trainer.run()
    serializers.save_npz(tmp_path / "trainer.npz", trainer)
    with numpy.load(tmp_path / "trainer.npz") as archive:
        keys = set(archive.files)
        elapsed = float(archive["_snapshot_elapsed_time"])
    assert {
        "updater/iteration",
        "updater/model:main/W",
        "stop_trigger/previous_iteration",
        "extensions/LogReport/_log",
        "extension_triggers/tick/previous_iteration",
        "extension_triggers/LogReport/previous_iteration",
    } <= keys
    assert elapsed == trainer.elapsed_time
    restored = make_trainer((4, "iteration"))
    restored_log = extensions.LogReport(trigger=(2, "iteration"))
    restored.extend(restored_log)
    restored.extend(lambda t: None, name="tick", trigger=(3, "iteration"))
    serializers.load_npz(tmp_path / "trainer.npz", restored)
    assert restored.updater.iteration == 4
    assert restored_log.log == log.log
    assert restored._snapshot_elapsed_time == elapsed


def test_a_custom_updater_drives_the_trainer(kit, tmp_path):
    class HalvingUpdater(training.Updater):
        def __init__(self, optimizer):
            self.optimizer = optimizer
            self.iteration = 0

        def get_optimizer(self, name):
            return self.optimizer

        def get_all_optimizers(self):
            return {"main": self.optimizer}

        def update(self):
            for param in self.optimizer.target.params():
                param.array *= 0.5
            self.iteration += 1

        def serialize(self, serializer):
            self.iteration = serializer("iteration", self.iteration)

    model = kit.LinearRegression()
    W = model.W.array.copy()
    updater = HalvingUpdater(chainer.optimizers.SGD().setup(model))
    trainer = training.Trainer(updater, (3, "iteration"), out=str(tmp_path))
    trainer.run()
    numpy.testing.assert_array_equal(model.W.array, W / 8)
    base = training.Updater()
    base.connect_trainer(trainer)
    base.finalize()
    for call, name in (
        (lambda: base.get_optimizer("main"), "get_optimizer"),
        (base.get_all_optimizers, "get_all_optimizers"),
        (base.update, "update"),
        (lambda: base.serialize(None), "serialize"),
    ):
        with pytest.raises(NotImplementedError, match=f"Updater must implement {name}"):
            call()
    with pytest.raises(NotImplementedError, match="_Plain must implement __call__"):

        class _Plain(training.Extension):
            pass

        _Plain()(trainer)


def test_restoring_extensions_are_initialized_before_the_others(make_trainer):
    order = []

    class Recorder(training.Extension):
        def __init__(self, label, priority, autoload=False):
            self.label, self.priority, self.autoload = label, priority, autoload

        def initialize(self, trainer):
            order.append(self.label)

        def __call__(self, trainer):
            pass

    trainer = make_trainer((1, "iteration"))
    trainer.extend(Recorder("writer", training.PRIORITY_WRITER), name="w")
    trainer.extend(Recorder("restorer", -100, autoload=True), name="r")
    trainer.extend(Recorder("reader", training.PRIORITY_READER), name="x")
    trainer.run()
    assert order == ["restorer", "writer", "reader"]
