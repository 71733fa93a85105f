"""Single-node importers of layers (Conv, ConvTranspose, Gemm, normalizations, pooling) against
onnxruntime, with gradients w.r.t. inputs and weights."""

from __future__ import annotations

import numpy as np
import onnx_import_node_support as support
import pytest

C, rand, ints = support.NodeCase, support.rand, support.ints

IMG = rand(1, 2, 5, 6)
W = rand(3, 2, 3, 3, seed=1)
B3 = rand(3, seed=2)
LOOSE = {"rtol": 1e-4, "atol": 1e-4}

CONNECTION = [
    C("conv", "Conv", 11, [("x", IMG), ("i:w", W), ("i:b", B3)], grad=(0,)),
    C(
        "conv_stride_pad",
        "Conv",
        7,
        [("x", IMG), ("i:w", W)],
        {"strides": [2, 1], "pads": [1, 1, 1, 1]},
        grad=(0,),
    ),
    C(
        "conv_asymmetric_pads",
        "Conv",
        13,
        [("x", IMG), ("i:w", W), ("i:b", B3)],
        {"pads": [0, 1, 2, 0], "dilations": [1, 2]},
        grad=(0,),
    ),
    C(
        "conv_same_upper",
        "Conv",
        13,
        [("x", IMG), ("i:w", W)],
        {"auto_pad": "SAME_UPPER", "strides": [2, 2]},
        grad=(0,),
    ),
    C(
        "conv_same_lower",
        "Conv",
        13,
        [("x", IMG), ("i:w", rand(3, 2, 2, 2, seed=3))],
        {"auto_pad": "SAME_LOWER"},
        grad=(0,),
    ),
    C("conv_valid", "Conv", 13, [("x", IMG), ("i:w", W)], {"auto_pad": "VALID"}),
    C(
        "conv_groups",
        "Conv",
        13,
        [("x", rand(1, 4, 4, 4)), ("i:w", rand(6, 2, 3, 3, seed=1))],
        {"group": 2, "kernel_shape": [3, 3]},
        grad=(0,),
    ),
    C(
        "conv_1d",
        "Conv",
        13,
        [("x", rand(2, 2, 7)), ("i:w", rand(3, 2, 3, seed=1))],
        {"strides": [2], "pads": [1, 1]},
        grad=(0,),
    ),
    C(
        "conv_3d",
        "Conv",
        13,
        [("x", rand(1, 2, 4, 3, 3)), ("i:w", rand(2, 2, 2, 2, 2, seed=1))],
        grad=(0,),
    ),
    C(
        "conv_transpose",
        "ConvTranspose",
        11,
        [("x", IMG), ("i:w", rand(2, 3, 3, 3, seed=1)), ("i:b", B3)],
        {"strides": [2, 2], "pads": [1, 1, 1, 1]},
        grad=(0,),
    ),
    C(
        "conv_transpose_output_padding",
        "ConvTranspose",
        13,
        [("x", IMG), ("i:w", rand(2, 3, 3, 3, seed=1)), ("i:b", B3)],
        {"strides": [2, 3], "output_padding": [1, 2]},
        grad=(0,),
    ),
    C(
        "conv_transpose_output_shape",
        "ConvTranspose",
        13,
        [("x", IMG), ("i:w", rand(2, 3, 3, 3, seed=1))],
        {"strides": [2, 2], "output_shape": [10, 12]},
        grad=(0,),
    ),
    C(
        "conv_transpose_same_upper",
        "ConvTranspose",
        13,
        [("x", IMG), ("i:w", rand(2, 3, 4, 4, seed=1))],
        {"strides": [2, 2], "auto_pad": "SAME_UPPER"},
    ),
    C(
        "conv_transpose_groups_dilations",
        "ConvTranspose",
        13,
        [("x", rand(1, 4, 3, 3)), ("i:w", rand(4, 1, 2, 2, seed=1))],
        {"group": 2, "dilations": [2, 1], "pads": [1, 0, 0, 1]},
        grad=(0,),
    ),
    C(
        "conv_transpose_1d",
        "ConvTranspose",
        13,
        [("x", rand(1, 2, 5)), ("i:w", rand(2, 3, 3, seed=1))],
        {"strides": [3]},
        grad=(0,),
    ),
    C(
        "gemm_linear",
        "Gemm",
        13,
        [("x", rand(2, 4)), ("i:w", rand(3, 4, seed=1)), ("i:b", B3)],
        {"transB": 1},
        grad=(0,),
    ),
    C(
        "gemm_attrs",
        "Gemm",
        7,
        [("a", rand(4, 2)), ("b", rand(4, 3, seed=1)), ("c", rand(1, 3, seed=2))],
        {"transA": 1, "alpha": 0.5, "beta": 2.0},
        grad=(0, 1, 2),
    ),
    C("gemm_no_c", "Gemm", 11, [("a", rand(2, 4)), ("b", rand(4, 3, seed=1))], grad=(0, 1)),
    C(
        "gemm_scalar_c",
        "Gemm",
        13,
        [("a", rand(2, 4)), ("i:b", rand(3, 4, seed=1)), ("i:c", np.array([0.5], np.float32))],
        {"transB": 1},
        grad=(0,),
    ),
]

NORMALIZATION = [
    C(
        "batch_norm",
        "BatchNormalization",
        15,
        [
            ("x", rand(2, 3, 2, 2)),
            ("i:g", B3 + 1),
            ("i:b", rand(3, seed=4)),
            ("i:m", rand(3, seed=5)),
            ("i:v", rand(3, low=0.5, high=2.0, seed=6)),
        ],
        grad=(0,),
    ),
    C(
        "batch_norm_eps_2d",
        "BatchNormalization",
        9,
        [
            ("x", rand(4, 3)),
            ("i:g", B3 + 1),
            ("i:b", rand(3, seed=4)),
            ("i:m", rand(3, seed=5)),
            ("i:v", rand(3, low=0.5, high=2.0, seed=6)),
        ],
        {"epsilon": 0.1},
        grad=(0,),
    ),
    C(
        "batch_norm_opset7",
        "BatchNormalization",
        7,
        [
            ("x", rand(2, 3, 2)),
            ("i:g", B3 + 1),
            ("i:b", rand(3, seed=4)),
            ("i:m", rand(3, seed=5)),
            ("i:v", rand(3, low=0.5, high=2.0, seed=6)),
        ],
        grad=(0,),
    ),
    C(
        "instance_norm",
        "InstanceNormalization",
        7,
        [("x", rand(2, 3, 2, 3)), ("i:g", B3 + 1), ("i:b", rand(3, seed=4))],
        grad=(0,),
    ),
    C(
        "layer_norm",
        "LayerNormalization",
        17,
        [("x", rand(2, 3, 4)), ("i:g", rand(4, seed=1)), ("i:b", rand(4, seed=2))],
        grad=(0,),
    ),
    C(
        "layer_norm_axis1_no_bias",
        "LayerNormalization",
        17,
        [("x", rand(2, 3, 4)), ("i:g", rand(3, 4, seed=1))],
        {"axis": 1, "epsilon": 0.01},
        grad=(0,),
    ),
    C(
        "group_norm_per_group",
        "GroupNormalization",
        18,
        [("x", rand(2, 4, 3)), ("i:g", rand(2, seed=1)), ("i:b", rand(2, seed=2))],
        {"num_groups": 2},
        grad=(0,),
        check=False,  # onnx.checker calls GroupNormalization-18 deprecated; onnxruntime runs it
    ),
    C(
        "group_norm_per_channel",
        "GroupNormalization",
        21,
        [("x", rand(2, 4, 2, 2)), ("i:g", rand(4, seed=1)), ("i:b", rand(4, seed=2))],
        {"num_groups": 2, "epsilon": 0.1},
        grad=(0,),
    ),
    C(
        "mean_variance_normalization",
        "MeanVarianceNormalization",
        13,
        [("x", rand(2, 3, 2, 2))],
        grad=(0,),
    ),
    C(
        "mean_variance_normalization_axes",
        "MeanVarianceNormalization",
        9,
        [("x", rand(2, 3, 4))],
        {"axes": [1]},
        grad=(0,),
    ),
    C("lp_normalization_l2", "LpNormalization", 7, [("x", rand(2, 3, 4))], {"axis": 1}, grad=(0,)),
    C(
        "lp_normalization_l1",
        "LpNormalization",
        7,
        [("x", rand(2, 3, low=0.2))],
        {"p": 1},
        grad=(0,),
    ),
    C(
        "lrn",
        "LRN",
        13,
        [("x", rand(1, 5, 2, 2) * 3)],
        {"size": 3, "alpha": 0.1, "beta": 0.6, "bias": 1.5},
        grad=(0,),
    ),
]

POOLING = [
    C(
        "max_pool",
        "MaxPool",
        7,
        [("x", IMG)],
        {"kernel_shape": [3, 3], "strides": [2, 2]},
        grad=(0,),
    ),
    C(
        "max_pool_pads",
        "MaxPool",
        12,
        [("x", IMG)],
        {"kernel_shape": [3, 2], "pads": [1, 0, 1, 0]},
        grad=(0,),
    ),
    C(
        "max_pool_asymmetric",
        "MaxPool",
        12,
        [("x", IMG)],
        {"kernel_shape": [2, 2], "pads": [0, 1, 1, 0]},
        grad=(0,),
    ),
    C(
        "max_pool_ceil",
        "MaxPool",
        12,
        [("x", IMG)],
        {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1},
        grad=(0,),
    ),
    C(
        "max_pool_same_upper",
        "MaxPool",
        11,
        [("x", IMG)],
        {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"},
    ),
    C("max_pool_1d", "MaxPool", 13, [("x", rand(2, 2, 7))], {"kernel_shape": [3]}),
    C(
        "max_pool_3d",
        "MaxPool",
        13,
        [("x", rand(1, 1, 4, 4, 4))],
        {"kernel_shape": [2, 2, 2], "strides": [2, 2, 2]},
    ),
    C("avg_pool", "AveragePool", 7, [("x", IMG)], {"kernel_shape": [2, 2]}, grad=(0,)),
    C(
        "avg_pool_pads_excluded",
        "AveragePool",
        11,
        [("x", IMG)],
        {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "strides": [2, 2]},
        grad=(0,),
    ),
    C(
        "avg_pool_pads_included",
        "AveragePool",
        11,
        [("x", IMG)],
        {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "count_include_pad": 1},
        grad=(0,),
    ),
    C(
        "avg_pool_asymmetric",
        "AveragePool",
        11,
        [("x", IMG)],
        {"kernel_shape": [2, 3], "pads": [1, 0, 0, 2]},
        grad=(0,),
    ),
    C(
        "avg_pool_asymmetric_included",
        "AveragePool",
        11,
        [("x", IMG)],
        {"kernel_shape": [2, 3], "pads": [1, 0, 0, 2], "count_include_pad": 1},
        grad=(0,),
    ),
    C(
        "avg_pool_ceil",
        "AveragePool",
        11,
        [("x", IMG)],
        {"kernel_shape": [2, 2], "strides": [2, 2], "ceil_mode": 1},
        grad=(0,),
    ),
    C("global_avg_pool", "GlobalAveragePool", 7, [("x", IMG)], grad=(0,)),
    C("global_max_pool", "GlobalMaxPool", 7, [("x", rand(2, 3, 3))], grad=(0,)),
    C(
        "max_roi_pool",
        "MaxRoiPool",
        7,
        [
            ("x", rand(2, 2, 6, 8, low=0)),
            ("r", np.array([[0, 1, 1, 6, 6], [1, 2, 0, 9, 7]], np.float32)),
        ],
        {"pooled_shape": [2, 3], "spatial_scale": 0.5},
    ),
    C(
        "roi_align_output_half_pixel",
        "RoiAlign",
        10,
        [
            ("x", rand(2, 2, 6, 8)),
            ("r", np.array([[1, 1, 6, 6], [0, 2, 7, 5]], np.float32)),
            ("i", ints([0, 1])),
        ],
        {"output_height": 2, "output_width": 3, "sampling_ratio": 2, "spatial_scale": 0.5},
    ),
    C(
        "roi_align_half_pixel",
        "RoiAlign",
        16,
        [
            ("x", rand(2, 2, 6, 8)),
            ("r", np.array([[1, 1, 6, 6], [0, 2, 7, 5]], np.float32)),
            ("i", ints([0, 1])),
        ],
        {"output_height": 3, "output_width": 2, "sampling_ratio": 2},
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in CONNECTION + NORMALIZATION + POOLING])
def test_node(case):
    support.run_case(case)
