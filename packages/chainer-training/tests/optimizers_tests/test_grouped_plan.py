"""The grouped update's plan kept between steps, and the optimizer step's single link walk.

Every test compares against the per-parameter path (``param.update()`` for each parameter),
bitwise: parameters, states and ``t``.
"""

import gc
import io
import threading
import weakref

import numpy
import pytest

import chainer
import chainer.optimizer as optimizer_module
from chainer import optimizer_hooks, optimizers, serializers
from chainer._grouped_update import update_params
from chainer.optimizers._chunks import SINGLE_CALL_SIZE
from chainer.optimizers._grouped import PACKED_PARAM_SIZE

OPTIMIZERS = {
    "SGD": lambda: optimizers.SGD(lr=0.05),
    "MomentumSGD": lambda: optimizers.MomentumSGD(lr=0.05, momentum=0.8),
    "Adam": lambda: optimizers.Adam(alpha=0.05, beta1=0.8, beta2=0.99),
    "RMSprop": lambda: optimizers.RMSprop(lr=0.02, alpha=0.9),
}
# Packed, direct (over the pack size), chunked (over one call) and float64 parameters.
SHAPES = {
    "a": ((7, 5), numpy.float32),
    "b": ((5,), numpy.float32),
    "mid": ((PACKED_PARAM_SIZE + 5,), numpy.float32),
    "big": ((SINGLE_CALL_SIZE + 7,), numpy.float32),
    "d": ((4, 3), numpy.float64),
    "e": ((3,), numpy.float64),
}


def make_model():
    rng = numpy.random.default_rng(0)
    model = chainer.Link()
    with model.init_scope():
        for name, (shape, dtype) in SHAPES.items():
            array = rng.uniform(-1, 1, shape).astype(dtype)
            setattr(model, name, chainer.Parameter(array))
    return model


def set_grads(model, step):
    rng = numpy.random.default_rng(100 + step)
    for param in model.params():
        param.grad = rng.uniform(-1, 1, param.shape).astype(param.dtype)


def train(make, steps, model=None, optimizer=None, between=None, start=0):
    if model is None:
        model = make_model()
        optimizer = make().setup(model)
    for step in range(start, start + steps):
        set_grads(model, step)
        if between is not None:
            between(model, step)
        optimizer.update()
    return model, optimizer


def reference(monkeypatch, make, steps, between=None):
    with monkeypatch.context() as patch:
        patch.setattr(optimizer_module, "update_params", _update_each)
        return train(make, steps, between=between)


def _update_each(params):
    for param in params:
        param.update()


def assert_same(model_a, model_b):
    params_b = dict(model_b.namedparams())
    for name, param_a in model_a.namedparams():
        param_b = params_b[name]
        numpy.testing.assert_array_equal(param_a.array, param_b.array, err_msg=name)
        rule_a, rule_b = param_a.update_rule, param_b.update_rule
        assert rule_a.t == rule_b.t, name
        for key, value in (rule_a.state or {}).items():
            assert value.dtype == rule_b.state[key].dtype
            numpy.testing.assert_array_equal(value, rule_b.state[key], err_msg=name)


def plans(model):
    found = {id(p.update_rule._group_plan): p.update_rule._group_plan for p in model.params()}
    return [plan for plan in found.values() if plan is not None]


@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_the_plan_is_kept_between_steps(name, monkeypatch):
    model, optimizer = train(OPTIMIZERS[name], 2)
    (plan,) = plans(model)
    train(None, 2, model=model, optimizer=optimizer, start=2)
    assert plans(model) == [plan]
    assert_same(model, reference(monkeypatch, OPTIMIZERS[name], 4)[0])


def test_a_stateless_kernel_runs_on_each_array_without_packing():
    model, _ = train(OPTIMIZERS["SGD"], 2)
    (plan,) = plans(model)
    assert plan.packs == []
    assert sorted(index for index, *_ in plan.direct) == [0, 1, 3, 4, 5]
    assert plan.chunked == [2]  # parameters in name order


def test_small_states_are_packed_by_dtype():
    model, _ = train(OPTIMIZERS["Adam"], 1)
    (plan,) = plans(model)
    assert sorted(sorted(run.members) for run in plan.packs) == [[0, 1], [3, 4]]
    assert model.a.update_rule.state["m"].base is model.b.update_rule.state["m"].base
    assert model.mid.update_rule.state["m"].base is None


def _replace_an_array(model, step):
    if step == 2:
        model.b.array = model.b.array * 1  # a new array of the same values
        model.mid.array = model.mid.array.copy()


@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_a_replaced_array_makes_a_new_plan(name, monkeypatch):
    model, optimizer = train(OPTIMIZERS[name], 2)
    (old,) = plans(model)
    train(None, 2, model=model, optimizer=optimizer, between=_replace_an_array, start=2)
    (new,) = plans(model)
    assert new is not old and any(ref() is model.b.array for ref in new.array_refs)
    expected = reference(monkeypatch, OPTIMIZERS[name], 4, between=_replace_an_array)[0]
    assert_same(model, expected)


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_a_plan_keeps_no_replaced_array_alive(name):
    model = make_model()
    for param in (model.mid, model.big):
        param.array = param.array.copy()  # the initializer holds the first array
    model, _ = train(OPTIMIZERS[name], 2, model, OPTIMIZERS[name]().setup(model))
    assert plans(model)
    replaced = [weakref.ref(model.mid.array), weakref.ref(model.big.array)]
    if name == "Adam":
        replaced += [weakref.ref(value) for value in model.mid.update_rule.state.values()]
        model.mid.update_rule.state.clear()  # as if moved elsewhere
    model.mid.array = model.mid.array.copy()
    model.big.array = model.big.array.copy()
    gc.collect()
    assert all(ref() is None for ref in replaced)


def _replace_a_state(model, step):
    if step == 2 and model.a.update_rule.state:
        state = model.a.update_rule.state
        for key in state:
            state[key] = state[key] * 0.5


@pytest.mark.parametrize("name", ["MomentumSGD", "Adam"])
def test_a_replaced_state_makes_a_new_plan(name, monkeypatch):
    model, optimizer = train(OPTIMIZERS[name], 2)
    (old,) = plans(model)
    train(None, 2, model=model, optimizer=optimizer, between=_replace_a_state, start=2)
    (new,) = plans(model)
    assert new is not old
    assert_same(model, reference(monkeypatch, OPTIMIZERS[name], 4, between=_replace_a_state)[0])


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_a_step_in_another_thread_uses_that_threads_buffers(name, monkeypatch):
    model, optimizer = train(OPTIMIZERS[name], 2)
    (old,) = plans(model)
    worker = threading.Thread(target=train, args=(None, 1, model, optimizer, None, 2))
    worker.start()
    worker.join()
    (new,) = plans(model)
    assert new is not old
    assert_same(model, reference(monkeypatch, OPTIMIZERS[name], 3)[0])


def _grads_of_another_dtype(model, step):
    # What a backward may leave without the setter's checks: float64 gradients of float32
    # parameters, which the per-parameter path computes with after casting.
    for name in ("a", "b", "mid"):
        param = getattr(model, name)
        param._grad_var = chainer.Variable(param.grad.astype(numpy.float64))


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_gradients_of_another_dtype_are_cast_as_on_the_per_parameter_path(name, monkeypatch):
    model, _ = train(OPTIMIZERS[name], 3, between=_grads_of_another_dtype)
    expected = reference(monkeypatch, OPTIMIZERS[name], 3, between=_grads_of_another_dtype)[0]
    assert_same(model, expected)


def _counting_walks(model):
    calls = []
    params = model.params

    def counted(*args, **kwargs):
        if args or kwargs:  # not set_grads' walk
            calls.append(args or kwargs)
        return params(*args, **kwargs)

    model.params = counted
    return calls


def test_a_step_without_hooks_walks_the_links_once():
    model, optimizer = train(OPTIMIZERS["Adam"], 1)
    calls = _counting_walks(model)
    train(None, 1, model=model, optimizer=optimizer, start=1)
    assert calls == [{"include_uninit": False}]


def test_a_step_with_an_optimizer_hook_walks_as_before(monkeypatch):
    def prepare(model, step):
        if step == 0:
            optimizer.add_hook(optimizer_hooks.WeightDecay(0.01))

    model = make_model()
    optimizer = OPTIMIZERS["Adam"]().setup(model)
    train(None, 2, model=model, optimizer=optimizer, between=prepare)
    calls = _counting_walks(model)
    train(None, 1, model=model, optimizer=optimizer, start=2)
    # Refill, the hook's walk and its refill, the update, the refill after the update.
    assert len(calls) == 5

    def reference_prepare(model, step):
        if step == 0:
            reference_optimizer.add_hook(optimizer_hooks.WeightDecay(0.01))

    with monkeypatch.context() as patch:
        patch.setattr(optimizer_module, "update_params", _update_each)
        reference_model = make_model()
        reference_optimizer = OPTIMIZERS["Adam"]().setup(reference_model)
        train(None, 3, reference_model, reference_optimizer, between=reference_prepare)
    assert_same(model, reference_model)


def test_gradients_cleared_by_a_rule_hook_are_refilled_after_the_update():
    model = make_model()
    optimizer = OPTIMIZERS["SGD"]().setup(model)

    def clear(rule, param):
        param.grad = None

    model.b.update_rule.add_hook(clear, timing="post")
    set_grads(model, 0)
    optimizer.update()
    numpy.testing.assert_array_equal(model.b.grad, numpy.zeros(5, numpy.float32))
    assert model.b.update_rule.t == 1 and optimizer.t == 1


def test_cleared_gradients_are_filled_with_zeros_before_the_update():
    model = make_model()
    optimizer = OPTIMIZERS["Adam"]().setup(model)
    set_grads(model, 0)
    model.e.grad = None
    before = model.e.array.copy()
    optimizer.update()
    numpy.testing.assert_array_equal(model.e.grad, numpy.zeros(3, numpy.float64))
    numpy.testing.assert_array_equal(model.e.array, before)  # Adam's zero-gradient step
    assert model.e.update_rule.t == 1


def test_update_params_says_whether_only_grouped_updates_ran():
    model = make_model()
    optimizers.SGD().setup(model)
    set_grads(model, 0)
    assert update_params(list(model.params())) is True
    model.b.update_rule.add_hook(lambda rule, param: None, name="noop")
    assert update_params(list(model.params())) is False
    model.b.update_rule.remove_hook("noop")
    model.b.update_rule = None  # nothing to run for it
    assert update_params(list(model.params())) is True


def _own_kernel_call(model, step):
    if step == 0:
        rule = model.b.update_rule
        kernel, keys, n_scratch, _ = rule._kernel_call()
        rule._kernel_call = lambda: (kernel, keys, n_scratch, (0.5,))  # its own lr


def test_a_rule_with_its_own_kernel_call_is_updated_on_its_own(monkeypatch):
    model, _ = train(OPTIMIZERS["SGD"], 2, between=_own_kernel_call)
    # "a" before it and the rest after it are grouped.
    assert [len(plan.rules) for plan in plans(model)] == [1, 4]
    assert all(model.b.update_rule not in plan.rules for plan in plans(model))
    expected = reference(monkeypatch, OPTIMIZERS["SGD"], 2, between=_own_kernel_call)[0]
    assert_same(model, expected)
    start = make_model().b.array
    numpy.testing.assert_array_equal(model.b.array, expected.b.array)
    assert not numpy.array_equal(model.b.array, start)


def test_kernel_scalars_follow_the_optimizer_and_the_rules_own_values():
    optimizer = optimizers.SGD(lr=0.1)
    rule = optimizer.create_update_rule()
    assert rule._kernel_call()[3] == (0.1,)
    optimizer.lr = 0.2  # a schedule changing the optimizer's value
    assert rule._kernel_call()[3] == (0.2,)
    rule.hyperparam.lr = 0.3
    assert rule._kernel_call()[3] == (0.3,)
    del rule.hyperparam.lr
    assert rule._kernel_call()[3] == (0.2,)
    assert optimizers.sgd.SGDRule()._kernel_call()[3] == (0.01,)  # the defaults


def test_adam_scalars_read_through_two_levels_of_parents():
    adam = optimizers.Adam(alpha=0.5, beta1=0.8)
    middle = chainer.optimizer.Hyperparameter(adam.hyperparam)
    rule = optimizers.adam.AdamRule(middle)
    rule.t = 2
    _, _, _, scalars = rule._kernel_call()
    alpha_t = 0.5 * numpy.sqrt(1 - 0.999**2) / (1 - 0.8**2)
    assert scalars[0] == pytest.approx(0.2) and scalars[3] == pytest.approx(alpha_t)
    middle.beta1 = 0.5
    assert rule._kernel_call()[3][0] == pytest.approx(0.5)


def _save_and_resume_in_place(model, optimizer):
    train(None, 2, model=model, optimizer=optimizer)
    files = io.BytesIO(), io.BytesIO()
    serializers.save_npz(files[0], model)
    serializers.save_npz(files[1], optimizer)
    train(None, 2, model=model, optimizer=optimizer, start=2)
    for file, target in zip(files, (model, optimizer)):
        file.seek(0)
        serializers.load_npz(file, target)  # back to step 2, into the arrays in use
    train(None, 2, model=model, optimizer=optimizer, start=2)


@pytest.mark.parametrize("name", ["MomentumSGD", "Adam"])
def test_a_snapshot_loaded_into_the_training_optimizer(name, monkeypatch):
    model = make_model()
    optimizer = OPTIMIZERS[name]().setup(model)
    _save_and_resume_in_place(model, optimizer)
    assert optimizer.t == 4 and model.a.update_rule.t == 4
    with monkeypatch.context() as patch:
        patch.setattr(optimizer_module, "update_params", _update_each)
        expected = make_model()
        _save_and_resume_in_place(expected, OPTIMIZERS[name]().setup(expected))
    assert_same(model, expected)
    straight = train(OPTIMIZERS[name], 4)[0]  # the same as never leaving step 2
    assert_same(model, straight)
