"""snapshot / snapshot_object and the snapshot writers."""

import os

import numpy
import pytest

from chainer import serializers
from chainer.training import extensions
from chainer.training.extensions import snapshot_writers

WRITERS = [
    snapshot_writers.SimpleWriter,
    snapshot_writers.ThreadWriter,
    snapshot_writers.ProcessWriter,
    snapshot_writers.ThreadQueueWriter,
    snapshot_writers.ProcessQueueWriter,
]


def _files(path):
    return sorted(os.listdir(path))


def test_snapshot_every_epoch_holds_the_whole_trainer(make_trainer, tmp_path):
    trainer = make_trainer((2, "epoch"))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.snapshot())
    trainer.run()
    out = tmp_path / "result"
    assert _files(out) == ["log", "snapshot_iter_12", "snapshot_iter_6"]
    resumed = make_trainer((2, "epoch"))
    log = extensions.LogReport()
    resumed.extend(log)
    resumed.extend(extensions.snapshot())
    serializers.load_npz(out / "snapshot_iter_12", resumed)
    assert resumed.updater.iteration == 12
    assert log.log == trainer.get_extension("LogReport").log
    model = trainer.updater.get_optimizer("main").target
    numpy.testing.assert_array_equal(
        resumed.updater.get_optimizer("main").target.W.array, model.W.array
    )


def test_snapshot_runs_after_the_other_extensions_of_its_iteration(make_trainer, tmp_path):
    trainer = make_trainer((1, "epoch"))
    trainer.extend(extensions.snapshot(filename="snap"))
    trainer.extend(extensions.LogReport())  # added later, still saved with its new entry
    trainer.run()
    with numpy.load(tmp_path / "result" / "snap") as archive:
        assert "iteration" in str(archive["extensions/LogReport/_log"])


def test_snapshot_object_template_and_callable_filename(make_trainer, tmp_path, kit):
    trainer = make_trainer((2, "epoch"))
    model = trainer.updater.get_optimizer("main").target
    trainer.extend(
        extensions.snapshot_object(model, "model_epoch-{.updater.epoch}"), trigger=(1, "epoch")
    )
    trainer.extend(
        extensions.snapshot_object(model.head, lambda t: f"head_{t.updater.iteration * 10}"),
        trigger=(1, "epoch"),
    )
    trainer.run()
    assert _files(tmp_path / "result") == ["head_120", "head_60", "model_epoch-1", "model_epoch-2"]
    loaded = kit.LinearRegression(seed=5)
    serializers.load_npz(tmp_path / "result" / "model_epoch-2", loaded)
    numpy.testing.assert_array_equal(loaded.W.array, model.W.array)


def test_condition_and_n_retains(make_trainer, tmp_path):
    trainer = make_trainer((30, "iteration"))
    calls = []

    def every_other():
        calls.append(True)
        return len(calls) % 2 == 0

    trainer.extend(
        extensions.snapshot(condition=every_other, n_retains=2), trigger=(3, "iteration")
    )
    trainer.run()
    # Fired at 3, 6, ..., 30; saved at 6, 12, 18, 24, 30; only the last two are kept.
    assert _files(tmp_path / "result") == ["snapshot_iter_24", "snapshot_iter_30"]


def test_autoload_resumes_from_the_latest_snapshot(make_trainer, tmp_path):
    first = make_trainer((9, "iteration"))
    first.extend(lambda t: None, name="spy")  # the same extensions as the resumed trainer
    first.extend(extensions.snapshot(autoload=True), trigger=(4, "iteration"))
    first.run()
    assert _files(tmp_path / "result") == ["snapshot_iter_4", "snapshot_iter_8"]
    second = make_trainer((12, "iteration"))
    seen = []
    second.extend(lambda t: seen.append(t.updater.iteration), name="spy")
    second.extend(extensions.snapshot(autoload=True), trigger=(4, "iteration"))
    second.run()
    assert seen == [9, 10, 11, 12]
    assert _files(tmp_path / "result") == [
        "snapshot_iter_12",
        "snapshot_iter_4",
        "snapshot_iter_8",
    ]


def test_autoload_without_files_starts_fresh(make_trainer):
    trainer = make_trainer((2, "iteration"))
    trainer.extend(extensions.snapshot(autoload=True))
    trainer.run()
    assert trainer.updater.iteration == 2


def test_snapshot_on_error_saves_the_state_at_the_failure(make_trainer, tmp_path):
    trainer = make_trainer((10, "iteration"))
    trainer.extend(
        extensions.snapshot(snapshot_on_error=True, filename="crash_{.updater.iteration}")
    )

    def fail(t):
        if t.updater.iteration == 3:
            raise KeyError("boom")

    trainer.extend(fail)
    with pytest.raises(KeyError, match="boom"):
        trainer.run(show_loop_exception_msg=False)
    assert _files(tmp_path / "result") == ["crash_3"]


def test_snapshot_argument_checks():
    with pytest.raises(TypeError, match="savefun and writer cannot be given together"):
        extensions.snapshot(savefun=serializers.save_npz, writer=snapshot_writers.SimpleWriter())
    with pytest.raises(
        TypeError, match="autoload and n_retains find snapshot files by the filename template"
    ):
        extensions.snapshot(filename=lambda t: "x", autoload=True)
    with pytest.raises(
        ValueError, match="give it to trainer.extend\\(extensions.snapshot\\(\\), trigger"
    ):
        extensions.snapshot(trigger=(1, "epoch"))
    with pytest.raises(ValueError, match="trigger argument of snapshot\\(\\) and snapshot_object"):
        extensions.snapshot_object(object(), "x", trigger=(1, "epoch"))
    with pytest.raises(TypeError, match="unexpected keyword argument\\(s\\) 'n_retain'"):
        extensions.snapshot(n_retain=3)
    with pytest.raises(NotImplementedError, match="fs \\(a pfio file system\\) is not supported"):
        snapshot_writers.SimpleWriter(fs=object())


@pytest.mark.parametrize("writer_class", WRITERS)
def test_every_writer_saves_loadable_snapshots(make_trainer, tmp_path, writer_class):
    trainer = make_trainer((2, "epoch"))
    writer = writer_class()
    trainer.extend(extensions.snapshot(writer=writer, n_retains=1))
    trainer.run()
    assert _files(tmp_path / "result") == ["snapshot_iter_12"]
    resumed = make_trainer((2, "epoch"))
    serializers.load_npz(tmp_path / "result" / "snapshot_iter_12", resumed)
    model = trainer.updater.get_optimizer("main").target
    numpy.testing.assert_array_equal(
        resumed.updater.get_optimizer("main").target.W.array, model.W.array
    )


def test_the_state_is_captured_when_the_snapshot_fires(make_trainer, tmp_path, kit):
    # The model changes right after the snapshot fires while a thread writes it.
    trainer = make_trainer((1, "iteration"))
    model = trainer.updater.get_optimizer("main").target
    trainer.extend(
        extensions.snapshot_object(model, "model", writer=snapshot_writers.ThreadWriter()),
        trigger=(1, "iteration"),
        priority=200,
    )
    at_snapshot = []

    def scramble(t):
        at_snapshot.append(model.W.array.copy())
        model.W.array[...] = 123.0

    trainer.extend(scramble, priority=-200)
    trainer.run()
    loaded = kit.LinearRegression(seed=9)
    serializers.load_npz(tmp_path / "result" / "model", loaded)
    numpy.testing.assert_array_equal(loaded.W.array, at_snapshot[0])


def _failing_save(path, target):
    raise OSError("disk full")


@pytest.mark.parametrize("writer_class", WRITERS)
def test_a_failing_save_is_reported_and_leaves_no_file(tmp_path, writer_class, capsys):
    writer = writer_class(savefun=_failing_save)
    state = {"a": numpy.zeros(2)}
    try:
        writer("snap", str(tmp_path), state)
    except OSError as error:
        assert str(error) == "disk full"  # SimpleWriter raises right away
    else:
        with pytest.raises(RuntimeError, match="snapshot"):
            writer.finalize()
    assert os.listdir(tmp_path) == []


def test_queue_writer_cannot_save_after_finalize(tmp_path):
    writer = snapshot_writers.ThreadQueueWriter()
    writer.finalize()
    writer.finalize()  # idempotent
    with pytest.raises(RuntimeError, match="ThreadQueueWriter was finalized"):
        writer("x", str(tmp_path), {})


def test_snapshot_with_another_savefun_hdf5(make_trainer, tmp_path):
    pytest.importorskip("h5py")
    trainer = make_trainer((1, "epoch"))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.snapshot(savefun=serializers.save_hdf5, filename="snap.h5"))
    trainer.run()
    resumed = make_trainer((1, "epoch"))
    log = extensions.LogReport()
    resumed.extend(log)
    resumed.extend(extensions.snapshot(savefun=serializers.save_hdf5, filename="snap.h5"))
    serializers.load_hdf5(tmp_path / "result" / "snap.h5", resumed)
    assert resumed.updater.iteration == 6
    assert log.log == trainer.get_extension("LogReport").log


class _RecordingWorker:
    """A worker as an overridden create_worker may return: only start() and join()."""

    def __init__(self, calls):
        self.calls = calls

    def start(self):
        self.calls.append("start")

    def join(self):
        self.calls.append("join")


def test_workers_of_an_overridden_create_worker_need_only_start_and_join(tmp_path):
    calls = []

    class Recording(snapshot_writers.ThreadWriter):
        def create_worker(self, filename, outdir, target, **kwds):
            return _RecordingWorker(calls)

    writer = Recording()
    writer("a", str(tmp_path), {})
    writer("b", str(tmp_path), {})
    writer.finalize()
    assert calls == ["start", "join", "start", "join"]


def test_queue_consumer_takes_any_indexable_task_until_the_end_marker(tmp_path):
    saved = []

    def record(*args):
        saved.append(args)

    tasks = [[record, "f1", "out", 1], (record, "f2", "out", 2)]

    class Queue:
        def __init__(self, items):
            self.items, self.done = list(items), 0

        def get(self):
            return self.items.pop(0)

        def task_done(self):
            self.done += 1

    queue = Queue([*tasks, None])
    writer = snapshot_writers.ThreadQueueWriter()
    writer.consume(queue)
    writer.finalize()
    assert saved == [("f1", "out", 1), ("f2", "out", 2)] and queue.done == 3
