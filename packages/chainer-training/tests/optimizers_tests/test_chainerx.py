"""Optimizers on ChainerX parameters (``native:0``) against the same steps on NumPy.

The update formulas themselves are checked on both backends in ``test_update_rules.py``; here
the machinery around them: which path runs, hooks, loss scaling, frozen rules, float32 master
copies and the serialized state.
"""

import numpy
import pytest

import chainer
import chainer.optimizer as optimizer_module
from chainer import backend, optimizer_hooks, optimizers, serializers
from chainer._update_rule import UpdateRule
from chainer.backends import _chainerx
from chainer.optimizers._elementwise import ElementwiseRule

pytestmark = [
    pytest.mark.chainerx,
    pytest.mark.skipif(not _chainerx.is_available(), reason="chainerx is not available"),
]

to_numpy = backend.CpuDevice().send
NATIVE_TWINS = ["SGD", "MomentumSGD", "NesterovAG", "CorrectedMomentumSGD", "AdaGrad"]
NATIVE_TWINS += ["RMSprop", "Adam", "AdamW", "AMSGrad", "AdaBound", "AMSBound"]
NATIVE_TWINS += ["AdaDelta", "RMSpropGraves", "SMORMS3", "MSVAG"]


def make_link(dtype=numpy.float32, seed=0):
    rng = numpy.random.default_rng(seed)
    link = chainer.Link()
    with link.init_scope():
        link.w = chainer.Parameter(rng.uniform(-1, 1, (3, 4)).astype(dtype))
        link.b = chainer.Parameter(rng.uniform(-1, 1, (4,)).astype(dtype))
    return link


def run_steps(device, make_optimizer, steps=3, dtype=numpy.float32, prepare=None):
    """Step an optimizer on a fresh link on ``device`` with fixed gradients; return the link."""
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


def assert_same_params(link, expected, **tolerance):
    for (name, param), (_, want) in zip(
        sorted(link.namedparams()), sorted(expected.namedparams()), strict=True
    ):
        assert isinstance(param.array, chainer.backend.get_array_types()), name
        numpy.testing.assert_allclose(
            to_numpy(param.array), to_numpy(want.array), err_msg=name, **tolerance
        )


@pytest.mark.parametrize("name", NATIVE_TWINS)
def test_native_twin_updates_without_the_numpy_path(monkeypatch, name):
    def numpy_path(self, param):
        raise AssertionError("the NumPy path ran")

    monkeypatch.setattr(UpdateRule, "update_core_chainerx", numpy_path)
    link = run_steps("native:0", getattr(optimizers, name))
    expected = run_steps("@numpy", getattr(optimizers, name))
    assert_same_params(link, expected, rtol=1e-6, atol=1e-7)


def test_a_rule_without_a_twin_runs_the_cpu_kernel_on_numpy_views(monkeypatch):
    from chainer.optimizers import _elementwise, sgd

    monkeypatch.delitem(_elementwise._CHAINERX_KERNELS, sgd._sgd_kernel)
    link = run_steps("native:0", optimizers.SGD)
    expected = run_steps("@numpy", optimizers.SGD)
    assert_same_params(link, expected, rtol=0, atol=0)
    for param in link.params():
        assert param.device == chainer.get_device("native:0")


def test_state_arrays_live_on_the_parameter_device():
    for name in NATIVE_TWINS:
        link = run_steps("native:0", getattr(optimizers, name), steps=1)
        for param in link.params():
            for value in param.update_rule.state.values():
                assert backend.get_device_from_array(value) == param.device, name


def test_float16_parameters_are_computed_like_numpy():
    link = run_steps("native:0", optimizers.Adam, dtype=numpy.float16)
    expected = run_steps("@numpy", optimizers.Adam, dtype=numpy.float16)
    assert_same_params(link, expected, rtol=0, atol=0)


def test_a_subclass_overriding_update_core_cpu_is_honoured():
    calls = []

    class HalfStepRule(optimizers.sgd.SGDRule):
        def update_core_cpu(self, param):
            calls.append(type(param.array))
            param.array -= 0.5 * self.hyperparam.lr * param.grad

    class HalfStep(optimizers.SGD):
        def create_update_rule(self):
            return HalfStepRule(self.hyperparam)

    link = run_steps("native:0", HalfStep, steps=1)
    expected = run_steps("@numpy", HalfStep, steps=1)
    assert calls == [numpy.ndarray] * 4
    assert_same_params(link, expected, rtol=0, atol=0)


HOOKS = {
    "WeightDecay": lambda: optimizer_hooks.WeightDecay(0.1),
    "Lasso": lambda: optimizer_hooks.Lasso(0.1),
    "GradientClipping": lambda: optimizer_hooks.GradientClipping(0.5),
    "GradientHardClipping": lambda: optimizer_hooks.GradientHardClipping(-0.2, 0.3),
    "GradientLARS": lambda: optimizer_hooks.GradientLARS(threshold=0.1, weight_decay=0.01),
}


@pytest.mark.parametrize("hook", list(HOOKS))
@pytest.mark.parametrize("name", ["MomentumSGD", "Adam"])
def test_optimizer_hooks_agree_with_numpy(name, hook):
    def prepare(opt, link):
        opt.add_hook(HOOKS[hook]())

    link = run_steps("native:0", getattr(optimizers, name), prepare=prepare)
    expected = run_steps("@numpy", getattr(optimizers, name), prepare=prepare)
    assert_same_params(link, expected, rtol=1e-5, atol=1e-6)


def test_gradient_noise_adds_the_noise_function_result():
    def noise(xp, shape, dtype, hook, opt):
        return xp.full(shape, 0.25, dtype)

    def prepare(opt, link):
        opt.add_hook(optimizer_hooks.GradientNoise(0.3, noise_func=noise))

    link = run_steps("native:0", optimizers.SGD, prepare=prepare)
    expected = run_steps("@numpy", optimizers.SGD, prepare=prepare)
    assert_same_params(link, expected, rtol=1e-6, atol=1e-7)


def test_update_rule_hooks_see_the_chainerx_parameter_and_frozen_rules_stay():
    seen = []

    def prepare(opt, link):
        link.b.update_rule.enabled = False
        link.w.update_rule.add_hook(
            lambda rule, param: seen.append(type(param.array)), name="record", timing="post"
        )

    before = to_numpy(make_link().b.array)
    link = run_steps("native:0", optimizers.MomentumSGD, steps=2, prepare=prepare)
    import chainerx

    assert seen == [chainerx.ndarray] * 2
    numpy.testing.assert_array_equal(to_numpy(link.b.array), before)
    assert link.b.update_rule.t == 0
    assert link.b.update_rule.state is None


@pytest.mark.parametrize("scale", [None, 8.0])
def test_loss_scaled_update_agrees_with_numpy(scale):
    def step(device):
        link = make_link()
        link.to_device(device)
        opt = optimizers.MomentumSGD(lr=0.1).setup(link)
        opt.set_loss_scale(scale)
        x = chainer.get_device(device).send(numpy.linspace(-1, 1, 12, dtype=numpy.float32))
        for _ in range(2):
            opt.update(lambda: chainer.functions.sum((link.w.reshape(12) - x) ** 2) + link.b[0])
        return link

    assert_same_params(step("native:0"), step("@numpy"), rtol=1e-6, atol=1e-7)


def test_fp32_master_copy_on_chainerx():
    def prepare(opt, link):
        opt.use_fp32_update()

    link = run_steps("native:0", optimizers.Adam, dtype=numpy.float16, prepare=prepare)
    expected = run_steps("@numpy", optimizers.Adam, dtype=numpy.float16, prepare=prepare)
    assert link.w.dtype == numpy.float16
    assert link.w.update_rule._fp32_param.device == chainer.get_device("native:0")
    assert_same_params(link, expected, rtol=0, atol=0)


def test_state_round_trips_through_npz_and_lands_on_the_parameter_device(tmp_path):
    import chainerx

    device = chainer.get_device("native:0")
    link = make_link()
    link.to_device(device)
    opt = optimizers.Adam().setup(link)
    for _ in range(3):
        link.w.grad = device.send(numpy.full((3, 4), 0.5, numpy.float32))
        link.b.grad = device.send(numpy.full(4, -0.5, numpy.float32))
        opt.update()
    saved = {k: to_numpy(v).copy() for k, v in link.w.update_rule.state.items()}
    path = tmp_path / "opt.npz"
    serializers.save_npz(path, opt)

    fresh = make_link(seed=5)
    fresh.to_device(device)
    loaded = optimizers.Adam().setup(fresh)
    serializers.load_npz(path, loaded)
    assert loaded.t == 3
    rule = fresh.w.update_rule
    assert rule.t == 3
    for key, value in saved.items():
        numpy.testing.assert_array_equal(to_numpy(rule.state[key]), value)
    fresh.w.grad = device.send(numpy.zeros((3, 4), numpy.float32))
    fresh.b.grad = device.send(numpy.zeros(4, numpy.float32))
    loaded.update()  # a zero gradient only decays the moments
    for key in saved:
        assert isinstance(rule.state[key], chainerx.ndarray)
        assert rule.state[key].device.name == "native:0"
    numpy.testing.assert_allclose(to_numpy(rule.state["m"]), saved["m"] * 0.9, rtol=1e-6)
    numpy.testing.assert_allclose(to_numpy(rule.state["v"]), saved["v"] * 0.999, rtol=1e-6)


def test_the_grouped_numpy_update_steps_aside_for_chainerx(monkeypatch):
    from chainer.optimizers import _elementwise

    real = _elementwise._update_group
    grouped = []

    def record(params):
        grouped.append(len(params))
        real(params)

    monkeypatch.setattr(_elementwise, "_update_group", record)
    run_steps("native:0", optimizers.Adam, steps=1)
    assert grouped == []
    run_steps("@numpy", optimizers.Adam, steps=1)
    assert grouped == [2]  # NumPy parameters are grouped: the check sees the grouped path


def test_msvag_takes_no_step_where_there_is_no_variance_estimate():
    # Zero gradients make the factor 0 / 0 from the second step on: a zero step, not NaN.
    device = chainer.get_device("native:0")
    link = make_link()
    before = {name: to_numpy(p.array).copy() for name, p in link.namedparams()}
    link.to_device(device)
    opt = optimizers.MSVAG().setup(link)
    for _ in range(3):
        for param in link.params():
            param.grad = device.send(numpy.zeros(param.shape, numpy.float32))
        opt.update()
    for name, param in link.namedparams():
        numpy.testing.assert_array_equal(to_numpy(param.array), before[name])


# -- grouped updates (``_grouped_chainerx``) against the per-parameter ChainerX path ----------


def per_parameter_steps(monkeypatch, *args, **kwargs):
    """``run_steps`` with ``param.update()`` for each parameter, as before grouping."""

    def update_each(params):
        for param in params:
            param.update()

    with monkeypatch.context() as patch:
        patch.setattr(optimizer_module, "update_params", update_each)
        return run_steps(*args, **kwargs)


@pytest.fixture
def chainerx_groups(spy_driver):
    """The parameter lists given to the grouped ChainerX driver, one list per call."""
    from chainer.optimizers import _grouped_chainerx

    return spy_driver(_grouped_chainerx, "update_group")


def sizes(calls):
    return [len(call) for call in calls]


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


GROUPED_TWINS = [name for name in NATIVE_TWINS if name not in ("AdaBound", "AMSBound")]


@pytest.mark.parametrize("name", GROUPED_TWINS)
def test_grouped_update_is_the_per_parameter_update(name, monkeypatch, chainerx_groups):
    make = getattr(optimizers, name)
    link = run_steps("native:0", make)
    assert sizes(chainerx_groups) == [2, 2, 2]
    assert_identical(link, per_parameter_steps(monkeypatch, "native:0", make))


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float16])
def test_grouped_update_dtypes(dtype, monkeypatch, chainerx_groups):
    link = run_steps("native:0", optimizers.Adam, dtype=dtype)
    # float16 runs the CPU kernel on NumPy views on the per-parameter path.
    assert sizes(chainerx_groups) == ([2, 2, 2] if dtype == numpy.float64 else [])
    expected = per_parameter_steps(monkeypatch, "native:0", optimizers.Adam, dtype=dtype)
    assert_identical(link, expected)


def _rule_hook(opt, link):
    link.w.update_rule.add_hook(lambda rule, param: None, name="noop")


def _own_lr(opt, link):
    link.w.update_rule.hyperparam.lr = 0.5


def _disabled(opt, link):
    link.w.update_rule.enabled = False


def _own_update_core_chainerx(opt, link):
    rule = link.w.update_rule
    rule.update_core_chainerx = lambda param: ElementwiseRule.update_core_chainerx(rule, param)


UNGROUPED = {
    "rule hook": _rule_hook,
    "own lr": _own_lr,
    "disabled rule": _disabled,
    "own update_core_chainerx": _own_update_core_chainerx,
}


@pytest.mark.parametrize("trigger", list(UNGROUPED))
def test_a_per_parameter_difference_leaves_the_other_grouped(
    trigger, monkeypatch, chainerx_groups
):
    prepare = UNGROUPED[trigger]
    link = run_steps("native:0", optimizers.SGD, prepare=prepare)
    assert sizes(chainerx_groups) == [1, 1, 1]
    expected = per_parameter_steps(monkeypatch, "native:0", optimizers.SGD, prepare=prepare)
    assert_identical(link, expected)


def test_a_state_elsewhere_is_moved_by_the_per_parameter_path(chainerx_groups):
    def move_state(opt, link):
        rule = link.w.update_rule
        rule._prepare(link.w)
        rule.state["v"] = chainer.get_device("@numpy").send(rule.state["v"])

    link = run_steps("native:0", optimizers.MomentumSGD, prepare=move_state, steps=2)
    assert sizes(chainerx_groups) == [1, 2]
    assert link.w.update_rule.state["v"].device is link.w.array.device


def test_parameters_off_the_default_device_are_not_grouped(monkeypatch, chainerx_groups):
    link = run_steps("native:1", optimizers.Adam)
    assert sizes(chainerx_groups) == []
    assert_identical(link, per_parameter_steps(monkeypatch, "native:1", optimizers.Adam))


def test_a_grouped_kernel_without_a_twin_runs_on_numpy_views(monkeypatch, chainerx_groups):
    from chainer.optimizers import _grouped_chainerx, sgd

    monkeypatch.delitem(_grouped_chainerx.CHAINERX_KERNELS, sgd._sgd_kernel)
    link = run_steps("native:0", optimizers.SGD)
    assert sizes(chainerx_groups) == [2, 2, 2]
    assert_identical(link, per_parameter_steps(monkeypatch, "native:0", optimizers.SGD))


def test_a_grouped_update_clears_the_loss_scale(monkeypatch, chainerx_groups):
    def step():
        link = make_link()
        link.to_device("native:0")
        opt = optimizers.MomentumSGD(lr=0.1).setup(link)
        opt.set_loss_scale(8.0)
        for _ in range(2):
            opt.update(lambda: chainer.functions.sum(link.w * link.w) + link.b[0])
        assert all(param._loss_scale is None for param in link.params())
        return link

    link = step()
    assert sizes(chainerx_groups) == [2, 2]
    with monkeypatch.context() as patch:
        patch.setattr(optimizer_module, "update_params", lambda ps: [p.update() for p in ps])
        expected = step()
    assert_identical(link, expected)
