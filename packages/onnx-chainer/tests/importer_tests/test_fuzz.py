"""Fuzzing import_model with hypothesis: any bytes or any structurally random model either
imports (and the edited seed model runs) or raises ONNXImportError (a ValueError), never
anything else and never a crash.

``ONNX_CHAINER_FUZZ_EXAMPLES`` sets the number of cases (default 2,000 edited or mutated files
plus 1,000 random models, 20-40 s on the shared 2-core machine); raise it for a longer
campaign.
"""

from __future__ import annotations

import os

import numpy as np
import onnx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper

import onnx_chainer
from onnx_chainer.importer import ONNXImportError, registered_importers

EXAMPLES = int(os.environ.get("ONNX_CHAINER_FUZZ_EXAMPLES", "2000"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _seed_model() -> bytes:
    rng = np.random.RandomState(0)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], strides=[1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Shape", ["r"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "zero1"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus_one"], ["shape"], axis=0),
        helper.make_node("Reshape", ["r", "shape"], ["flat"]),
        helper.make_node("Gemm", ["flat", "fc", "fcb"], ["g"], transB=1),
        helper.make_node("Softmax", ["g"], ["y"], axis=-1),
    ]
    initializers = [
        numpy_helper.from_array(rng.rand(2, 1, 3, 3).astype(np.float32), "w"),
        numpy_helper.from_array(rng.rand(2).astype(np.float32), "b"),
        numpy_helper.from_array(np.array(0, np.int64), "zero"),
        numpy_helper.from_array(np.array([0], np.int64), "zero1"),
        numpy_helper.from_array(np.array([-1], np.int64), "minus_one"),
        numpy_helper.from_array(rng.rand(3, 32).astype(np.float32), "fc"),
        numpy_helper.from_array(rng.rand(3).astype(np.float32), "fcb"),
    ]
    graph = helper.make_graph(
        nodes,
        "seed",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


SEED = _seed_model()


def _import_and_run_or_fail_clearly(source) -> None:
    try:
        model = onnx_chainer.import_model(source)
        model(np.ones((1, 1, 4, 4), np.float32))
    except ONNXImportError as error:
        assert str(error)


@st.composite
def _mutated_bytes(draw):
    data = bytearray(SEED)
    for _ in range(draw(st.integers(1, 8))):
        position = draw(st.integers(0, len(data) - 1))
        data[position] = draw(st.integers(0, 255))
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.binary(max_size=16))
    return bytes(data)


@st.composite
def _edited_seed(draw):
    """The seed model with a few fields changed (values, dims, op types, names)."""
    model = onnx.ModelProto.FromString(SEED)
    graph = model.graph
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(["attribute", "dims", "op_type", "input", "drop", "opset"]))
        node = graph.node[draw(st.integers(0, len(graph.node) - 1))]
        if edit == "attribute" and node.attribute:
            attribute = node.attribute[draw(st.integers(0, len(node.attribute) - 1))]
            if attribute.type == onnx.AttributeProto.INT:
                attribute.i = draw(st.integers(-(2**40), 2**40))
            elif attribute.type == onnx.AttributeProto.INTS:
                attribute.ints[:] = draw(st.lists(st.integers(-(2**33), 2**33), max_size=5))
        elif edit == "dims":
            tensor = graph.initializer[draw(st.integers(0, len(graph.initializer) - 1))]
            tensor.dims[:] = draw(st.lists(st.integers(-1, 2**34), max_size=4))
        elif edit == "op_type":
            node.op_type = draw(st.sampled_from(_OP_TYPES))
        elif edit == "input" and node.input:
            node.input[draw(st.integers(0, len(node.input) - 1))] = draw(
                st.sampled_from(["x", "w", "zero", "shape", "", "ghost", "y"])
            )
        elif edit == "drop":
            del graph.node[draw(st.integers(0, len(graph.node) - 1))]
        elif edit == "opset":
            model.opset_import[0].version = draw(st.integers(1, 30))
    return model


@FUZZ
@given(st.one_of(_mutated_bytes(), _edited_seed()))
def test_mutated_files_import_or_fail_clearly(source):
    _import_and_run_or_fail_clearly(source)


_OP_TYPES = sorted(registered_importers()) + ["NoSuchOp", "If", "Loop"]
_ATTRIBUTE_NAMES = [
    "axis",
    "axes",
    "perm",
    "pads",
    "strides",
    "kernel_shape",
    "mode",
    "to",
    "value",
    "split",
    "group",
    "alpha",
    "keepdims",
    "blocksize",
    "shape",
]
_ELEMENT_TYPES = [
    TensorProto.FLOAT,
    TensorProto.INT64,
    TensorProto.DOUBLE,
    TensorProto.STRING,
    TensorProto.BOOL,
    0,
    99,
]


@st.composite
def _attribute(draw):
    name = draw(st.sampled_from(_ATTRIBUTE_NAMES))
    value = draw(
        st.one_of(
            st.integers(-(2**40), 2**40),
            st.floats(allow_nan=True, allow_infinity=True),
            st.lists(st.integers(-(2**33), 2**33), max_size=6),
            st.text(max_size=8),
            st.builds(
                lambda dims: TensorProto(name="t", data_type=TensorProto.FLOAT, dims=dims),
                st.lists(st.integers(0, 2**31), max_size=4),
            ),
        )
    )
    return name, value


@st.composite
def _tensor(draw, name):
    if draw(st.booleans()):  # a well-formed tensor, so that building gets further
        shape = tuple(draw(st.lists(st.integers(1, 4), max_size=3)))
        dtype = draw(st.sampled_from([np.float32, np.int64]))
        values = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape) - 2
        return numpy_helper.from_array(values, name)
    dims = draw(st.lists(st.integers(-2, 2**33), max_size=4))
    tensor = TensorProto(name=name, data_type=draw(st.sampled_from(_ELEMENT_TYPES)), dims=dims)
    tensor.raw_data = draw(st.binary(max_size=64))
    return tensor


@st.composite
def _random_model(draw):
    names = ["x", "p0", "p1"]
    nodes = []
    for index in range(draw(st.integers(1, 3))):
        inputs = draw(st.lists(st.sampled_from(names + ["", "ghost"]), max_size=4))
        attributes = dict(draw(st.lists(_attribute(), max_size=3)))
        try:
            node = helper.make_node(
                draw(st.sampled_from(_OP_TYPES)), inputs, [f"v{index}"], **attributes
            )
        except (ValueError, TypeError):
            continue  # onnx.helper itself refuses the attribute value
        nodes.append(node)
        names.append(f"v{index}")
    dims = draw(st.lists(st.integers(0, 4), max_size=4))
    graph = helper.make_graph(
        nodes,
        "random",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)],
        [helper.make_tensor_value_info(names[-1], TensorProto.FLOAT, dims)],
        [draw(_tensor("p0")), draw(_tensor("p1"))],
    )
    opset = draw(st.one_of(st.integers(7, 28), st.integers(1, 30)))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = draw(st.one_of(st.just(8), st.integers(0, 12)))
    return model, draw(st.booleans())


@settings(FUZZ, max_examples=max(EXAMPLES // 2, 1))
@given(_random_model())
def test_random_models_import_or_fail_clearly(model_and_check):
    model, check = model_and_check
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    try:
        imported = onnx_chainer.import_model(model, check=check)
        imported(np.linspace(-2, 2, int(np.prod(shape)), dtype=np.float32).reshape(shape))
    except ONNXImportError as error:
        assert str(error)
