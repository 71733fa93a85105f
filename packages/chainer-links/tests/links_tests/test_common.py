"""Every link: NPZ keys as Chainer names them, NPZ round trip (also into a lazy link),
copies and CPU transfer."""

import numpy
import pytest

import chainer.links as L
from chainer.testing import attr

from ._link_checks import (
    check_copies,
    check_cpu_transfer,
    check_npz_round_trip,
    evaluate,
    npz_keys,
)


def _x(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _ids(*values):
    return numpy.array(values, numpy.int32)


def _seeded(link, *args, **kwargs):
    # The sampling links draw from NumPy's global generator: the same seed, the same samples.
    numpy.random.seed(0)
    return link(*args, **kwargs)


def _crf_call(link, xs, ys):
    return link(list(xs), list(ys))


_CRF_INPUTS = ((_x(2, 3), _x(1, 3)), (_ids(0, 2), _ids(1)))

# name: (factory, inputs, call, NPZ keys)
CASES = {
    "Linear": (lambda: L.Linear(3, 2), (_x(4, 3),), None, {"W", "b"}),
    "Linear-lazy": (lambda: L.Linear(2), (_x(4, 3),), None, {"W", "b"}),
    "Linear-nobias": (lambda: L.Linear(3, 2, nobias=True), (_x(4, 3),), None, {"W"}),
    "Convolution2D": (lambda: L.Convolution2D(2, 3, 2), (_x(1, 2, 4, 4),), None, {"W", "b"}),
    "Convolution2D-lazy": (lambda: L.Convolution2D(3, 2), (_x(1, 2, 4, 4),), None, {"W", "b"}),
    "Convolution1D": (lambda: L.Convolution1D(None, 3, 2), (_x(1, 2, 5),), None, {"W", "b"}),
    "Convolution3D": (lambda: L.Convolution3D(2, 3, 2), (_x(1, 2, 3, 3, 3),), None, {"W", "b"}),
    "ConvolutionND": (lambda: L.ConvolutionND(2, 2, 3, 2), (_x(1, 2, 4, 4),), None, {"W", "b"}),
    "Deconvolution2D": (
        lambda: L.Deconvolution2D(None, 3, 2),
        (_x(1, 2, 3, 3),),
        None,
        {"W", "b"},
    ),
    "Deconvolution1D": (lambda: L.Deconvolution1D(2, 3, 2), (_x(1, 2, 3),), None, {"W", "b"}),
    "Deconvolution3D": (
        lambda: L.Deconvolution3D(2, 3, 2),
        (_x(1, 2, 2, 2, 2),),
        None,
        {"W", "b"},
    ),
    "DeconvolutionND": (lambda: L.DeconvolutionND(1, 2, 3, 2), (_x(1, 2, 3),), None, {"W", "b"}),
    "DepthwiseConvolution2D": (
        lambda: L.DepthwiseConvolution2D(None, 2, 2),
        (_x(1, 3, 4, 4),),
        None,
        {"W", "b"},
    ),
    "DilatedConvolution2D": (
        lambda: L.DilatedConvolution2D(None, 3, 2, dilate=2),
        (_x(1, 2, 5, 5),),
        None,
        {"W", "b"},
    ),
    "LocalConvolution2D": (
        lambda: L.LocalConvolution2D(None, 3, ksize=2),
        (_x(1, 2, 3, 3),),
        None,
        {"W", "b"},
    ),
    "DeformableConvolution2D": (
        lambda: L.DeformableConvolution2D(2, 3, 2),
        (_x(1, 2, 4, 4),),
        None,
        {"offset_conv/W", "offset_conv/b", "deform_conv/W", "deform_conv/b"},
    ),
    "EmbedID": (lambda: L.EmbedID(5, 3, ignore_label=-1), (_ids(0, 4, -1),), None, {"W"}),
    "Bilinear": (lambda: L.Bilinear(2, 3, 4), (_x(2, 2), _x(2, 3)), None, {"W", "V1", "V2", "b"}),
    "Bilinear-nobias": (
        lambda: L.Bilinear(2, 3, 4, nobias=True),
        (_x(2, 2), _x(2, 3)),
        None,
        {"W"},
    ),
    "Highway": (
        lambda: L.Highway(3),
        (_x(2, 3),),
        None,
        {"plain/W", "plain/b", "transform/W", "transform/b"},
    ),
    "Inception": (
        lambda: L.Inception(None, 1, 1, 2, 1, 2, 1),
        (_x(1, 2, 4, 4),),
        None,
        {f"{c}/{p}" for c in ("conv1", "proj3", "conv3", "proj5", "conv5", "projp") for p in "Wb"},
    ),
    "InceptionBN": (
        lambda: L.InceptionBN(2, 1, 1, 2, 1, 2, "max", proj_pool=1),
        (_x(2, 2, 4, 4),),
        None,
        {f"{c}/W" for c in ("conv1", "proj3", "conv3", "proj33", "conv33a", "conv33b", "poolp")}
        | {
            f"{c}/{p}"
            for c in ("conv1n", "proj3n", "conv3n", "proj33n", "conv33an", "conv33bn", "poolpn")
            for p in ("gamma", "beta", "avg_mean", "avg_var", "N")
        },
    ),
    "MLPConvolution2D": (
        lambda: L.MLPConvolution2D(None, (3, 2), 2),
        (_x(1, 2, 4, 4),),
        None,
        {"0/W", "0/b", "1/W", "1/b"},
    ),
    "Parameter": (lambda: L.Parameter(_x(2, 3)), (), None, {"W"}),
    "Bias": (lambda: L.Bias(shape=(3,)), (_x(2, 3),), None, {"b"}),
    "Scale": (lambda: L.Scale(W_shape=(3,), bias_term=True), (_x(2, 3),), None, {"W", "bias/b"}),
    "BatchNormalization": (
        lambda: L.BatchNormalization(3),
        (_x(4, 3),),
        None,
        {"gamma", "beta", "avg_mean", "avg_var", "N"},
    ),
    "BatchNormalization-lazy": (
        lambda: L.BatchNormalization(axis=(0, 2)),
        (_x(4, 3, 2),),
        None,
        {"gamma", "beta", "avg_mean", "avg_var", "N"},
    ),
    "BatchNormalization-no-gamma": (
        lambda: L.BatchNormalization(3, use_gamma=False),
        (_x(4, 3),),
        None,
        {"beta", "avg_mean", "avg_var", "N"},
    ),
    "BatchRenormalization": (
        lambda: L.BatchRenormalization(3, rmax=2, dmax=1),
        (_x(4, 3),),
        None,
        {"gamma", "beta", "avg_mean", "avg_var", "N"},
    ),
    "DecorrelatedBatchNormalization": (
        lambda: L.DecorrelatedBatchNormalization(4, groups=2),
        (_x(6, 4),),
        None,
        {"avg_mean", "avg_projection", "N"},
    ),
    "GroupNormalization": (
        lambda: L.GroupNormalization(2),
        (_x(2, 4, 3),),
        None,
        {"gamma", "beta"},
    ),
    "LayerNormalization": (lambda: L.LayerNormalization(), (_x(2, 5),), None, {"gamma", "beta"}),
    "Maxout": (lambda: L.Maxout(3, 2, 2), (_x(2, 3),), None, {"linear/W", "linear/b"}),
    "PReLU": (lambda: L.PReLU((3,)), (_x(2, 3),), None, {"W"}),
    "Swish": (lambda: L.Swish(None), (_x(2, 3),), None, {"beta"}),
    "SimplifiedDropconnect": (
        lambda: L.SimplifiedDropconnect(None, 2),
        (_x(2, 3),),
        lambda link, x: link(x, train=False),
        {"W", "b"},
    ),
    "NegativeSampling": (
        lambda: L.NegativeSampling(3, [1, 2, 3, 4], 2),
        (_x(2, 3), _ids(0, 3)),
        lambda link, x, t: _seeded(link, x, t, reduce="no"),
        {"W"},
    ),
    "BlackOut": (
        lambda: L.BlackOut(3, [1, 2, 3, 4], 2),
        (_x(2, 3), _ids(0, 3)),
        _seeded,
        {"W"},
    ),
    "CRF1d": (lambda: L.CRF1d(3), _CRF_INPUTS, _crf_call, {"cost"}),
    "BinaryHierarchicalSoftmax": (
        lambda: L.BinaryHierarchicalSoftmax(3, ((0, 1), 2)),
        (_x(2, 3), _ids(0, 2)),
        None,
        {"W"},
    ),
    "Classifier": (
        lambda: L.Classifier(L.Linear(None, 3)),
        (_x(2, 4), _ids(0, 2)),
        None,
        {"predictor/W", "predictor/b"},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_npz_keys_follow_chainer(name):
    make, inputs, call, keys = CASES[name]
    link = make()
    assert npz_keys(link) == keys


@pytest.mark.parametrize("name", sorted(CASES))
def test_npz_round_trip(name):
    make, inputs, call, _ = CASES[name]
    check_npz_round_trip(make, inputs, call)


@pytest.mark.parametrize("name", sorted(CASES))
def test_copies_and_cpu_transfer(name):
    make, inputs, call, _ = CASES[name]
    link = make()
    call(link, *inputs) if call else link(*inputs)
    check_copies(link)
    check_cpu_transfer(link)


# Their samples come from another generator on other devices: only shapes can be compared.
_SAMPLING = {"NegativeSampling", "BlackOut"}


def _send(value, convert):
    if isinstance(value, tuple):
        return tuple(_send(v, convert) for v in value)
    return convert(value)


def _check_on_device(name, device, convert, to_host, array_type):
    make, inputs, call, _ = CASES[name]
    link = make()
    expected = evaluate(link, inputs, call)
    link.to_device(device)
    for param in link.params():
        assert isinstance(param.array, array_type)
    got = evaluate(link, _send(inputs, convert), call)
    for g, e in zip(got, expected):
        g = to_host(g)
        assert g.shape == e.shape
        if name not in _SAMPLING:
            numpy.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)


@attr.gpu
@pytest.mark.parametrize("name", sorted(CASES))
def test_gpu_link_gives_the_cpu_results(name):
    cupy = pytest.importorskip("cupy")
    _check_on_device(name, "@cupy:0", cupy.asarray, cupy.asnumpy, cupy.ndarray)


# F.deformable_convolution_2d_sampler has no ChainerX path yet (it needs xp.indices).
_NOT_ON_CHAINERX = {"DeformableConvolution2D"}


@attr.chainerx
@pytest.mark.parametrize("name", sorted(set(CASES) - _NOT_ON_CHAINERX))
def test_chainerx_link_gives_the_cpu_results(name):
    import chainerx

    _check_on_device(name, "native:0", chainerx.array, chainerx.to_numpy, chainerx.ndarray)
