"""The link hooks on ChainerX and CUDA devices: same results as on the CPU, ``u`` moves too."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.link_hooks import SpectralNormalization, TimerHook, WeightStandardization
from chainer.testing import attr


def _check_on_device(device, to_device_array, to_host, array_type):
    x = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    for hook, train in (
        (SpectralNormalization(use_gamma=True), True),
        (SpectralNormalization(), False),
        (WeightStandardization(), True),
    ):
        link = L.Linear(4, 5).add_hook(hook)
        u0 = link.W_u.copy() if hasattr(link, "W_u") else None
        with chainer.using_config("train", train):
            expected = link(x).array
            u1 = link.W_u.copy() if u0 is not None else None
            if u0 is not None:
                link.W_u[...] = u0
            link.to_device(device)
            got = link(to_device_array(x))
        assert isinstance(got.array, array_type)
        numpy.testing.assert_allclose(to_host(got.array), expected, rtol=1e-4, atol=1e-5)
        if u0 is not None:
            assert isinstance(link.W_u, array_type)
            numpy.testing.assert_allclose(to_host(link.W_u), u1, rtol=1e-5)
    link = L.Linear(4, 5)
    link.to_device(device)
    with TimerHook() as timer:
        link(to_device_array(x))
    ((name, elapsed),) = timer.call_history
    assert name == "Linear" and elapsed > 0


@attr.chainerx
def test_hooks_on_chainerx():
    import chainerx

    _check_on_device("native:0", chainerx.array, chainerx.to_numpy, chainerx.ndarray)


@attr.gpu
def test_hooks_on_gpu():
    cupy = pytest.importorskip("cupy")
    _check_on_device("@cupy:0", cupy.asarray, cupy.asnumpy, cupy.ndarray)
