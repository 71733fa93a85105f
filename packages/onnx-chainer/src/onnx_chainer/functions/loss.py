"""Converters of chainer.functions.loss."""

from __future__ import annotations

import numpy as np

from onnx_chainer import mapping
from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import function_label, support
from onnx_chainer.onnx_helper import GraphBuilder


def _reduce_masked_loss(gb, params, loss: str, weight: str) -> None:
    """Chainer's reductions of a per-element loss whose ignored labels have weight 0."""
    func, out = params.func, params.output_names[0]
    if func.reduce == "no":
        forms.emit(gb, "Identity", [loss], out)
        return
    total = forms.reduce(gb, params, "ReduceSum", loss, None, False)
    if func.normalize:
        count = forms.reduce(gb, params, "ReduceSum", weight, None, False)
        count = gb.op("Max", [count, forms.scalar(params, 1, "one")])
    else:
        count = forms.scalar(params, forms.input_shape(params)[0], "batch")
    forms.emit(gb, "Div", [total, count], out)


@support("SoftmaxCrossEntropy", min_opset=9)
def convert_softmax_cross_entropy(params):
    func = params.func
    x, t = params.input_names
    shape = forms.input_shape(params)
    if (
        func.class_weight is not None
        or func.soft_target_loss != "cross-entropy"
        or (forms.input_dtype(params, 1).kind == "f")
    ):
        raise ValueError(
            "SoftmaxCrossEntropy with class_weight or soft targets has no ONNX form here"
        )
    dtype = forms.input_dtype(params)
    gb = GraphBuilder()
    if len(shape) > 2:  # (N, C, d1, ...): one row of C scores per position
        x = gb.op("Transpose", [x], perm=[0, *range(2, len(shape)), 1])
        x = forms.reshape(gb, params, x, [-1, shape[1]])
        t = forms.reshape(gb, params, t, [-1])
    log_p = forms.softmax_like(gb, params, "LogSoftmax", x, 1, 2)
    label = forms.scalar(params, func.ignore_label, "ignore_label", 1)
    kept = gb.op("Not", [gb.op("Equal", [t, label])])
    safe_t = gb.op("Where", [kept, t, forms.scalar(params, 0, "zero", 1)])
    onehot = forms.one_hot(gb, params, safe_t, shape[1], dtype)
    picked = forms.reduce(gb, params, "ReduceSum", gb.op("Mul", [onehot, log_p]), [1], False)
    weight = gb.op("Cast", [kept], to=mapping.onnx_type(dtype))
    loss = gb.op("Mul", [gb.op("Neg", [picked]), weight])
    if len(shape) > 2 and func.reduce == "no":
        loss = forms.reshape(gb, params, loss, forms.input_shape(params, 1))
    _reduce_masked_loss(gb, params, loss, weight)
    return gb.nodes()


@support("MeanSquaredError", "MeanAbsoluteError", "SquaredError", "AbsoluteError")
def convert_error(params):
    """Squared or absolute difference, averaged for the ``Mean*`` functions."""
    label = function_label(params.func)
    a, b = params.input_names
    gb = GraphBuilder()
    diff = gb.op("Sub", [a, b])
    mean = label.startswith("Mean")
    out = None if mean else params.output_names[0]
    if label.endswith("SquaredError"):
        error = forms.emit(gb, "Mul", [diff, diff], out)
    else:
        error = forms.emit(gb, "Abs", [diff], out)
    if mean:
        forms.reduce(gb, params, "ReduceMean", error, None, False, params.output_names[0])
    return gb.nodes()


@support("SigmoidCrossEntropy", min_opset=9)
def convert_sigmoid_cross_entropy(params):
    """``softplus(x) - x * t`` over the labels that are not ``-1``, reduced as Chainer does."""
    x, t = params.input_names
    dtype = forms.input_dtype(params)
    gb = GraphBuilder()
    t_float = gb.op("Cast", [t], to=mapping.onnx_type(dtype))
    kept = gb.op("Not", [gb.op("Equal", [t, forms.scalar(params, -1, "ignore", 1)])])
    weight = gb.op("Cast", [kept], to=mapping.onnx_type(dtype))
    loss = gb.op("Sub", [gb.op("Softplus", [x]), gb.op("Mul", [x, t_float])])
    _reduce_masked_loss(gb, params, gb.op("Mul", [loss, weight]), weight)
    return gb.nodes()


@support("HuberLoss", min_opset=9)
def convert_huber_loss(params):
    func = params.func
    x, t = params.input_names
    gb = GraphBuilder()
    diff = gb.op("Sub", [x, t])
    size = gb.op("Abs", [diff])
    delta = forms.scalar(params, func.delta, "delta")
    quadratic = gb.op("Mul", [gb.op("Mul", [diff, diff]), forms.scalar(params, 0.5, "half")])
    linear = gb.op(
        "Mul", [delta, gb.op("Sub", [size, forms.scalar(params, 0.5 * func.delta, "half_delta")])]
    )
    small = gb.op("Not", [gb.op("Greater", [size, delta])])
    out = params.output_names[0]
    if func.reduce == "no":
        forms.emit(gb, "Where", [small, quadratic, linear], out)
        return gb.nodes()
    loss = gb.op("Where", [small, quadratic, linear])
    forms.reduce(gb, params, "ReduceSum", loss, [1], False, out)
    return gb.nodes()


@support("Accuracy")
def convert_accuracy(params):
    if params.func.ignore_label is not None:
        raise ValueError("Accuracy with ignore_label is not exported")
    y, t = params.input_names
    dtype = forms.input_dtype(params)
    gb = GraphBuilder()
    predicted = gb.op("ArgMax", [y], axis=1, keepdims=0)
    label = gb.op("Cast", [t], to=mapping.onnx_type(np.int64))
    hit = gb.op("Cast", [gb.op("Equal", [predicted, label])], to=mapping.onnx_type(dtype))
    forms.reduce(gb, params, "ReduceMean", hit, None, False, params.output_names[0])
    return gb.nodes()


@support("Hinge", min_opset=9)
def convert_hinge(params):
    """``max(0, 1 - x)`` for the true class, ``max(0, 1 + x)`` for the others (L1 or squared)."""
    func = params.func
    x, t = params.input_names
    n, classes = forms.input_shape(params)
    dtype = forms.input_dtype(params)
    gb = GraphBuilder()
    onehot = forms.one_hot(gb, params, t, classes, dtype)
    sign = gb.op("Sub", [forms.scalar(params, 1, "one"), gb.op("Add", [onehot, onehot])])
    margin = gb.op(
        "Relu", [gb.op("Add", [forms.scalar(params, 1, "one_"), gb.op("Mul", [x, sign])])]
    )
    out = params.output_names[0]
    if func.norm == "L2":
        margin = gb.op("Mul", [margin, margin])
    if func.reduce == "no":
        forms.emit(gb, "Identity", [margin], out)
        return gb.nodes()
    total = forms.reduce(gb, params, "ReduceSum", margin, None, False)
    forms.emit(gb, "Div", [total, forms.scalar(params, n, "batch")], out)
    return gb.nodes()


def _batch_mean_or_each(gb, params, loss: str) -> None:
    """``reduce='mean'``: the sum over the batch divided by its size; ``'no'``: as is."""
    out = params.output_names[0]
    if params.func.reduce != "mean":
        forms.emit(gb, "Identity", [loss], out)
        return
    total = forms.reduce(gb, params, "ReduceSum", loss, None, False)
    forms.emit(gb, "Div", [total, forms.scalar(params, forms.input_shape(params)[0], "n")], out)


@support("Contrastive")
def convert_contrastive(params):
    """``(y d^2 + (1 - y) max(margin - d, 0)^2) / 2`` with ``d = |x0 - x1|`` over axis 1."""
    x0, x1, y = params.input_names
    dtype = forms.input_dtype(params)
    gb = GraphBuilder()
    diff = gb.op("Sub", [x0, x1])
    dist_sq = forms.reduce(gb, params, "ReduceSum", gb.op("Mul", [diff, diff]), [1], False)
    margin = forms.scalar(params, params.func.margin, "margin")
    gap = gb.op("Relu", [gb.op("Sub", [margin, gb.op("Sqrt", [dist_sq])])])
    similar = gb.op("Cast", [y], to=mapping.onnx_type(dtype))
    dissimilar = gb.op("Sub", [forms.scalar(params, 1, "one"), similar])
    both = gb.op(
        "Add",
        [gb.op("Mul", [similar, dist_sq]), gb.op("Mul", [dissimilar, gb.op("Mul", [gap, gap])])],
    )
    loss = gb.op("Mul", [both, forms.scalar(params, 0.5, "half")])
    _batch_mean_or_each(gb, params, loss)
    return gb.nodes()


@support("Triplet")
def convert_triplet(params):
    """``max(|a - p|^2 - |a - n|^2 + margin, 0)`` over axis 1."""
    anchor, positive, negative = params.input_names
    gb = GraphBuilder()
    to_pos = gb.op("Sub", [anchor, positive])
    to_neg = gb.op("Sub", [anchor, negative])
    gap = gb.op("Sub", [gb.op("Mul", [to_pos, to_pos]), gb.op("Mul", [to_neg, to_neg])])
    gap = forms.reduce(gb, params, "ReduceSum", gap, [1], False)
    loss = gb.op("Relu", [gb.op("Add", [gap, forms.scalar(params, params.func.margin, "m")])])
    _batch_mean_or_each(gb, params, loss)
    return gb.nodes()


def _covariance(gb, params, left: str, right: str, mask=None) -> None:
    """``centred(left)^T centred(right) / N`` (times ``mask``), reduced as Chainer does."""
    n = max(forms.input_shape(params)[0], 1)

    def centred(x):
        return gb.op("Sub", [x, forms.reduce(gb, params, "ReduceMean", x, [0], True)])

    left_c = centred(left)
    right_c = left_c if right == left else centred(right)
    covariance = gb.op("MatMul", [gb.op("Transpose", [left_c], perm=[1, 0]), right_c])
    if mask is not None:
        covariance = gb.op("Mul", [covariance, mask])
    out = params.output_names[0]
    scale = forms.scalar(params, 1 / n, "inverse_n")
    if params.func.reduce != "half_squared_sum":
        forms.emit(gb, "Mul", [covariance, scale], out)
        return
    covariance = gb.op("Mul", [covariance, scale])
    total = forms.reduce(
        gb, params, "ReduceSum", gb.op("Mul", [covariance, covariance]), None, False
    )
    forms.emit(gb, "Mul", [total, forms.scalar(params, 0.5, "half")], out)


@support("CrossCovariance")
def convert_cross_covariance(params):
    gb = GraphBuilder()
    _covariance(gb, params, *params.input_names)
    return gb.nodes()


@support("DeCov")
def convert_decov(params):
    """The covariance of ``h`` with its diagonal zeroed."""
    units = forms.input_shape(params)[1]
    mask = forms.const(params, 1 - np.eye(units), "off_diagonal", forms.input_dtype(params))
    gb = GraphBuilder()
    h = params.input_names[0]
    _covariance(gb, params, h, h, mask)
    return gb.nodes()


@support("BinaryAccuracy")
def convert_binary_accuracy(params):
    """Matches of ``y >= 0`` with ``t`` over the labels that are not ``-1``."""
    y, t = params.input_names
    dtype, label_type = forms.input_dtype(params), forms.input_dtype(params, 1)
    gb = GraphBuilder()
    decision = gb.op("Not", [gb.op("Less", [y, forms.scalar(params, 0, "zero")])])
    decision = gb.op("Cast", [decision], to=mapping.onnx_type(label_type))
    correct = gb.op("Cast", [gb.op("Equal", [decision, t])], to=mapping.onnx_type(dtype))
    ignore = forms.scalar(params, params.func.ignore_label, "ignore_label", 1)
    float32 = mapping.onnx_type(np.float32)
    counted = gb.op("Cast", [gb.op("Not", [gb.op("Equal", [t, ignore])])], to=float32)
    total = forms.reduce(gb, params, "ReduceSum", counted, None, False)
    total = gb.op("Max", [total, forms.const(params, 1, "one", np.float32)])
    total = gb.op("Cast", [total], to=mapping.onnx_type(dtype))
    forms.emit(
        gb,
        "Div",
        [forms.reduce(gb, params, "ReduceSum", correct, None, False), total],
        params.output_names[0],
    )
    return gb.nodes()


# Equal takes floats from opset 11.
@support("R2_score", min_opset=11)
def convert_r2_score(params):
    """``1 - ss_res / ss_tot`` per output (0 where the target is constant), maybe averaged."""
    pred, true = params.input_names
    gb = GraphBuilder()

    def sum_sq(x):
        return forms.reduce(gb, params, "ReduceSum", gb.op("Mul", [x, x]), [0], False)

    ss_res = sum_sq(gb.op("Sub", [pred, true]))
    ss_tot = sum_sq(gb.op("Sub", [true, forms.reduce(gb, params, "ReduceMean", true, [0], True)]))
    zero, one = forms.scalar(params, 0, "zero"), forms.scalar(params, 1, "one")
    constant = gb.op("Equal", [ss_tot, zero])
    ratio = gb.op("Div", [ss_res, gb.op("Where", [constant, one, ss_tot])])
    score = gb.op("Where", [constant, zero, gb.op("Sub", [one, ratio])])
    out = params.output_names[0]
    if params.func.multioutput == "uniform_average":
        forms.reduce(gb, params, "ReduceMean", score, None, False, out)
    else:
        forms.emit(gb, "Identity", [score], out)
    return gb.nodes()


@support("ClassificationSummary", min_opset=9)
def convert_classification_summary(params):
    """Per-class precision, recall, F-beta and support from one-hot counts over the batch.

    The number of classes must be given (``label_num``): otherwise Chainer takes it from the
    labels, and the output shape would depend on the data.
    """
    func = params.func
    labels = func.label_num
    if labels is None:
        raise ValueError(
            "ClassificationSummary without label_num counts the classes found in the labels "
            "(a data-dependent output shape, which ONNX cannot express); pass label_num"
        )
    y, t = params.input_names
    dtype = forms.input_dtype(params)
    int64 = mapping.onnx_type(np.int64)
    gb = GraphBuilder()
    predicted = forms.reshape(gb, params, gb.op("ArgMax", [y], axis=1, keepdims=0), [-1])
    true = gb.op("Cast", [forms.reshape(gb, params, t, [-1])], to=int64)
    ignore = forms.const(params, func.ignore_label, "ignore_label", np.int64)
    kept = gb.op("Not", [gb.op("Equal", [true, ignore])])
    outside = forms.const(params, labels, "no_class", np.int64)  # one-hot row of zeros

    def counts(classes):
        onehot = forms.one_hot(gb, params, gb.op("Where", [kept, classes, outside]), labels, dtype)
        return onehot, forms.reduce(gb, params, "ReduceSum", onehot, [0], False)

    true_onehot, support = counts(true)
    predicted_onehot, relevant = counts(predicted)
    hits = gb.op("Mul", [true_onehot, predicted_onehot])
    true_positive = forms.reduce(gb, params, "ReduceSum", hits, [0], False)
    precision_name, recall_name, fbeta_name, support_name = params.output_names
    precision = forms.emit(gb, "Div", [true_positive, relevant], precision_name)
    recall = forms.emit(gb, "Div", [true_positive, support], recall_name)
    beta2 = func.beta * func.beta
    numerator = gb.op(
        "Mul", [gb.op("Mul", [precision, recall]), forms.scalar(params, 1 + beta2, "b")]
    )
    denominator = gb.op(
        "Add", [gb.op("Mul", [precision, forms.scalar(params, beta2, "b2")]), recall]
    )
    forms.emit(gb, "Div", [numerator, denominator], fbeta_name)
    support_type = mapping.onnx_type(func.outputs[3]().dtype)
    forms.emit(gb, "Cast", [support], support_name, to=support_type)
    return gb.nodes()
