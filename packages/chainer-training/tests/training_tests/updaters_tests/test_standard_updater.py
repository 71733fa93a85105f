"""StandardUpdater: one batch, one optimizer step, against a NumPy reference."""

import numpy
import pytest

import chainer
from chainer import iterators, optimizers, serializers, training
from chainer.dataset import converter


def _updater(kit, batch_size=4, n=8, lr=0.1, **kwargs):
    model = kit.LinearRegression()
    optimizer = optimizers.SGD(lr=lr).setup(model)
    data = kit.regression_data(n)
    iterator = iterators.SerialIterator(data, batch_size, shuffle=False)
    return training.updaters.StandardUpdater(iterator, optimizer, **kwargs), model, data


def test_update_is_one_sgd_step_on_the_next_batch(kit):
    updater, model, data = _updater(kit)
    W, b = model.W.array.copy(), model.head.b.array.copy()
    for step in range(3):
        x = numpy.stack([e[0] for e in data[4 * (step % 2) : 4 * (step % 2) + 4]])
        t = numpy.stack([e[1] for e in data[4 * (step % 2) : 4 * (step % 2) + 4]])
        _, gW, gb = kit.numpy_loss_and_grads(W, b, x, t)
        W, b = W - numpy.float32(0.1) * gW, b - numpy.float32(0.1) * gb
        updater.update()
        numpy.testing.assert_allclose(model.W.array, W, rtol=1e-6)
        numpy.testing.assert_allclose(model.head.b.array, b, rtol=1e-6, atol=1e-7)
    assert updater.iteration == 3
    assert (updater.epoch, updater.epoch_detail, updater.previous_epoch_detail) == (1, 1.5, 1.0)
    assert not updater.is_new_epoch


def test_epoch_end_advances_the_optimizers_epoch(kit):
    updater, _, _ = _updater(kit)
    optimizer = updater.get_optimizer("main")
    assert optimizer.use_auto_new_epoch
    updater.update()
    assert optimizer.epoch == 0
    updater.update()
    assert updater.is_new_epoch and optimizer.epoch == 1
    manual, _, _ = _updater(kit, auto_new_epoch=False)
    manual.update()
    manual.update()
    assert manual.get_optimizer("main").epoch == 0


def test_dict_batches_are_keyword_arguments_and_loss_func_replaces_the_model(kit):
    seen = {}

    @converter()
    def to_dict(batch, device):
        x = numpy.stack([e[0] for e in batch])
        t = numpy.stack([e[1] for e in batch])
        seen["device"] = device
        return {"x": x, "t": t}

    def loss_func(x, t):
        seen["shapes"] = (x.shape, t.shape)
        return model(x, t) * 2

    updater, model, _ = _updater(kit, converter=to_dict, loss_func=loss_func, device="@numpy")
    updater.update()
    assert seen == {"device": chainer.get_device("@numpy"), "shapes": ((4, 3), (4, 2))}
    assert updater.device == updater.input_device == chainer.get_device("@numpy")


def test_input_device_is_separate_from_the_model_device(kit):
    updater, _, _ = _updater(kit, input_device="@numpy")
    assert updater.device is None
    assert updater.input_device == chainer.get_device("@numpy")


def test_plain_function_converters_receive_legacy_device_ids(kit):
    received = []

    def old_converter(batch, device=None):
        received.append(device)
        return chainer.dataset.concat_examples(batch)

    updater, _, _ = _updater(kit, converter=old_converter, device=-1)
    updater.update()
    assert received == [-1]


def test_loss_scale_is_given_to_the_optimizer(kit):
    updater, model, _ = _updater(kit, loss_scale=8.0)
    reference, ref_model, _ = _updater(kit)
    updater.update()
    reference.update()
    # Scaling the loss and unscaling the gradients gives the same step.
    numpy.testing.assert_allclose(model.W.array, ref_model.W.array, rtol=1e-6)
    assert updater.get_optimizer("main")._loss_scale == 8.0


def test_serialize_round_trip_resumes_iterator_optimizer_and_model(kit, tmp_path):
    updater, model, _ = _updater(kit, n=12)
    for _ in range(2):
        updater.update()
    serializers.save_npz(tmp_path / "u.npz", updater)
    restored, restored_model, _ = _updater(kit, n=12)
    serializers.load_npz(tmp_path / "u.npz", restored)
    assert restored.iteration == 2 and restored.epoch_detail == updater.epoch_detail
    for u in (updater, restored):
        u.update()
    numpy.testing.assert_array_equal(restored_model.W.array, model.W.array)
    with numpy.load(tmp_path / "u.npz") as archive:
        assert {"iteration", "optimizer:main/t", "model:main/W", "model:main/head/b"} <= set(
            archive.files
        )


def test_named_iterators_and_optimizers(kit):
    updater, model, _ = _updater(kit)
    it = updater.get_iterator("main")
    opt = updater.get_optimizer("main")
    assert updater.get_all_optimizers() == {"main": opt}
    other = training.updaters.StandardUpdater({"main": it, "extra": it}, {"main": opt})
    assert other.get_iterator("extra") is it
    with pytest.raises(
        KeyError, match=r"a dict of iterators must have a 'main' entry, got keys \['x'\]"
    ):
        training.updaters.StandardUpdater({"x": it}, opt)
    with pytest.raises(
        TypeError,
        match=r"StandardUpdater.__init__\(\) got unexpected keyword argument\(s\) 'devcie'",
    ):
        training.updaters.StandardUpdater(it, opt, devcie="@numpy")
