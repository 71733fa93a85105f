"""Grouped updates (``chainer._grouped_update``) leave every array bitwise as the per-parameter
path does, and each per-parameter difference sends its parameter down the per-parameter path."""

import copy
import io
import pickle
from unittest import mock

import numpy
import pytest

import chainer
import chainer.optimizer as optimizer_module
from chainer import optimizer_hooks, optimizers, serializers
from chainer._ops.array_ops import cast
from chainer._ops.array_ops import sum as sum_all
from chainer.link import Chain, Link
from chainer.optimizers import _elementwise
from chainer.optimizers._chunks import SINGLE_CALL_SIZE

# Hyperparameters away from the defaults, so that every scalar of the kernels matters.
OPTIMIZERS = {
    "SGD": lambda: optimizers.SGD(lr=0.05),
    "MomentumSGD": lambda: optimizers.MomentumSGD(lr=0.05, momentum=0.8),
    "CorrectedMomentumSGD": lambda: optimizers.CorrectedMomentumSGD(lr=0.05, momentum=0.7),
    "NesterovAG": lambda: optimizers.NesterovAG(lr=0.05, momentum=0.85),
    "AdaGrad": lambda: optimizers.AdaGrad(lr=0.05, eps=1e-6),
    "AdaDelta": lambda: optimizers.AdaDelta(rho=0.9, eps=1e-5),
    "RMSprop": lambda: optimizers.RMSprop(lr=0.02, alpha=0.9, eps_inside_sqrt=True),
    "RMSpropGraves": lambda: optimizers.RMSpropGraves(lr=1e-3, momentum=0.8),
    "SMORMS3": lambda: optimizers.SMORMS3(lr=0.01),
    "Adam": lambda: optimizers.Adam(alpha=0.05, beta1=0.8, beta2=0.99),
    "AdamW": lambda: optimizers.AdamW(weight_decay_rate=0.01, eta=0.5),
    "AMSGrad": lambda: optimizers.AMSGrad(alpha=0.02),
    "MSVAG": lambda: optimizers.MSVAG(lr=0.05, beta=0.8),
}
GROUPED = list(OPTIMIZERS)


class Block(Link):
    """Parameters of several sizes (one over a chunk) and dtypes, and a quartic loss."""

    def __init__(self, seed):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.w = chainer.Parameter(rng.uniform(-1, 1, (7, 5)).astype(numpy.float32))
            self.b = chainer.Parameter(rng.uniform(-1, 1, 5).astype(numpy.float32))
            big = rng.uniform(-1, 1, SINGLE_CALL_SIZE + 11).astype(numpy.float32)
            self.big = chainer.Parameter(big)
            self.d = chainer.Parameter(rng.uniform(-1, 1, (4, 3)).astype(numpy.float64))
        self.targets = {n: rng.uniform(-1, 1, p.shape).astype(p.dtype) for n, p in self._items()}

    def _items(self):
        return [(name, getattr(self, name)) for name in ("w", "b", "big", "d")]

    def forward(self, scale):
        loss = 0
        for name, param in self._items():
            diff = (param - self.targets[name]) * scale
            loss = loss + cast(sum_all(diff * diff * diff * diff), numpy.float32) * 0.25
        return loss


class Model(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.first = Block(0)
            self.second = Block(1)


@pytest.fixture
def grouped_calls(spy_driver):
    """Parameter lists given to the grouped driver, one list per call."""
    return spy_driver(_elementwise, "_update_group")


def per_parameter(monkeypatch):
    """Make ``GradientMethod.update`` run ``param.update()`` for each parameter, as before."""

    def update_each(params):
        for param in params:
            param.update()

    monkeypatch.setattr(optimizer_module, "update_params", update_each)


def train(make_optimizer, steps, model=None, optimizer=None, prepare=None, start=0):
    model = model if model is not None else Model()
    if optimizer is None:
        optimizer = make_optimizer().setup(model)
        if prepare is not None:
            prepare(model, optimizer)
    for step in range(start, start + steps):
        optimizer.update(model.forward_all, 1.0 + 0.1 * step)
    return model, optimizer


def _forward_all(self, scale):
    return self.first(scale) + self.second(scale)


Model.forward_all = _forward_all


def assert_same(model_a, optimizer_a, model_b, optimizer_b):
    assert optimizer_a.t == optimizer_b.t
    params_b = dict(model_b.namedparams())
    for name, param_a in model_a.namedparams():
        param_b = params_b[name]
        assert param_a.array.dtype == param_b.array.dtype
        numpy.testing.assert_array_equal(param_a.array, param_b.array, err_msg=name)
        rule_a, rule_b = param_a.update_rule, param_b.update_rule
        assert rule_a.t == rule_b.t, name
        assert (rule_a.state is None) == (rule_b.state is None), name
        if rule_a.state is not None:
            assert sorted(rule_a.state) == sorted(rule_b.state), name
            for key, value in rule_a.state.items():
                assert value.dtype == rule_b.state[key].dtype
                numpy.testing.assert_array_equal(value, rule_b.state[key], err_msg=name)


def reference(monkeypatch, make_optimizer, steps, prepare=None):
    with monkeypatch.context() as patch:
        per_parameter(patch)
        return train(make_optimizer, steps, prepare=prepare)


@pytest.mark.parametrize("name", GROUPED)
def test_grouped_update_is_bitwise_the_per_parameter_update(name, monkeypatch, grouped_calls):
    make = OPTIMIZERS[name]
    model, optimizer = train(make, 4)
    # One group per step: every parameter of both blocks, float32 and float64 alike.
    assert len(grouped_calls) == 4
    assert all(len(call) == 8 for call in grouped_calls)
    assert_same(model, optimizer, *reference(monkeypatch, make, 4))


@pytest.mark.parametrize("name", ["SGD", "MomentumSGD", "Adam", "AMSGrad"])
def test_serialization_round_trip_mid_training(name, monkeypatch, grouped_calls):
    make = OPTIMIZERS[name]
    model, optimizer = train(make, 3)
    files = io.BytesIO(), io.BytesIO()
    serializers.save_npz(files[0], model)
    serializers.save_npz(files[1], optimizer)
    resumed_model = Model()
    resumed = make().setup(resumed_model)
    for file, target in zip(files, (resumed_model, resumed)):
        file.seek(0)
        serializers.load_npz(file, target)
    train(make, 3, model=resumed_model, optimizer=resumed, start=3)
    # The loaded states are grouped like the fresh ones.
    assert len(grouped_calls) == 6 and len(grouped_calls[-1]) == 8
    assert_same(resumed_model, resumed, *reference(monkeypatch, make, 6))


def _names(call, model):
    paths = {id(param): path for path, param in model.namedparams()}
    return sorted(paths[id(param)] for param in call)


ALL_PATHS = sorted(f"/{b}/{p}" for b in ("first", "second") for p in ("w", "b", "big", "d"))


def _weight_decay_on_rule(model, optimizer):
    model.first.w.update_rule.add_hook(optimizer_hooks.WeightDecay(0.1))


def _lr_on_rule(model, optimizer):
    model.first.w.update_rule.hyperparam.lr = 0.5


def _disabled_rule(model, optimizer):
    model.first.w.update_rule.enabled = False


class _OwnKernelRule(optimizers.sgd.SGDRule):
    def update_core_cpu(self, param):
        super().update_core_cpu(param)


def _subclassed_rule(model, optimizer):
    model.first.w.update_rule = _OwnKernelRule(optimizer.hyperparam)


def _fp32_master_copy(model, optimizer):
    param = model.first.w
    param.array = param.array.astype(numpy.float16)
    model.first.targets["w"] = model.first.targets["w"].astype(numpy.float16)
    param.update_rule.use_fp32_update()


class _Marked(numpy.ndarray):
    pass


def _state_not_plain_numpy(model, optimizer):
    rule = model.first.w.update_rule
    rule._prepare(model.first.w)
    for key in rule.state:
        rule.state[key] = rule.state[key].view(_Marked)
    rule.state["marker"] = numpy.zeros(1).view(_Marked)


FALLBACKS = {
    "rule hook": _weight_decay_on_rule,
    "per-rule hyperparameter": _lr_on_rule,
    "disabled rule": _disabled_rule,
    "rule overriding update_core_cpu": _subclassed_rule,
    "float32 master copy": _fp32_master_copy,
    "state array of a NumPy subclass": _state_not_plain_numpy,
}


@pytest.mark.parametrize("trigger", list(FALLBACKS))
@pytest.mark.parametrize("name", ["SGD", "MomentumSGD"])
def test_each_per_parameter_difference_falls_back(name, trigger, monkeypatch, grouped_calls):
    prepare = FALLBACKS[trigger]
    make = OPTIMIZERS[name]
    model, optimizer = train(make, 3, prepare=prepare)
    assert len(grouped_calls) >= 3
    grouped = {path for call in grouped_calls for path in _names(call, model)}
    assert grouped == set(ALL_PATHS) - {"/first/w"}
    assert_same(model, optimizer, *reference(monkeypatch, make, 3, prepare=prepare))


def test_disabled_rule_does_not_move_or_count(grouped_calls):
    model, optimizer = train(OPTIMIZERS["Adam"], 2, prepare=_disabled_rule)
    first_w = Model().first.w.array
    numpy.testing.assert_array_equal(model.first.w.array, first_w)
    assert model.first.w.update_rule.t == 0 and model.first.w.update_rule.state is None
    assert model.first.b.update_rule.t == 2


def test_a_fallback_parameter_is_updated_in_its_place_in_the_order(grouped_calls):
    model = Model()
    optimizer = OPTIMIZERS["SGD"]().setup(model)
    order = list(model.params())
    probe = order[3]
    seen = []
    probe.update_rule.add_hook(
        lambda rule, param: seen.extend(p.update_rule.t for p in order), name="probe"
    )
    train(None, 1, model=model, optimizer=optimizer)
    # Parameters before the probe's are updated when its hook runs, later ones are not yet.
    assert seen == [1, 1, 1, 1, 0, 0, 0, 0]
    assert [len(call) for call in grouped_calls] == [3, 4]


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_optimizer_hooks_and_loss_scale_keep_the_group(name, monkeypatch, grouped_calls):
    def prepare(model, optimizer):
        optimizer.add_hook(optimizer_hooks.WeightDecay(0.01))
        optimizer.add_hook(optimizer_hooks.GradientClipping(1.0))
        optimizer.set_loss_scale(8.0)

    make = OPTIMIZERS[name]
    model, optimizer = train(make, 3, prepare=prepare)
    assert [len(call) for call in grouped_calls] == [8, 8, 8]
    assert all(param._loss_scale is None for param in model.params())
    assert_same(model, optimizer, *reference(monkeypatch, make, 3, prepare=prepare))


def test_adabound_keeps_per_rule_initial_alpha(monkeypatch, grouped_calls):
    def prepare(model, optimizer):
        model.second.d.update_rule.initial_alpha = 0.5  # as if created under another alpha

    model, optimizer = train(optimizers.AdaBound, 2, prepare=prepare)
    assert grouped_calls == []
    assert model.second.d.update_rule.initial_alpha == 0.5
    assert_same(model, optimizer, *reference(monkeypatch, optimizers.AdaBound, 2, prepare))


def _step_twice_listed_block():
    link = Block(0)
    optimizer = optimizers.Adam().setup(chainer.ChainList(link, link))
    for param in link.params():
        param.grad = numpy.ones_like(param.array)
    optimizer.update()
    return link


def test_a_parameter_listed_twice_is_updated_twice(monkeypatch):
    link = _step_twice_listed_block()
    assert link.w.update_rule.t == 2
    with monkeypatch.context() as patch:
        per_parameter(patch)
        reference_link = _step_twice_listed_block()
    for path, param in link.namedparams():
        reference = dict(reference_link.namedparams())[path]
        numpy.testing.assert_array_equal(param.array, reference.array)
        numpy.testing.assert_array_equal(
            param.update_rule.state["v"], reference.update_rule.state["v"]
        )


def test_a_mock_rule_is_called_as_before():
    model = Model()
    optimizer = optimizers.SGD().setup(model)
    rule = mock.MagicMock()
    model.first.w.update_rule = rule
    for param in model.params():
        param.grad = numpy.zeros_like(param.array)
    optimizer.update()
    rule.update.assert_called_once_with(model.first.w)


def _packed_rule_states(model):
    return {path: dict(param.update_rule.state) for path, param in model.namedparams()}


def test_packed_states_are_views_kept_from_step_to_step(grouped_calls):
    model, optimizer = train(OPTIMIZERS["Adam"], 1)
    before = _packed_rule_states(model)
    train(None, 2, model=model, optimizer=optimizer, start=1)
    after = _packed_rule_states(model)
    rule = model.first.w.update_rule
    flat = rule.state["m"].base
    assert flat is not None and flat is model.second.w.update_rule.state["m"].base
    assert flat.size > rule.state["m"].size
    for path in ("/first/w", "/first/b", "/second/w", "/second/b"):
        assert all(after[path][key] is before[path][key] for key in ("m", "v"))
    # The chunked parameter keeps arrays of its own.
    assert model.first.big.update_rule.state["m"].base is None


def _replace_state_after_two_steps(model, optimizer, copy_state):
    train(None, 2, model=model, optimizer=optimizer)
    rule = model.first.w.update_rule
    rule.state["m"] = copy_state(rule.state["m"])
    train(None, 2, model=model, optimizer=optimizer, start=2)


@pytest.mark.parametrize("copy_state", [numpy.array, lambda m: m * 0.5], ids=["same", "halved"])
def test_a_state_replaced_by_hand_is_taken_into_a_new_pack(copy_state, monkeypatch):
    model = Model()
    optimizer = OPTIMIZERS["Adam"]().setup(model)
    _replace_state_after_two_steps(model, optimizer, copy_state)
    assert model.first.w.update_rule.state["m"].base is not None  # packed again
    with monkeypatch.context() as patch:
        per_parameter(patch)
        reference_model = Model()
        reference_optimizer = OPTIMIZERS["Adam"]().setup(reference_model)
        _replace_state_after_two_steps(reference_model, reference_optimizer, copy_state)
    assert_same(model, optimizer, reference_model, reference_optimizer)


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))])
def test_a_copy_trains_on_its_own_state(duplicate, monkeypatch):
    model, optimizer = train(OPTIMIZERS["MomentumSGD"], 2)
    copied_model, copied_optimizer = duplicate((model, optimizer))
    assert copied_model.first.w.update_rule._pack is None
    train(None, 2, model=copied_model, optimizer=copied_optimizer, start=2)
    # The original did not move with its copy; stepping it the same way gives the same result.
    assert model.first.w.update_rule.t == 2
    train(None, 2, model=model, optimizer=optimizer, start=2)
    reference_pair = reference(monkeypatch, OPTIMIZERS["MomentumSGD"], 4)
    assert_same(copied_model, copied_optimizer, *reference_pair)
    assert_same(model, optimizer, *reference_pair)


class _CountingParameter(chainer.Parameter):
    calls = 0

    def update(self):
        type(self).calls += 1
        super().update()


@pytest.mark.parametrize("with_rule", [True, False])
def test_a_parameter_overriding_update_is_called(with_rule, grouped_calls):
    model = Model()
    with model.first.init_scope():
        model.first.extra = _CountingParameter(numpy.ones(3, numpy.float32))
    optimizer = optimizers.SGD(lr=0.5).setup(model)
    if not with_rule:
        model.first.extra.update_rule = None
    _CountingParameter.calls = 0
    for param in model.params():
        param.grad = numpy.ones_like(param.array)
    optimizer.update()
    assert _CountingParameter.calls == 1
    expected = 0.5 if with_rule else 1.0
    numpy.testing.assert_array_equal(model.first.extra.array, numpy.full(3, expected))
    assert sum(len(call) for call in grouped_calls) == 8


def _tie_arrays(model, optimizer):
    # Two parameters holding one array (not one Parameter listed twice): each update applies
    # in full before the next, as on the per-parameter path.
    model.second.w.array = model.first.w.array
    model.second.targets["w"] = model.first.targets["w"]


@pytest.mark.parametrize("name", ["AdamW", "MSVAG"])
def test_parameters_sharing_an_array_update_it_one_after_the_other(name, monkeypatch):
    make = OPTIMIZERS[name]
    model, optimizer = train(make, 3, prepare=_tie_arrays)
    assert model.second.w.array is model.first.w.array
    assert_same(model, optimizer, *reference(monkeypatch, make, 3, prepare=_tie_arrays))
