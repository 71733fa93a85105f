"""Single-node importers of comparisons, logic, Where, ArgMax, OneHot and reductions."""

from __future__ import annotations

import numpy as np
import onnx_import_node_support as support
import pytest

C, rand, ints = support.NodeCase, support.rand, support.ints

X = rand(2, 3, 4)
Y = rand(3, 4, seed=1)
MASK = np.array([[True, False, True, False]] * 3)

LOGIC = [
    C(op.lower(), op, 13, [("a", X), ("b", Y)])
    for op in ("Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual")
] + [
    C("equal_int", "Equal", 11, [("a", ints([1, 2, 3])), ("b", ints([1, 0, 3]))]),
    C("not", "Not", 7, [("a", MASK)]),
    C("and", "And", 7, [("a", MASK), ("b", ~MASK[:1])]),
    C("or", "Or", 7, [("a", MASK), ("b", ~MASK)]),
    C("xor", "Xor", 7, [("a", MASK), ("b", MASK[::-1].copy())]),
    C("is_nan", "IsNaN", 13, [("x", np.array([1.0, np.nan, np.inf], np.float32))]),
    C("is_inf", "IsInf", 10, [("x", np.array([1.0, -np.inf, np.inf, np.nan], np.float32))]),
    C(
        "is_inf_positive",
        "IsInf",
        10,
        [("x", np.array([-np.inf, np.inf], np.float32))],
        {"detect_negative": 0},
    ),
    C("where", "Where", 9, [("c", MASK), ("x", X), ("y", Y)], grad=(1, 2)),
    C(
        "where_scalar",
        "Where",
        16,
        [("c", MASK), ("x", X), ("i:y", np.array(0, np.float32))],
        grad=(1,),
    ),
    C(
        "where_int",
        "Where",
        9,
        [("c", np.array([True, False])), ("x", ints([1, 2])), ("y", ints([3, 4]))],
    ),
    C("argmax", "ArgMax", 13, [("x", X)], {"axis": 1}),
    C("argmax_flat", "ArgMax", 7, [("x", X)], {"keepdims": 0}),
    C(
        "argmin_last",
        "ArgMin",
        12,
        [("x", np.array([[1, 0, 0, 2]], np.float32))],
        {"axis": -1, "select_last_index": 1},
    ),
    C(
        "one_hot",
        "OneHot",
        11,
        [
            ("i", ints([[1, 3], [0, -1]])),
            ("i:d", ints(4)),
            ("i:v", np.array([0.0, 2.0], np.float32)),
        ],
    ),
    C(
        "one_hot_axis0",
        "OneHot",
        9,
        [("i", ints([1, 2])), ("i:d", ints([3])), ("i:v", np.array([-1.0, 1.0], np.float32))],
        {"axis": 0},
        grad=None,
    ),
    C("non_zero", "NonZero", 13, [("x", ints([[0, 1], [2, 0]]))]),
]

_OPS = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1"]
_OPS += ["ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"]
POS = rand(2, 3, 4, low=0.5, high=2.0)


def _reductions():
    cases = []
    for op in _OPS:
        name = op[6:].lower()
        x = POS if op == "ReduceLogSum" else X
        input_opset = 13 if op == "ReduceSum" else 18
        cases += [
            C(f"{name}_all", op, 11, [("x", x)], grad=(0,)),
            C(
                f"{name}_attr",
                op,
                input_opset - 1,
                [("x", x)],
                {"axes": [0, -1], "keepdims": 0},
                grad=(0,),
            ),
            C(f"{name}_input", op, input_opset, [("x", x), ("i:a", ints([1]))], grad=(0,)),
            C(f"{name}_noop", op, input_opset, [("x", x)], {"noop_with_empty_axes": 1}, grad=(0,)),
        ]
    return cases


REDUCE = _reductions() + [
    C("reduce_prod_int", "ReduceProd", 13, [("x", ints([[2, 3], [4, 5]]))], {"keepdims": 0}),
    C("reduce_max_int", "ReduceMax", 13, [("x", ints([[2, 3], [4, 5]]))], {"axes": [1]}),
]


@pytest.mark.parametrize("case", [c.param() for c in LOGIC + REDUCE])
def test_node(case):
    support.run_case(case)
