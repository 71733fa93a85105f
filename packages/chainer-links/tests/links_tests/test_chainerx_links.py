"""Links on a ChainerX device: lazy initialization and a training step against NumPy."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.backends import _chainerx

pytestmark = [
    pytest.mark.chainerx,
    pytest.mark.skipif(not _chainerx.is_available(), reason="chainerx is not available"),
]

to_numpy = chainer.backend.CpuDevice().send


def test_lazy_linear_on_native_takes_its_input_size_from_the_first_batch():
    import chainerx

    link = L.Linear(None, 3)
    link.to_device("native")  # the backend alone means its device 0
    assert link.device == chainer.get_device("native:0")
    assert link.W.array is None
    x = numpy.random.default_rng(0).uniform(-1, 1, (2, 4)).astype(numpy.float32)
    y = link(chainerx.array(x))
    assert isinstance(link.W.array, chainerx.ndarray)
    assert link.W.array.device.name == "native:0"
    assert link.W.shape == (3, 4)
    W, b = to_numpy(link.W.array), to_numpy(link.b.array)
    numpy.testing.assert_allclose(to_numpy(y.array), x @ W.T + b, rtol=1e-6, atol=1e-6)


def classifier_after_steps(device, optimizers):
    rng = numpy.random.default_rng(0)
    x = rng.uniform(-1, 1, (8, 5)).astype(numpy.float32)
    t = rng.integers(0, 3, 8).astype(numpy.int32)
    numpy.random.seed(0)  # the initial weights
    model = L.Classifier(L.Linear(5, 3))
    model.to_device(device)
    optimizer = optimizers.MomentumSGD(lr=0.5).setup(model)
    device = chainer.get_device(device)
    losses = []
    for _ in range(3):
        optimizer.update(model, device.send(x), device.send(t))
        losses.append(float(to_numpy(model.loss.array)))
    return model, losses


def test_a_classifier_trains_on_native_as_on_numpy():
    # The optimizer comes from chainer-training, which chainer-links does not depend on.
    optimizers = pytest.importorskip("chainer.optimizers", reason="needs chainer-training")
    model, losses = classifier_after_steps("native:0", optimizers)
    expected, expected_losses = classifier_after_steps("@numpy", optimizers)
    numpy.testing.assert_allclose(losses, expected_losses, rtol=1e-5)
    assert losses[-1] < losses[0]
    for name in ("W", "b"):
        numpy.testing.assert_allclose(
            to_numpy(getattr(model.predictor, name).array),
            getattr(expected.predictor, name).array,
            rtol=1e-5,
            atol=1e-6,
        )
