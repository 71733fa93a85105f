"""ParallelUpdater (several models in one process) and MultiprocessParallelUpdater (one
process per device), on CPU devices, against a NumPy reference of the summed gradient."""

import numpy
import pytest

import chainer
from chainer import iterators, optimizers, training
from chainer.backends import cuda
from chainer.training.updaters import MultiprocessParallelUpdater, ParallelUpdater


def _sgd_reference(kit, W, b, batches, lr):
    """Parameters after one SGD step on the sum of the batches' mean losses."""
    gW_total, gb_total = numpy.zeros_like(W), numpy.zeros_like(b)
    for x, t in batches:
        _, gW, gb = kit.numpy_loss_and_grads(W, b, x, t)
        gW_total += gW
        gb_total += gb
    return W - numpy.float32(lr) * gW_total, b - numpy.float32(lr) * gb_total


def test_parallel_updater_splits_the_batch_and_sums_gradients(kit):
    model = kit.LinearRegression()
    optimizer = optimizers.SGD(lr=0.1).setup(model)
    data = kit.regression_data(8)
    iterator = iterators.SerialIterator(data, 4, shuffle=False)
    updater = ParallelUpdater(iterator, optimizer, devices={"main": "@numpy", "second": "@numpy"})
    W, b = model.W.array.copy(), model.head.b.array.copy()
    for step in range(3):
        batch = data[4 * (step % 2) : 4 * (step % 2) + 4]
        W, b = _sgd_reference(
            kit, W, b, [kit.stack_batch(batch[0::2]), kit.stack_batch(batch[1::2])], 0.1
        )
        updater.update()
        numpy.testing.assert_allclose(model.W.array, W, rtol=1e-6)
        numpy.testing.assert_allclose(model.head.b.array, b, rtol=1e-6, atol=1e-7)
        second = updater._models["second"]
        numpy.testing.assert_array_equal(second.W.array, model.W.array)
        assert second is not model
    assert optimizer.epoch == 1


def test_parallel_updater_reports_the_other_models_under_their_names(kit, tmp_path):
    model = kit.LinearRegression()
    optimizer = optimizers.SGD(lr=0.1).setup(model)
    iterator = iterators.SerialIterator(kit.regression_data(8), 4, shuffle=False)
    updater = ParallelUpdater(iterator, optimizer, devices={"main": "@numpy", "second": "@numpy"})
    trainer = training.Trainer(updater, (1, "iteration"), out=str(tmp_path))
    seen = []
    trainer.extend(lambda t: seen.append(sorted(t.observation)), name="spy")
    trainer.run()
    assert seen == [["main/head/bias_norm", "main/loss", "second/head/bias_norm", "second/loss"]]


def test_parallel_updater_arguments_are_checked(kit):
    model = kit.LinearRegression()
    optimizer = optimizers.SGD().setup(model)
    iterator = iterators.SerialIterator(kit.regression_data(8), 4)
    with pytest.raises(
        ValueError, match="needs devices: a dict of device specifiers with a 'main'"
    ):
        ParallelUpdater(iterator, optimizer, devices=None)
    with pytest.raises(ValueError, match=r"got models \['main'\] and devices \['main', 'x'\]"):
        ParallelUpdater(iterator, optimizer, models={"main": model}, devices={"main": -1, "x": -1})


def _mpu(kit, n_devices=2, lr=0.2, model=None, **data_sizes):
    model = kit.LinearRegression() if model is None else model
    optimizer = optimizers.SGD(lr=lr).setup(model)
    shards = [kit.regression_data(8, seed=10 + i, **data_sizes) for i in range(n_devices)]
    its = [iterators.SerialIterator(s, 4, shuffle=False) for s in shards]
    with pytest.warns(UserWarning, match=f"optimizer.lr is changed to {lr / n_devices}"):
        updater = MultiprocessParallelUpdater(its, optimizer, devices=["@numpy"] * n_devices)
    return updater, model, shards


def test_multiprocess_updater_sums_every_process_gradient(kit):
    updater, model, shards = _mpu(kit)
    W, b = model.W.array.copy(), model.head.b.array.copy()
    try:
        for step in range(3):
            lo = 4 * (step % 2)
            batches = [kit.stack_batch(shard[lo : lo + 4]) for shard in shards]
            W, b = _sgd_reference(kit, W, b, batches, 0.1)
            updater.update()
            numpy.testing.assert_allclose(model.W.array, W, rtol=1e-6)
            numpy.testing.assert_allclose(model.head.b.array, b, rtol=1e-6, atol=1e-7)
    finally:
        updater.finalize()
    assert updater.iteration == 3 and updater.epoch == 1
    assert MultiprocessParallelUpdater.available() is (
        training.updaters._gradient_exchange.nccl_module() is not None
    )


def test_multiprocess_updater_in_a_trainer_reports_the_main_process(kit, tmp_path):
    updater, _, _ = _mpu(kit, n_devices=3, lr=0.3)
    trainer = training.Trainer(updater, (2, "iteration"), out=str(tmp_path))
    log = training.extensions.LogReport(trigger=(1, "iteration"))
    trainer.extend(log)
    trainer.run()
    assert [sorted(e) for e in log.log] == [
        ["elapsed_time", "epoch", "iteration", "main/head/bias_norm", "main/loss"]
    ] * 2


def test_a_failing_worker_fails_the_update_with_its_traceback(kit):
    updater, _, _ = _mpu(kit, model=kit.FailingIn("worker"))
    try:
        with pytest.raises(RuntimeError, match=r"(?s)worker process 1 failed.*boom in the worker"):
            updater.update()
    finally:
        updater.finalize()


def test_a_master_failing_mid_step_does_not_hang_the_workers(kit):
    # 100 x 200 float32 gradients (80 KB) do not fit a pipe's buffer: the worker blocks
    # sending them until finalize drains its pipe.
    sizes = {"in_size": 100, "out_size": 200}
    updater, _, _ = _mpu(kit, model=kit.FailingIn("creator", **sizes), **sizes)
    with pytest.raises(RuntimeError, match="boom in the creator"):
        updater.update()
    updater.finalize()
    assert updater._workers == []


def test_multiprocess_updater_arguments_are_checked(kit):
    model = kit.LinearRegression()
    optimizer = optimizers.SGD().setup(model)
    its = [iterators.SerialIterator(kit.regression_data(n), 4) for n in (8, 12)]
    with pytest.raises(ValueError, match="one iterator per device: got 2 iterators for 3 devices"):
        MultiprocessParallelUpdater(its, optimizer, devices=[-1, -1, -1])
    with pytest.raises(ValueError, match=r"the same length, got \[8, 12\]"):
        MultiprocessParallelUpdater(its, optimizer, devices={"main": -1, "b": -1})
    with pytest.raises(ValueError, match="every device must be specified"):
        MultiprocessParallelUpdater(its, optimizer, devices=[-1, None])
    with pytest.raises(ValueError, match="devices must be a list, tuple or dict"):
        MultiprocessParallelUpdater(its, optimizer)


@pytest.mark.gpu
@pytest.mark.skipif(
    not (cuda.available and MultiprocessParallelUpdater.available()),
    reason="needs CUDA GPUs and NCCL",
)
def test_multiprocess_updater_on_gpus_matches_cpu(kit):
    n_gpus = cuda.cupy.cuda.runtime.getDeviceCount()
    if n_gpus < 2:
        pytest.skip("needs two GPUs")
    cpu, cpu_model, _ = _mpu(kit)
    gpu_model = kit.LinearRegression()
    optimizer = optimizers.SGD(lr=0.2).setup(gpu_model)
    shards = [kit.regression_data(8, seed=10 + i) for i in range(2)]
    its = [iterators.SerialIterator(s, 4, shuffle=False) for s in shards]
    with pytest.warns(UserWarning, match="optimizer.lr is changed"):
        gpu = MultiprocessParallelUpdater(its, optimizer, devices=["@cupy:0", "@cupy:1"])
    try:
        for _ in range(2):
            cpu.update()
            gpu.update()
    finally:
        cpu.finalize()
        gpu.finalize()
    numpy.testing.assert_allclose(
        chainer.backends.cuda.to_cpu(gpu_model.W.array), cpu_model.W.array, rtol=1e-5
    )


@pytest.mark.parametrize("name", ["gather_grads", "gather_params"])
def test_gather_needs_a_gpu(kit, name):
    from chainer.training.updaters import multiprocess_parallel_updater as mpu

    with pytest.raises(RuntimeError, match=f"{name} works only on a CUDA GPU, but the link is"):
        getattr(mpu, name)(kit.LinearRegression())


def test_scatter_writes_flat_values_in_sorted_parameter_order(kit):
    from chainer.training.updaters import multiprocess_parallel_updater as mpu

    model = kit.LinearRegression()
    params = dict(model.namedparams())
    sizes = {name: param.size for name, param in params.items()}
    flat = numpy.arange(sum(sizes.values()), dtype=numpy.float32)
    mpu.scatter_params(model, flat)
    mpu.scatter_grads(model, -flat)
    offset = 0
    for name in sorted(params):
        param = params[name]
        expected = flat[offset : offset + sizes[name]].reshape(param.shape)
        numpy.testing.assert_array_equal(param.array, expected)
        numpy.testing.assert_array_equal(param.grad, -expected)
        offset += sizes[name]
