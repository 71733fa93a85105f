"""chainer.exporters.caffe.export: files written, layers and blobs, round trips through
CaffeFunction, and what it refuses."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing

pytest.importorskip("google.protobuf", reason="Caffe support needs the protobuf package")

from google.protobuf import text_format

from chainer.exporters import caffe
from chainer.links.caffe import CaffeFunction
from chainer.links.caffe.protobuf3 import caffe_pb2


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(12, 7)
            self.l2 = L.Linear(7, 3)

    def forward(self, x):
        return F.softmax(self.l2(F.relu(self.l1(x))))


class ConvNet(chainer.Chain):
    """Every exportable function once: two branches concatenated, then a classifier."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 3, pad=1)
            self.grouped = L.Convolution2D(4, 4, (3, 1), (1, 2), (1, 0), groups=2, nobias=True)
            self.dilated = L.Convolution2D(4, 4, 3, pad=2, dilate=2)
            self.bn = L.BatchNormalization(4)
            self.up = L.Deconvolution2D(8, 4, 2, stride=2, groups=2)
            self.fc = L.Linear(None, 5)
        self.bn.avg_mean[...] = _uniform(4)
        self.bn.avg_var[...] = numpy.random.uniform(0.5, 2, 4)
        self.bn.gamma.array[...] = _uniform(4)
        self.bn.beta.array[...] = _uniform(4)

    def forward(self, x):
        h = F.relu(self.bn(self.conv(x)))
        h = h + F.leaky_relu(self.dilated(h), slope=0.1)
        a = F.max_pooling_2d(F.local_response_normalization(h), 2, stride=2)
        b = F.average_pooling_2d(F.tanh(self.grouped(h)), (2, 1), stride=(2, 1))
        h = F.sigmoid(self.up(F.concat([a, b], axis=1)))
        return self.fc(F.reshape(h, (len(x), -1)))


def _export(tmp_path, model, x, **options):
    caffe.export(model, [x], str(tmp_path), **options)
    return tmp_path / "chainer_model.prototxt", tmp_path / "chainer_model.caffemodel"


def _round_trip(tmp_path, model, x):
    with chainer.using_config("train", False):
        expected = model(x).array
    _, caffemodel = _export(tmp_path, model, x)
    func = CaffeFunction(str(caffemodel))
    with chainer.using_config("train", False):
        (y,) = func(inputs={"data": x}, outputs=[func.layers[-1][0]])
    return func, y.array, expected


@pytest.mark.parametrize("model_class", [MLP, ConvNet])
def test_round_trip_reproduces_the_outputs(tmp_path, model_class):
    x = _uniform(2, 3, 4, 4) if model_class is ConvNet else _uniform(2, 12)
    _, y, expected = _round_trip(tmp_path, model_class(), x)
    testing.assert_allclose(y, expected, atol=1e-5, rtol=1e-4)


def test_the_prototxt_describes_the_network_without_weights(tmp_path):
    prototxt, caffemodel = _export(tmp_path, MLP(), _uniform(2, 12), graph_name="mlp")
    net = text_format.Parse(prototxt.read_text(), caffe_pb2.NetParameter())
    assert net.name == "mlp"
    assert [(lay.type, list(lay.bottom)) for lay in net.layer] == [
        ("Input", []),
        ("InnerProduct", ["data"]),
        ("ReLU", [net.layer[1].name]),
        ("InnerProduct", [net.layer[2].name]),
        ("Softmax", [net.layer[3].name]),
    ]
    assert list(net.layer[0].input_param.shape[0].dim) == [2, 12]
    assert net.layer[1].name == "LinearFunction-0-1"
    assert all(list(lay.top) == [lay.name] and not lay.blobs for lay in net.layer)
    weights = caffe_pb2.NetParameter.FromString(caffemodel.read_bytes())
    assert [lay.name for lay in weights.layer] == [lay.name for lay in net.layer[1:]]


def test_weights_are_written_in_caffes_layouts(tmp_path):
    model = ConvNet()
    _, caffemodel = _export(tmp_path, model, _uniform(1, 3, 4, 4))
    net = caffe_pb2.NetParameter.FromString(caffemodel.read_bytes())
    layers = {lay.type: lay for lay in net.layer}

    def blob(layer_type, index):
        b = layers[layer_type].blobs[index]
        return numpy.array(b.data).reshape(tuple(b.shape.dim))

    # Deconvolution weights are (in, out / groups, kh, kw) in both.
    testing.assert_allclose(blob("Deconvolution", 0), model.up.W.array)
    testing.assert_allclose(blob("Deconvolution", 1), model.up.b.array)
    assert layers["Deconvolution"].convolution_param.num_output == 4
    testing.assert_allclose(blob("BatchNorm", 0), model.bn.avg_mean)
    testing.assert_allclose(blob("BatchNorm", 1), model.bn.avg_var)
    testing.assert_allclose(blob("BatchNorm", 2), [1.0])
    testing.assert_allclose(blob("Scale", 0), model.bn.gamma.array)
    testing.assert_allclose(blob("Scale", 1), model.bn.beta.array)
    assert layers["LRN"].lrn_param.alpha == pytest.approx(1e-4 * 5)  # Caffe divides by the window


def test_imported_grouped_convolution_is_block_diagonal(tmp_path):
    model = ConvNet()
    func, _, _ = _round_trip(tmp_path, model, _uniform(1, 3, 4, 4))
    names = [name for name, _, _ in func.layers if name.startswith("Convolution2DFunction")]
    grouped = [getattr(func, n) for n in names if getattr(func, n).W.shape[2:] == (3, 1)][0]
    assert grouped.W.shape == (4, 4, 3, 1)
    testing.assert_allclose(grouped.W.array[:2, :2], model.grouped.W.array[:2])
    testing.assert_allclose(grouped.W.array[2:, 2:], model.grouped.W.array[2:])
    assert not grouped.W.array[:2, 2:].any() and not grouped.W.array[2:, :2].any()


def test_without_params_only_the_prototxt_is_written(tmp_path):
    prototxt, caffemodel = _export(tmp_path, MLP(), _uniform(1, 12), export_params=False)
    assert prototxt.exists() and not caffemodel.exists()


def test_without_a_directory_nothing_is_written_but_the_graph_is_checked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    caffe.export(MLP(), [_uniform(1, 12)])
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(NotImplementedError, match="Cannot convert exp"):
        caffe.export(F.exp, [_uniform(1, 12)])


def test_files_are_replaced_whole_and_failures_leave_them_alone(tmp_path):
    prototxt, caffemodel = _export(tmp_path, MLP(), _uniform(1, 12))
    before = prototxt.read_bytes(), caffemodel.read_bytes()
    with pytest.raises(NotImplementedError):
        caffe.export(lambda x: F.exp(F.relu(x)), [_uniform(1, 12)], str(tmp_path))
    assert (prototxt.read_bytes(), caffemodel.read_bytes()) == before
    _export(tmp_path, MLP(), _uniform(1, 12))
    assert caffemodel.read_bytes() != before[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == [caffemodel.name, prototxt.name]


_ONES = numpy.ones((2, 2, 2, 2), numpy.float32)


def _deconvolution_to_5x5(x):
    return F.deconvolution_2d(x, _ONES, stride=2, outsize=(5, 5))


@pytest.mark.parametrize(
    ("model", "error", "message"),
    [
        (F.exp, NotImplementedError, r"Cannot convert exp \(ranked 0\) to Caffe: convertible"),
        (lambda x: x + numpy.ones_like(x.array), NotImplementedError, "neither the exported"),
        (lambda x: F.softmax(x, axis=2), NotImplementedError, "along axis 1, got 2"),
        (lambda x: F.convolution_2d(x, _ONES, cover_all=True), NotImplementedError, "cover_all"),
        (_deconvolution_to_5x5, NotImplementedError, r"outsize \(5, 5\); Caffe.*\(6, 6\)"),
        (lambda x: x, ValueError, "not computed by any function"),
        (lambda x: x.array, TypeError, "must return a Variable"),
    ],
)  # fmt: skip
def test_what_caffe_cannot_express_is_refused(tmp_path, model, error, message):
    with pytest.raises(error, match=message):
        caffe.export(model, [_uniform(1, 2, 3, 3)], str(tmp_path))


def test_exactly_one_argument_in_a_list(tmp_path):
    x = _uniform(1, 12)
    with pytest.raises(NotImplementedError, match="exactly one input, got 2"):
        caffe.export(MLP(), [x, x])
    with pytest.raises(TypeError, match="list or tuple of one input, got ndarray"):
        caffe.export(MLP(), x)


def test_export_runs_the_model_in_test_mode(tmp_path):
    seen = []

    def model(x):
        seen.append(chainer.config.train)
        return F.relu(x)

    caffe.export(model, (chainer.Variable(_uniform(1, 3)),))
    assert seen == [False]
