"""The in-place CPU kernel driver: chunking, float16 staging, odd layouts, no per-step memory."""

import tracemalloc

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer.link import Link
from chainer.optimizers import _chunks
from chainer.optimizers._chunks import (
    CHUNK_SIZE,
    SINGLE_CALL_SIZE,
    STREAMING_CHUNK_SIZE,
    compute_dtype,
    streaming_kernel,
    update_in_chunks,
)


def _add_kernel(seen):
    """param += scale * grad; state -= grad; records what each call received."""

    def kernel(param, grad, state, scratch, scale):
        seen.append((param.shape, param.dtype, grad.dtype, state.dtype, scratch.dtype))
        numpy.multiply(grad, scale, out=scratch)
        param += scratch
        state -= grad

    return kernel


def test_chunks_cover_the_array_in_cache_sized_pieces():
    size = SINGLE_CALL_SIZE + 5
    param, state = numpy.zeros((size,)), numpy.zeros((size,))
    grad = numpy.arange(size, dtype=numpy.float64)
    seen = []
    update_in_chunks(_add_kernel(seen), param, grad, (state,), 1, 2.0)
    chunks = SINGLE_CALL_SIZE // CHUNK_SIZE
    assert [s[0] for s in seen] == [(CHUNK_SIZE,)] * chunks + [(5,)]
    numpy.testing.assert_array_equal(param, 2 * grad)
    numpy.testing.assert_array_equal(state, -grad)


@pytest.mark.parametrize("size", [CHUNK_SIZE + 1, SINGLE_CALL_SIZE])
def test_middle_sized_arrays_get_one_call_on_the_arrays_themselves(size):
    param, state = numpy.zeros((size, 1)), numpy.zeros((size, 1))
    grad = numpy.arange(size, dtype=numpy.float64).reshape(size, 1)
    seen = []
    update_in_chunks(_add_kernel(seen), param, grad, (state,), 1, 2.0)
    assert [s[0] for s in seen] == [(size, 1)]
    numpy.testing.assert_array_equal(param, 2 * grad)
    numpy.testing.assert_array_equal(state, -grad)


@pytest.fixture
def streaming(monkeypatch):
    """:func:`streaming_kernel`, registering into a set that the test leaves behind."""
    monkeypatch.setattr(_chunks, "_STREAMING_KERNELS", set(_chunks._STREAMING_KERNELS))
    return streaming_kernel


def test_streaming_kernels_take_larger_chunks(streaming):
    size = 2 * STREAMING_CHUNK_SIZE + 5
    param, state = numpy.zeros(size), numpy.zeros(size)
    grad = numpy.arange(size, dtype=numpy.float64)
    seen = []
    update_in_chunks(streaming(_add_kernel(seen)), param, grad, (state,), 1, 2.0)
    assert STREAMING_CHUNK_SIZE > SINGLE_CALL_SIZE
    assert [s[0] for s in seen] == [(STREAMING_CHUNK_SIZE,)] * 2 + [(5,)]
    numpy.testing.assert_array_equal(param, 2 * grad)
    numpy.testing.assert_array_equal(state, -grad)


def test_streaming_kernels_take_one_call_up_to_their_chunk(streaming):
    param, state = numpy.zeros((STREAMING_CHUNK_SIZE, 1)), numpy.zeros((STREAMING_CHUNK_SIZE, 1))
    seen = []
    update_in_chunks(streaming(_add_kernel(seen)), param, param + 1, (state,), 1, 2.0)
    assert [s[0] for s in seen] == [(STREAMING_CHUNK_SIZE, 1)]
    numpy.testing.assert_array_equal(param, 2.0)


def test_streaming_float16_arrays_are_staged_in_cache_sized_chunks(streaming):
    size = CHUNK_SIZE + 1
    seen = []
    param, grad = numpy.zeros(size, numpy.float16), numpy.ones(size, numpy.float16)
    state = numpy.zeros(size, numpy.float16)
    update_in_chunks(streaming(_add_kernel(seen)), param, grad, (state,), 1, 1.0)
    assert [s[0] for s in seen] == [(CHUNK_SIZE,), (1,)]
    numpy.testing.assert_array_equal(param, grad)


_LR, _MOMENTUM = numpy.float32(0.1), numpy.float32(0.9)


def _sgd(p, g, v):
    return p - g * _LR, v


def _momentum_sgd(p, g, v):
    v = v * _MOMENTUM - g * _LR
    return p + v, v


def _corrected_momentum_sgd(p, g, v):
    v = v * _MOMENTUM - g
    return p + v * _LR, v


@pytest.mark.parametrize(
    ("optimizer", "formula"),
    [
        (lambda: optimizers.SGD(lr=0.1), _sgd),
        (lambda: optimizers.MomentumSGD(lr=0.1, momentum=0.9), _momentum_sgd),
        (
            lambda: optimizers.CorrectedMomentumSGD(lr=0.1, momentum=0.9),
            _corrected_momentum_sgd,
        ),
    ],
    ids=["SGD", "MomentumSGD", "CorrectedMomentumSGD"],
)
def test_streaming_rules_over_chunk_boundaries_match_their_formula(optimizer, formula):
    # Two steps over a parameter of two chunks and a remainder, against the formula in NumPy.
    rng = numpy.random.default_rng(0)
    link = Link()
    with link.init_scope():
        link.p = chainer.Parameter(rng.standard_normal(2 * STREAMING_CHUNK_SIZE + 3, "f4"))
    opt = optimizer()
    opt.setup(link)
    expected, velocity = link.p.array.copy(), numpy.zeros_like(link.p.array)
    for _ in range(2):
        grad = rng.standard_normal(link.p.shape, "f4")
        link.p.grad = grad
        opt.update()
        expected, velocity = formula(expected, grad, velocity)
    numpy.testing.assert_array_equal(link.p.array, expected)


def test_float16_arrays_are_staged_chunk_by_chunk():
    size = CHUNK_SIZE + 1
    param = numpy.zeros(size, numpy.float16)
    seen = []
    grad, state = numpy.ones(size, numpy.float16), numpy.zeros(size, numpy.float16)
    update_in_chunks(_add_kernel(seen), param, grad, (state,), 1, 1.0)
    assert [s[0] for s in seen] == [(CHUNK_SIZE,), (1,)]
    numpy.testing.assert_array_equal(param, grad)


def test_float16_is_computed_in_float32_and_rounded_back():
    param = numpy.zeros((4, 3), numpy.float16)
    state = numpy.zeros((4, 3), numpy.float16)
    grad = numpy.full((4, 3), 7.0, numpy.float16)
    seen = []
    # 7 * 0.1 rounds to float16 0.7 from float32, but to 0.6997 when computed in float16.
    update_in_chunks(_add_kernel(seen), param, grad, (state,), 1, 0.1)
    assert seen == [((12,), *(numpy.dtype(numpy.float32),) * 4)]
    assert param.dtype == numpy.float16 and state.dtype == numpy.float16
    numpy.testing.assert_array_equal(param, numpy.full((4, 3), 0.7, numpy.float16))
    numpy.testing.assert_array_equal(state, numpy.full((4, 3), -7.0, numpy.float16))
    numpy.testing.assert_array_equal(grad, 7.0)  # the gradient is only read


def test_non_contiguous_arrays_are_updated_in_place_as_a_whole():
    base = numpy.zeros((3, 4))
    param = base.T  # a view in Fortran order: flattening would copy
    state = numpy.zeros((4, 3))
    grad = numpy.arange(12.0).reshape(4, 3)
    seen = []
    update_in_chunks(_add_kernel(seen), param, grad, (state,), 1, 1.0)
    assert [s[0] for s in seen] == [(4, 3)]
    numpy.testing.assert_array_equal(base, grad.T)
    numpy.testing.assert_array_equal(state, -grad)


def test_a_broadcast_gradient_is_read_without_writing_to_it():
    param = numpy.zeros((CHUNK_SIZE + 1, 2), numpy.float32)
    grad = numpy.broadcast_to(numpy.float32([1.0, 2.0]), param.shape)  # read-only view
    update_in_chunks(_add_kernel([]), param, grad, (numpy.zeros_like(param),), 1, 1.0)
    numpy.testing.assert_array_equal(param, grad)


@pytest.mark.parametrize(
    ("dtype", "expected"), [("float16", "float32"), ("float32", "float32"), ("float64", "float64")]
)
def test_compute_dtype(dtype, expected):
    assert compute_dtype(dtype) == numpy.dtype(expected)


PARAM_SIZE = 300_000


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32])
@pytest.mark.parametrize("name", optimizers.__all__)
def test_an_update_allocates_nothing_that_grows_with_the_parameter(name, dtype):
    link = Link()
    with link.init_scope():
        link.p = chainer.Parameter(numpy.linspace(-1, 1, PARAM_SIZE, dtype=dtype))
    optimizer = getattr(optimizers, name)().setup(link)
    link.p.grad = numpy.linspace(1, -1, PARAM_SIZE, dtype=dtype)
    optimizer.update()  # creates the state and this thread's scratch buffers
    tracemalloc.start()
    try:
        peaks = []
        for _ in range(3):
            tracemalloc.reset_peak()
            optimizer.update()
            peaks.append(tracemalloc.get_traced_memory()[1])
    finally:
        tracemalloc.stop()
    # A single full-size temporary would be PARAM_SIZE * itemsize (600 KB or more).
    assert max(peaks) < 32 * 1024, peaks


@pytest.mark.parametrize(
    ("rule_class", "eps"),
    [
        # RMSprop's kernel computes in the parameter's dtype, as v7's does;
        (optimizers.rmsprop.RMSpropRule, 1e-8),
        # Adam's and AdaGrad's compute float16 parameters in float32.
        (optimizers.adam.AdamRule, 1e-50),
        (optimizers.ada_grad.AdaGradRule, 1e-50),
    ],
)
def test_gpu_kernels_refuse_an_eps_that_rounds_to_zero(rule_class, eps):
    # The check runs before any CuPy call.
    param = chainer.Parameter(numpy.zeros(2, numpy.float16))
    param.grad = numpy.zeros(2, numpy.float16)
    compute = "float16" if rule_class is optimizers.rmsprop.RMSpropRule else "float32"
    message = rf"{rule_class.__name__}: eps={eps!r} is too small for {compute} \(it rounds to 0\)"
    with pytest.raises(ValueError, match=message):
        rule_class(eps=eps).update_core_gpu(param)
