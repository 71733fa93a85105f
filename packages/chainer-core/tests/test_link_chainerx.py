"""Links, parameters, initializers and serializers on a ChainerX device (``native:0``)."""

import numpy
import pytest

import chainer
from chainer import initializers, serializers
from chainer.backends import _chainerx

pytestmark = [
    pytest.mark.chainerx,
    pytest.mark.skipif(not _chainerx.is_available(), reason="chainerx is not available"),
]

to_numpy = chainer.backend.CpuDevice().send


class Affine(chainer.Link):
    """A weight, a lazily shaped bias and persistent values of each kind."""

    def __init__(self, seed=0):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.w = chainer.Parameter(rng.uniform(-1, 1, (2, 3)).astype(numpy.float32))
            self.b = chainer.Parameter(initializers.Constant(0.5))
        self.add_persistent("mean", rng.uniform(-1, 1, 3).astype(numpy.float32))
        self.add_persistent("count", 7)


def on_native(link):
    link.to_device("native:0")
    return link


def assert_on_native(array):
    import chainerx

    assert isinstance(array, chainerx.ndarray)
    assert array.device.name == "native:0"


def test_get_device_and_to_device_round_trip():
    device = chainer.get_device("native:0")
    assert isinstance(device, chainer.backend.ChainerxDevice)
    assert device == chainer.get_device(("native", 0))
    link = Affine()
    w, mean = link.w.array.copy(), link.mean.copy()
    on_native(link)
    assert link.device == device
    assert_on_native(link.w.array)
    assert_on_native(link.mean)
    assert link.count == 7
    assert link.b.array is None  # still uninitialized, now bound to native:0
    link.b.initialize((3,))
    assert_on_native(link.b.array)
    numpy.testing.assert_array_equal(to_numpy(link.b.array), [0.5, 0.5, 0.5])
    link.to_device("@numpy")
    for array, expected in ((link.w.array, w), (link.mean, mean)):
        assert type(array) is numpy.ndarray
        numpy.testing.assert_array_equal(array, expected)


@pytest.mark.parametrize(
    "initializer",
    [
        initializers.Normal(0.1),
        initializers.Uniform(0.1),
        initializers.GlorotUniform(),
        initializers.HeNormal(),
        initializers.Orthogonal(),
        initializers.Constant(2.0),
        initializers.Zero(),
    ],
    ids=lambda init: type(init).__name__,
)
def test_initializers_fill_chainerx_parameters(initializer):
    param = chainer.Parameter(initializer)
    param.to_device("native:0")
    param.initialize((4, 3))
    assert_on_native(param.array)
    assert param.shape == (4, 3)
    assert param.dtype == numpy.float32
    values = to_numpy(param.array)
    assert numpy.all(numpy.isfinite(values))
    if isinstance(initializer, initializers.Constant):
        numpy.testing.assert_array_equal(values, numpy.full((4, 3), 2.0))
    if isinstance(initializer, initializers.Orthogonal):
        # Orthonormal columns times the default scale 1.1.
        numpy.testing.assert_allclose(values.T @ values, 1.21 * numpy.eye(3), atol=1e-5)


def test_copyparams_addgrads_cleargrads_across_backends():
    native, host = on_native(Affine(seed=0)), Affine(seed=1)
    host.b.initialize((3,))
    native.copyparams(host)
    assert_on_native(native.w.array)
    numpy.testing.assert_array_equal(to_numpy(native.w.array), host.w.array)
    numpy.testing.assert_array_equal(to_numpy(native.b.array), host.b.array)
    device = chainer.get_device("native:0")
    native.w.grad = device.send(numpy.ones((2, 3), numpy.float32))
    native.b.grad = device.send(numpy.ones(3, numpy.float32))
    host.w.grad = numpy.full((2, 3), 2.0, numpy.float32)
    host.b.grad = numpy.full(3, 3.0, numpy.float32)
    with pytest.raises(RuntimeError, match="addgrad between a ChainerX variable and a NumPy"):
        native.addgrads(host)  # as in v7: move one with to_device first
    other = on_native(host)
    native.addgrads(other)
    assert_on_native(native.w.grad)
    numpy.testing.assert_array_equal(to_numpy(native.w.grad), numpy.full((2, 3), 3.0))
    numpy.testing.assert_array_equal(to_numpy(native.b.grad), numpy.full(3, 4.0))
    native.cleargrads()
    assert native.w.grad is None and native.b.grad is None


@pytest.mark.parametrize("fmt", ["npz", "hdf5"])
def test_a_model_on_native_round_trips_through_files(tmp_path, fmt):
    if fmt == "hdf5":
        pytest.importorskip("h5py")
    save = getattr(serializers, f"save_{fmt}")
    load = getattr(serializers, f"load_{fmt}")
    source = on_native(Affine(seed=0))
    source.b.initialize((3,))
    source.count = 11
    path = tmp_path / f"model.{fmt}"
    save(path, source)

    target = on_native(Affine(seed=3))  # its bias is still uninitialized
    load(path, target)
    for name in ("w", "b"):
        assert_on_native(getattr(target, name).array)
        numpy.testing.assert_array_equal(
            to_numpy(getattr(target, name).array), to_numpy(getattr(source, name).array)
        )
    assert_on_native(target.mean)
    numpy.testing.assert_array_equal(to_numpy(target.mean), to_numpy(source.mean))
    assert target.count == 11
    # The same file loads into a NumPy model: files hold no device.
    host = Affine(seed=4)
    load(path, host)
    numpy.testing.assert_array_equal(host.w.array, to_numpy(source.w.array))
