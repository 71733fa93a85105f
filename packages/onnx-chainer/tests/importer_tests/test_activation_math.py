"""Single-node importers of activations and arithmetic against onnxruntime, with gradients."""

from __future__ import annotations

import numpy as np
import onnx_import_node_support as support
import pytest

C, rand, ints = support.NodeCase, support.rand, support.ints

X = rand(2, 3, 4)
POS = rand(2, 3, 4, low=0.2, high=2.0)
UNIT = rand(2, 3, low=-0.9, high=0.9)

ACTIVATIONS = [
    C("relu", "Relu", 13, [("x", X)], grad=(0,)),
    C("leaky_relu", "LeakyRelu", 7, [("x", X)], grad=(0,)),
    C("leaky_relu_alpha", "LeakyRelu", 16, [("x", X)], {"alpha": 0.3}, grad=(0,)),
    C("sigmoid", "Sigmoid", 13, [("x", X)], grad=(0,)),
    C("tanh", "Tanh", 13, [("x", X)], grad=(0,)),
    C("elu", "Elu", 7, [("x", X)], {"alpha": 0.7}, grad=(0,)),
    C("selu", "Selu", 7, [("x", X)], grad=(0,)),
    C("selu_attrs", "Selu", 7, [("x", X)], {"alpha": 1.2, "gamma": 0.8}, grad=(0,)),
    C("softplus", "Softplus", 7, [("x", X)], grad=(0,)),
    C("softsign", "Softsign", 7, [("x", X)], grad=(0,)),
    C("hard_sigmoid", "HardSigmoid", 7, [("x", X * 4)], {"alpha": 0.3, "beta": 0.4}),
    C("hard_swish", "HardSwish", 14, [("x", X * 4)]),
    C("prelu_channel", "PRelu", 9, [("x", X), ("i:slope", rand(3, 1, seed=1))], grad=(0,)),
    C("prelu_scalar", "PRelu", 7, [("x", X), ("i:slope", np.array([0.2], np.float32))]),
    C("gelu", "Gelu", 20, [("x", X)], grad=(0,)),
    C("gelu_tanh", "Gelu", 20, [("x", X)], {"approximate": "tanh"}, grad=(0,)),
    C("swish", "Swish", 24, [("x", X)], {"alpha": 1.5}, grad=(0,)),
    C("mish", "Mish", 18, [("x", X)], grad=(0,)),
    C("celu", "Celu", 12, [("x", X * 3)], {"alpha": 0.7}, grad=(0,)),
    C("thresholded_relu", "ThresholdedRelu", 10, [("x", X)], {"alpha": 0.2}, grad=(0,)),
    C("shrink", "Shrink", 9, [("x", X * 2)], {"lambd": 0.4, "bias": 0.1}, grad=(0,)),
    C("hardmax_coerced", "Hardmax", 11, [("x", X)]),
    C("hardmax", "Hardmax", 13, [("x", X)], {"axis": 1}),
    C("softmax_coerced", "Softmax", 11, [("x", X)], grad=(0,)),
    C("softmax_axis0_old", "Softmax", 7, [("x", X)], {"axis": 0}, grad=(0,)),
    C("softmax_last", "Softmax", 13, [("x", X)], grad=(0,)),
    C("softmax_axis1", "Softmax", 13, [("x", X)], {"axis": 1}, grad=(0,)),
    C("log_softmax_coerced", "LogSoftmax", 11, [("x", X)], {"axis": 2}, grad=(0,)),
    C("log_softmax", "LogSoftmax", 13, [("x", X)], {"axis": -2}, grad=(0,)),
]

_UNARY_INPUTS = {"Log": POS, "Sqrt": POS, "Reciprocal": POS, "Asin": UNIT, "Acos": UNIT}
_UNARY_INPUTS.update({"Atanh": UNIT})
_NOT_DIFFERENTIABLE = {"Floor", "Ceil", "Sign", "Round"}
UNARY = [
    C(
        op.lower(),
        op,
        13,
        [("x", _UNARY_INPUTS.get(op, X))],
        grad=() if op in _NOT_DIFFERENTIABLE else (0,),
    )
    for op in (
        "Abs Neg Exp Log Sqrt Sin Cos Tan Asin Acos Atan Sinh Cosh Atanh Erf Reciprocal "
        "Floor Ceil Sign Round Identity"
    ).split()
] + [
    C("abs_int", "Abs", 13, [("x", ints([[-3, 2], [0, -1]]))]),
    C("neg_int", "Neg", 13, [("x", ints([[-3, 2], [0, -1]], np.int32))]),
]

B = rand(3, 4, low=0.5, high=2.0, seed=2)
BINARY = [
    C("add", "Add", 14, [("a", X), ("b", B)], grad=(0, 1)),
    C("add_bias", "Add", 7, [("a", X), ("i:bias", rand(4, seed=3))], grad=(0,)),
    C("sub", "Sub", 13, [("a", rand(3, 1)), ("b", X)], grad=(0, 1)),
    C("mul", "Mul", 13, [("a", X), ("b", B)], grad=(0, 1)),
    C("div", "Div", 13, [("a", X), ("b", B)], grad=(0, 1)),
    C("div_int_truncates", "Div", 13, [("a", ints([-7, 7, -8, 9])), ("b", ints([2, -2, 3, 3]))]),
    C("pow", "Pow", 13, [("a", POS), ("b", B)], grad=(0, 1)),
    C("pow_scalar", "Pow", 7, [("a", X), ("i:e", np.array([2.0], np.float32))], grad=(0,)),
    C("pow_int_exponent", "Pow", 15, [("a", X), ("i:e", ints([3]))], grad=(0,)),
    C("mod_int", "Mod", 13, [("a", ints([-7, 7, -8, 9])), ("b", ints([2, -3, 3, 4]))]),
    C("fmod", "Mod", 13, [("a", X * 5), ("b", B)], {"fmod": 1}),
    C("fmod_int", "Mod", 10, [("a", ints([-7, 7])), ("b", ints([2, -3]))], {"fmod": 1}),
    C("max3", "Max", 13, [("a", X), ("b", B), ("c", rand(4, seed=4))], grad=(0, 1, 2)),
    C("min2", "Min", 8, [("a", X), ("b", B)], grad=(0, 1)),
    C("max_one", "Max", 7, [("a", X)], grad=(0,)),
    C("sum3", "Sum", 13, [("a", X), ("b", B), ("c", rand(4, seed=4))], grad=(0, 1, 2)),
    C("mean2", "Mean", 13, [("a", X), ("b", B)], grad=(0, 1)),
    C("clip_attrs", "Clip", 7, [("x", X)], {"min": -0.3, "max": 0.5}, grad=(0,)),
    C("clip_min_only", "Clip", 13, [("x", X), ("i:lo", np.array(-0.2, np.float32))], grad=(0,)),
    C(
        "clip_max_only",
        "Clip",
        13,
        [("x", X), ("", None), ("i:hi", np.array(0.4, np.float32))],
        grad=(0,),
    ),
    C(
        "clip_both",
        "Clip",
        12,
        [("x", X), ("i:lo", np.array(-0.2, np.float32)), ("i:hi", np.array(0.4, np.float32))],
    ),
    C("clip_int", "Clip", 13, [("x", ints([-5, 0, 5])), ("i:lo", ints(-1)), ("i:hi", ints(2))]),
]
# Clip's gradient at the bounds is not smooth: its random inputs avoid them (seeded).

MATMUL = [
    C("matmul_2d", "MatMul", 13, [("a", rand(2, 3)), ("b", rand(3, 4, seed=1))], grad=(0, 1)),
    C("matmul_batched", "MatMul", 9, [("a", X), ("i:w", rand(4, 5, seed=1))], grad=(0,)),
    C("matmul_vector", "MatMul", 13, [("a", rand(3)), ("b", rand(3, 4, seed=1))], grad=(0, 1)),
    C("matmul_matrix_vector", "MatMul", 13, [("a", X), ("b", rand(4, seed=1))], grad=(0, 1)),
    C(
        "matmul_broadcast_4d",
        "MatMul",
        13,
        [("a", rand(2, 1, 3, 4)), ("b", rand(1, 3, 4, 2, seed=1))],
        grad=(0, 1),
    ),
    C("cumsum", "CumSum", 11, [("x", X), ("i:axis", ints(1))], grad=(0,)),
    C(
        "cumsum_exclusive_reverse",
        "CumSum",
        14,
        [("x", X), ("i:axis", ints(-1))],
        {"exclusive": 1, "reverse": 1},
        grad=(0,),
    ),
    C("cumsum_reverse", "CumSum", 11, [("x", X), ("i:axis", ints(0))], {"reverse": 1}),
    C(
        "einsum",
        "Einsum",
        12,
        [("a", rand(2, 3)), ("b", rand(3, 4, seed=1))],
        {"equation": "ij,jk->ki"},
        grad=(0, 1),
    ),
    C("einsum_trace_like", "Einsum", 12, [("a", X)], {"equation": "bij -> bj"}, grad=(0,)),
    C("dft_real_axis1", "DFT", 17, [("x", rand(2, 5, 3, 1))], grad=(0,)),
    C("dft_complex_inverse", "DFT", 17, [("x", rand(2, 4, 2))], {"inverse": 1}, grad=(0,)),
    C(
        "dft_onesided_length",
        "DFT",
        17,
        [("x", rand(2, 6, 1)), ("i:n", ints(8))],
        {"onesided": 1},
        grad=(0,),
    ),
    C(
        "dft_axis_input",
        "DFT",
        20,
        [("x", rand(3, 4, 5, 2)), ("", None), ("i:a", ints(-3))],
        grad=(0,),
    ),
    C("dft_truncated", "DFT", 20, [("x", rand(2, 6, 2)), ("i:n", ints(4))], grad=(0,)),
    C(
        "det",
        "Det",
        11,
        [("x", rand(2, 3, 3) + np.eye(3, dtype=np.float32))],
        grad=(0,),
        double_grad=False,
    ),
    C(
        "det_2d",
        "Det",
        11,
        [("x", rand(3, 3) + np.eye(3, dtype=np.float32))],
        grad=(0,),
        double_grad=False,
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in ACTIVATIONS + UNARY + BINARY + MATMUL])
def test_node(case):
    support.run_case(case)
