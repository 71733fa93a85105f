"""Optimizer and GradientMethod: setup, update steps, hooks, epochs, errors."""

import copy

import numpy
import pytest

import chainer
from chainer import Parameter
from chainer.optimizer import GradientMethod, Optimizer


@pytest.fixture
def setup(kit):
    """An SGD(lr=0.5) on a target with w = [1, 2], b = [3] and an uninitialized u."""
    w, b = kit.param(1.0, 2.0), kit.param(3.0)
    target = kit.Target(w=w, b=b, u=Parameter())
    return kit.SGD(lr=0.5).setup(target), target, w, b


class TestSetup:
    def test_returns_self_and_resets_counters(self, kit):
        opt = kit.SGD()
        opt.t, opt.epoch = 5, 2
        target = kit.Target(w=kit.param(1.0))
        assert opt.setup(target) is opt
        assert opt.target is target
        assert (opt.t, opt.epoch) == (0, 0)

    def test_every_parameter_gets_its_own_rule(self, setup):
        opt, target, w, b = setup
        rules = [p.update_rule for p in target.params()]
        assert len(rules) == 3 and len({id(r) for r in rules}) == 3
        assert all(r.hyperparam.parent is opt.hyperparam for r in rules)

    def test_optimizer_hyperparameters_reach_rules_live(self, setup):
        opt, _, w, b = setup
        opt.lr = 0.25
        assert w.update_rule.hyperparam.lr == 0.25
        b.update_rule.hyperparam.lr = 1.0
        w.grad, b.grad = numpy.ones(2, numpy.float32), numpy.ones(1, numpy.float32)
        opt.update()
        numpy.testing.assert_array_equal(w.array, [0.75, 1.75])
        numpy.testing.assert_array_equal(b.array, [2.0])

    def test_setup_resets_hooks(self, setup):
        opt, target, _, _ = setup
        opt.add_hook(lambda o: None, name="h")
        opt.setup(target)
        opt.add_hook(lambda o: None, name="h")

    def test_target_must_look_like_a_link(self, kit):
        with pytest.raises(TypeError, match="optimization target must be a link .* got int"):
            kit.SGD().setup(3)

    def test_create_update_rule_is_abstract(self, kit):
        with pytest.raises(NotImplementedError, match="GradientMethod does not implement"):
            GradientMethod().setup(kit.Target(w=kit.param(1.0)))

    def test_base_update_is_abstract(self, kit):
        opt = Optimizer().setup(kit.Target())
        with pytest.raises(NotImplementedError, match="Optimizer does not implement update"):
            opt.update()

    @pytest.mark.parametrize(
        ("method", "args"),
        [
            ("update", ()),
            ("add_hook", (print,)),
            ("remove_hook", ("x",)),
            ("call_hooks", ()),
            ("serialize", (None,)),
            ("reallocate_cleared_grads", ()),
            ("check_nan_in_grads", ()),
        ],
    )
    def test_methods_before_setup_say_so(self, kit, method, args):
        with pytest.raises(RuntimeError, match=rf"SGD\.{method}\(\) needs a target: call .*setup"):
            getattr(kit.SGD(), method)(*args)


class TestUpdate:
    def test_with_lossfun_clears_grads_backprops_and_updates(self, setup):
        opt, target, w, b = setup
        w.grad = numpy.full(2, 100.0, numpy.float32)  # stale: must not leak into the step
        calls = []

        def lossfun(x, *, scale):
            calls.append(list(target.calls))
            return (w * w * x * scale).mean()

        opt.update(lossfun, numpy.array([1.0, 3.0], numpy.float32), scale=2.0)
        assert calls == [[]] and target.calls == ["cleargrads"]
        # loss = mean(2 x w^2) -> dL/dw = 2 x w (n = 2); b gets a zero gradient.
        grad_w = 2 * numpy.array([1.0, 3.0]) * numpy.array([1.0, 2.0])
        numpy.testing.assert_allclose(w.array, numpy.array([1.0, 2.0]) - 0.5 * grad_w)
        numpy.testing.assert_array_equal(b.array, [3.0])
        numpy.testing.assert_array_equal(b.grad, [0.0])
        assert opt.t == 1 and w.update_rule.t == 1

    def test_without_lossfun_uses_existing_grads(self, setup):
        opt, target, w, b = setup
        w.grad = numpy.array([2.0, 4.0], numpy.float32)
        opt.update()
        numpy.testing.assert_array_equal(w.array, [0.0, 0.0])
        assert target.calls == []
        assert b.update_rule.t == 1  # reallocated zero gradient: still a step

    def test_uninitialized_parameters_are_left_alone(self, setup):
        opt, target, _, _ = setup
        u = dict(target.namedparams())["/u"]
        opt.update()
        assert u.array is None and u.update_rule.t == 0
        with pytest.raises(RuntimeError, match="uninitialized parameter"):
            _ = u.grad  # as v7: not available until initialized or cleared

    def test_disabled_rule_freezes_its_parameter(self, setup):
        opt, _, w, b = setup
        w.update_rule.enabled = False
        w.grad, b.grad = numpy.ones(2, numpy.float32), numpy.ones(1, numpy.float32)
        opt.update()
        numpy.testing.assert_array_equal(w.array, [1.0, 2.0])
        numpy.testing.assert_array_equal(b.array, [2.5])

    def test_use_cleargrads_false_zeroes_instead(self, setup):
        opt, target, w, _ = setup
        with pytest.warns(DeprecationWarning, match="use_cleargrads is deprecated"):
            opt.use_cleargrads(False)
        opt.update(lambda: (w * w).mean())
        assert target.calls == ["zerograds"]
        numpy.testing.assert_allclose(w.array, [0.5, 1.0])

    def test_use_fp32_update_reaches_rules_before_and_after_setup(self, kit):
        w = kit.param(1.0)
        early = kit.SGD()
        early.use_fp32_update()
        early.setup(kit.Target(w=w))
        assert w.update_rule._use_fp32_update is True
        late = kit.SGD().setup(kit.Target(w=w))
        assert w.update_rule._use_fp32_update is False
        late.use_fp32_update()
        assert w.update_rule._use_fp32_update is True
        late.use_fp32_update(False)
        assert w.update_rule._use_fp32_update is False


class TestHooks:
    def test_pre_hooks_see_grads_post_hooks_see_updated_params(self, setup):
        opt, _, w, _ = setup
        log = []

        def record(label):
            return lambda o: log.append((label, o.t, float(w.array[0]), float(w.grad[0])))

        opt.add_hook(record("post"), name="post", timing="post")
        opt.add_hook(record("pre1"), name="pre1", timing="pre")
        opt.add_hook(record("pre2"), name="pre2")
        w.grad = numpy.array([2.0, 2.0], numpy.float32)
        opt.update()
        assert log == [("pre1", 0, 1.0, 2.0), ("pre2", 0, 1.0, 2.0), ("post", 1, 0.0, 2.0)]

    def test_auto_timing_and_name_come_from_the_hook(self, setup):
        opt, _, w, _ = setup
        log = []

        class Hook:
            name = "watch"
            timing = "post"

            def __call__(self, optimizer):
                log.append(float(w.array[0]))

        opt.add_hook(Hook())
        opt.update()
        w.grad = numpy.array([2.0, 0.0], numpy.float32)
        opt.update()
        assert log == [1.0, 0.0]
        opt.remove_hook("watch")
        opt.update()
        assert log == [1.0, 0.0]

    def test_plain_function_defaults_to_pre(self, setup):
        opt, _, w, _ = setup
        seen = []

        def scale_grads(optimizer):
            seen.append(float(w.array[0]))
            for p in optimizer.target.params(include_uninit=False):
                p.grad = p.grad * 2

        opt.add_hook(scale_grads)
        w.grad = numpy.array([1.0, 1.0], numpy.float32)
        opt.update()
        assert seen == [1.0]
        numpy.testing.assert_array_equal(w.array, [0.0, 1.0])
        with pytest.raises(KeyError, match="hook 'scale_grads' already exists"):
            opt.add_hook(scale_grads, timing="post")

    def test_call_for_each_param_hooks_get_rule_and_param(self, setup):
        opt, _, w, b = setup
        seen = []

        class PerParam:
            name = "per_param"
            call_for_each_param = True

            def __call__(self, rule, param):
                seen.append((rule, param))

        opt.add_hook(PerParam())
        opt.update()
        assert seen == [(w.update_rule, w), (b.update_rule, b)]

    def test_a_plain_optimizer_calls_per_param_hooks_with_no_rule(self, kit):
        # v7: Optimizer (not only GradientMethod) honours call_for_each_param.
        w = kit.param(1.0, 2.0)
        target = chainer.Link()
        with target.init_scope():
            target.w = w
        opt = Optimizer()
        opt.setup(target)
        seen = []

        def per_param(rule, param):
            seen.append((rule, param))

        per_param.call_for_each_param = True
        opt.add_hook(per_param)
        opt.call_hooks()
        assert seen == [(None, w)]

    def test_grads_cleared_by_a_hook_are_refilled(self, setup):
        opt, target, w, _ = setup
        shapes = []
        opt.add_hook(lambda o: target.cleargrads(), name="clear")
        opt.add_hook(lambda o: shapes.append(w.grad.shape), name="look")
        w.grad = numpy.ones(2, numpy.float32)
        opt.update()
        assert shapes == [(2,)]
        numpy.testing.assert_array_equal(w.array, [1.0, 2.0])

    def test_call_hooks_by_hand_and_bad_timing(self, setup):
        opt, _, _, _ = setup
        log = []
        opt.add_hook(lambda o: log.append("pre"), name="a")
        opt.add_hook(lambda o: log.append("post"), name="b", timing="post")
        opt.call_hooks("post")
        opt.call_hooks()
        assert log == ["post", "pre"]
        with pytest.raises(ValueError, match="timing must be 'pre' or 'post', got 'auto'"):
            opt.call_hooks("auto")

    def test_bad_hooks(self, setup):
        opt, _, _, _ = setup
        with pytest.raises(TypeError, match="a hook must be callable, got str 'x'"):
            opt.add_hook("x")
        with pytest.raises(ValueError, match="timing must be 'pre', 'post' or 'auto', got 'now'"):
            opt.add_hook(print, timing="now")
        with pytest.raises(KeyError, match="no hook named 'missing'"):
            opt.remove_hook("missing")


class TestNewEpoch:
    def test_by_hand(self, setup):
        opt, _, _, _ = setup
        opt.new_epoch()
        opt.new_epoch()
        assert opt.epoch == 2

    def test_by_updater(self, setup):
        opt, _, _, _ = setup
        opt.use_auto_new_epoch = True
        opt.new_epoch(auto=True)
        assert opt.epoch == 1

    def test_by_hand_when_an_updater_counts_is_an_error(self, setup):
        opt, _, _, _ = setup
        opt.use_auto_new_epoch = True
        with pytest.raises(RuntimeError, match="called by hand, but an updater counts"):
            opt.new_epoch()
        assert opt.epoch == 0

    def test_auto_without_opt_in_is_an_error(self, setup):
        opt, _, _, _ = setup
        with pytest.raises(RuntimeError, match=r"new_epoch\(auto=True\) is for updaters"):
            opt.new_epoch(auto=True)
        assert opt.epoch == 0


def test_defaults_of_a_fresh_optimizer():
    opt = Optimizer()
    assert opt.target is None
    assert (opt.t, opt.epoch, opt.use_auto_new_epoch) == (0, 0, False)
    assert GradientMethod.__module__ == Optimizer.__module__ == "chainer.optimizer"


def test_deepcopy_keeps_rules_tied_to_the_copied_optimizer(setup):
    opt, _, w, _ = setup
    w.grad = numpy.ones(2, numpy.float32)
    opt.update()
    twin = copy.deepcopy(opt)
    twin_w = dict(twin.target.namedparams())["/w"]
    assert twin_w is not w and twin_w.update_rule is not w.update_rule
    assert twin_w.update_rule.hyperparam.parent is twin.hyperparam
    twin.lr = 1.0
    assert w.update_rule.hyperparam.lr == 0.5
    twin_w.grad = numpy.ones(2, numpy.float32)
    twin.update()
    numpy.testing.assert_array_equal(twin_w.array, [-0.5, 0.5])
    numpy.testing.assert_array_equal(w.array, [0.5, 1.5])


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("GradientClipping", (1.0,)),
        ("GradientHardClipping", (-1.0, 1.0)),
        ("GradientNoise", (0.1,)),
        ("Lasso", (0.1,)),
        ("WeightDecay", (0.1,)),
    ],
)
def test_v7_deprecated_hooks_in_this_module_warn_when_made(name, args):
    hooks = pytest.importorskip("chainer.optimizer_hooks")  # from chainer-training
    with pytest.warns(DeprecationWarning, match=f"use chainer.optimizer_hooks.{name}"):
        hook = getattr(chainer.optimizer, name)(*args)
    assert isinstance(hook, getattr(hooks, name))
    assert getattr(chainer.optimizer, name) is getattr(chainer.optimizer, name)


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchHook'"):
        _ = chainer.optimizer.NoSuchHook
