"""Small optimizers, a link-like target and a dict serializer for the optimizer-base tests.

Concrete optimizers ship in chainer-training, so the tests define their own: plain SGD
(``p -= lr * g``) and momentum SGD (``v = momentum * v - lr * g; p += v``), whose results are
easy to compute by hand. The helpers are handed to tests through the ``kit`` fixture.
"""

import types

import numpy
import pytest

from chainer import Parameter
from chainer.optimizer import GradientMethod, HyperparameterProxy, UpdateRule
from chainer.serializer import Deserializer, Serializer


class SGDRule(UpdateRule):
    def update_core_cpu(self, param):
        param.array -= self.hyperparam.lr * param.grad

    update_core_gpu = update_core_cpu


class MomentumRule(UpdateRule):
    def __init__(self, parent_hyperparam=None):
        super().__init__(parent_hyperparam)
        self.init_state_calls = 0

    def init_state(self, param):
        self.init_state_calls += 1
        self.state["v"] = param.xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        v = self.state["v"]
        v *= self.hyperparam.momentum
        v -= self.hyperparam.lr * param.grad
        param.array += v

    update_core_gpu = update_core_cpu


class SGD(GradientMethod):
    lr = HyperparameterProxy("lr")

    def __init__(self, lr=0.1):
        super().__init__()
        self.hyperparam.lr = lr

    def create_update_rule(self):
        return SGDRule(self.hyperparam)


class MomentumSGD(GradientMethod):
    lr = HyperparameterProxy("lr")
    momentum = HyperparameterProxy("momentum")

    def __init__(self, lr=0.1, momentum=0.5):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    def create_update_rule(self):
        return MomentumRule(self.hyperparam)


class Target:
    """Just what an optimizer needs from a link: named parameters and gradient clearing."""

    def __init__(self, **params):
        self._params = params
        self.calls = []

    def namedparams(self, include_uninit=True):
        for name, param in self._params.items():
            if include_uninit or param.array is not None:
                yield "/" + name, param

    def params(self, include_uninit=True):
        for _, param in self.namedparams(include_uninit):
            yield param

    def cleargrads(self):
        self.calls.append("cleargrads")
        for param in self.params():
            param.cleargrad()

    def zerograds(self):
        self.calls.append("zerograds")
        for param in self.params():
            param._zerograd()  # the deprecated public zerograd() warns


def f32(*values):
    return numpy.array(values, dtype=numpy.float32)


def param(*values, dtype=numpy.float32, name=None):
    return Parameter(numpy.array(values, dtype=dtype), name=name)


class DictSerializer(Serializer):
    """Records every value under its full ``/``-joined key (arrays copied)."""

    def __init__(self, target=None, path=""):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        return DictSerializer(self.target, self.path + key.strip("/") + "/")

    def __call__(self, key, value):
        stored = value.copy() if isinstance(value, numpy.ndarray) else value
        self.target[self.path + key] = stored
        return value


class DictDeserializer(Deserializer):
    """Reads what :class:`DictSerializer` recorded; a missing key is a KeyError if strict."""

    def __init__(self, source, path="", strict=True):
        self.source = source
        self.path = path
        self.strict = strict

    def __getitem__(self, key):
        return DictDeserializer(self.source, self.path + key.strip("/") + "/", self.strict)

    def __call__(self, key, value):
        full = self.path + key
        if full not in self.source:
            if self.strict:
                raise KeyError(full)
            return value
        stored = self.source[full]
        if value is None:
            return numpy.array(stored, copy=True)
        if isinstance(value, numpy.ndarray):
            value[...] = stored
            return value
        return type(value)(stored)


@pytest.fixture
def kit():
    return types.SimpleNamespace(
        SGDRule=SGDRule,
        MomentumRule=MomentumRule,
        SGD=SGD,
        MomentumSGD=MomentumSGD,
        Target=Target,
        DictSerializer=DictSerializer,
        DictDeserializer=DictDeserializer,
        f32=f32,
        param=param,
    )
