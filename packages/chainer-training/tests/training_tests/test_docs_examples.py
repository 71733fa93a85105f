"""The Chainer guide's Trainer sections, run on small synthetic data.

"Trainer Extensions" (a plain function, ``@make_extension`` with trigger, default_name,
priority, finalizer and initializer, a class-based extension), "Customize your own logging"
(the reporter's naming rules), "MNIST using Trainer" (every extension of the example, then
evaluating the saved model) and "MNIST with a Manual Training Loop" (which the trainer must
reproduce exactly). chainer-links is not a dependency of chainer-training, so the models are
written with Parameters and a squared error on one-hot targets instead of Linear layers and
softmax cross entropy.
"""

import io
import json

import numpy
import pytest

import chainer
from chainer import Chain, iterators, optimizers, report, serializers, training
from chainer._ops.array_ops import mean
from chainer._ops.matmul import matmul
from chainer.dataset import concat_examples
from chainer.training import extensions

N_CLASSES = 3


class Predictor(Chain):
    """A one-layer network (``x @ W + b``) that reports the sum of its outputs as ``sum_y``."""

    def __init__(self, in_size=4, seed=0):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.W = chainer.Parameter(rng.normal(0, 0.1, (in_size, N_CLASSES)).astype("f"))
            self.b = chainer.Parameter(numpy.zeros(N_CLASSES, "f"))

    def forward(self, x):
        y = matmul(x, self.W) + self.b
        report({"sum_y": float(y.array.sum())}, self)
        return y


class Classifier(Chain):
    """Reports ``loss`` and ``accuracy`` in the root link, as the guide's Classifier does."""

    def __init__(self, predictor):
        super().__init__()
        with self.init_scope():
            self.predictor = predictor

    def forward(self, x, t):
        y = self.predictor(x)
        diff = y - numpy.eye(N_CLASSES, dtype="f")[t]
        loss = mean(diff * diff)
        accuracy = float((y.array.argmax(axis=1) == t).mean())
        report({"loss": loss, "accuracy": accuracy}, self)
        return loss


def _blobs(n, seed):
    """Three well separated classes in 4 dimensions."""
    rng = numpy.random.default_rng(seed)
    t = rng.integers(0, N_CLASSES, n).astype(numpy.int32)
    centers = numpy.eye(N_CLASSES, 4, dtype="f") * 3
    x = (centers[t] + rng.normal(0, 0.5, (n, 4))).astype("f")
    return list(zip(x, t))


def _trainer(tmp_path, stop=(4, "epoch"), lr=0.1):
    model = Classifier(Predictor())
    optimizer = optimizers.MomentumSGD(lr=lr).setup(model)
    train_iter = iterators.SerialIterator(_blobs(60, 0), 10, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=-1)
    return training.Trainer(updater, stop, out=str(tmp_path / "result")), model


# -- Trainer Extensions -----------------------------------------------------------------------


def test_simple_function_extension_drops_the_learning_rate(tmp_path):
    trainer, _ = _trainer(tmp_path, stop=(4, "epoch"))

    def lr_drop(trainer):
        trainer.updater.get_optimizer("main").lr *= 0.1

    trainer.extend(lr_drop, trigger=(2, "epoch"))
    trainer.run()
    assert trainer.updater.get_optimizer("main").lr == pytest.approx(0.1 * 0.1 * 0.1)


def test_make_extension_gives_a_default_trigger(tmp_path):
    trainer, _ = _trainer(tmp_path, stop=(4, "epoch"))

    @training.make_extension(trigger=(2, "epoch"))
    def lr_drop(trainer):
        trainer.updater.get_optimizer("main").lr *= 0.1

    trainer.extend(lr_drop)
    trainer.run()
    assert trainer.updater.get_optimizer("main").lr == pytest.approx(0.001)
    assert trainer.get_extension("lr_drop") is lr_drop


def test_make_extension_default_name_priority_finalizer_initializer(tmp_path):
    trainer, _ = _trainer(tmp_path, stop=(1, "epoch"))
    events = []

    @training.make_extension(
        trigger=(1, "epoch"),
        default_name="my_extension",
        priority=training.PRIORITY_WRITER,
        initializer=lambda t: events.append(("init", t.updater.iteration)),
        finalizer=lambda: events.append(("final",)),
    )
    def write(trainer):
        trainer.observation["written"] = 1.0

    @training.make_extension(trigger=(1, "epoch"))
    def read(trainer):
        events.append(("read", trainer.observation.get("written")))

    trainer.extend(read)  # added first, but the writer's priority makes it run first
    trainer.extend(write)
    trainer.run()
    assert trainer.get_extension("my_extension") is write
    assert events == [("init", 0), ("read", 1.0), ("final",)]


class DocsPolynomialShift(training.Extension):
    """The guide's class-based extension: ``lr = init * (1 - t / maxiter) ** power``."""

    def __init__(self, attr, power, stop_trigger, batchsize=None, len_dataset=None):
        self._attr = attr
        self._power = power
        self._init = None
        self._t = 0
        self._last_value = 0
        length, unit = stop_trigger
        if unit == "epoch":
            if batchsize is None or len_dataset is None:
                raise ValueError("batchsize and len_dataset are needed for an epoch stop trigger")
            self._maxiter = float(length * len_dataset / batchsize)
        else:
            self._maxiter = length

    def initialize(self, trainer):
        if self._init is None:
            self._init = getattr(trainer.updater.get_optimizer("main"), self._attr)

    def __call__(self, trainer):
        self._t += 1
        value = self._init * (1 - self._t / self._maxiter) ** self._power
        setattr(trainer.updater.get_optimizer("main"), self._attr, value)
        self._last_value = value

    def serialize(self, serializer):
        self._t = serializer("_t", self._t)
        self._last_value = serializer("_last_value", self._last_value)


def test_class_based_extension_from_the_guide(tmp_path):
    stop = (2, "epoch")  # 12 iterations
    trainer, _ = _trainer(tmp_path, stop=stop)
    lrs = []
    shift = DocsPolynomialShift("lr", 0.5, stop, batchsize=10, len_dataset=60)
    trainer.extend(shift)
    trainer.extend(lambda t: lrs.append(t.updater.get_optimizer("main").lr), name="spy")
    trainer.run()
    expected = [0.1 * (1 - t / 12) ** 0.5 for t in range(1, 13)]
    assert lrs == pytest.approx(expected)
    serializers.save_npz(tmp_path / "trainer.npz", trainer)
    with numpy.load(tmp_path / "trainer.npz") as archive:
        assert int(archive["extensions/DocsPolynomialShift/_t"]) == 12


# -- Customize your own logging ---------------------------------------------------------------


def test_reporter_names_values_by_observer():
    reporter = chainer.Reporter()
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


def test_reported_names_follow_the_link_hierarchy_and_the_evaluator(tmp_path):
    model = Classifier(Predictor())
    assert [name for name, _ in model.namedlinks(skipself=True)] == ["/predictor"]
    train_iter = iterators.SerialIterator(_blobs(40, 0), 10, shuffle=True)
    test_iter = iterators.SerialIterator(_blobs(20, 1), 10, repeat=False, shuffle=False)
    optimizer = optimizers.SGD().setup(model)
    updater = training.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (1, "epoch"), out=str(tmp_path / "result"))
    trainer.extend(extensions.Evaluator(test_iter, model))
    trainer.extend(extensions.LogReport())
    out = io.StringIO()
    entries = [
        "epoch",
        "main/accuracy",
        "main/loss",
        "main/predictor/sum_y",
        "validation/main/accuracy",
    ]
    trainer.extend(extensions.PrintReport(entries, out=out))
    trainer.run()
    header, row = out.getvalue().splitlines()
    assert header.split() == entries
    assert len(row.split()) == 5  # every column has a value
    log = trainer.get_extension("LogReport").log[0]
    assert 0 <= log["validation/main/accuracy"] <= 1
    assert "validation/main/predictor/sum_y" in log


# -- MNIST using Trainer ----------------------------------------------------------------------


def test_mnist_style_training_with_every_extension(tmp_path):
    pytest.importorskip("matplotlib")
    trainer, model = _trainer(tmp_path, stop=(10, "epoch"))
    test_iter = iterators.SerialIterator(_blobs(30, 1), 10, repeat=False, shuffle=False)
    out = io.StringIO()
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.snapshot(filename="snapshot_epoch-{.updater.epoch}"))
    trainer.extend(
        extensions.snapshot_object(model.predictor, filename="model_epoch-{.updater.epoch}")
    )
    trainer.extend(extensions.Evaluator(test_iter, model, device=-1))
    entries = [
        "epoch",
        "main/loss",
        "main/accuracy",
        "validation/main/loss",
        "validation/main/accuracy",
        "elapsed_time",
    ]
    trainer.extend(extensions.PrintReport(entries, out=out))
    trainer.extend(
        extensions.PlotReport(
            ["main/loss", "validation/main/loss"], x_key="epoch", file_name="loss.png"
        )
    )
    trainer.extend(
        extensions.PlotReport(
            ["main/accuracy", "validation/main/accuracy"], x_key="epoch", file_name="accuracy.png"
        )
    )
    trainer.extend(extensions.DumpGraph("main/loss"))
    trainer.extend(extensions.ProgressBar(update_interval=20, out=out))
    trainer.run()

    result = tmp_path / "result"
    names = {p.name for p in result.iterdir()}
    expected = {"log", "loss.png", "accuracy.png", "cg.dot"}
    expected |= {f"snapshot_epoch-{e}" for e in range(1, 11)} | {
        f"model_epoch-{e}" for e in range(1, 11)
    }
    assert names == expected
    log = json.loads((result / "log").read_text())
    assert [e["epoch"] for e in log] == list(range(1, 11))
    assert log[-1]["main/loss"] < log[0]["main/loss"]
    assert log[-1]["validation/main/accuracy"] == 1.0
    printed = out.getvalue().splitlines()
    assert printed[0].split() == entries
    assert sum(1 for line in printed if line.startswith("[")) == 3  # progress at 20, 40, 60
    assert "MatMul" in (result / "cg.dot").read_text()
    for png in ("loss.png", "accuracy.png"):
        assert (result / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # "Evaluate a pre-trained model": load the last saved predictor into a new one.
    predictor = Predictor(seed=99)
    serializers.load_npz(result / "model_epoch-10", predictor)
    x, t = zip(*_blobs(30, 1))
    y = predictor(numpy.stack(x))
    assert (y.array.argmax(axis=1) == numpy.array(t)).mean() == 1.0


# -- MNIST with a Manual Training Loop --------------------------------------------------------


def test_the_trainer_reproduces_the_manual_training_loop(tmp_path):
    data = _blobs(60, 0)
    manual = Classifier(Predictor())
    optimizer = optimizers.MomentumSGD(lr=0.1).setup(manual)
    train_iter = iterators.SerialIterator(data, 10, shuffle=False)
    max_epoch = 3
    epoch_losses = []
    while train_iter.epoch < max_epoch:
        x, t = concat_examples(train_iter.next())
        loss = manual(x, t)
        manual.cleargrads()
        loss.backward()
        optimizer.update()
        if train_iter.is_new_epoch:
            epoch_losses.append(float(loss.array))

    trainer, model = _trainer(tmp_path, stop=(max_epoch, "epoch"))
    last_losses = []
    trainer.extend(
        lambda t: last_losses.append(float(t.observation["main/loss"].array)),
        trigger=(1, "epoch"),
        name="rec",
    )
    trainer.run()
    assert last_losses == epoch_losses
    numpy.testing.assert_array_equal(model.predictor.W.array, manual.predictor.W.array)
    numpy.testing.assert_array_equal(model.predictor.b.array, manual.predictor.b.array)
