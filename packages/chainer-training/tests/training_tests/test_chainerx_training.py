"""Converters, updaters, the Trainer and its snapshots with ``device='native:0'`` (ChainerX),
against the same runs on NumPy."""

import numpy
import pytest

import chainer
from chainer import dataset, iterators, optimizers, serializers, training
from chainer.backends import _chainerx
from chainer.training import extensions

pytestmark = [
    pytest.mark.chainerx,
    pytest.mark.skipif(not _chainerx.is_available(), reason="chainerx is not available"),
]

to_numpy = chainer.backend.CpuDevice().send


def assert_on_native(array):
    import chainerx

    assert isinstance(array, chainerx.ndarray)
    assert array.device.name == "native:0"


def test_concat_examples_sends_the_batch_to_native():
    batch = [(numpy.arange(3, dtype="f") + i, numpy.int32(i)) for i in range(4)]
    x, t = dataset.concat_examples(batch, device="native:0")
    assert_on_native(x)
    assert_on_native(t)
    numpy.testing.assert_array_equal(to_numpy(x), numpy.arange(3) + numpy.arange(4)[:, None])
    numpy.testing.assert_array_equal(to_numpy(t), numpy.arange(4))
    assert t.dtype == numpy.int32

    ragged = [numpy.ones(n, "f") for n in (1, 3)]
    padded = dataset.concat_examples(ragged, device="native:0", padding=-1)
    assert_on_native(padded)
    numpy.testing.assert_array_equal(to_numpy(padded), [[1, -1, -1], [1, 1, 1]])

    moved = dataset.to_device("native:0", numpy.ones(2, "f"))
    assert_on_native(moved)
    assert dataset.to_device("native:0", None) is None


def run(kit, device, out, epochs=3, resume_from=None):
    """Train the kit's regression with momentum SGD; return the trainer and its model."""
    model = kit.LinearRegression()
    model.to_device(device)
    optimizer = optimizers.MomentumSGD(lr=0.05).setup(model)
    data = kit.regression_data()
    train_iter = iterators.SerialIterator(data, 6, shuffle=False)
    test_iter = iterators.SerialIterator(data[:8], 4, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (epochs, "epoch"), out=str(out))
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.snapshot(), trigger=(1, "epoch"))
    if resume_from is not None:
        serializers.load_npz(resume_from, trainer)
    trainer.run()
    return trainer, model


def assert_same_model(model, expected, **tolerance):
    for (name, param), (_, want) in zip(
        sorted(model.namedparams()), sorted(expected.namedparams()), strict=True
    ):
        numpy.testing.assert_allclose(
            to_numpy(param.array), to_numpy(want.array), err_msg=name, **tolerance
        )


def test_trainer_on_native_matches_numpy(kit, tmp_path):
    trainer, model = run(kit, "native:0", tmp_path / "native")
    host_trainer, host_model = run(kit, "@numpy", tmp_path / "numpy")
    for param in model.params():
        assert_on_native(param.array)
        for value in param.update_rule.state.values():
            assert_on_native(value)
    assert_same_model(model, host_model, rtol=1e-5, atol=1e-6)
    log = trainer.get_extension("LogReport").log
    host_log = host_trainer.get_extension("LogReport").log
    assert len(log) == len(host_log) == 3
    for entry, host_entry in zip(log, host_log):
        for key in ("main/loss", "validation/main/loss"):
            assert float(entry[key]) == pytest.approx(float(host_entry[key]), rel=1e-5)
    assert log[-1]["main/loss"] < log[0]["main/loss"]


def test_resume_from_a_snapshot_on_native_continues_the_run(kit, tmp_path):
    _, straight = run(kit, "native:0", tmp_path / "straight", epochs=4)
    run(kit, "native:0", tmp_path / "first", epochs=2)
    trainer, resumed = run(
        kit,
        "native:0",
        tmp_path / "second",
        epochs=4,
        resume_from=tmp_path / "first" / "snapshot_iter_8",
    )
    assert trainer.updater.iteration == 16
    for param in resumed.params():
        assert_on_native(param.array)
        assert_on_native(param.update_rule.state["v"])
    assert_same_model(resumed, straight, rtol=1e-6, atol=1e-7)
