"""fake_as_funcnode / as_funcnode: a Python function exported as one node."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

import chainer
import chainer.functions as F
import onnx_chainer
from onnx_chainer import onnx_helper
from onnx_chainer.replace_func import as_funcnode, fake_as_funcnode
from onnx_chainer.testing import input_generator

pytestmark = pytest.mark.usefixtures("no_experimental_warning")


def test_wrapped_numpy_code_exports_with_attributes(export_and_compare):
    def add_value(x, value=0.5):
        return x.array + value

    wrapped = fake_as_funcnode(add_value, "AddConstant")
    model = chainer.Sequential(lambda x: F.sigmoid(wrapped(x, value=2.0)))
    export_and_compare(model, input_generator.increasing(2, 3), 13)


def test_rename_attributes_by_position_and_name():
    @as_funcnode("AddConstant", rename_attributes=[("b", "value")])
    def add(x, b=0.25):
        return x.array + b

    out = add(chainer.Variable(np.zeros(2, "f")))
    assert out.creator.value == 0.25
    wrapped = fake_as_funcnode(
        lambda x, v: x.array * v, "MulConstant", rename_attributes=[(1, "value")]
    )
    assert wrapped(chainer.Variable(np.ones(2, "f")), 3.0).creator.value == 3.0


def test_structure_of_outputs_is_kept():
    def split(x):
        return {"a": (x, x + 1), "b": [x * 2]}

    wrapped = fake_as_funcnode(split, "Split3")
    result = wrapped(chainer.Variable(np.ones(2, "f")))
    assert set(result) == {"a", "b"} and len(result["a"]) == 2
    np.testing.assert_array_equal(result["b"][0].array, [2, 2])
    assert result["a"][0].creator is result["b"][0].creator


def test_backward_matches_the_original_function():
    def f(a, b):
        return a * b + a

    wrapped = fake_as_funcnode(f, "F")
    a, b = chainer.Variable(np.array(2.0)), chainer.Variable(np.array(3.0))
    ga, gb = chainer.grad([wrapped(a, b)], [a, b])
    assert (float(ga.array), float(gb.array)) == (4.0, 2.0)


def test_backward_through_arrays_is_an_error():
    wrapped = fake_as_funcnode(lambda x: x.array * 2, "Double")
    x = chainer.Variable(np.ones(2))
    y = wrapped(x)
    with pytest.raises(ValueError, match="returned arrays"):
        chainer.grad([y], [x], [chainer.Variable(np.ones(2))])


def test_custom_node_needs_an_external_converter():
    wrapped = fake_as_funcnode(lambda x: x.array * 2, "xDouble")
    model = chainer.Sequential(wrapped)
    with pytest.raises(ValueError, match="xDouble is not supported"):
        onnx_chainer.export(model, np.ones(2, "f"))

    def convert(params):
        return (
            onnx_helper.make_node("xDouble", params.input_names, params.output_names, domain="x"),
        )

    onnx_model = onnx_chainer.export(
        model,
        np.ones(2, "f"),
        external_converters={"xDouble": convert},
        external_opset_imports={"x": 1},
    )
    assert [n.name for n in onnx_model.graph.node] == ["xDouble_0"]
    onnx.checker.check_model(onnx_model)


def test_experimental_warning():
    chainer.disable_experimental_feature_warning = False
    with pytest.warns(FutureWarning, match="fake_as_funcnode"):
        fake_as_funcnode(lambda x: x, "Same")
