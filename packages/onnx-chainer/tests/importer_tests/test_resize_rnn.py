"""Single-node importers of Resize/Upsample and LSTM/GRU/RNN against onnxruntime, with
gradients w.r.t. inputs and weights."""

from __future__ import annotations

import numpy as np
import onnx_import_node_support as support
import pytest

import onnx_chainer

C, rand, ints = support.NodeCase, support.rand, support.ints

IMG = rand(1, 2, 5, 6)
LOOSE = {"rtol": 1e-4, "atol": 1e-4}

_SCALES_2X = np.array([1, 1, 2, 1.5], np.float32)
RESIZE = [
    C("upsample_attr", "Upsample", 7, [("x", IMG)], {"scales": [1.0, 1.0, 2.0, 3.0]}, grad=(0,)),
    C(
        "upsample_linear",
        "Upsample",
        9,
        [("x", IMG), ("i:s", _SCALES_2X)],
        {"mode": "linear"},
        grad=(0,),
    ),
    C("resize_10_nearest", "Resize", 10, [("x", IMG), ("i:s", _SCALES_2X)], grad=(0,)),
    C(
        "resize_half_pixel_linear",
        "Resize",
        11,
        [("x", IMG), ("i:r", np.zeros(0, np.float32)), ("i:s", _SCALES_2X)],
        {"mode": "linear"},
        grad=(0,),
    ),
    C(
        "resize_align_corners_sizes",
        "Resize",
        13,
        [("x", IMG), ("", None), ("", None), ("i:z", ints([1, 2, 7, 4]))],
        {"mode": "linear", "coordinate_transformation_mode": "align_corners"},
        grad=(0,),
    ),
    C(
        "resize_asymmetric_floor",
        "Resize",
        13,
        [("x", IMG), ("", None), ("i:s", _SCALES_2X)],
        {"coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"},
        grad=(0,),
    ),
    C(
        "resize_pytorch_half_pixel_down",
        "Resize",
        13,
        [("x", IMG), ("", None), ("i:s", np.array([1, 1, 0.6, 0.5], np.float32))],
        {"mode": "linear", "coordinate_transformation_mode": "pytorch_half_pixel"},
        grad=(0,),
    ),
    C(
        "resize_round_prefer_ceil",
        "Resize",
        13,
        [("x", IMG), ("", None), ("i:s", _SCALES_2X)],
        {"nearest_mode": "round_prefer_ceil"},
    ),
    C(
        "resize_axes",
        "Resize",
        18,
        [("x", IMG), ("", None), ("", None), ("i:z", ints([4, 9]))],
        {"axes": [3, 2], "mode": "linear"},
        grad=(0,),
    ),
    C(
        "resize_half_pixel_symmetric",
        "Resize",
        19,
        [("x", IMG), ("", None), ("i:s", np.array([1, 1, 1.7, 0.8], np.float32))],
        {"mode": "linear", "coordinate_transformation_mode": "half_pixel_symmetric"},
        grad=(0,),
    ),
]

SEQ = rand(4, 2, 3)
H = 5


def _rnn_weights(gates, directions, seed):
    return [
        ("i:W", rand(directions, gates * H, 3, seed=seed)),
        ("i:R", rand(directions, gates * H, H, seed=seed + 1)),
        ("i:B", rand(directions, 2 * gates * H, seed=seed + 2)),
    ]


RNN = [
    C(
        "lstm",
        "LSTM",
        7,
        [("x", SEQ)] + _rnn_weights(4, 1, 10),
        {"hidden_size": H},
        outputs=3,
        grad=(0,),
        tolerance=LOOSE,
    ),
    C(
        "lstm_reverse_initial",
        "LSTM",
        14,
        [("x", SEQ)]
        + _rnn_weights(4, 1, 20)
        + [
            ("", None),
            ("h0", rand(1, 2, H, seed=3)),
            ("c0", rand(1, 2, H, seed=4)),
            ("i:P", rand(1, 3 * H, seed=5)),
        ],
        {"hidden_size": H, "direction": "reverse"},
        outputs=3,
        grad=(0, 5, 6),
        tolerance=LOOSE,
    ),
    C(
        "lstm_bidirectional",
        "LSTM",
        14,
        [("x", SEQ)] + _rnn_weights(4, 2, 30),
        {"hidden_size": H, "direction": "bidirectional"},
        outputs=3,
        grad=(0,),
        tolerance=LOOSE,
    ),
    C(
        "lstm_y_only_no_bias",
        "LSTM",
        13,
        [("x", SEQ)] + _rnn_weights(4, 1, 40)[:2],
        {"hidden_size": H},
        grad=(0,),
        tolerance=LOOSE,
    ),
    C(
        "gru",
        "GRU",
        7,
        [("x", SEQ)] + _rnn_weights(3, 1, 50),
        {"hidden_size": H},
        outputs=2,
        grad=(0,),
        tolerance=LOOSE,
    ),
    C(
        "gru_linear_before_reset_bidirectional",
        "GRU",
        14,
        [("x", SEQ)] + _rnn_weights(3, 2, 60),
        {"hidden_size": H, "linear_before_reset": 1, "direction": "bidirectional"},
        outputs=2,
        grad=(0,),
        tolerance=LOOSE,
    ),
    C(
        "rnn",
        "RNN",
        14,
        [("x", SEQ)] + _rnn_weights(1, 1, 70) + [("i:L", np.full(2, 4, np.int32))],
        {"hidden_size": H},
        outputs=2,
        grad=(0,),
        tolerance=LOOSE,
    ),
]


@pytest.mark.parametrize("case", [c.param() for c in RESIZE + RNN])
def test_node(case):
    support.run_case(case)


def test_batch_first_layout_is_the_transposed_sequence():
    # onnxruntime refuses layout=1, so compare with the imported layout-0 model.
    case = RNN[2]
    results = []
    for layout, x in ((0, SEQ), (1, SEQ.transpose(1, 0, 2))):
        case = C(
            case.id,
            "LSTM",
            14,
            [("x", x)] + case.inputs[1:],
            {**case.attrs, "layout": layout},
            outputs=3,
        )
        model, feeds = support.node_model(case)
        model.graph.ClearField("output")
        for i in range(3):
            model.graph.output.add().name = f"y{i}"
        results.append(onnx_chainer.import_model(model, check=False)(**feeds))
    y, y_h, y_c = results[0]
    y1, y_h1, y_c1 = results[1]
    np.testing.assert_allclose(y1.array, y.array.transpose(2, 0, 1, 3), rtol=1e-6)
    np.testing.assert_allclose(y_h1.array, y_h.array.transpose(1, 0, 2), rtol=1e-6)
    np.testing.assert_allclose(y_c1.array, y_c.array.transpose(1, 0, 2), rtol=1e-6)
