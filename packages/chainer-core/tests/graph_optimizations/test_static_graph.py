"""@static_graph on chains built from core operations and user-defined FunctionNodes."""

import numpy
import pytest

import chainer
from chainer import gradient_check, static_code, static_graph
from chainer._ops import array_ops


class Tanh(chainer.FunctionNode):
    """A user function; its backward builds a gradient node around a mask made with NumPy."""

    def forward(self, inputs):
        self.retain_outputs((0,))
        return (numpy.tanh(inputs[0]),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        factor = 1 - y.array * y.array  # computed outside functions: not replayable
        return (TanhGrad(factor).apply(grad_outputs)[0],)


class TanhGrad(chainer.FunctionNode):
    def __init__(self, factor):
        self.factor = factor

    def forward(self, inputs):
        return (inputs[0] * self.factor,)


def tanh(x):
    return Tanh().apply((x,))[0]


class Net(chainer.Chain):
    def __init__(self, seed=0):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.W1 = chainer.Parameter(rng.standard_normal((3, 4)))
            self.b1 = chainer.Parameter(rng.standard_normal(4))
            self.W2 = chainer.Parameter(rng.standard_normal((4, 2)))

    def forward(self, x):
        h = tanh(x @ self.W1 + self.b1)
        return (h @ self.W2) * 2.0


class StaticNet(Net):
    @static_graph
    def forward(self, x):
        return super().forward(x)


def _net_pair():
    plain, static = Net(), StaticNet()
    static.copyparams(plain)
    return plain, static


def _step(model, x, gy):
    y = model(x)
    model.cleargrads()
    y.grad = gy
    y.backward()
    for p in model.params():
        p.array -= 0.1 * p.grad
    return y


def test_training_matches_define_by_run_exactly():
    plain, static = _net_pair()
    rng = numpy.random.default_rng(1)
    for _ in range(4):
        x_plain = chainer.Variable(rng.standard_normal((5, 3)))
        x_static = chainer.Variable(x_plain.array.copy())
        gy = rng.standard_normal((5, 2))
        y_plain, y_static = _step(plain, x_plain, gy), _step(static, x_static, gy)
        numpy.testing.assert_array_equal(y_static.array, y_plain.array)
        numpy.testing.assert_array_equal(x_static.grad, x_plain.grad)
        for p, q in zip(plain.params(), static.params()):
            numpy.testing.assert_array_equal(q.array, p.array)
    manager = static.schedule_manager
    assert sum(len(s) for s in manager.schedules.values()) == 1
    schedule = static.static_schedule
    names = [step.func_name for step in schedule.steps]
    assert names == ["MatMul", "_ + _", "Tanh", "MatMul", "_ * 2.0"]  # v7's labels
    # Tanh's gradient node holds a mask computed with NumPy: it keeps running on Variables.
    kinds = {
        step.func_name: program
        for step in schedule.steps
        for (step_id, _), program in schedule._programs.items()
        if step_id == id(step)
    }
    assert kinds["Tanh"] == "unsafe"
    assert kinds["MatMul"] != "unsafe" and kinds["_ + _"] != "unsafe"


def test_replayed_values_follow_the_inputs():
    net = StaticNet()
    x1, x2 = numpy.ones((2, 3)), numpy.full((2, 3), -0.5)
    with chainer.no_backprop_mode():
        y1 = net(x1)
        y2 = net(x2)
    expected = numpy.tanh(x2 @ net.W1.array + net.b1.array) @ net.W2.array * 2.0
    numpy.testing.assert_allclose(y2.array, expected)
    # The first result is a copy: the replay did not overwrite it.
    numpy.testing.assert_allclose(
        y1.array, numpy.tanh(x1 @ net.W1.array + net.b1.array) @ net.W2.array * 2.0
    )


@pytest.mark.parametrize("calls_before", [0, 1, 3])
def test_gradients_are_checked_numerically(calls_before):
    net = StaticNet()
    rng = numpy.random.default_rng(2)
    for _ in range(calls_before):
        _step(net, rng.standard_normal((2, 3)), rng.standard_normal((2, 2)))
    x, gy = rng.standard_normal((2, 3)), rng.standard_normal((2, 2))
    gradient_check.check_backward(net, x, gy, tuple(net.params()), eps=1e-6)


def test_double_backprop_is_refused_with_a_clear_error():
    net = StaticNet()
    x = chainer.Variable(numpy.ones((1, 3)))
    y = net(x)
    with pytest.raises(NotImplementedError, match="use_static_graph = False"):
        chainer.grad([y], [x], grad_outputs=[numpy.ones((1, 2))], enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match="enable_double_backprop=True"):
        static_graph(enable_double_backprop=True)


def test_disabled_by_config_runs_define_by_run():
    net = StaticNet()
    with chainer.using_config("use_static_graph", False):
        net(numpy.ones((1, 3)))
    assert "schedule_manager" not in net.__dict__


def test_calls_before_backward_get_their_own_schedules():
    net = StaticNet()
    x = numpy.ones((1, 3))
    for _ in range(3):
        ys = [net(x * k) for k in (1.0, 2.0)]
        total = ys[0] + ys[1]
        total.grad = numpy.ones_like(total.array)
        total.backward()
    assert sum(len(s) for s in net.schedule_manager.schedules.values()) == 2


def test_backward_after_the_schedule_ran_again_is_an_error():
    net = StaticNet()
    x = numpy.ones((1, 3))
    y = net(x)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    net.schedule_manager.end_forward()
    net(x)  # reuses the schedule: y's arrays are overwritten
    y.grad = numpy.ones_like(y.array)  # backward consumed the first one (as in v7)
    with pytest.raises(RuntimeError, match="called again"):
        y.backward()


def test_static_code_runs_on_every_call_and_plain_code_once():
    calls = {"static": 0, "plain": 0}

    class Counting(Net):
        @static_code
        def count(self):
            calls["static"] += 1

        @static_graph
        def forward(self, x):
            self.count()
            calls["plain"] += 1
            return super().forward(x)

    net = Counting()
    with chainer.no_backprop_mode():
        for _ in range(3):
            net(numpy.ones((1, 3)))
    assert calls == {"static": 3, "plain": 1}


def test_static_code_writes_arrays_in_place():
    class Scaled(Net):
        @static_code
        def scale(self, inputs, outputs):
            outputs[0][...] = 3.0 * inputs[0]

        @static_graph
        def forward(self, x):
            y = super().forward(x)
            out = numpy.empty_like(y.array)
            self.scale(inputs=[y.array], outputs=[out])
            return y + chainer.Variable(out)

    net = Scaled()
    with chainer.no_backprop_mode():
        net(numpy.ones((1, 3)))
        y = net(numpy.full((1, 3), 2.0))
    base = Net.forward(net, numpy.full((1, 3), 2.0)).array
    numpy.testing.assert_allclose(y.array, 4.0 * base)


class InPlace(chainer.FunctionNode):
    """The documented pattern: forward allocates once, static code computes every call."""

    _supports_static_optimizations = True

    @static_code
    def static_forward(self, inputs, outputs):
        outputs[0][...] = 3.0 * inputs[0]

    def forward(self, inputs):
        y = numpy.empty_like(inputs[0])
        self.static_forward(inputs=[inputs[0]], outputs=[y])
        return (y,)

    def backward(self, indexes, grad_outputs):
        return (grad_outputs[0] * 3.0,)


def test_functions_with_static_support_replay_only_their_static_code():
    class Chain(chainer.Chain):
        @static_graph
        def forward(self, x):
            return InPlace().apply((x,))[0] + 1.0

    chain = Chain()
    for value in (1.0, 2.0, 5.0):
        x = chainer.Variable(numpy.full((2,), value))
        y = chain(x)
        y.grad = numpy.ones(2)
        y.backward()
        numpy.testing.assert_allclose(y.array, 3.0 * value + 1.0)
        numpy.testing.assert_allclose(x.grad, [3.0, 3.0])
    assert [s.func_name for s in chain.static_schedule.steps][0] == "InPlace.static_forward"


def test_force_test_mode():
    seen = []

    class Mode(Net):
        @static_code
        def record(self):
            seen.append(chainer.config.train)

        @static_graph(force_test_mode=True)
        def forward(self, x):
            self.record()
            return super().forward(x)

    net = Mode()
    with chainer.using_config("train", True):
        net(numpy.ones((1, 3)))
        net(numpy.ones((1, 3)))
    assert seen == [False, False]


def test_minimize_cache_size_keeps_the_latest_signature():
    class Small(Net):
        @static_graph(minimize_cache_size=True)
        def forward(self, x):
            return super().forward(x)

    net = Small()
    with chainer.no_backprop_mode():
        net(numpy.ones((1, 3)))
        net(numpy.ones((2, 3)))
    (shapes,) = [key[3] for key in net.schedule_manager.schedules]
    assert "(2, 3)" in repr(shapes)


def test_replaced_parameters_are_recorded_again():
    net = StaticNet()
    x = numpy.ones((1, 3))
    with chainer.no_backprop_mode():
        net(x)
        net.W2.array = net.W2.array * 0.0 + 1.0
        y = net(x)
    expected = numpy.tanh(x @ net.W1.array + net.b1.array) @ net.W2.array * 2.0
    numpy.testing.assert_allclose(y.array, expected)


def test_verbosity_prints_the_schedule(capsys):
    class Loud(Net):
        @static_graph(verbosity_level=2)
        def forward(self, x):
            return super().forward(x)

    Loud()(numpy.ones((1, 3)))
    out = capsys.readouterr().out
    assert "static_graph: recorded <StaticSchedule of" in out
    assert "<ScheduleInfo Tanh" in out


def test_nested_static_chains_are_an_error():
    class Outer(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.inner = StaticNet()

        @static_graph
        def forward(self, x):
            return self.inner(x)

    with pytest.raises(RuntimeError, match="cannot be nested"):
        Outer()(numpy.ones((1, 3)))


def test_results_computed_outside_functions_are_an_error():
    class Outside(chainer.Chain):
        @static_graph
        def forward(self, x):
            return chainer.Variable(numpy.tanh(x.array))

    with pytest.raises(RuntimeError, match="result 0 .* outside Chainer functions"):
        Outside()(chainer.Variable(numpy.ones(2)))


def test_views_of_inputs_taken_outside_functions_are_an_error():
    class View(chainer.Chain):
        @static_graph
        def forward(self, x):
            return tanh(x[0])

    with pytest.raises(RuntimeError, match="is a view of another array"):
        View()(numpy.ones((2, 2)))


def test_arguments_must_be_variables_arrays_or_constants():
    with pytest.raises(TypeError, match=r"arguments.*\[0\]\[0\] is a object"):
        StaticNet()(object())
    with pytest.raises(TypeError, match="returns Variables"):

        class Bad(chainer.Chain):
            @static_graph
            def forward(self, x):
                return 1.0

        Bad()(numpy.ones(1))
    with pytest.raises(TypeError, match="unknown static_graph options"):
        static_graph(verbose=True)


@pytest.mark.parametrize("how", ["copy", "share", "deepcopy", "pickle"])
def test_copies_of_a_used_chain_record_their_own_schedules(how):
    import copy
    import pickle

    net = StaticNet()
    x = numpy.ones((1, 3))
    net(x)
    if how == "deepcopy":
        clone = copy.deepcopy(net)
    elif how == "pickle":
        clone = pickle.loads(pickle.dumps(net))
    else:
        clone = net.copy(mode=how)
    if how != "share":
        clone.W2.array[...] = 0.0
    with chainer.no_backprop_mode():
        y = clone(x)
    expected = numpy.tanh(x @ clone.W1.array + clone.b1.array) @ clone.W2.array * 2.0
    numpy.testing.assert_allclose(y.array, expected)
    assert clone.schedule_manager is not net.schedule_manager
    assert clone.static_schedule is not net.static_schedule


def test_top_level_names():
    assert chainer.static_graph is static_graph
    assert chainer.static_code is static_code


def test_importing_does_not_import_sibling_distributions():
    import subprocess
    import sys

    code = (
        "import sys, chainer.graph_optimizations; "
        "print(sorted(m for m in sys.modules if m.startswith(('chainer.functions', "
        "'chainer.links', 'chainer.training'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


class SharedNet(chainer.Chain):
    """Core operations only (every step replayable), with values and a parameter used twice."""

    def __init__(self, seed=0):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.W = chainer.Parameter(rng.standard_normal((3, 3)))
            self.b = chainer.Parameter(rng.standard_normal(3))

    def forward(self, x):
        h = x @ self.W + self.b
        y = h * h + h @ self.W  # h and W each reach two functions: gradients are summed
        return y, array_ops.sum(y, axis=0)  # chainer.functions lives in chainer-links


class StaticSharedNet(SharedNet):
    @static_graph
    def forward(self, x):
        return super().forward(x)


@pytest.mark.parametrize("which", [0, 1, None])
def test_fused_backward_matches_define_by_run(which):
    from chainer.graph_optimizations._fused_backward import FusedBackward

    plain, static = SharedNet(), StaticSharedNet()
    static.copyparams(plain)
    rng = numpy.random.default_rng(2)
    for _ in range(4):
        x = rng.standard_normal((4, 3))
        grads = [rng.standard_normal((4, 3)), rng.standard_normal(3)]
        results = []
        for model in (plain, static):
            xv = chainer.Variable(x.copy())
            ys = model(xv)
            model.cleargrads()
            # which: backward from one output (the other gets no gradient) or from both
            outputs = [ys[which]] if which is not None else list(ys)
            chainer.backward(outputs, [grads[which]] if which is not None else grads)
            results.append([xv.grad] + [p.grad for p in model.params()] + [y.array for y in ys])
            for p in model.params():
                p.array -= 0.1 * p.grad
        for expected, actual in zip(*results):
            numpy.testing.assert_array_equal(actual, expected)
    fused = list(static.static_schedule._fused.values())
    assert len(fused) == 1 and isinstance(fused[0], FusedBackward)


def test_sum_replay_forward_equals_forward():
    x = numpy.random.default_rng(3).standard_normal((4, 5, 6)).astype(numpy.float32)
    for axis, keepdims in [(None, False), (1, True), ((0, -1), False)]:
        node = array_ops.Sum(axis, keepdims)
        (expected,) = node.forward((x,))
        (actual,) = node._static_forward()((x,))
        numpy.testing.assert_array_equal(actual, expected)
        assert actual.shape == expected.shape and actual.dtype == expected.dtype


@pytest.mark.parametrize("setting", ["hook", "debug", "plain"])
def test_replay_under_function_hooks_and_debug_mode(setting):
    class Labels(chainer.FunctionHook):
        def __init__(self):
            self.labels = []

        def forward_preprocess(self, function, in_data):
            self.labels.append(function.label)

    plain, static = _net_pair()
    x = numpy.random.default_rng(6).standard_normal((2, 3))
    static(chainer.Variable(x.copy()))  # records; the result is dropped, so it replays next
    hook = Labels()
    with hook if setting == "hook" else chainer.using_config("debug", setting == "debug"):
        xs, xp = chainer.Variable(x.copy()), chainer.Variable(x.copy())
        ys, yp = static(xs), plain(xp)
        for y in (ys, yp):
            y.grad = numpy.ones_like(y.array)
            y.backward()
    numpy.testing.assert_array_equal(ys.array, yp.array)
    numpy.testing.assert_array_equal(xs.grad, xp.grad)
    assert ys.creator.label == "StaticScheduleFunction"
    assert ("StaticScheduleFunction" in hook.labels) == (setting == "hook")
