"""Inception and InceptionBN: branch layout, shapes, pooling, parameters and errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _max_pool_3x3_same(x):
    padded = numpy.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], constant_values=-numpy.inf)
    windows = numpy.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))
    return windows.max(axis=(-2, -1))


def test_inception_concatenates_its_four_branches():
    link = L.Inception(3, 2, 2, 3, 1, 2, 4)
    x = _uniform(2, 3, 5, 5)
    y = link(x).array
    assert y.shape == (2, 2 + 3 + 2 + 4, 5, 5)
    relu = F.relu
    branches = [
        link.conv1(x),
        link.conv3(relu(link.proj3(x))),
        link.conv5(relu(link.proj5(x))),
        link.projp(_max_pool_3x3_same(x)),
    ]
    expected = numpy.maximum(numpy.concatenate([b.array for b in branches], axis=1), 0)
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_inception_filter_shapes_and_initializers():
    link = L.Inception(None, 2, 3, 4, 5, 6, 7, conv_init=0.5, bias_init=0.25)
    link(_uniform(1, 8, 4, 4))
    shapes = {name: p.shape for name, p in link.namedparams() if name.endswith("/W")}
    assert shapes == {
        "/conv1/W": (2, 8, 1, 1),
        "/proj3/W": (3, 8, 1, 1),
        "/conv3/W": (4, 3, 3, 3),
        "/proj5/W": (5, 8, 1, 1),
        "/conv5/W": (6, 5, 5, 5),
        "/projp/W": (7, 8, 1, 1),
    }
    for name, param in link.namedparams():
        numpy.testing.assert_array_equal(param.array, 0.5 if name.endswith("W") else 0.25)


@pytest.mark.parametrize("pooltype", ["max", "avg"])
def test_inceptionbn_stride_one_keeps_the_size(pooltype):
    link = L.InceptionBN(3, 2, 2, 3, 2, 4, pooltype, proj_pool=5)
    x = _uniform(4, 3, 6, 6)
    y = link(x)
    assert y.shape == (4, 2 + 3 + 4 + 5, 6, 6)
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    assert all(p.grad is not None for p in link.params())


def test_inceptionbn_downsampling_passes_the_pooled_input_through():
    link = L.InceptionBN(3, 0, 2, 3, 2, 4, "max", stride=2)
    assert not hasattr(link, "conv1") and not hasattr(link, "poolp")
    x = _uniform(2, 3, 6, 6)
    with chainer.using_config("train", False):
        y = link(x).array
    assert y.shape == (2, 3 + 4 + 3, 3, 3)
    pooled = F.max_pooling_2d(x, 3, stride=2, pad=1, cover_all=False).array
    numpy.testing.assert_array_equal(y[:, 7:], pooled)


def test_inceptionbn_parameters_have_no_conv_bias_and_a_bn_per_conv():
    link = L.InceptionBN(3, 1, 2, 3, 2, 4, "avg", proj_pool=5, dtype=numpy.float64)
    names = sorted(name for name, _ in link.namedparams())
    assert not any(name.endswith("/b") for name in names)
    assert "/conv33bn/gamma" in names and "/poolpn/beta" in names and "/conv1n/gamma" in names
    assert link.conv3n.gamma.dtype == numpy.float64


def test_inceptionbn_errors():
    with pytest.raises(NotImplementedError, match="pooltype must be 'max' or 'avg', got 'min'"):
        L.InceptionBN(3, 0, 2, 3, 2, 4, "min")
    with pytest.raises(AssertionError, match="needs stride=1 and proj_pool"):  # as v7 raised
        L.InceptionBN(3, 1, 2, 3, 2, 4, "max", proj_pool=None)
    with pytest.raises(ValueError, match="needs stride=1 and proj_pool, got stride=2"):
        L.InceptionBN(3, 1, 2, 3, 2, 4, "max", proj_pool=2, stride=2)
    with pytest.raises(ValueError, match="proj_pool=None"):
        L.InceptionBN(3, 1, 2, 3, 2, 4, "max")
