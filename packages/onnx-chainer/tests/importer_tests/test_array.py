"""Single-node importers of shape/indexing ops against onnxruntime, across the opsets where
their attributes became inputs; gradients where they carry data."""

from __future__ import annotations

import numpy as np
import onnx_import_node_support as support
import pytest
from onnx import helper, numpy_helper

C, rand, ints = support.NodeCase, support.rand, support.ints

X = rand(2, 3, 4)
X4 = rand(1, 8, 2, 3)

SHAPES = [
    C("reshape", "Reshape", 13, [("x", X), ("i:shape", ints([4, -1]))], grad=(0,)),
    C("reshape_zero_copies", "Reshape", 7, [("x", X), ("i:shape", ints([0, -1]))], grad=(0,)),
    C("reshape_allowzero", "Reshape", 14, [("x", X), ("i:s", ints([3, 2, 4]))], {"allowzero": 1}),
    C("flatten", "Flatten", 7, [("x", X)], grad=(0,)),
    C("flatten_axis0", "Flatten", 9, [("x", X)], {"axis": 0}),
    C("flatten_axis_negative", "Flatten", 13, [("x", X)], {"axis": -1}, grad=(0,)),
    C("transpose_default", "Transpose", 7, [("x", X)], grad=(0,)),
    C("transpose_perm", "Transpose", 13, [("x", X)], {"perm": [1, 2, 0]}, grad=(0,)),
    C("concat", "Concat", 13, [("a", X), ("b", rand(2, 3, 2, seed=1))], {"axis": -1}, grad=(0, 1)),
    C("concat_int", "Concat", 7, [("a", ints([1, 2])), ("b", ints([3]))], {"axis": 0}),
    C("split_equal", "Split", 7, [("x", X)], {"axis": 2}, outputs=2, grad=(0,)),
    C("split_attr", "Split", 11, [("x", X)], {"axis": 1, "split": [1, 2]}, outputs=2, grad=(0,)),
    C("split_input", "Split", 13, [("x", X), ("i:s", ints([3, 1]))], {"axis": -1}, outputs=2),
    C(
        "split_num_outputs",
        "Split",
        18,
        [("x", rand(2, 5))],
        {"axis": 1, "num_outputs": 3},
        outputs=3,
        grad=(0,),
    ),
    C(
        "slice_attrs",
        "Slice",
        9,
        [("x", X)],
        {"starts": [1, 0], "ends": [3, 2], "axes": [1, 2]},
        grad=(0,),
    ),
    C(
        "slice_inputs",
        "Slice",
        10,
        [("x", X), ("i:s", ints([1])), ("i:e", ints([100]))],
        grad=(0,),
    ),
    C(
        "slice_negative_step",
        "Slice",
        13,
        [
            ("x", X),
            ("i:s", ints([-1, 3])),
            ("i:e", ints([-100, 0])),
            ("i:a", ints([-1, 1])),
            ("i:p", ints([-2, -1])),
        ],
        grad=(0,),
    ),
    C(
        "gather",
        "Gather",
        13,
        [("x", X), ("i:i", ints([[2, 0], [-1, 1]]))],
        {"axis": 1},
        grad=(0,),
    ),
    C("gather_scalar", "Gather", 7, [("x", X), ("i:i", ints(1))], grad=(0,)),
    C("gather_shape_ints", "Gather", 13, [("x", ints([5, 6, 7])), ("i", ints([2, 0]))]),
    C("gather_nd", "GatherND", 11, [("x", X), ("i:i", ints([[0, 2], [1, -1]]))], grad=(0,)),
    C("squeeze_attr", "Squeeze", 11, [("x", rand(2, 1, 3, 1))], {"axes": [1, -1]}, grad=(0,)),
    C("squeeze_input", "Squeeze", 13, [("x", rand(2, 1, 3, 1)), ("i:a", ints([3]))], grad=(0,)),
    C("squeeze_all", "Squeeze", 13, [("x", rand(2, 1, 3, 1))], grad=(0,)),
    C("unsqueeze_attr", "Unsqueeze", 11, [("x", X)], {"axes": [0, -1]}, grad=(0,)),
    C("unsqueeze_input", "Unsqueeze", 13, [("x", X), ("i:a", ints([1, 3]))], grad=(0,)),
    C("expand", "Expand", 8, [("x", rand(3, 1)), ("i:s", ints([2, 1, 4]))], grad=(0,)),
    C("expand_smaller_shape", "Expand", 13, [("x", X), ("i:s", ints([3, 1]))], grad=(0,)),
    C("tile", "Tile", 13, [("x", rand(2, 3)), ("i:r", ints([2, 3]))], grad=(0,)),
    C(
        "pad_attrs",
        "Pad",
        7,
        [("x", rand(2, 3))],
        {"pads": [0, 1, 1, 2], "value": -1.5},
        grad=(0,),
    ),
    C(
        "pad_reflect",
        "Pad",
        11,
        [("x", X), ("i:p", ints([0, 1, 2, 0, 1, 1]))],
        {"mode": "reflect"},
        grad=(0,),
    ),
    C(
        "pad_edge",
        "Pad",
        13,
        [("x", X), ("i:p", ints([0, 0, 1, 0, 0, 2]))],
        {"mode": "edge"},
        grad=(0,),
    ),
    C(
        "pad_value_input",
        "Pad",
        13,
        [("x", X), ("i:p", ints([1, 0, 0, 0, 0, 1])), ("i:v", np.array(2.5, np.float32))],
        grad=(0,),
    ),
    C("pad_negative_crops", "Pad", 13, [("x", X), ("i:p", ints([0, -1, 1, 0, 0, -1]))], grad=(0,)),
    C(
        "pad_axes",
        "Pad",
        18,
        [("x", X), ("i:p", ints([1, 2])), ("", None), ("i:a", ints([-1]))],
        grad=(0,),
    ),
    C(
        "pad_wrap",
        "Pad",
        19,
        [("x", X), ("i:p", ints([0, 0, 2, 0, 0, 1]))],
        {"mode": "wrap"},
        grad=(0,),
    ),
    C("dropout_old", "Dropout", 7, [("x", X)], {"ratio": 0.3}, grad=(0,)),
    C("dropout_mask", "Dropout", 13, [("x", X)], outputs=2),
    C("cast_to_int", "Cast", 13, [("x", X * 5)], {"to": 6}),
    C("cast_to_double", "Cast", 9, [("x", X)], {"to": 11}),
    C("cast_like", "CastLike", 15, [("x", ints([1, 2])), ("i:t", np.zeros(1, np.float32))]),
    C("shape", "Shape", 13, [("x", X)]),
    C("shape_start_end", "Shape", 15, [("x", X)], {"start": 1, "end": -1}),
    C("size", "Size", 13, [("x", X)]),
    C("constant_tensor", "Constant", 13, [], {"value": numpy_helper.from_array(X, "v")}),
    C("constant_float", "Constant", 12, [], {"value_float": 1.5}),
    C("constant_ints", "Constant", 13, [], {"value_ints": [1, 2, 3]}),
    C("constant_of_shape", "ConstantOfShape", 9, [("i:s", ints([2, 3]))]),
    C(
        "constant_of_shape_value",
        "ConstantOfShape",
        13,
        [("i:s", ints([2]))],
        {"value": helper.make_tensor("v", 6, [1], [7])},
    ),
    C("range_int", "Range", 11, [("i:a", ints(1)), ("i:b", ints(9)), ("i:c", ints(3))]),
    C(
        "range_float",
        "Range",
        11,
        [
            ("i:a", np.array(1.0, np.float32)),
            ("i:b", np.array(-1.0, np.float32)),
            ("i:c", np.array(-0.5, np.float32)),
        ],
        grad=None,
    ),
    C("depth_to_space_dcr", "DepthToSpace", 13, [("x", X4)], {"blocksize": 2}, grad=(0,)),
    C(
        "depth_to_space_crd",
        "DepthToSpace",
        11,
        [("x", X4)],
        {"blocksize": 2, "mode": "CRD"},
        grad=(0,),
    ),
    C(
        "space_to_depth",
        "SpaceToDepth",
        13,
        [("x", rand(1, 2, 4, 6))],
        {"blocksize": 2},
        grad=(0,),
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in SHAPES])
def test_node(case):
    support.run_case(case)
