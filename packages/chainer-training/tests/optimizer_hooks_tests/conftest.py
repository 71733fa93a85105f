"""A two-parameter link with fixed gradients for the hook tests, via the ``kit`` fixture."""

import types

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer.link import Link

TOLERANCES = {
    numpy.float16: {"rtol": 2e-3, "atol": 2e-3},
    numpy.float32: {"rtol": 1e-6, "atol": 1e-6},
    numpy.float64: {"rtol": 1e-14, "atol": 1e-14},
}


class TwoParams(Link):
    def __init__(self, dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(numpy.array([[0.5, -1.0, 0.0], [2.0, -0.25, 1.5]], dtype))
            self.b = chainer.Parameter(numpy.array([-3.0, 0.75, 0.0], dtype))
        self.set_grads()

    def set_grads(self, scale=None):
        """Give both parameters fixed gradients, multiplied by ``scale`` as backprop would."""
        grads = {
            "w": numpy.array([[1.0, 2.0, -0.5], [0.25, -1.0, 3.0]]),
            "b": numpy.array([-2.0, 0.5, 1.0]),
        }
        for name, grad in grads.items():
            param = getattr(self, name)
            param.grad = (grad * (scale or 1)).astype(param.dtype)
            param._loss_scale = scale
        return grads

    def arrays(self):
        return {name: getattr(self, name).array.astype(numpy.float64) for name in ("w", "b")}


def sgd_step(model, hook, timing="auto", scale=None, lr=1.0):
    """One SGD(lr) step with ``hook`` on the optimizer; returns parameters before the step."""
    optimizer = optimizers.SGD(lr=lr).setup(model)
    optimizer.add_hook(hook, timing=timing)
    if scale is not None:
        optimizer.set_loss_scale(scale)
    before = model.arrays()
    grads = model.set_grads(scale)
    optimizer.update()
    return before, grads


@pytest.fixture
def kit():
    return types.SimpleNamespace(TwoParams=TwoParams, sgd_step=sgd_step, TOLERANCES=TOLERANCES)
