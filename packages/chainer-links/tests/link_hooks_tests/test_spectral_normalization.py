"""SpectralNormalization: W / (u^T W v) by power iteration, u persistent, eval keeps u."""

import io

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import gradient_check, serializers
from chainer.link_hooks import SpectralNormalization


def _random(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _power_iteration(W, u, steps, eps=1e-6):
    W, u = W.astype(numpy.float64), u.astype(numpy.float64)
    for _ in range(steps):
        v = u @ W
        v /= numpy.linalg.norm(v) + eps
        u = W @ v
        u /= numpy.linalg.norm(u) + eps
    return u, v, u @ W @ v


@pytest.mark.parametrize("train", [True, False])
def test_linear_uses_the_normalized_weight_and_updates_u_in_training_only(train):
    link = L.Linear(4, 3)
    link.add_hook(SpectralNormalization())
    u0 = link.W_u.copy()
    x = _random(2, 4)
    u1, _, sigma = _power_iteration(link.W.array, u0, 1)
    with chainer.using_config("train", train):
        y = link(x)
    expected = x @ (link.W.array / sigma).T + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(link.W_u, u1 if train else u0, rtol=1e-5)
    assert isinstance(link.W, chainer.Parameter)  # restored after forward


def test_many_iterations_reach_the_largest_singular_value():
    link = L.Linear(5, 4)
    link.add_hook(SpectralNormalization(n_power_iteration=200))
    x = numpy.eye(5, dtype=numpy.float32)
    y = link(x).array - link.b.array  # rows of (W / sigma)^T
    largest = numpy.linalg.svd(link.W.array, compute_uv=False)[0]
    numpy.testing.assert_allclose(y.T, link.W.array / largest, rtol=1e-4, atol=1e-6)
    numpy.testing.assert_allclose(numpy.linalg.svd(y, compute_uv=False)[0], 1, rtol=1e-4)


def test_convolution_flattens_the_kernel_and_deconvolution_uses_axis_1():
    conv = L.Convolution2D(3, 5, 2)
    conv.add_hook(SpectralNormalization())
    assert conv.W_u.shape == (5,)
    x = _random(1, 3, 4, 4)
    _, _, sigma = _power_iteration(conv.W.array.reshape(5, -1), conv.W_u, 1)
    expected = F.convolution_2d(x, conv.W.array / sigma, conv.b.array).array
    numpy.testing.assert_allclose(conv(x).array, expected, rtol=1e-5, atol=1e-6)

    hook = SpectralNormalization()
    deconv = L.Deconvolution2D(3, 5, 2)
    deconv.add_hook(hook)
    assert hook.axis == 1 and deconv.W_u.shape == (5,)
    matrix = hook.reshape_W(deconv.W.array)
    numpy.testing.assert_array_equal(matrix, deconv.W.array.transpose(1, 0, 2, 3).reshape(5, -1))


def test_use_gamma_starts_at_the_largest_singular_value_and_is_learnt():
    link = L.Linear(4, 3)
    link.add_hook(SpectralNormalization(use_gamma=True))
    largest = numpy.linalg.svd(link.W.array, compute_uv=False)[0]
    assert link.gamma.shape == ()
    numpy.testing.assert_allclose(link.gamma.array, largest, rtol=1e-5)
    x = _random(2, 4)
    _, _, sigma = _power_iteration(link.W.array, link.W_u, 1)
    y = link(x)
    expected = x @ (largest * link.W.array / sigma).T + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-6)
    F.sum(y).backward()
    assert link.gamma.grad is not None and link.W.grad is not None


def test_factor_divides_sigma():
    link = L.Linear(4, 3)
    link.add_hook(SpectralNormalization(factor=2.0))
    x = _random(2, 4)
    _, _, sigma = _power_iteration(link.W.array, link.W_u, 1)
    expected = x @ (2.0 * link.W.array / sigma).T + link.b.array
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-5, atol=1e-6)


def test_gradient_flows_through_sigma():
    link = L.Linear(3, 2)
    link.add_hook(SpectralNormalization(n_power_iteration=100))
    x = _random(4, 3)
    with chainer.using_config("train", False):
        gradient_check.check_backward(
            lambda x: link(x),
            x,
            _random(4, 2),
            params=(link.W, link.b),
            atol=1e-3,
            rtol=1e-3,
            dtype=numpy.float64,
        )


def test_lazy_weights_get_u_on_the_first_forward():
    link = L.Linear(None, 3)
    link.add_hook(SpectralNormalization())
    assert not hasattr(link, "W_u")
    assert link(_random(2, 2, 3)).shape == (2, 3)
    assert link.W.shape == (3, 6) and link.W_u.shape == (3,)
    conv = L.Convolution2D(None, 4, 3)
    conv.add_hook(SpectralNormalization())
    conv(_random(1, 2, 5, 5))
    assert conv.W.shape == (4, 2, 3, 3) and conv.W_u.shape == (4,)


def test_u_is_serialized_and_deleted_with_the_hook():
    link = L.Linear(4, 3)
    link.add_hook(SpectralNormalization(use_gamma=True))
    link(_random(2, 4))
    buffer = io.BytesIO()
    serializers.save_npz(buffer, link)
    buffer.seek(0)
    with numpy.load(buffer) as stored:
        assert set(stored.files) == {"W", "b", "W_u", "gamma"}
        numpy.testing.assert_array_equal(stored["W_u"], link.W_u)
    buffer.seek(0)
    target = L.Linear(4, 3)
    target.add_hook(SpectralNormalization(use_gamma=True))
    serializers.load_npz(buffer, target)
    x = _random(2, 4)
    with chainer.using_config("train", False):
        numpy.testing.assert_array_equal(target(x).array, link(x).array)
    link.delete_hook("SpectralNormalization")
    assert not hasattr(link, "W_u") and not hasattr(link, "gamma")
    assert [name for name, _ in link.namedparams()] == ["/W", "/b"]


def test_misuse_is_reported():
    with pytest.raises(ValueError, match="n_power_iteration must be at least 1, got 0"):
        SpectralNormalization(n_power_iteration=0)
    with pytest.raises(ValueError, match=r"Weight 'V' does not exist in Linear"):
        L.Linear(2, 2).add_hook(SpectralNormalization(weight_name="V"))
    with pytest.raises(NotImplementedError, match="not supposed to be used as a context manager"):
        with SpectralNormalization():
            pass


def test_a_custom_name_and_weight_name():
    link = L.EmbedID(5, 3)
    link.add_hook(SpectralNormalization(weight_name="W", name="sn"))
    assert "sn" in link.local_link_hooks and link.W_u.shape == (5,)
