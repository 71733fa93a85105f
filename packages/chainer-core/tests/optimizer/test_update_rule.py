"""UpdateRule: update flow, state, hooks, loss-scale unscaling, dispatch, fp32 master copies."""

import contextlib
import types

import numpy
import pytest

import chainer
from chainer import Variable, backend
from chainer.backends import cuda
from chainer.backends._chainerx import ChainerxDevice
from chainer.backends._cpu import CpuDevice
from chainer.backends.cuda import GpuDevice
from chainer.optimizer import Hyperparameter, UpdateRule


def _sgd_rule(kit, lr=0.5):
    rule = kit.SGDRule()
    rule.hyperparam.lr = lr
    return rule


class TestUpdate:
    def test_applies_formula_and_counts(self, kit):
        rule = _sgd_rule(kit)
        p = kit.param(1.0, -2.0)
        p.grad = kit.f32(0.5, 4.0)
        rule.update(p)
        numpy.testing.assert_array_equal(p.array, kit.f32(1.0 - 0.25, -2.0 - 2.0))
        assert rule.t == 1
        rule.update(p)
        assert rule.t == 2

    def test_t_is_incremented_before_update_core(self, kit):
        # Rules such as Adam divide by (1 - beta ** t): the first update must see t == 1.
        seen = []
        rule = _sgd_rule(kit)
        rule.update_core = lambda param: seen.append(rule.t)
        p = kit.param(1.0)
        p.grad = kit.f32(1.0)
        rule.update(p)
        assert seen == [1]

    def test_disabled_rule_does_nothing(self, kit):
        rule = _sgd_rule(kit)
        rule.enabled = False
        p = kit.param(1.0)
        p.grad = kit.f32(1.0)
        rule.update(p)
        numpy.testing.assert_array_equal(p.array, kit.f32(1.0))
        assert rule.t == 0 and rule.state is None

    def test_missing_gradient_does_nothing(self, kit):
        rule = _sgd_rule(kit)
        p = kit.param(1.0)
        rule.update(p)
        numpy.testing.assert_array_equal(p.array, kit.f32(1.0))
        assert rule.t == 0 and rule.state is None

    def test_parameter_update_uses_its_rule(self, kit):
        p = kit.param(3.0)
        p.update_rule = _sgd_rule(kit, lr=1.0)
        p.grad = kit.f32(2.0)
        p.update()
        numpy.testing.assert_array_equal(p.array, kit.f32(1.0))

    def test_hyperparameters_fall_back_to_parent(self, kit):
        parent = Hyperparameter()
        parent.lr = 0.25
        rule = kit.SGDRule(parent)
        p = kit.param(1.0)
        p.grad = kit.f32(1.0)
        rule.update(p)
        numpy.testing.assert_array_equal(p.array, kit.f32(0.75))
        assert rule.hyperparam.parent is parent


class TestState:
    def test_state_is_created_once_at_first_update(self, kit):
        rule = kit.MomentumRule()
        rule.hyperparam.lr, rule.hyperparam.momentum = 0.5, 0.5
        assert rule.state is None
        p = kit.param(1.0, 2.0)
        p.grad = kit.f32(1.0, 2.0)
        rule.update(p)
        rule.update(p)
        assert rule.init_state_calls == 1
        # v1 = -0.5 g, v2 = 0.5 v1 - 0.5 g = -0.75 g; p = p0 + v1 + v2
        numpy.testing.assert_allclose(rule.state["v"], -0.75 * kit.f32(1.0, 2.0))
        numpy.testing.assert_allclose(p.array, kit.f32(1.0, 2.0) - 1.25 * kit.f32(1.0, 2.0))

    def test_base_init_state_adds_nothing(self, kit):
        rule = _sgd_rule(kit)
        p = kit.param(1.0)
        p.grad = kit.f32(1.0)
        rule.update(p)
        assert rule.state == {}


class TestHooks:
    def _record(self, log, label):
        def hook(rule, param):
            log.append((label, float(param.array[0]), float(param.grad[0])))

        return hook

    def test_pre_and_post_in_registration_order(self, kit):
        log = []
        rule = _sgd_rule(kit, lr=1.0)
        rule.add_hook(self._record(log, "post1"), name="post1", timing="post")
        rule.add_hook(self._record(log, "pre1"), name="pre1", timing="pre")
        rule.add_hook(self._record(log, "pre2"), name="pre2")
        rule.add_hook(self._record(log, "post2"), name="post2", timing="post")
        p = kit.param(5.0)
        p.grad = kit.f32(2.0)
        rule.update(p)
        assert log == [
            ("pre1", 5.0, 2.0),
            ("pre2", 5.0, 2.0),
            ("post1", 3.0, 2.0),
            ("post2", 3.0, 2.0),
        ]

    def test_pre_hook_can_change_the_gradient(self, kit):
        def double_grad(rule, param):
            param.grad = param.grad * 2

        rule = _sgd_rule(kit, lr=1.0)
        rule.add_hook(double_grad)
        p = kit.param(5.0)
        p.grad = kit.f32(2.0)
        rule.update(p)
        numpy.testing.assert_array_equal(p.array, kit.f32(1.0))

    def test_auto_timing_reads_the_hook_attribute_and_name(self, kit):
        log = []

        class Hook:
            name = "my_hook"
            timing = "post"

            def __call__(self, rule, param):
                log.append(float(param.array[0]))

        rule = _sgd_rule(kit, lr=1.0)
        rule.add_hook(Hook())
        p = kit.param(5.0)
        p.grad = kit.f32(1.0)
        rule.update(p)
        assert log == [4.0]
        rule.remove_hook("my_hook")
        rule.update(p)
        assert log == [4.0]

    def test_function_name_is_the_default_name(self, kit):
        def clip(rule, param):
            pass

        rule = _sgd_rule(kit)
        rule.add_hook(clip)
        with pytest.raises(KeyError, match="hook 'clip' already exists"):
            rule.add_hook(clip, timing="post")
        rule.remove_hook("clip")
        rule.add_hook(clip, timing="post")

    def test_bad_hooks(self, kit):
        rule = _sgd_rule(kit)
        with pytest.raises(TypeError, match="a hook must be callable, got int 3"):
            rule.add_hook(3)
        with pytest.raises(ValueError, match="timing must be 'pre', 'post' or 'auto', got 'mid'"):
            rule.add_hook(lambda r, p: None, timing="mid")
        late = type("Late", (), {"timing": "late", "name": "x", "__call__": lambda s, r, p: None})
        with pytest.warns(UserWarning, match="timing attribute 'late', not 'pre' or 'post'; it"):
            rule.add_hook(late())  # as v7: runs before the update
        assert list(rule._pre_update_hooks) == ["x"]
        nameless = type("Nameless", (), {"__call__": lambda s, r, p: None})
        with pytest.raises(ValueError, match="has no name: pass name="):
            rule.add_hook(nameless())
        with pytest.raises(KeyError, match=r"no hook named 'nope'; registered hooks: \['x'\]"):
            rule.remove_hook("nope")


class TestLossScale:
    def test_gradient_is_unscaled_before_hooks_and_update(self, kit):
        seen = []
        rule = _sgd_rule(kit, lr=1.0)
        rule.add_hook(lambda r, p: seen.append(p.grad.copy()), name="see")
        p = kit.param(5.0, 5.0)
        p.grad = kit.f32(8.0, 16.0)
        p._loss_scale = 8.0
        rule.update(p)
        numpy.testing.assert_array_equal(seen[0], kit.f32(1.0, 2.0))
        numpy.testing.assert_array_equal(p.array, kit.f32(4.0, 3.0))
        assert p._loss_scale is None  # the gradient is no longer scaled

    def test_read_only_gradient_is_not_written_in_place(self, kit):
        rule = _sgd_rule(kit, lr=1.0)
        p = kit.param(5.0, 5.0)
        grad = numpy.broadcast_to(numpy.float32(4.0), (2,))
        p.grad = grad
        p._loss_scale = 4.0
        rule.update(p)
        numpy.testing.assert_array_equal(p.array, kit.f32(4.0, 4.0))
        assert grad[0] == 4.0

    def test_backward_with_loss_scale_then_update(self, kit):
        rule = _sgd_rule(kit, lr=1.0)
        p = kit.param(1.0, 3.0)
        (p * p).mean().backward(loss_scale=128.0)
        numpy.testing.assert_allclose(p.grad, 128.0 * kit.f32(1.0, 3.0))  # d mean(p^2) = p
        rule.update(p)
        numpy.testing.assert_allclose(p.array, kit.f32(0.0, 0.0))


class _FakeGpuDevice(GpuDevice):
    def __init__(self):
        self.entered = False

    def create_context(self):
        self.entered = True
        return contextlib.nullcontext()


class _FakeChainerxDevice(ChainerxDevice):
    """A 'ChainerX' device whose arrays are _ChxArray: NumPy arrays of a distinct type."""

    def __init__(self):
        self.supported_array_types = (_ChxArray,)

    fallback_device = CpuDevice()

    def create_context(self):
        return contextlib.nullcontext()


class _ChxArray(numpy.ndarray):
    pass


class TestDispatch:
    class Recorder(UpdateRule):
        def __init__(self):
            super().__init__()
            self.calls = []

        def update_core_cpu(self, param):
            self.calls.append("cpu")

        def update_core_gpu(self, param):
            self.calls.append("gpu")

        def update_core_chainerx(self, param):
            self.calls.append("chainerx")

    @pytest.mark.parametrize(
        ("device", "expected"),
        [(CpuDevice(), "cpu"), (_FakeGpuDevice(), "gpu"), (_FakeChainerxDevice(), "chainerx")],
    )
    def test_update_core_dispatches_on_the_device(self, device, expected):
        rule = self.Recorder()
        rule.update_core(types.SimpleNamespace(device=device))
        assert rule.calls == [expected]

    def test_gpu_dispatch_enters_the_device(self):
        device = _FakeGpuDevice()
        self.Recorder().update_core(types.SimpleNamespace(device=device))
        assert device.entered

    @pytest.mark.parametrize("method", ["update_core_cpu", "update_core_gpu"])
    def test_base_rule_names_what_to_implement(self, kit, method):
        p = kit.param(1.0)
        p.grad = kit.f32(1.0)
        with pytest.raises(NotImplementedError, match=f"UpdateRule does not implement {method}"):
            getattr(UpdateRule(), method)(p)

    def test_chainerx_fallback_runs_cpu_rule_and_writes_back(self, kit, monkeypatch):
        # from_chx returns copies here, so results only arrive through the explicit write-back.
        monkeypatch.setattr(backend, "from_chx", lambda a: numpy.array(a, copy=True))
        rule = kit.MomentumRule()
        rule.hyperparam.lr, rule.hyperparam.momentum = 1.0, 0.5
        rule._state = {"v": kit.f32(2.0, 2.0).view(_ChxArray)}
        array = kit.f32(10.0, 20.0).view(_ChxArray)
        fake_param = types.SimpleNamespace(
            device=_FakeChainerxDevice(), array=array, grad=kit.f32(1.0, 3.0), name="w"
        )
        rule.update_core_chainerx(fake_param)
        # v = 0.5 * 2 - 1 * g = (0, -2); p += v
        assert type(rule.state["v"]) is _ChxArray
        numpy.testing.assert_array_equal(rule.state["v"], kit.f32(0.0, -2.0))
        assert fake_param.array is array
        numpy.testing.assert_array_equal(array, kit.f32(10.0, 18.0))


class TestFp32Update:
    def _fp16_param(self, value=1.0):
        return chainer.Parameter(numpy.array([value, value], numpy.float16))

    def test_small_steps_accumulate_in_the_master_copy(self, kit):
        lr, g = 1.0, numpy.float16(1e-4)
        plain = _sgd_rule(kit, lr=lr)
        fp32 = _sgd_rule(kit, lr=lr)
        fp32.use_fp32_update()
        p_plain, p_fp32 = self._fp16_param(), self._fp16_param()
        master_ref = numpy.ones(2, numpy.float32)
        for _ in range(10):
            for rule, p in ((plain, p_plain), (fp32, p_fp32)):
                p.grad = numpy.full(2, g, numpy.float16)
                rule.update(p)
            master_ref -= numpy.float32(lr) * numpy.float32(g)
        # In float16, 1 - 1e-4 rounds back to 1: the plain rule never moves.
        numpy.testing.assert_array_equal(p_plain.array, numpy.ones(2, numpy.float16))
        master = fp32._fp32_param
        assert master.dtype == numpy.float32
        numpy.testing.assert_array_equal(master.array, master_ref)
        assert p_fp32.dtype == numpy.float16
        numpy.testing.assert_array_equal(p_fp32.array, master_ref.astype(numpy.float16))
        assert p_fp32.array[0] < 1.0
        assert master.grad is None
        assert p_fp32.grad.dtype == numpy.float16

    def test_state_and_hooks_see_float32(self, kit):
        seen = []
        rule = kit.MomentumRule()
        rule.hyperparam.lr, rule.hyperparam.momentum = 1.0, 0.0
        rule.add_hook(lambda r, p: seen.append((p.dtype, p.grad.dtype)), name="see")
        rule.use_fp32_update()
        p = self._fp16_param(2.0)
        p.grad = numpy.full(2, 0.5, numpy.float16)
        rule.update(p)
        assert rule.state["v"].dtype == numpy.float32
        assert seen == [(numpy.float32, numpy.float32)]
        numpy.testing.assert_array_equal(p.array, numpy.full(2, 1.5, numpy.float16))

    def test_loss_scale_is_removed_in_float32(self, kit):
        rule = _sgd_rule(kit, lr=1.0)
        rule.use_fp32_update()
        p = self._fp16_param(1.0)
        p.grad = numpy.full(2, 1024 * 0.25, numpy.float16)
        p._loss_scale = 1024.0
        rule.update(p)
        numpy.testing.assert_array_equal(
            rule._fp32_param.array, numpy.full(2, 0.75, numpy.float32)
        )
        numpy.testing.assert_array_equal(p.array, numpy.full(2, 0.75, numpy.float16))

    def test_parameter_array_is_updated_in_place(self, kit):
        rule = _sgd_rule(kit, lr=1.0)
        rule.use_fp32_update()
        p = self._fp16_param(1.0)
        array = p.array
        p.grad = numpy.full(2, 0.5, numpy.float16)
        rule.update(p)
        assert p.array is array

    def test_float32_parameters_and_disabling_skip_the_master_copy(self, kit):
        rule = _sgd_rule(kit, lr=1.0)
        rule.use_fp32_update()
        p32 = kit.param(1.0)
        p32.grad = kit.f32(0.5)
        rule.update(p32)
        assert rule._fp32_param is None
        p16 = self._fp16_param(1.0)
        p16.grad = numpy.full(2, 0.5, numpy.float16)
        rule.update(p16)
        assert rule._fp32_param is not None
        rule.use_fp32_update(False)
        assert rule._fp32_param is None
        p16.grad = numpy.full(2, 0.25, numpy.float16)
        rule.update(p16)
        assert rule._fp32_param is None
        numpy.testing.assert_array_equal(p16.array, numpy.full(2, 0.25, numpy.float16))


class TestSerialize:
    def _trained_rule(self, kit):
        rule = kit.MomentumRule()
        rule.hyperparam.lr, rule.hyperparam.momentum = 1.0, 0.5
        p = kit.param(1.0, 2.0)
        for _ in range(3):
            p.grad = kit.f32(1.0, -1.0)
            rule.update(p)
        return rule

    def test_saves_t_and_state(self, kit):
        rule = self._trained_rule(kit)
        saved = kit.DictSerializer()
        rule.serialize(saved)
        assert sorted(saved.target) == ["t", "v"]
        assert saved.target["t"] == 3
        numpy.testing.assert_array_equal(saved.target["v"], rule.state["v"])

    def test_load_into_fresh_rule_creates_state_from_snapshot(self, kit):
        saved = kit.DictSerializer()
        self._trained_rule(kit).serialize(saved)
        fresh = kit.MomentumRule()
        fresh.serialize(kit.DictDeserializer(saved.target))
        assert fresh.t == 3
        numpy.testing.assert_array_equal(fresh.state["v"], saved.target["v"])
        # init_state only ran on a probe to learn the keys; the next update keeps the state.
        fresh.hyperparam.lr, fresh.hyperparam.momentum = 1.0, 0.5
        p = kit.param(0.0, 0.0)
        p.grad = kit.f32(0.0, 0.0)
        fresh.update(p)
        numpy.testing.assert_array_equal(p.array, 0.5 * saved.target["v"])

    def test_load_into_existing_state_copies_in_place(self, kit):
        saved = kit.DictSerializer()
        self._trained_rule(kit).serialize(saved)
        other = self._trained_rule(kit)
        other.state["v"][...] = 0
        v = other.state["v"]
        other.serialize(kit.DictDeserializer(saved.target))
        assert other.state["v"] is v
        numpy.testing.assert_array_equal(v, saved.target["v"])

    def test_snapshot_without_state_leaves_it_uninitialized(self, kit):
        fresh = kit.MomentumRule()
        fresh.serialize(kit.DictDeserializer({"t": 5}, strict=False))
        assert fresh.t == 5
        assert fresh.state is None

    def test_missing_state_is_an_error_for_enabled_rules_only(self, kit):
        with pytest.raises(KeyError, match="'v'"):
            kit.MomentumRule().serialize(kit.DictDeserializer({"t": 5}))
        frozen = kit.MomentumRule()
        frozen.enabled = False
        frozen.serialize(kit.DictDeserializer({"t": 5}))
        assert frozen.t == 5 and frozen.state is None

    def test_saving_a_rule_without_state_writes_only_t(self, kit):
        saved = kit.DictSerializer()
        kit.MomentumRule().serialize(saved)
        assert saved.target == {"t": 0}


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason="needs a CUDA GPU through CuPy")
def test_gpu_update_and_state_follow_the_parameter(kit):
    cupy = cuda.cupy
    rule = kit.MomentumRule()
    rule.hyperparam.lr, rule.hyperparam.momentum = 1.0, 0.5
    rule._state = {"v": kit.f32(2.0, 2.0)}  # e.g. loaded from a snapshot on the host
    p = chainer.Parameter(cupy.array([10.0, 20.0], cupy.float32))
    p.grad = cupy.array([1.0, 3.0], cupy.float32)
    rule.update(p)
    assert isinstance(rule.state["v"], cupy.ndarray)
    numpy.testing.assert_array_equal(cupy.asnumpy(p.array), kit.f32(10.0, 18.0))


@pytest.mark.chainerx
def test_chainerx_parameter_update(kit):
    chainerx = pytest.importorskip("chainerx")
    rule = kit.MomentumRule()
    rule.hyperparam.lr, rule.hyperparam.momentum = 1.0, 0.5
    p = chainer.Parameter(chainerx.array([10.0, 20.0], chainerx.float32))
    for _ in range(2):
        p.grad = chainerx.array([1.0, 3.0], chainerx.float32)
        rule.update(p)
    assert isinstance(p.array, chainerx.ndarray)
    assert isinstance(rule.state["v"], chainerx.ndarray)
    # v1 = -g, v2 = -1.5 g; p = p0 - 2.5 g
    numpy.testing.assert_allclose(backend.CpuDevice().send(p.array), kit.f32(7.5, 12.5))


def test_base_rule_public_surface():
    rule = UpdateRule()
    assert rule.enabled is True and rule.t == 0 and rule.state is None
    assert UpdateRule.is_elementwise is False
    assert UpdateRule.__module__ == "chainer.optimizer"
    assert isinstance(rule.hyperparam, Hyperparameter) and rule.hyperparam.parent is None
    v = Variable(numpy.zeros(1, numpy.float32))
    assert rule.init_state(v) is None
