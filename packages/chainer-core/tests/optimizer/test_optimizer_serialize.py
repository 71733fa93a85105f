"""Optimizer.serialize round trips (dict serializer, NPZ) and optimizers on real Chains."""

import io

import numpy
import pytest

import chainer
from chainer import serializers
from chainer.link import Chain, Link


def _momentum_on_fresh_target(kit):
    target = kit.Target(w=kit.param(1.0, 2.0), b=kit.param(-1.0), u=chainer.Parameter())
    return kit.MomentumSGD(lr=0.5, momentum=0.5).setup(target)


def _train(opt, steps):
    for _ in range(steps):
        for p in opt.target.params(include_uninit=False):
            p.grad = numpy.ones_like(p.array)
        opt.update()


def _copy_params(src, dst):
    for p, q in zip(src.target.params(include_uninit=False), dst.target.params(False)):
        q.array[...] = p.array


def _assert_same_future(kit, trained, restored):
    """Both optimizers take one more identical step and land on identical parameters."""
    _copy_params(trained, restored)
    _train(trained, 1)
    _train(restored, 1)
    for p, q in zip(trained.target.params(False), restored.target.params(False)):
        numpy.testing.assert_array_equal(p.array, q.array)


def test_saved_keys_follow_parameter_paths(kit):
    opt = _momentum_on_fresh_target(kit)
    _train(opt, 2)
    opt.new_epoch()
    saved = kit.DictSerializer()
    opt.serialize(saved)
    assert sorted(saved.target) == ["b/t", "b/v", "epoch", "t", "u/t", "w/t", "w/v"]
    assert (saved.target["t"], saved.target["epoch"], saved.target["w/t"]) == (2, 1, 2)
    # v1 = -0.5, v2 = 0.5 v1 - 0.5 = -0.75 for every element
    numpy.testing.assert_array_equal(saved.target["w/v"], [-0.75, -0.75])


def test_dict_round_trip_restores_counters_and_state(kit):
    trained = _momentum_on_fresh_target(kit)
    _train(trained, 3)
    trained.new_epoch()
    saved = kit.DictSerializer()
    trained.serialize(saved)

    restored = _momentum_on_fresh_target(kit)
    restored.serialize(kit.DictDeserializer(saved.target))
    assert (restored.t, restored.epoch) == (3, 1)
    w = dict(restored.target.namedparams())["/w"]
    assert w.update_rule.t == 3
    numpy.testing.assert_array_equal(w.update_rule.state["v"], saved.target["w/v"])
    _assert_same_future(kit, trained, restored)


def test_missing_state_is_an_error_for_a_rule_that_has_stepped(kit):
    trained = _momentum_on_fresh_target(kit)
    _train(trained, 1)
    saved = kit.DictSerializer()
    trained.serialize(saved)
    del saved.target["w/v"]
    with pytest.raises(KeyError, match="w/v"):
        _momentum_on_fresh_target(kit).serialize(kit.DictDeserializer(saved.target))
    frozen = _momentum_on_fresh_target(kit)
    dict(frozen.target.namedparams())["/w"].update_rule.enabled = False
    frozen.serialize(kit.DictDeserializer(saved.target))
    w, b = (dict(frozen.target.namedparams())[name] for name in ("/w", "/b"))
    assert w.update_rule.t == 1 and w.update_rule.state is None
    numpy.testing.assert_array_equal(b.update_rule.state["v"], [-0.5])


def test_snapshot_before_any_update_loads_without_state(kit):
    saved = kit.DictSerializer()
    _momentum_on_fresh_target(kit).serialize(saved)
    assert sorted(saved.target) == ["b/t", "epoch", "t", "u/t", "w/t"]
    restored = _momentum_on_fresh_target(kit)
    restored.serialize(kit.DictDeserializer(saved.target))
    assert all(p.update_rule.state is None for p in restored.target.params())


def test_npz_round_trip(kit):
    trained = _momentum_on_fresh_target(kit)
    _train(trained, 2)
    buffer = io.BytesIO()
    serializers.save_npz(buffer, trained)
    buffer.seek(0)
    restored = _momentum_on_fresh_target(kit)
    serializers.load_npz(buffer, restored)
    assert restored.t == 2
    assert isinstance(restored.t, int)
    b = dict(restored.target.namedparams())["/b"]
    numpy.testing.assert_array_equal(b.update_rule.state["v"], [-0.75])
    _assert_same_future(kit, trained, restored)


class _Affine(Link):
    def __init__(self, n):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(numpy.arange(1, n + 1, dtype=numpy.float32))
            self.b = chainer.Parameter(numpy.zeros(1, numpy.float32))

    def forward(self, x):
        return x * self.W + self.b


class _Model(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.first = _Affine(2)
            self.second = _Affine(2)

    def forward(self, x):
        return self.second(self.first(x))


def test_with_a_real_chain(kit):
    model = _Model()
    opt = kit.SGD(lr=0.5).setup(model)
    model.second.disable_update()
    x = numpy.array([1.0, 2.0], numpy.float32)
    opt.update(lambda: (model(x)).mean())
    # y = (x W1 + b1) W2 + b2; dmean/dW1 = x W2 / 2, dmean/db1 = sum(W2) / 2
    W2 = numpy.array([1.0, 2.0])
    numpy.testing.assert_allclose(model.first.W.array, [1.0, 2.0] - 0.5 * x * W2 / 2)
    numpy.testing.assert_allclose(model.first.b.array, [-0.5 * W2.sum() / 2])
    numpy.testing.assert_array_equal(model.second.W.array, [1.0, 2.0])

    buffer = io.BytesIO()
    serializers.save_npz(buffer, opt)
    buffer.seek(0)
    names = sorted(numpy.load(buffer).files)
    assert names == ["epoch", "first/W/t", "first/b/t", "second/W/t", "second/b/t", "t"]
