"""Grouped updates of ChainerX parameters (``_grouped_chainerx``) against the per-parameter
ChainerX path: the same arrays, states and ``t``, exactly; and what steps aside from them."""

import numpy
import pytest

import chainer
import chainer.optimizer as optimizer_module
from chainer import backend, optimizers
from chainer.backends import _chainerx
from chainer.optimizers import _grouped_chainerx, sgd

pytestmark = [
    pytest.mark.chainerx,
    pytest.mark.skipif(not _chainerx.is_available(), reason="chainerx is not available"),
]

to_numpy = backend.CpuDevice().send
TWINS = ["SGD", "MomentumSGD", "NesterovAG", "CorrectedMomentumSGD", "AdaGrad", "RMSprop"]
TWINS += ["Adam", "AdamW", "AMSGrad", "AdaDelta", "RMSpropGraves", "SMORMS3", "MSVAG"]


def make_link(dtype=numpy.float32):
    rng = numpy.random.default_rng(0)
    link = chainer.Link()
    with link.init_scope():
        link.w = chainer.Parameter(rng.uniform(-1, 1, (3, 4)).astype(dtype))
        link.b = chainer.Parameter(rng.uniform(-1, 1, (4,)).astype(dtype))
        link.c = chainer.Parameter(rng.uniform(-1, 1, (2, 2)).astype(dtype))
    return link


def run_steps(make_optimizer, device="native:0", dtype=numpy.float32, prepare=None, steps=3):
    device = chainer.get_device(device)
    link = make_link(dtype)
    link.to_device(device)
    opt = make_optimizer().setup(link)
    if prepare is not None:
        prepare(opt, link)
    rng = numpy.random.default_rng(1)
    for _ in range(steps):
        for param in link.params():
            param.grad = device.send(rng.uniform(-1, 1, param.shape).astype(dtype))
        opt.update()
    return link


def per_parameter(monkeypatch, *args, **kwargs):
    def update_each(params):
        for param in params:
            param.update()

    with monkeypatch.context() as patch:
        patch.setattr(optimizer_module, "update_params", update_each)
        return run_steps(*args, **kwargs)


@pytest.fixture
def grouped_calls(monkeypatch):
    calls = []
    real = _grouped_chainerx.update_group

    def spy(params):
        calls.append(len(params))
        real(params)

    monkeypatch.setattr(_grouped_chainerx, "update_group", spy)
    return calls


def assert_identical(link, expected):
    import chainerx

    expected_params = dict(expected.namedparams())
    for name, param in link.namedparams():
        want = expected_params[name]
        assert isinstance(param.array, chainerx.ndarray)
        numpy.testing.assert_array_equal(to_numpy(param.array), to_numpy(want.array), name)
        rule, want_rule = param.update_rule, want.update_rule
        assert rule.t == want_rule.t, name
        assert (rule.state is None) == (want_rule.state is None), name
        for key, value in (rule.state or {}).items():
            assert isinstance(value, chainerx.ndarray)
            assert value.device is param.array.device
            numpy.testing.assert_array_equal(to_numpy(value), to_numpy(want_rule.state[key]))


@pytest.mark.parametrize("name", TWINS)
def test_grouped_chainerx_update_is_the_per_parameter_update(name, monkeypatch, grouped_calls):
    link = run_steps(getattr(optimizers, name))
    assert grouped_calls == [3, 3, 3]
    assert_identical(link, per_parameter(monkeypatch, getattr(optimizers, name)))


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float16])
def test_dtypes(dtype, monkeypatch, grouped_calls):
    link = run_steps(optimizers.Adam, dtype=dtype)
    # float16 runs the CPU kernel on NumPy views on the per-parameter path.
    assert grouped_calls == ([3, 3, 3] if dtype == numpy.float64 else [])
    assert_identical(link, per_parameter(monkeypatch, optimizers.Adam, dtype=dtype))


def _rule_hook(opt, link):
    link.w.update_rule.add_hook(lambda rule, param: None, name="noop")


def _own_lr(opt, link):
    link.w.update_rule.hyperparam.lr = 0.5


def _disabled(opt, link):
    link.w.update_rule.enabled = False


FALLBACKS = {"rule hook": _rule_hook, "own lr": _own_lr, "disabled rule": _disabled}


@pytest.mark.parametrize("trigger", list(FALLBACKS))
def test_a_per_parameter_difference_leaves_the_others_grouped(trigger, monkeypatch, grouped_calls):
    prepare = FALLBACKS[trigger]
    link = run_steps(optimizers.SGD, prepare=prepare)
    assert grouped_calls == [2, 2, 2]
    assert_identical(link, per_parameter(monkeypatch, optimizers.SGD, prepare=prepare))


def test_a_state_on_another_device_is_moved_by_the_per_parameter_path(grouped_calls):
    def move_state(opt, link):
        rule = link.w.update_rule
        rule._prepare(link.w)
        rule.state["v"] = chainer.get_device("@numpy").send(rule.state["v"])

    link = run_steps(optimizers.MomentumSGD, prepare=move_state, steps=2)
    assert grouped_calls == [2, 3]
    assert link.w.update_rule.state["v"].device is link.w.array.device


def test_parameters_off_the_default_device_take_the_per_parameter_path(monkeypatch, grouped_calls):
    link = run_steps(optimizers.Adam, device="native:1")
    assert grouped_calls == []
    assert_identical(link, per_parameter(monkeypatch, optimizers.Adam, device="native:1"))


def test_a_kernel_without_a_twin_runs_on_numpy_views(monkeypatch, grouped_calls):
    monkeypatch.delitem(_grouped_chainerx.CHAINERX_KERNELS, sgd._sgd_kernel)
    link = run_steps(optimizers.SGD)
    assert grouped_calls == [3, 3, 3]
    assert_identical(link, per_parameter(monkeypatch, optimizers.SGD))


def test_a_loss_scale_is_cleared_as_on_the_per_parameter_path(monkeypatch, grouped_calls):
    def step():
        link = make_link()
        link.to_device("native:0")
        opt = optimizers.MomentumSGD(lr=0.1).setup(link)
        opt.set_loss_scale(8.0)
        for _ in range(2):
            opt.update(lambda: chainer.functions.sum(link.w * link.w) + link.b[0] + link.c[0, 0])
        assert all(param._loss_scale is None for param in link.params())
        return link

    link = step()
    assert grouped_calls == [3, 3]
    with monkeypatch.context() as patch:
        patch.setattr(
            optimizer_module, "update_params", lambda params: [p.update() for p in params]
        )
        expected = step()
    assert_identical(link, expected)


def test_a_rule_with_its_own_update_core_chainerx_is_updated_on_its_own(grouped_calls):
    seen = []

    def prepare(opt, link):
        rule = link.b.update_rule
        rule.update_core_chainerx = lambda param: seen.append(param.name)

    link = run_steps(optimizers.SGD, prepare=prepare, steps=2)
    assert grouped_calls == [2, 2] and seen == ["b", "b"]
    numpy.testing.assert_array_equal(to_numpy(link.b.array), to_numpy(make_link().b.array))
