"""chainer.link.Link: registration, traversal, gradients, copies, devices, serialization."""

import copy

import numpy
import pytest

import chainer
from chainer import backend, initializers
from chainer._ops.array_ops import sum as sum_all
from chainer._ops.matmul import matmul
from chainer.device_resident import DeviceResidentsVisitor
from chainer.link import Chain, ChainList, Link
from chainer.sequential import Sequential


class Affine(Link):
    """``x @ W.T + b``; with ``in_size=None`` W is created on the first call (lazy)."""

    def __init__(self, out_size, in_size=None, initial_w=None):
        super().__init__()
        self.out_size = out_size
        with self.init_scope():
            w_init = initializers.LeCunNormal() if initial_w is None else initial_w
            self.W = chainer.Parameter(w_init, None if in_size is None else (out_size, in_size))
            self.b = chainer.Parameter(initializers.Zero(), (out_size,))

    def forward(self, x):
        if self.W.array is None:
            self.W.initialize((self.out_size, x.shape[1]))
        return matmul(x, self.W, transb=True) + self.b

    @property
    def printable_specs(self):
        yield "out_size", self.out_size


class TwoLayers(Chain):
    def __init__(self, in_size=None):
        super().__init__()
        with self.init_scope():
            self.l1 = Affine(3, in_size)
            self.l2 = Affine(2, 3)

    def forward(self, x):
        return self.l2(self.l1(x))


def arange_param(*shape):
    return chainer.Parameter(numpy.arange(numpy.prod(shape), dtype=numpy.float32).reshape(shape))


# -- registration ----------------------------------------------------------------------------


def test_init_scope_registers_parameters_only_inside_the_scope():
    link = Link()
    assert not link.within_init_scope
    with link.init_scope():
        assert link.within_init_scope
        link.W = arange_param(2)
    link.unregistered = arange_param(3)
    assert not link.within_init_scope
    assert [name for name, _ in link.namedparams()] == ["/W"]
    assert link.W.name == "W"
    assert link.unregistered.name is None


def test_init_scope_restores_the_flag_after_an_error():
    link = Link()
    with pytest.raises(ZeroDivisionError), link.init_scope():
        1 / 0  # noqa: B018
    assert not link.within_init_scope


def test_add_param_fills_with_nan_by_default_in_the_given_dtype():
    link = Link()
    link.add_param("W", (2, 3), dtype=numpy.float64)
    assert link.W.shape == (2, 3)
    assert link.W.dtype == numpy.float64
    assert numpy.isnan(link.W.array).all()
    assert list(link.params()) == [link.W]


def test_add_param_with_initializer_and_lazy_shape():
    link = Link()
    link.add_param("b", 4, initializer=initializers.One())
    link.add_param("c", (2,), initializer=0.5)
    link.add_param("u")
    numpy.testing.assert_array_equal(link.b.array, numpy.ones(4, numpy.float32))
    numpy.testing.assert_array_equal(link.c.array, numpy.full(2, 0.5, numpy.float32))
    assert link.u.array is None
    assert [p.name for p in link.params(include_uninit=False)] == ["b", "c"]


def test_add_param_refuses_an_existing_attribute():
    link = Link()
    link.W = 1
    with pytest.raises(
        AttributeError, match="cannot register a new parameter W: attribute exists"
    ):
        link.add_param("W", (2,))


def test_old_style_constructor_takes_shapes_and_shape_dtype_pairs():
    link = Link(W=(2, 3), b=3, c=((4,), numpy.float16))
    assert (link.W.shape, link.b.shape, link.c.shape) == ((2, 3), (3,), (4,))
    assert link.c.dtype == numpy.float16
    with pytest.raises(TypeError, match="shape or a \\(shape, dtype\\) pair, got 'x'"):
        Link(W="x")


def test_persistent_values_are_registered_and_readable():
    link = Link()
    link.add_persistent("mean", numpy.zeros(3, numpy.float32))
    link.count = 0
    link.register_persistent("count")
    assert link._persistent == ("count", "mean")
    assert link.count == 0
    with pytest.raises(AttributeError, match="new persistent value mean: attribute exists"):
        link.add_persistent("mean", 1)
    with pytest.raises(AttributeError, match="non-existent attribute missing as a persistent"):
        link.register_persistent("missing")


def test_registering_a_parameter_as_persistent_moves_it():
    link = Link()
    with link.init_scope():
        link.W = arange_param(2)
    link.register_persistent("W")
    assert list(link.params()) == []
    assert link._persistent == ("W",)


def test_deleting_attributes_unregisters_them():
    link = Link()
    with link.init_scope():
        link.W = arange_param(2)
        link.b = arange_param(2)
    link.add_persistent("p", 1)
    del link.W
    del link.p
    assert [name for name, _ in link.namedparams()] == ["/b"]
    assert link._persistent == ()
    assert not hasattr(link, "W")


def test_reassigning_a_parameter_in_scope_keeps_one_registration():
    link = Link()
    with link.init_scope():
        link.W = arange_param(2)
        link.W = arange_param(3)
    assert [p.shape for p in link.params()] == [(3,)]


# -- counting ------------------------------------------------------------------------------


def test_count_params_counts_initialized_arrays_and_warns_about_the_rest():
    model = TwoLayers()
    with pytest.warns(UserWarning, match="Parameter '/l1/W' has not been initialized"):
        assert model.count_params() == 3 + 2 * 3 + 2
    model(numpy.ones((1, 5), numpy.float32))
    assert model.count_params() == 3 * 5 + 3 + 2 * 3 + 2


# -- gradients and values ----------------------------------------------------------------------


def forward_and_backward(model, x):
    model.cleargrads()
    sum_all(model(x)).backward()


def test_cleargrads_and_deprecated_zerograds():
    model = TwoLayers(4)
    forward_and_backward(model, numpy.ones((2, 4), numpy.float32))
    assert all(p.grad is not None for p in model.params())
    model.cleargrads()
    assert all(p.grad is None for p in model.params())
    with pytest.warns(DeprecationWarning, match="Use Link.cleargrads instead"):
        model.zerograds()
    for param in model.params():
        numpy.testing.assert_array_equal(param.grad, numpy.zeros_like(param.array))


class _RecordingParameter(chainer.Parameter):
    cleared = 0

    def cleargrad(self):
        type(self).cleared += 1
        super().cleargrad()


def test_cleargrads_calls_an_overridden_cleargrad_and_clears_uninitialized_parameters():
    model = TwoLayers(4)
    with model.init_scope():
        model.extra = _RecordingParameter(numpy.ones(3, numpy.float32))
        model.lazy = chainer.Parameter(shape=None)
    for param in model.params(include_uninit=False):
        param.grad = numpy.ones_like(param.array)
    _RecordingParameter.cleared = 0
    model.cleargrads()
    assert _RecordingParameter.cleared == 1
    assert all(p.grad is None for p in model.params())
    model.lazy.initialize((2,))  # cleared before initialization: no NaN gradient (v7)
    assert model.lazy.grad is None


def test_addgrads_adds_the_other_links_gradients():
    model, other = TwoLayers(4), TwoLayers(4)
    forward_and_backward(model, numpy.ones((2, 4), numpy.float32))
    forward_and_backward(other, numpy.full((2, 4), 2.0, numpy.float32))
    expected = {
        path: p.grad + other_p.grad
        for (path, p), (_, other_p) in zip(model.namedparams(), other.namedparams())
    }
    model.addgrads(other)
    for path, param in model.namedparams():
        numpy.testing.assert_allclose(param.grad, expected[path], rtol=1e-6)


def test_copyparams_copies_values_into_the_existing_arrays():
    src, dst = TwoLayers(4), TwoLayers(4)
    before = dst.l1.W.array
    dst.copyparams(src)
    assert dst.l1.W.array is before
    for (_, mine), (_, theirs) in zip(dst.namedparams(), src.namedparams()):
        numpy.testing.assert_array_equal(mine.array, theirs.array)
        assert mine.array is not theirs.array


def test_copyparams_initializes_uninitialized_destinations_and_skips_uninitialized_sources():
    src, dst = TwoLayers(4), TwoLayers()
    dst.copyparams(src)
    numpy.testing.assert_array_equal(dst.l1.W.array, src.l1.W.array)
    lazy = TwoLayers()
    lazy.copyparams(TwoLayers())
    assert lazy.l1.W.array is None


def test_copyparams_copies_persistent_values_unless_told_not_to():
    def with_state(mean, step):
        link = Affine(1, 1)
        link.add_persistent("mean", numpy.array([mean], numpy.float32))
        link.add_persistent("step", step)
        return link

    src, dst = with_state(5.0, {"n": 7}), with_state(0.0, {"n": 0})
    dst.copyparams(src, copy_persistent=False)
    assert (dst.mean[0], dst.step) == (0.0, {"n": 0})
    mean_array = dst.mean
    dst.copyparams(src)
    assert dst.mean is mean_array and dst.mean[0] == 5.0
    assert dst.step == {"n": 7} and dst.step is not src.step


def test_copyparams_names_a_structure_mismatch():
    with pytest.raises(KeyError, match="has no child link 'l2'"):
        TwoLayers(4).copyparams(Chain(l1=Affine(3, 4)))
    with pytest.raises(KeyError, match="has no parameter 'b'"):
        Affine(1, 1).copyparams(Link(W=(1, 1)))


class Rule:
    def __init__(self):
        self.enabled = True


def test_enable_and_disable_update_flip_every_update_rule():
    model = TwoLayers(2)
    assert not model.update_enabled  # no update rules: nothing would be updated
    for param in model.params():
        param.update_rule = Rule()
    assert model.update_enabled
    model.disable_update()
    assert not model.update_enabled
    assert not any(p.update_rule.enabled for p in model.params())
    model.l2.enable_update()
    assert model.update_enabled
    assert [p.update_rule.enabled for p in model.params()] == [False, False, True, True]


# -- copies -------------------------------------------------------------------------------------


def test_copy_share_shares_arrays_but_not_parameters_or_gradients():
    model = TwoLayers(4)
    forward_and_backward(model, numpy.ones((2, 4), numpy.float32))
    shared = model.copy("share")
    assert shared is not model and shared.l1 is not model.l1
    assert shared.l1.W is not model.l1.W
    assert shared.l1.W.array is model.l1.W.array
    assert shared.l1.W.grad is None and model.l1.W.grad is not None
    shared.l1.W.array[...] = 42
    assert (model.l1.W.array == 42).all()
    assert (shared.name, shared.l1.name) == (None, "l1")


@pytest.mark.parametrize("mode", ["copy", "init"])
def test_copy_and_init_modes_make_independent_arrays(mode):
    model = TwoLayers(4)
    copied = model.copy(mode)
    assert copied.l1.W.array is not model.l1.W.array
    original = model.l1.W.array.copy()
    copied.l1.W.array[...] = 42
    numpy.testing.assert_array_equal(model.l1.W.array, original)


def test_copy_mode_copy_keeps_values_and_init_redraws_them():
    model = TwoLayers(4)
    model.add_persistent("step", 3)
    same = model.copy("copy")
    fresh = model.copy("init")
    numpy.testing.assert_array_equal(same.l1.W.array, model.l1.W.array)
    assert not numpy.array_equal(fresh.l1.W.array, model.l1.W.array)  # LeCunNormal redraw
    numpy.testing.assert_array_equal(fresh.l1.b.array, numpy.zeros(3, numpy.float32))  # Zero
    assert fresh.step == 3


def test_init_copy_of_a_lazy_link_stays_uninitialized():
    copied = TwoLayers().copy("init")
    assert copied.l1.W.array is None
    assert copied(numpy.ones((1, 6), numpy.float32)).shape == (1, 2)
    assert copied.l1.W.shape == (3, 6)


def test_copy_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="'init', 'copy' or 'share', but 'deep' was given"):
        Link().copy("deep")


def test_repeat_makes_a_sequential_of_copies():
    layer = Affine(2, 2)
    repeated = layer.repeat(3)
    assert isinstance(repeated, Sequential)
    assert len(repeated) == 3
    assert len({id(r) for r in repeated} | {id(layer)}) == 4
    assert [r.name for r in repeated] == ["0", "1", "2"]
    shared = layer.repeat(2, mode="share")
    assert all(r.W.array is layer.W.array for r in shared)
    assert len(layer.repeat(0)) == 0
    with pytest.raises(ValueError, match="but 'bad' was given"):
        layer.repeat(2, mode="bad")


def relu(x):
    return x * (x.array > 0).astype(x.dtype)


def test_mushroom_example_builds_a_lazy_mlp_with_repeat_and_append():
    # The docs' glance example: ch.Sequential(L.Linear(n_units), F.relu).repeat(2), then
    # append(L.Linear(n_out)); input sizes are inferred on the first batch.
    layer = Sequential(Affine(44), relu)
    model = layer.repeat(2)
    model.append(Affine(1))
    x = numpy.random.default_rng(0).standard_normal((5, 22)).astype(numpy.float32)
    y = model(x)
    w_shapes = [p.shape for path, p in model.namedparams() if path.endswith("W")]
    assert w_shapes == [(44, 22), (44, 44), (1, 44)]
    h = x
    for block in (model[0], model[1]):
        h = numpy.maximum(h @ block[0].W.array.T + block[0].b.array, 0)
    expected = h @ model[2].W.array.T + model[2].b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    assert layer[0].W.array is None  # the repeated copies were initialized, not the template


# -- devices -------------------------------------------------------------------------------------


class Recorder(DeviceResidentsVisitor):
    def __init__(self):
        self.seen = []

    def visit_device_resident(self, device_resident):
        self.seen.append(type(device_resident).__name__)

    def visit_array(self, arr):
        self.seen.append(("array", arr.shape))
        return arr + 1

    def visit_variable(self, param):
        self.seen.append(param.name)


def test_device_resident_accept_visits_the_whole_tree():
    model = TwoLayers(4)
    model.add_persistent("mean", numpy.zeros(2, numpy.float32))
    model.add_persistent("note", "not an array")
    recorder = Recorder()
    model.device_resident_accept(recorder)
    assert recorder.seen == ["TwoLayers", ("array", (2,)), "Affine", "W", "b", "Affine", "W", "b"]
    numpy.testing.assert_array_equal(model.mean, numpy.ones(2, numpy.float32))
    assert model.note == "not an array"


def test_cpu_round_trip_keeps_values_and_sets_the_device():
    model = TwoLayers(4)
    model.add_persistent("mean", numpy.arange(2, dtype=numpy.float32))
    values = {path: p.array.copy() for path, p in model.namedparams()}
    assert model.to_device("@numpy") is model
    with pytest.warns(DeprecationWarning, match=r"to_cpu\(\) is deprecated"):
        assert model.to_cpu() is model
    assert model.device == backend.CpuDevice() and model.l1.device == backend.CpuDevice()
    assert model.xp is numpy
    for path, param in model.namedparams():
        assert type(param.array) is numpy.ndarray
        numpy.testing.assert_array_equal(param.array, values[path])
    numpy.testing.assert_array_equal(model.mean, [0, 1])
    lazy = TwoLayers().to_device("@numpy")
    lazy(numpy.ones((1, 3), numpy.float32))
    assert type(lazy.l1.W.array) is numpy.ndarray and lazy.l1.W.shape == (3, 3)


@pytest.mark.gpu
def test_gpu_round_trip_moves_parameters_persistents_and_lazy_parameters():
    cupy = pytest.importorskip("cupy")
    if not cupy.is_available():
        pytest.skip("no CUDA device")
    model = TwoLayers()
    model.add_persistent("mean", numpy.arange(2, dtype=numpy.float32))
    model.to_device("@cupy:0")
    assert isinstance(model.l2.W.array, cupy.ndarray) and isinstance(model.mean, cupy.ndarray)
    y = model(cupy.ones((2, 5), numpy.float32))
    assert isinstance(model.l1.W.array, cupy.ndarray) and y.shape == (2, 2)
    model.add_param("extra", (2,))
    assert isinstance(model.extra.array, cupy.ndarray)
    with pytest.warns(DeprecationWarning, match=r"to_cpu\(\) is deprecated"):
        model.to_cpu()
    assert type(model.l1.W.array) is numpy.ndarray and type(model.mean) is numpy.ndarray


# -- serialization ------------------------------------------------------------------------------


class SavingSerializer:
    """Stores every value under its '/'-joined key, as a saving serializer does."""

    def __init__(self, store=None, prefix=""):
        self.store = {} if store is None else store
        self.prefix = prefix

    def __getitem__(self, name):
        return SavingSerializer(self.store, f"{self.prefix}{name}/")

    def __call__(self, key, value):
        self.store[self.prefix + key] = copy.deepcopy(value)
        return value


class LoadingSerializer:
    """Reads values back: into the given array in place, or returned when there is none."""

    def __init__(self, store, prefix=""):
        self.store = store
        self.prefix = prefix

    def __getitem__(self, name):
        return LoadingSerializer(self.store, f"{self.prefix}{name}/")

    def __call__(self, key, value):
        stored = self.store[self.prefix + key]
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, stored)
            return value
        return copy.deepcopy(stored)


class Stateful(Chain):
    def __init__(self, in_size=None):
        super().__init__()
        with self.init_scope():
            self.fc = TwoLayers(in_size)
            self.stack = ChainList(Affine(2, 2))
        self.add_persistent("mean", numpy.zeros(2, numpy.float32))
        self.add_persistent("step", 0)


def test_serialize_saves_every_parameter_and_persistent_value_by_path():
    model = Stateful(4)
    model.mean[...] = [1, 2]
    model.step = 9
    saver = SavingSerializer()
    model.serialize(saver)
    assert sorted(saver.store) == [
        "fc/l1/W",
        "fc/l1/b",
        "fc/l2/W",
        "fc/l2/b",
        "mean",
        "stack/0/W",
        "stack/0/b",
        "step",
    ]
    numpy.testing.assert_array_equal(saver.store["stack/0/W"], model.stack[0].W.array)
    assert saver.store["step"] == 9


def test_serialize_round_trip_restores_values_in_place_and_initializes_lazy_parameters():
    source = Stateful(4)
    source.mean[...] = [3, 4]
    source.step = 5
    saver = SavingSerializer()
    source.serialize(saver)

    target = Stateful()  # fc.l1.W is uninitialized
    stack_w = target.stack[0].W.array
    target.serialize(LoadingSerializer(saver.store))
    assert target.stack[0].W.array is stack_w
    for (path, mine), (_, theirs) in zip(target.namedparams(), source.namedparams()):
        numpy.testing.assert_array_equal(mine.array, theirs.array, err_msg=path)
    assert target.fc.l1.W.shape == (3, 4)
    numpy.testing.assert_array_equal(target.mean, [3, 4])
    assert target.step == 5


# -- calls and text ---------------------------------------------------------------------------


def test_calling_a_link_without_forward_says_what_to_define():
    with pytest.raises(AttributeError, match="Link has no forward method: define forward"):
        Link()(1)


def test_from_params_is_left_to_subclasses():
    with pytest.raises(NotImplementedError, match="Affine does not implement from_params"):
        Affine.from_params(numpy.zeros((2, 2)))


def test_str_of_a_link_shows_its_printable_specs():
    assert str(Affine(3, 2)) == "Affine(out_size=3)"
    assert repr(Link()) == "Link()"
    assert list(Link().printable_specs) == []


def test_lazy_initialization_docs_pattern():
    # A link whose input size is None creates W on the first call, from the input's shape.
    link = Affine(3)
    assert link.W.array is None
    assert list(link.params(include_uninit=False)) == [link.b]
    x = numpy.random.default_rng(0).standard_normal((2, 5)).astype(numpy.float32)
    y = link(x)
    assert link.W.shape == (3, 5)
    numpy.testing.assert_allclose(y.array, x @ link.W.array.T + link.b.array, rtol=1e-6)


class _SkipsLinkInit(chainer.Link):
    def __init__(self, action):
        action(self)

    def forward(self, x):
        return x


@pytest.mark.parametrize(
    "action",
    [
        lambda link: None,
        lambda link: link.init_scope().__enter__(),
        lambda link: link.add_param("p", (2,)),
    ],
    ids=["call", "init_scope", "add_param"],
)
def test_skipping_link_init_is_reported_no_later_than_the_call(action):
    with pytest.raises(RuntimeError, match=r"^Link\.__init__\(\) has not been called\.$"):
        _SkipsLinkInit(action)(numpy.ones(2, numpy.float32))


def test_zerograds_calls_each_parameters_zerograd_with_one_warning():
    calls = []

    class Counting(chainer.Parameter):
        def zerograd(self):
            calls.append(self.name)
            super().zerograd()

    link = Link()
    with link.init_scope():
        link.w = Counting(numpy.ones(2, numpy.float32))
    with pytest.warns(DeprecationWarning) as record:
        link.zerograds()
    assert calls == ["w"] and len(record) == 1
    numpy.testing.assert_array_equal(link.w.grad, [0, 0])


def test_a_mixin_after_link_may_define_the_call():
    class CallMixin:
        def __call__(self, x, scale=1):
            return (self, x * scale)

    class Injected(Link, CallMixin):
        pass

    link = Injected()
    assert link(2, scale=3) == (link, 6)
    with pytest.raises(AttributeError, match="Link has no forward method"):
        Link()(1)
