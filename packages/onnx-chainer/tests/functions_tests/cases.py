"""One small model per converter: (id, registered function name, build() -> (model, args)).

``MIN_OPSET`` lists cases that need a newer opset than their function's converter declares
(an option that only later ONNX can express).
"""

from __future__ import annotations

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from onnx_chainer.testing import input_generator as gen


def _fn(f):
    return chainer.Sequential(f)


def _x(*shape):
    return gen.increasing(*shape)


def _pos(*shape):
    return gen.positive_increasing(*shape)


class _LinkModel(chainer.Chain):
    def __init__(self, link, call=None):
        super().__init__()
        with self.init_scope():
            self.link = link
        self.call = call

    def forward(self, *xs):
        return self.call(self.link, *xs) if self.call else self.link(*xs)


def _link(link, call=None):
    return _LinkModel(link, call)


def _train_dropout(x):
    # Dropout only runs in train mode; on zeros it gives zeros whatever the mask.
    with chainer.using_config("train", True):
        return F.dropout(x, 0.3)


_RNG = np.random.RandomState(0)
_W = _RNG.uniform(-1, 1, (4, 3, 3, 3)).astype(np.float32)

CASES = [
    # activation
    ("relu", "ReLU", lambda: (_fn(F.relu), _x(2, 5))),
    ("sigmoid", "Sigmoid", lambda: (_fn(F.sigmoid), _x(2, 5))),
    ("tanh", "Tanh", lambda: (_fn(F.tanh), _x(2, 5))),
    ("clipped_relu", "ClippedReLU", lambda: (_fn(lambda x: F.clipped_relu(x, 0.3)), _x(2, 5))),
    ("elu", "ELU", lambda: (_fn(lambda x: F.elu(x, 0.7)), _x(2, 5))),
    ("selu", "ELU", lambda: (_fn(F.selu), _x(2, 5))),
    ("hard_sigmoid", "HardSigmoid", lambda: (_fn(F.hard_sigmoid), _x(2, 5) * 4)),
    ("leaky_relu", "LeakyReLU", lambda: (_fn(lambda x: F.leaky_relu(x, 0.1)), _x(2, 5))),
    ("softmax_axis1", "Softmax", lambda: (_fn(F.softmax), _x(2, 3, 4))),
    ("softmax_axis0", "Softmax", lambda: (_fn(lambda x: F.softmax(x, 0)), _x(2, 3, 4))),
    ("log_softmax", "LogSoftmax", lambda: (_fn(lambda x: F.log_softmax(x, 2)), _x(2, 3, 4))),
    ("prelu", "PReLU", lambda: (_link(L.PReLU((3,), init=0.3)), _x(2, 3, 4))),
    ("softplus", "Softplus", lambda: (_fn(F.softplus), _x(2, 5))),
    ("softplus_beta", "Softplus", lambda: (_fn(lambda x: F.softplus(x, 2.0)), _x(2, 5))),
    ("swish", "Swish", lambda: (_link(L.Swish((3,), beta_init=1.5)), _x(2, 3, 4))),
    ("crelu", "CReLU", lambda: (_fn(F.crelu), _x(2, 3))),
    # math
    ("neg", "Neg", lambda: (_fn(lambda x: -x), _x(2, 3))),
    ("abs", "Absolute", lambda: (_fn(abs), _x(2, 3))),
    ("exp", "Exp", lambda: (_fn(F.exp), _x(2, 3))),
    ("log", "Log", lambda: (_fn(F.log), _pos(2, 3))),
    ("sqrt", "Sqrt", lambda: (_fn(F.sqrt), _pos(2, 3))),
    ("rsqrt", "DivFromConstant", lambda: (_fn(F.rsqrt), _pos(2, 3))),
    ("sin", "Sin", lambda: (_fn(F.sin), _x(2, 3))),
    ("cos", "Cos", lambda: (_fn(F.cos), _x(2, 3))),
    ("tan", "Tan", lambda: (_fn(F.tan), _x(2, 3))),
    ("arcsin", "Arcsin", lambda: (_fn(F.arcsin), _x(2, 3) * 0.9)),
    ("arccos", "Arccos", lambda: (_fn(F.arccos), _x(2, 3) * 0.9)),
    ("arctan", "Arctan", lambda: (_fn(F.arctan), _x(2, 3))),
    ("sinh", "Sinh", lambda: (_fn(F.sinh), _x(2, 3))),
    ("cosh", "Cosh", lambda: (_fn(F.cosh), _x(2, 3))),
    ("arctanh", "Arctanh", lambda: (_fn(F.arctanh), _x(2, 3) * 0.9)),
    ("erf", "Erf", lambda: (_fn(F.erf), _x(2, 3))),
    ("sign", "Sign", lambda: (_fn(lambda x: F.sign(x)), _x(2, 3))),
    ("floor", "Floor", lambda: (_fn(lambda x: F.floor(x)), _x(2, 3) * 3)),
    ("ceil", "Ceil", lambda: (_fn(lambda x: F.ceil(x)), _x(2, 3) * 3)),
    ("square", "Square", lambda: (_fn(F.square), _x(2, 3))),
    ("log1p", "Log1p", lambda: (_fn(F.log1p), _pos(2, 3))),
    ("expm1", "Expm1", lambda: (_fn(F.expm1), _x(2, 3))),
    ("log10", "Log10", lambda: (_fn(F.log10), _pos(2, 3))),
    ("log2", "Log2", lambda: (_fn(F.log2), _pos(2, 3))),
    ("add", "Add", lambda: (_fn(lambda a, b: a + b), (_x(2, 3), _pos(2, 3)))),
    ("add_broadcast", "Add", lambda: (_fn(lambda a, b: a + b), (_x(2, 3), _pos(3)))),
    ("sub", "Sub", lambda: (_fn(lambda a, b: a - b), (_x(2, 3), _pos(2, 3)))),
    ("mul", "Mul", lambda: (_fn(lambda a, b: a * b), (_x(2, 3), _pos(2, 3)))),
    ("div", "Div", lambda: (_fn(lambda a, b: a / b), (_x(2, 3), _pos(2, 3)))),
    ("pow_var_var", "PowVarVar", lambda: (_fn(lambda a, b: a**b), (_pos(2, 3), _x(2, 3)))),
    ("add_constant", "AddConstant", lambda: (_fn(lambda x: x + 2), _x(2, 3))),
    ("sub_from_constant", "SubFromConstant", lambda: (_fn(lambda x: 2 - x), _x(2, 3))),
    ("mul_constant", "MulConstant", lambda: (_fn(lambda x: x * 3), _x(2, 3))),
    ("div_from_constant", "DivFromConstant", lambda: (_fn(lambda x: 2 / x), _pos(2, 3))),
    ("pow_var_const", "PowVarConst", lambda: (_fn(lambda x: x**2.5), _pos(2, 3))),
    ("pow_const_var", "PowConstVar", lambda: (_fn(lambda x: 2.5**x), _x(2, 3))),
    ("matmul", "MatMul", lambda: (_fn(F.matmul), (_x(2, 3), _x(3, 4)))),
    (
        "matmul_trans",
        "MatMul",
        lambda: (_fn(lambda a, b: F.matmul(a, b, True, True)), (_x(2, 3, 2), _x(2, 4, 3))),
    ),
    ("maximum", "Maximum", lambda: (_fn(F.maximum), (_x(2, 3), _x(2, 3)[::-1].copy()))),
    ("minimum", "Minimum", lambda: (_fn(F.minimum), (_x(2, 3), _x(2, 3)[::-1].copy()))),
    ("clip", "Clip", lambda: (_fn(lambda x: F.clip(x, -0.3, 0.5)), _x(2, 5))),
    ("sum", "Sum", lambda: (_fn(F.sum), _x(2, 3, 4))),
    (
        "sum_axis_keep",
        "Sum",
        lambda: (_fn(lambda x: F.sum(x, (0, 2), keepdims=True)), _x(2, 3, 4)),
    ),
    ("mean", "Sum", lambda: (_fn(lambda x: F.mean(x, 1)), _x(2, 3, 4))),
    ("average", "Sum", lambda: (_fn(lambda x: F.average(x, 1)), _x(2, 3, 4))),
    ("max", "Max", lambda: (_fn(lambda x: F.max(x, 1)), _x(2, 3, 4))),
    ("min", "Min", lambda: (_fn(lambda x: F.min(x, (0, 2), keepdims=True)), _x(2, 3, 4))),
    ("prod", "Prod", lambda: (_fn(lambda x: F.prod(x, 1)), _x(2, 3, 4))),
    ("logsumexp", "LogSumExp", lambda: (_fn(lambda x: F.logsumexp(x, 1)), _x(2, 3, 4))),
    ("argmax", "ArgMax", lambda: (_fn(lambda x: F.argmax(x, 1)), _RNG.rand(2, 3).astype("f"))),
    ("argmin_flat", "ArgMin", lambda: (_fn(F.argmin), _RNG.rand(2, 3).astype("f"))),
    (
        "linear_interpolate",
        "LinearInterpolate",
        lambda: (_fn(F.linear_interpolate), (_pos(2, 3) / 2, _x(2, 3), _pos(2, 3))),
    ),
    ("broadcast_to", "BroadcastTo", lambda: (_fn(lambda x: F.broadcast_to(x, (2, 3))), _x(3))),
    ("broadcast", "Broadcast", lambda: (_fn(lambda a, b: F.broadcast(a, b)), (_x(3), _x(2, 1)))),
    ("cumsum", "Cumsum", lambda: (_fn(lambda x: F.cumsum(x, 1)), _x(2, 3))),
    (
        "einsum",
        "EinSum",
        lambda: (_fn(lambda a, b: F.einsum("ij,jk->ki", a, b)), (_x(2, 3), _x(3, 4))),
    ),
    ("fmod", "Fmod", lambda: (_fn(F.fmod), (_x(2, 3) * 5, _pos(2, 3) + 1))),
    (
        "batch_l2_norm_squared",
        "BatchL2NormSquared",
        lambda: (_fn(F.batch_l2_norm_squared), _x(2, 3, 2)),
    ),
    # array
    ("cast", "Cast", lambda: (_fn(lambda x: F.cast(x, np.float64)), _x(2, 3))),
    ("copy", "Copy", lambda: (_fn(lambda x: F.copy(x, -1)), _x(2, 3))),
    ("identity", "Identity", lambda: (_fn(F.identity), _x(2, 3))),
    ("concat", "Concat", lambda: (_fn(lambda a, b: F.concat((a, b), -1)), (_x(2, 3), _x(2, 2)))),
    ("hstack", "Concat", lambda: (_fn(lambda a, b: F.hstack((a, b))), (_x(2, 3), _x(2, 2)))),
    ("depth2space", "Depth2Space", lambda: (_fn(lambda x: F.depth2space(x, 2)), _x(1, 8, 2, 3))),
    ("space2depth", "Space2Depth", lambda: (_fn(lambda x: F.space2depth(x, 2)), _x(1, 2, 4, 6))),
    ("reshape", "Reshape", lambda: (_fn(lambda x: F.reshape(x, (3, -1))), _x(2, 3, 2))),
    ("expand_dims", "Reshape", lambda: (_fn(lambda x: F.expand_dims(x, 1)), _x(2, 3))),
    ("squeeze", "Reshape", lambda: (_fn(F.squeeze), _x(2, 1, 3))),
    ("flatten", "Reshape", lambda: (_fn(F.flatten), _x(2, 3))),
    ("transpose", "Transpose", lambda: (_fn(lambda x: F.transpose(x, (1, 2, 0))), _x(2, 3, 4))),
    ("swapaxes", "Transpose", lambda: (_fn(lambda x: F.swapaxes(x, 0, 2)), _x(2, 3, 4))),
    ("tile", "Tile", lambda: (_fn(lambda x: F.tile(x, (2, 1, 2))), _x(2, 3))),
    ("repeat", "Repeat", lambda: (_fn(lambda x: F.repeat(x, 2, 1)), _x(2, 3))),
    ("repeat_uneven", "Repeat", lambda: (_fn(lambda x: F.repeat(x, (1, 0, 2), 1)), _x(2, 3))),
    (
        "pad_constant",
        "Pad",
        lambda: (
            _fn(lambda x: F.pad(x, ((0, 0), (1, 2)), "constant", constant_values=-1)),
            _x(2, 3),
        ),
    ),
    (
        "pad_reflect",
        "Pad",
        lambda: (
            _fn(lambda x: F.pad(x, ((0, 0), (0, 0), (1, 1), (2, 2)), "reflect")),
            _x(1, 1, 3, 4),
        ),
    ),
    ("pad_edge", "Pad", lambda: (_fn(lambda x: F.pad(x, 1, "edge")), _x(2, 3))),
    ("split_axis", "SplitAxis", lambda: (_fn(lambda x: F.split_axis(x, 3, 1)), _x(2, 6))),
    (
        "split_axis_indices",
        "SplitAxis",
        lambda: (_fn(lambda x: F.split_axis(x, [1, 4], 1)), _x(2, 6)),
    ),
    ("separate", "Separate", lambda: (_fn(lambda x: F.separate(x, 1)), _x(2, 3))),
    ("stack", "Stack", lambda: (_fn(lambda a, b: F.stack((a, b), 1)), (_x(2, 3), _x(2, 3)))),
    ("where", "Where", lambda: (_fn(F.where), (_x(2, 3) > 0, _x(2, 3), _pos(2, 3)))),
    ("flip", "Flip", lambda: (_fn(lambda x: F.flip(x, 1)), _x(2, 3))),
    (
        "permutate",
        "Permutate",
        lambda: (_fn(F.permutate), (_x(3, 2), np.array([2, 0, 1], np.int32))),
    ),
    (
        "select_item",
        "SelectItem",
        lambda: (_fn(F.select_item), (_x(3, 4), np.array([3, 0, 1], np.int32))),
    ),
    (
        "transpose_sequence",
        "TransposeSequence",
        lambda: (_fn(lambda a, b: F.transpose_sequence([a, b])), (_x(3, 2), _x(2, 2))),
    ),
    ("get_item_basic", "GetItem", lambda: (_fn(lambda x: x[1:, None, ..., -1]), _x(3, 4, 5))),
    ("get_item_int", "GetItem", lambda: (_fn(lambda x: x[0]), _x(3, 4))),
    ("get_item_step", "GetItem", lambda: (_fn(lambda x: x[:, ::-2]), _x(3, 5))),
    ("get_item_gather", "GetItem", lambda: (_fn(lambda x: x[:, [2, 0, 2]]), _x(3, 4))),
    ("get_item_gathernd", "GetItem", lambda: (_fn(lambda x: x[[0, 2], [1, 3]]), _x(3, 4, 2))),
    (
        "resize_images",
        "ResizeImages",
        lambda: (_fn(lambda x: F.resize_images(x, (5, 7))), _x(1, 2, 3, 4)),
    ),
    # connection
    ("linear", "LinearFunction", lambda: (_link(L.Linear(4, 3)), _x(2, 4))),
    ("linear_nobias", "LinearFunction", lambda: (_link(L.Linear(4, 3, nobias=True)), _x(2, 4))),
    ("linear_nd_input", "LinearFunction", lambda: (_link(L.Linear(None, 3)), _x(2, 2, 3))),
    (
        "convolution_2d",
        "Convolution2DFunction",
        lambda: (_link(L.Convolution2D(3, 4, 3, 2, 1)), _x(1, 3, 7, 6)),
    ),
    (
        "convolution_2d_cover_all",
        "Convolution2DFunction",
        lambda: (_fn(lambda x: F.convolution_2d(x, _W, stride=2, cover_all=True)), _x(1, 3, 6, 6)),
    ),
    (
        "convolution_2d_groups",
        "Convolution2DFunction",
        lambda: (_link(L.Convolution2D(4, 6, 3, groups=2)), _x(1, 4, 5, 5)),
    ),
    (
        "dilated_convolution_2d",
        "DilatedConvolution2DFunction",
        lambda: (_link(L.DilatedConvolution2D(3, 2, 3, pad=2, dilate=2)), _x(1, 3, 6, 6)),
    ),
    (
        "convolution_nd",
        "ConvolutionND",
        lambda: (_link(L.ConvolutionND(3, 2, 3, 2)), _x(1, 2, 4, 4, 3)),
    ),
    (
        "deconvolution_2d",
        "Deconvolution2DFunction",
        lambda: (_link(L.Deconvolution2D(3, 2, 4, 2, 1)), _x(1, 3, 3, 4)),
    ),
    (
        "deconvolution_2d_outsize",
        "Deconvolution2DFunction",
        lambda: (_link(L.Deconvolution2D(3, 2, 3, 2, 1, outsize=(6, 8))), _x(1, 3, 3, 4)),
    ),
    (
        "deconvolution_nd",
        "DeconvolutionND",
        lambda: (_link(L.DeconvolutionND(2, 3, 2, 3, 2)), _x(1, 3, 3, 3)),
    ),
    (
        "embed_id",
        "EmbedIDFunction",
        lambda: (_link(L.EmbedID(5, 3)), np.array([[0, 4], [2, 1]], np.int32)),
    ),
    (
        "embed_id_ignore",
        "EmbedIDFunction",
        lambda: (_link(L.EmbedID(5, 3, ignore_label=-1)), np.array([[0, -1], [2, 1]], np.int32)),
    ),
    # normalization
    (
        "batch_normalization_test",
        "FixedBatchNormalization",
        lambda: (_link(L.BatchNormalization(3)), _x(2, 3, 2, 2)),
    ),
    (
        "fixed_batch_normalization_2d",
        "FixedBatchNormalization",
        lambda: (_link(L.BatchNormalization(3)), _x(4, 3)),
    ),
    (
        "batch_normalization_train",
        "BatchNormalization",
        lambda: (
            _link(
                L.BatchNormalization(3), lambda bn, x: F.batch_normalization(x, bn.gamma, bn.beta)
            ),
            _x(2, 3, 2, 2),
        ),
    ),
    (
        "layer_normalization",
        "BatchNormalization",
        lambda: (_link(L.LayerNormalization(6)), _x(2, 6)),
    ),
    (
        "group_normalization",
        "BatchNormalization",
        lambda: (_link(L.GroupNormalization(2, 4)), _x(2, 4, 3, 3)),
    ),
    (
        "local_response_normalization",
        "LocalResponseNormalization",
        lambda: (_fn(F.local_response_normalization), _x(1, 6, 2, 2) * 3),
    ),
    ("normalize", "NormalizeL2", lambda: (_fn(F.normalize), _x(3, 4))),
    # pooling
    (
        "max_pooling_2d",
        "MaxPoolingND",
        lambda: (_fn(lambda x: F.max_pooling_2d(x, 3, 2, 1, cover_all=False)), _x(1, 2, 7, 6)),
    ),
    (
        "max_pooling_2d_cover_all",
        "MaxPoolingND",
        lambda: (_fn(lambda x: F.max_pooling_2d(x, 3, 2, 1)), _x(1, 2, 6, 6)),
    ),
    (
        "max_pooling_nd",
        "MaxPoolingND",
        lambda: (_fn(lambda x: F.max_pooling_nd(x, 2, cover_all=False)), _x(1, 2, 4, 4, 4)),
    ),
    (
        "average_pooling_2d",
        "AveragePooling2D",
        lambda: (_fn(lambda x: F.average_pooling_2d(x, 3, 2, 1)), _x(1, 2, 7, 6)),
    ),
    (
        "average_pooling_nd",
        "AveragePoolingND",
        lambda: (_fn(lambda x: F.average_pooling_nd(x, 2, 1, 1)), _x(1, 2, 3, 3, 3)),
    ),
    (
        "average_pooling_nd_ignore_pad",
        "AveragePoolingND",
        lambda: (_fn(lambda x: F.average_pooling_nd(x, 2, 1, 1, pad_value=None)), _x(1, 2, 3, 3)),
    ),
    (
        "unpooling_2d",
        "Unpooling2D",
        lambda: (_fn(lambda x: F.unpooling_2d(x, 2, cover_all=False)), _x(1, 2, 2, 3)),
    ),
    (
        "unpooling_2d_cover_all",
        "Unpooling2D",
        lambda: (_fn(lambda x: F.unpooling_2d(x, 3)), _x(1, 2, 2, 3)),
    ),
    (
        "unpooling_nd",
        "UnpoolingND",
        lambda: (_fn(lambda x: F.unpooling_nd(x, 2, cover_all=False)), _x(1, 1, 2, 2, 2)),
    ),
    (
        "roi_pooling_2d",
        "ROIPooling2D",
        lambda: (
            _fn(lambda x, r: F.roi_pooling_2d(x, r, 2, 3, 0.5)),
            (_pos(2, 2, 6, 8), np.array([[0, 1, 1, 6, 6], [1, 2, 0, 9, 7]], np.float32)),
        ),
    ),
    (
        "roi_average_align_2d",
        "ROIAverageAlign2D",
        lambda: (
            _fn(lambda x, r, i: F.roi_average_align_2d(x, r, i, (2, 3), 0.5, 2)),
            (
                _pos(2, 2, 6, 8),
                np.array([[1, 1, 6, 6], [0, 2, 7, 9]], np.float32),
                np.array([0, 1], np.int32),
            ),
        ),
    ),
    # loss, noise, rnn
    (
        "softmax_cross_entropy",
        "SoftmaxCrossEntropy",
        lambda: (_fn(F.softmax_cross_entropy), (_x(3, 4), np.array([1, -1, 3], np.int32))),
    ),
    (
        "softmax_cross_entropy_no_reduce",
        "SoftmaxCrossEntropy",
        lambda: (
            _fn(lambda x, t: F.softmax_cross_entropy(x, t, reduce="no")),
            (_x(3, 4), np.array([1, -1, 3], np.int32)),
        ),
    ),
    (
        "mean_squared_error",
        "MeanSquaredError",
        lambda: (_fn(F.mean_squared_error), (_x(2, 3), _pos(2, 3))),
    ),
    (
        "mean_absolute_error",
        "MeanAbsoluteError",
        lambda: (_fn(F.mean_absolute_error), (_x(2, 3), _pos(2, 3))),
    ),
    ("squared_error", "SquaredError", lambda: (_fn(F.squared_error), (_x(2, 3), _pos(2, 3)))),
    ("absolute_error", "AbsoluteError", lambda: (_fn(F.absolute_error), (_x(2, 3), _pos(2, 3)))),
    (
        "sigmoid_cross_entropy",
        "SigmoidCrossEntropy",
        lambda: (
            _fn(F.sigmoid_cross_entropy),
            (_x(3, 4), np.array([[1, 0, -1, 1]] * 3, np.int32)),
        ),
    ),
    (
        "huber_loss",
        "HuberLoss",
        lambda: (_fn(lambda x, t: F.huber_loss(x, t, 0.5)), (_x(3, 4) * 2, _pos(3, 4))),
    ),
    (
        "accuracy",
        "Accuracy",
        lambda: (_fn(F.accuracy), (_RNG.rand(4, 3).astype("f"), np.array([0, 1, 2, 1], np.int32))),
    ),
    ("rrelu", "RReLU", lambda: (_fn(F.rrelu), _x(2, 5))),
    ("erfc", "Erfc", lambda: (_fn(F.erfc), _x(2, 3))),
    (
        "floor_divide",
        "FloorDivide",
        lambda: (_fn(lambda a, b: a // b), (_x(2, 3) * 5, _pos(2, 3))),
    ),
    (
        "tensordot",
        "TensorDot",
        lambda: (_fn(lambda a, b: F.tensordot(a, b, ([1], [0]))), (_x(2, 3, 4), _x(3, 2))),
    ),
    ("sum_to", "SumTo", lambda: (_fn(lambda x: F.sum_to(x, (1, 3))), _x(2, 2, 3))),
    (
        "batch_det",
        "BatchDet",
        lambda: (_fn(F.batch_det), _RNG.rand(2, 3, 3).astype("f") + np.eye(3, dtype="f")),
    ),
    ("hinge_l1", "Hinge", lambda: (_fn(F.hinge), (_x(3, 4), np.array([1, 0, 3], np.int32)))),
    (
        "hinge_l2",
        "Hinge",
        lambda: (
            _fn(lambda x, t: F.hinge(x, t, "L2", "no")),
            (_x(3, 4), np.array([1, 0, 3], np.int32)),
        ),
    ),
    ("ndtr", "Ndtr", lambda: (_fn(F.ndtr), _x(2, 3) * 3)),
    (
        "arctan2",
        "Arctan2",
        lambda: (
            _fn(F.arctan2),
            (np.array([1, -1, 1, -1, 0, 2], "f"), np.array([1, 1, -1, -1, -1, 0], "f")),
        ),
    ),
    ("dropout", "Dropout", lambda: (_fn(_train_dropout), np.zeros((2, 3), np.float32))),
    ("lstm", "LSTM", lambda: (_fn(F.lstm), (_x(2, 3), _x(2, 12)))),
]

MIN_OPSET = {"get_item_step": 10, "flip": 10, "get_item_gathernd": 11, "embed_id_ignore": 9}
#: Cases whose export warns (the converter is exact only for some inputs).
WARNS = {"roi_pooling_2d"}
#: Cases exported approximately (with a warning, not compared) below the given opset.
INEXACT_BELOW = {"resize_images": 11}
#: Cases onnxruntime cannot run in float64: its CPU provider has no double kernel for an op
#: they use (Erf, Elu, Softplus, trigonometric, pooling, OneHot, Resize, LRN, ...).
FLOAT32_ONLY = {
    "arccos",
    "arcsin",
    "arctan",
    "arctan2",
    "arctanh",
    "average_pooling_2d",
    "average_pooling_nd",
    "average_pooling_nd_ignore_pad",
    "batch_det",
    "convolution_2d_cover_all",
    "cosh",
    "elu",
    "erf",
    "erfc",
    "hard_sigmoid",
    "hinge_l1",
    "hinge_l2",
    "leaky_relu",
    "local_response_normalization",
    "ndtr",
    "resize_images",
    "roi_pooling_2d",
    "rrelu",
    "select_item",
    "selu",
    "sigmoid_cross_entropy",
    "sinh",
    "softmax_cross_entropy",
    "softmax_cross_entropy_no_reduce",
    "softplus",
    "softplus_beta",
    "tan",
    "unpooling_2d",
    "unpooling_2d_cover_all",
    "unpooling_nd",
}
