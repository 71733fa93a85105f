"""CaffeFunction: each supported layer type, read from a hand-built .caffemodel, against NumPy."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import testing

pytest.importorskip("google.protobuf", reason="Caffe support needs the protobuf package")

from chainer.links.caffe import CaffeFunction

from .._references import conv, deconv
from ._caffe_nets import layer, save


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _softmax(x):
    return numpy.exp(x) / numpy.exp(x).sum(axis=1, keepdims=True)


def _run(tmp_path, layers, inputs, outputs=("y",), train=False):
    func = CaffeFunction(save(tmp_path / "model.caffemodel", *layers))
    with chainer.using_config("train", train):
        results = func(inputs=inputs, outputs=list(outputs))
    return func, [r.array for r in results]


@pytest.mark.parametrize(
    ("group", "stride", "pad", "bias"), [(1, 1, 0, True), (2, 2, 1, True), (1, 2, 1, False)]
)
def test_convolution(tmp_path, group, stride, pad, bias):
    x, W, b = _uniform(2, 4, 7, 6), _uniform(6, 4 // group, 3, 3), _uniform(6)
    conv_param = {"kernel_size": [3], "stride": [stride], "pad": [pad], "group": group}
    conv_param["bias_term"] = bias
    blobs = [W, b] if bias else [W]
    c = layer("conv", "Convolution", ["x"], ["y"], blobs, convolution_param=conv_param)
    func, (y,) = _run(tmp_path, [c], {"x": x})
    assert isinstance(func.conv, L.Convolution2D)
    expected = conv(x, W, b if bias else None, stride=stride, pad=pad, groups=group)
    testing.assert_allclose(y, expected, atol=1e-5, rtol=1e-4)


def test_convolution_rectangular_and_dilated(tmp_path):
    x, W = _uniform(1, 2, 9, 8), _uniform(3, 2, 3, 2)
    conv_param = {
        "kernel_h": 3,
        "kernel_w": 2,
        "stride_h": 2,
        "stride_w": 1,
        "pad_h": 1,
        "pad_w": 0,
        "dilation": [2],
        "bias_term": False,
    }
    c = layer("conv", "Convolution", ["x"], ["y"], [W], convolution_param=conv_param)
    _, (y,) = _run(tmp_path, [c], {"x": x})
    testing.assert_allclose(y, conv(x, W, stride=(2, 1), pad=(1, 0), dilate=2), atol=1e-5)


@pytest.mark.parametrize("group", [1, 2])
def test_deconvolution(tmp_path, group):
    x, W, b = _uniform(2, 4, 3, 4), _uniform(4, 6 // group, 3, 3), _uniform(6)
    conv_param = {"kernel_size": [3], "stride": [2], "pad": [1], "group": group}
    d = layer("up", "Deconvolution", ["x"], ["y"], [W, b], convolution_param=conv_param)
    func, (y,) = _run(tmp_path, [d], {"x": x})
    assert isinstance(func.up, L.Deconvolution2D)
    testing.assert_allclose(y, deconv(x, W, b, stride=2, pad=1, groups=group), atol=1e-5)


@pytest.mark.parametrize("transpose", [False, True])
def test_inner_product(tmp_path, transpose):
    x, W, b = _uniform(3, 2, 2, 2), _uniform(5, 8), _uniform(5)
    stored = W.T if transpose else W
    ip = layer(
        "fc", "InnerProduct", ["x"], ["y"], [stored, b],
        inner_product_param={"num_output": 5, "transpose": transpose},
    )  # fmt: skip
    func, (y,) = _run(tmp_path, [ip], {"x": x})
    assert isinstance(func.fc, L.Linear)
    testing.assert_allclose(y, x.reshape(3, -1) @ W.T + b, atol=1e-5)


def test_pooling_max_and_average(tmp_path):
    x = _uniform(2, 3, 4, 6)
    max_pool = layer(
        "p1", "Pooling", ["x"], ["m"], pooling_param={"pool": 0, "kernel_size": 2, "stride": 2}
    )
    ave_pool = layer(
        "p2", "Pooling", ["x"], ["a"], pooling_param={"pool": 1, "kernel_size": 2, "stride": 2}
    )
    _, (m, a) = _run(tmp_path, [max_pool, ave_pool], {"x": x}, outputs=["m", "a"])
    windows = x.reshape(2, 3, 2, 2, 3, 2)
    testing.assert_allclose(m, windows.max(axis=(3, 5)))
    testing.assert_allclose(a, windows.mean(axis=(3, 5)), atol=1e-6)


@pytest.mark.parametrize(("round_mode", "out_width"), [(0, 3), (1, 2)])
def test_max_pooling_round_mode(tmp_path, round_mode, out_width):
    # Width 5, window 2, stride 2: CEIL (Caffe's default) keeps a last half window.
    x = _uniform(1, 1, 2, 5)
    pool_param = {"pool": 0, "kernel_size": 2, "stride": 2, "round_mode": round_mode}
    _, (y,) = _run(
        tmp_path, [layer("p", "Pooling", ["x"], ["y"], pooling_param=pool_param)], {"x": x}
    )
    expected = [x[0, 0, :, 2 * i : 2 * i + 2].max() for i in range(out_width)]
    testing.assert_allclose(y[0, 0, 0], expected)


def test_global_pooling(tmp_path):
    x = _uniform(2, 3, 4, 5)
    pool_param = {"pool": 1, "global_pooling": True}
    _, (y,) = _run(
        tmp_path, [layer("p", "Pooling", ["x"], ["y"], pooling_param=pool_param)], {"x": x}
    )
    testing.assert_allclose(y, x.mean(axis=(2, 3), keepdims=True), atol=1e-6)


def test_lrn(tmp_path):
    x = _uniform(2, 7, 3, 3)
    lrn_param = {"local_size": 5, "alpha": 0.3, "beta": 0.75, "k": 2.0}
    _, (y,) = _run(tmp_path, [layer("n", "LRN", ["x"], ["y"], lrn_param=lrn_param)], {"x": x})
    squares = numpy.pad(x.astype(numpy.float64) ** 2, [(0, 0), (2, 2), (0, 0), (0, 0)])
    window_sums = sum(squares[:, i : i + 7] for i in range(5))
    alpha = numpy.float32(0.3)  # the float32 field value
    testing.assert_allclose(y, x / (2.0 + alpha / 5 * window_sums) ** 0.75, atol=1e-5)


@pytest.mark.parametrize(
    ("layer_type", "params", "reference"),
    [
        ("ReLU", {}, lambda x: numpy.maximum(x, 0)),
        ("ReLU", {"relu_param": {"negative_slope": 0.25}}, lambda x: numpy.where(x > 0, x, x / 4)),
        ("Sigmoid", {}, lambda x: 1 / (1 + numpy.exp(-x))),
        ("Sigmoid", {"sigmoid_param": {"engine": 1}}, lambda x: 1 / (1 + numpy.exp(-x))),
        ("TanH", {}, numpy.tanh),
        ("Softmax", {}, _softmax),
        ("Softmax", {"softmax_param": {"engine": 2}}, _softmax),
        ("Dropout", {"dropout_param": {"dropout_ratio": 0.3}}, lambda x: x),
    ],
)  # fmt: skip
def test_elementwise_layers(tmp_path, layer_type, params, reference):
    x = _uniform(3, 4, 2)
    _, (y,) = _run(tmp_path, [layer("l", layer_type, ["x"], ["y"], **params)], {"x": x})
    testing.assert_allclose(y, reference(x), atol=1e-6)


def test_dropout_in_training_drops_at_the_ratio(tmp_path):
    d = layer("d", "Dropout", ["x"], ["y"], dropout_param={"dropout_ratio": 0.25})
    _, (y,) = _run(tmp_path, [d], {"x": numpy.ones((100, 100), numpy.float32)}, train=True)
    assert set(numpy.unique(y)) == {0.0, numpy.float32(1 / 0.75)}
    assert abs((y == 0).mean() - 0.25) < 0.03


def test_softmax_with_loss(tmp_path):
    x, t = _uniform(4, 3), numpy.array([0, 2, 1, 2], numpy.int32)
    loss = layer("loss", "SoftmaxWithLoss", ["x", "t"], ["y"])
    _, (y,) = _run(tmp_path, [loss], {"x": x, "t": t})
    log_p = x - numpy.log(numpy.exp(x).sum(axis=1, keepdims=True))
    testing.assert_allclose(y, -log_p[numpy.arange(4), t].mean(), atol=1e-6)


def test_softmax_with_loss_ignores_the_ignore_label(tmp_path):
    x, t = _uniform(3, 4), numpy.array([1, -1, 3], numpy.int32)
    loss = layer("loss", "SoftmaxWithLoss", ["x", "t"], ["y"], loss_param={"ignore_label": -1})
    _, (y,) = _run(tmp_path, [loss], {"x": x, "t": t})
    log_p = x - numpy.log(numpy.exp(x).sum(axis=1, keepdims=True))
    testing.assert_allclose(y, -(log_p[0, 1] + log_p[2, 3]) / 2, atol=1e-6)


def test_blobs_stored_as_double_data(tmp_path):
    W = numpy.random.uniform(-1, 1, (2, 3))
    ip = layer("fc", "InnerProduct", ["x"], ["y"], [W], inner_product_param={"bias_term": False})
    ip.blobs[0].ClearField("data")
    ip.blobs[0].double_data[:] = W.ravel()
    x = _uniform(4, 3)
    _, (y,) = _run(tmp_path, [ip], {"x": x})
    testing.assert_allclose(y, x @ W.T, atol=1e-5)


@pytest.mark.parametrize("use_global_stats", [True, False])
def test_batch_norm_uses_running_statistics_over_their_weight(tmp_path, use_global_stats):
    x, mean, var = _uniform(4, 3, 2, 2), _uniform(3), numpy.random.uniform(1, 2, 3)
    bn = layer(
        "bn", "BatchNorm", ["x"], ["y"], [mean * 4, var * 4, [4.0]],
        batch_norm_param={"use_global_stats": use_global_stats, "eps": 1e-3},
    )  # fmt: skip
    func, (y,) = _run(tmp_path, [bn], {"x": x})
    assert isinstance(func.bn, L.BatchNormalization)
    expected = (x - mean[:, None, None]) / numpy.sqrt(var[:, None, None] + 1e-3)
    testing.assert_allclose(y, expected, atol=1e-5)


def test_batch_norm_statistics_of_weight_zero_are_zero_as_in_caffe(tmp_path):
    x = _uniform(2, 3)
    bn = layer(
        "bn", "BatchNorm", ["x"], ["y"], [numpy.ones(3), numpy.ones(3), [0.0]],
        batch_norm_param={"use_global_stats": True, "eps": 0.25},
    )  # fmt: skip
    _, (y,) = _run(tmp_path, [bn], {"x": x})
    testing.assert_allclose(y, x / numpy.sqrt(0.25), atol=1e-6)


def test_batch_norm_in_training_uses_the_batch_statistics(tmp_path):
    x = _uniform(8, 3)
    bn = layer("bn", "BatchNorm", ["x"], ["y"], [numpy.zeros(3), numpy.ones(3)])
    _, (y,) = _run(tmp_path, [bn], {"x": x}, train=True)
    expected = (x - x.mean(axis=0)) / numpy.sqrt(x.var(axis=0) + 1e-5)
    testing.assert_allclose(y, expected, atol=1e-4)


def test_batch_norm_with_global_stats_ignores_training_mode(tmp_path):
    x = _uniform(8, 3)
    bn = layer(
        "bn", "BatchNorm", ["x"], ["y"], [numpy.full(3, 0.5), numpy.full(3, 4.0)],
        batch_norm_param={"use_global_stats": True},
    )  # fmt: skip
    _, (y,) = _run(tmp_path, [bn], {"x": x}, train=True)
    testing.assert_allclose(y, (x - 0.5) / numpy.sqrt(4.0 + 1e-5), atol=1e-5)


def test_scale_with_learnt_scale_and_bias(tmp_path):
    x, W, b = _uniform(2, 3, 4), _uniform(3), _uniform(3)
    s = layer("s", "Scale", ["x"], ["y"], [W, b], scale_param={"axis": 1, "bias_term": True})
    func, (y,) = _run(tmp_path, [s], {"x": x})
    assert isinstance(func.s, L.Scale)
    testing.assert_allclose(y, x * W[:, None] + b[:, None], atol=1e-6)


def test_scale_by_a_second_bottom(tmp_path):
    x, w, b = _uniform(2, 3, 4), _uniform(2, 3), _uniform(2, 3)
    s = layer("s", "Scale", ["x", "w"], ["y"], [b], scale_param={"axis": 0, "bias_term": True})
    _, (y,) = _run(tmp_path, [s], {"x": x, "w": w})
    testing.assert_allclose(y, x * w[:, :, None] + b[:, :, None], atol=1e-6)


@pytest.mark.parametrize(
    ("params", "reference"),
    [
        ({"operation": 0}, lambda a, b, c: a * b * c),
        ({"operation": 1}, lambda a, b, c: a + b + c),
        ({"operation": 1, "coeff": [1, -2, 0.5]}, lambda a, b, c: a - 2 * b + 0.5 * c),
        ({"operation": 2}, lambda a, b, c: numpy.maximum(numpy.maximum(a, b), c)),
    ],
)
def test_eltwise(tmp_path, params, reference):
    xs = {name: _uniform(2, 3) for name in "abc"}
    e = layer("e", "Eltwise", ["a", "b", "c"], ["y"], eltwise_param=params)
    _, (y,) = _run(tmp_path, [e], xs)
    testing.assert_allclose(y, reference(*xs.values()), atol=1e-6)


def test_concat_along_an_axis_and_by_legacy_concat_dim(tmp_path):
    a, b = _uniform(2, 3, 2), _uniform(2, 1, 2)
    c1 = layer("c1", "Concat", ["a", "b"], ["y1"])
    c2 = layer("c2", "Concat", ["a", "a"], ["y2"], concat_param={"concat_dim": 2})
    _, (y1, y2) = _run(tmp_path, [c1, c2], {"a": a, "b": b}, outputs=["y1", "y2"])
    testing.assert_allclose(y1, numpy.concatenate([a, b], axis=1))
    testing.assert_allclose(y2, numpy.concatenate([a, a], axis=2))


def test_slice_by_points_and_into_equal_parts(tmp_path):
    x = _uniform(2, 6, 3)
    s1 = layer("s1", "Slice", ["x"], ["p", "q", "r"], slice_param={"slice_point": [1, 4]})
    s2 = layer("s2", "Slice", ["x"], ["u", "v", "w"], slice_param={"axis": 2})
    _, parts = _run(tmp_path, [s1, s2], {"x": x}, outputs="pqruvw")
    for part, expected in zip(
        parts, [*numpy.split(x, [1, 4], axis=1), *numpy.split(x, 3, axis=2)]
    ):
        testing.assert_allclose(part, expected)


def test_split_shares_its_bottom(tmp_path):
    x = _uniform(2, 3)
    layers = [
        layer("split", "Split", ["x"], ["x1", "x2"]),
        layer("r", "ReLU", ["x1"], ["y1"]),
        layer("s", "Sigmoid", ["x2"], ["y2"]),
    ]
    func, (y1, y2) = _run(tmp_path, layers, {"x": x}, outputs=["y1", "y2"])
    assert func.split_map == {"x1": "x", "x2": "x"}
    assert [bottom for _, bottom, _ in func.layers] == [["x"], ["x"]]
    testing.assert_allclose(y1, numpy.maximum(x, 0))
    testing.assert_allclose(y2, 1 / (1 + numpy.exp(-x)), atol=1e-6)


@pytest.mark.parametrize(
    ("params", "in_shape", "out_shape"),
    [
        ({"shape": {"dim": [2, 12]}}, (2, 3, 4), (2, 12)),
        ({"shape": {"dim": [0, -1]}}, (2, 3, 4), (2, 12)),  # 0 copies the input's axis
        ({"shape": {"dim": [3, 1]}, "axis": 2, "num_axes": 1}, (2, 3, 3, 4), (2, 3, 3, 1, 4)),
        ({"shape": {"dim": [6, 2]}, "axis": -2}, (2, 3, 12), (2, 3, 6, 2)),
    ],
)
def test_reshape(tmp_path, params, in_shape, out_shape):
    x = _uniform(*in_shape)
    r = layer("r", "Reshape", ["x"], ["y"], reshape_param=params)
    _, (y,) = _run(tmp_path, [r], {"x": x})
    testing.assert_allclose(y, x.reshape(out_shape))


def test_data_and_input_layers_are_skipped_silently(tmp_path):
    layers = [
        layer("data", "Data", top=["x", "label"]),
        layer("input", "Input", top=["x"], input_param={"shape": [{"dim": [1, 3]}]}),
        layer("r", "ReLU", ["x"], ["y"]),
    ]
    func, (y,) = _run(tmp_path, layers, {"x": -numpy.ones((1, 3), numpy.float32)})
    assert [name for name, _, _ in func.layers] == ["r"]
    testing.assert_allclose(y, numpy.zeros((1, 3)))
