"""Updaters on CUDA devices against the same steps on the CPU; skipped without a GPU."""

import numpy
import pytest

from chainer import iterators, optimizers, training
from chainer.backends import cuda

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not cuda.available, reason="needs a CUDA GPU through CuPy"),
]


def _run(kit, n_steps, **updater_kwargs):
    model = kit.LinearRegression()
    optimizer = optimizers.MomentumSGD(lr=0.1).setup(model)
    iterator = iterators.SerialIterator(kit.regression_data(8), 4, shuffle=False)
    parallel = "devices" in updater_kwargs
    make = training.updaters.ParallelUpdater if parallel else training.updaters.StandardUpdater
    updater = make(iterator, optimizer, **updater_kwargs)
    for _ in range(n_steps):
        updater.update()
    return cuda.to_cpu(model.W.array)


def test_standard_updater_on_a_gpu_matches_the_cpu(kit):
    numpy.testing.assert_allclose(
        _run(kit, 3, device="@cupy:0"), _run(kit, 3, device="@numpy"), rtol=1e-5
    )


def test_parallel_updater_on_two_gpus_matches_two_cpu_copies(kit):
    if cuda.cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    gpus = _run(kit, 3, devices={"main": "@cupy:0", "second": "@cupy:1"})
    cpus = _run(kit, 3, devices={"main": "@numpy", "second": "@numpy"})
    numpy.testing.assert_allclose(gpus, cpus, rtol=1e-5)


def test_gather_and_scatter_grads_and_params_round_trip(kit):
    from chainer.training.updaters import multiprocess_parallel_updater as mpu

    source, target = kit.LinearRegression(), kit.LinearRegression()
    for model in (source, target):
        model.to_device("@cupy:0")
    source.W.grad = cuda.cupy.full(source.W.shape, 2.0, source.W.dtype)
    flat = mpu.gather_grads(source)
    assert flat.size == sum(p.size for p in source.params())
    mpu.scatter_grads(target, flat)
    cuda.cupy.testing.assert_array_equal(target.W.grad, source.W.grad)
    mpu.scatter_params(target, mpu.gather_params(source))
    cuda.cupy.testing.assert_array_equal(target.W.array, source.W.array)
