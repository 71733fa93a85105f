"""export(): names, options and errors."""

from __future__ import annotations

import io
import os

import numpy as np
import onnx
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer
from onnx_chainer.testing import input_generator


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 5)
            self.l2 = L.Linear(5, 3)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def _run(model_proto, feeds):
    import onnxruntime

    session = onnxruntime.InferenceSession(
        model_proto.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return session.run(None, feeds)


def test_names_follow_link_paths_and_functions():
    model = onnx_chainer.export(MLP(), np.ones((2, 4), np.float32))
    graph = model.graph
    assert [i.name for i in graph.input] == ["Input_0"]
    assert sorted(t.name for t in graph.initializer) == [
        "param_l1_W",
        "param_l1_b",
        "param_l2_W",
        "param_l2_b",
    ]
    assert [n.name for n in graph.node] == ["LinearFunction_0", "ReLU_0", "LinearFunction_1"]
    assert [o.name for o in graph.output] == ["LinearFunction_1"]
    assert model.producer_name == "Chainer"


def test_input_and_output_names_as_lists_and_dicts():
    class TwoInTwoOut(chainer.Chain):
        def forward(self, a, b):
            return {"sum": a + b, "prod": a * b}

    x = input_generator.increasing(2, 3)
    model = onnx_chainer.export(
        TwoInTwoOut(),
        {"a": x, "b": x},
        input_names={"a": "in_a", "b": "in_b"},
        output_names={"sum": "out_sum", "prod": "out_prod"},
    )
    assert [i.name for i in model.graph.input] == ["in_a", "in_b"]
    assert [o.name for o in model.graph.output] == ["out_sum", "out_prod"]
    got_sum, got_prod = _run(model, {"in_a": x, "in_b": x * 2})
    np.testing.assert_allclose(got_sum, x * 3, rtol=1e-6)
    np.testing.assert_allclose(got_prod, x * x * 2, rtol=1e-6)


def test_output_that_is_an_input_or_repeated_gets_an_identity():
    model = onnx_chainer.export(
        chainer.Sequential(lambda x: (x, F.relu(x), F.relu(x))), np.ones(3, "f")
    )
    onnx.checker.check_model(model, full_check=True)
    assert len({o.name for o in model.graph.output}) == 3


@pytest.mark.parametrize(
    "names,kind",
    [(["a", "b"], "input_names"), ({"x": "a"}, "input_names"), (["a", "b"], "output_names")],
)
def test_wrong_number_of_names_is_an_error(names, kind):
    with pytest.raises(ValueError, match=kind.split("_")[0]):
        onnx_chainer.export(MLP(), np.ones((1, 4), np.float32), **{kind: names})


def test_unsupported_function_names_it_and_writes_nothing(tmp_path):
    class NoConverter(chainer.FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 2,)

    model = chainer.Sequential(lambda x: NoConverter().apply((x,))[0])
    path = tmp_path / "m.onnx"
    with pytest.raises(onnx_chainer.functions.UnsupportedFunctionError) as info:
        onnx_chainer.export(model, np.ones(3, "f"), filename=str(path), no_testcase=True)
    message = str(info.value)
    assert "NoConverter" in message and "external_converters" in message
    assert isinstance(info.value, ValueError)
    assert not path.exists() and not list(tmp_path.iterdir())


def test_function_newer_than_the_opset_names_both_opsets(tmp_path):
    path = tmp_path / "m.onnx"
    with pytest.raises(ValueError, match="Sinh is supported from opset 9, you asked for 7"):
        onnx_chainer.export(
            chainer.Sequential(F.sinh),
            np.ones(3, "f"),
            filename=str(path),
            opset_version=7,
            no_testcase=True,
        )
    assert not path.exists()


@pytest.mark.parametrize("opset", [6, onnx_chainer.MAXIMUM_OPSET_VERSION + 1, "11"])
def test_opset_outside_the_range_is_an_error(opset):
    with pytest.raises(ValueError, match="opset_version must be an int from 7"):
        onnx_chainer.export(MLP(), np.ones((1, 4), np.float32), opset_version=opset)


def test_non_array_arguments_are_an_error():
    with pytest.raises(ValueError, match="must be a chainer.Variable or an array, got list"):
        onnx_chainer.export(MLP(), [[1.0, 2.0, 3.0, 4.0]])


def test_model_returning_an_array_is_an_error():
    with pytest.raises(RuntimeError, match="Unexpected output type"):
        onnx_chainer.export(chainer.Sequential(lambda x: x.array), np.ones(3, "f"))
    with pytest.raises(ValueError, match="must be Chainer Variable"):
        onnx_chainer.export(chainer.Sequential(lambda x: (x, x.array)), np.ones(3, "f"))


def test_dynamic_batch_axis_runs_on_other_batch_sizes():
    mlp = MLP()
    model = onnx_chainer.export(mlp, np.ones((2, 4), np.float32), input_shapes=("batch", 4))
    dim = model.graph.input[0].type.tensor_type.shape.dim[0]
    assert dim.dim_param == "batch"
    x = input_generator.increasing(7, 4)
    (got,) = _run(model, {"Input_0": x})
    np.testing.assert_allclose(got, mlp(x).array, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shapes", ["?", ("?", 4, 1), [("?", 4), ("?", 4)], ("b", 5)])
def test_bad_input_shapes_are_an_error(shapes):
    with pytest.raises(ValueError, match="input_shapes"):
        onnx_chainer.export(MLP(), np.ones((2, 4), np.float32), input_shapes=shapes)


def test_export_params_false_makes_parameters_inputs():
    model = onnx_chainer.export(MLP(), np.ones((1, 4), np.float32), export_params=False)
    assert not model.graph.initializer
    assert [i.name for i in model.graph.input][1:] == [
        "param_l1_W",
        "param_l1_b",
        "param_l2_W",
        "param_l2_b",
    ]


def test_train_mode_batch_normalization_uses_the_batch_it_is_given():
    bn = L.BatchNormalization(3)
    model = onnx_chainer.export(
        chainer.Sequential(bn),
        input_generator.increasing(4, 3),
        train=True,
        input_shapes=("n", 3),
    )
    other = np.random.RandomState(1).randn(6, 3).astype(np.float32)
    (got,) = _run(model, {"Input_0": other})
    expected = (other - other.mean(0)) / np.sqrt(other.var(0) + bn.eps)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


def test_files_are_written_with_text_and_to_file_objects(tmp_path):
    path = tmp_path / "sub" / "m.onnx"
    model = onnx_chainer.export(
        MLP(), np.ones((1, 4), np.float32), filename=str(path), save_text=True, no_testcase=True
    )
    assert onnx.load(str(path)) == model
    assert "LinearFunction_0" in (tmp_path / "sub" / "m.onnx.txt").read_text()
    assert sorted(os.listdir(tmp_path / "sub")) == ["m.onnx", "m.onnx.txt"]
    buffer = io.BytesIO()
    onnx_chainer.export(MLP(), np.ones((1, 4), np.float32), filename=buffer, no_testcase=True)
    assert onnx.load_model_from_string(buffer.getvalue()).graph.node


def test_export_to_a_file_without_testcase_is_deprecated(tmp_path):
    with pytest.warns(DeprecationWarning, match="export_testcase"):
        onnx_chainer.export(MLP(), np.ones((1, 4), np.float32), filename=str(tmp_path / "m.onnx"))


def test_model_declares_versions_onnxruntime_loads():
    for opset in (onnx_chainer.MINIMUM_OPSET_VERSION, onnx_chainer.MAXIMUM_OPSET_VERSION):
        model = onnx_chainer.export(MLP(), np.ones((1, 4), np.float32), opset_version=opset)
        assert model.opset_import[0].version == opset
        assert 4 <= model.ir_version <= onnx.IR_VERSION
        _run(model, {"Input_0": np.ones((1, 4), np.float32)})


def test_external_converter_overrides_a_builtin_one():
    def as_tanh(params):
        return (
            onnx_chainer.onnx_helper.make_node("Tanh", params.input_names, params.output_names),
        )

    x = input_generator.increasing(2, 3)
    model = onnx_chainer.export(
        chainer.Sequential(F.sigmoid), x, external_converters={"Sigmoid": as_tanh}
    )
    assert [n.op_type for n in model.graph.node] == ["Tanh"]
    np.testing.assert_allclose(_run(model, {"Input_0": x})[0], np.tanh(x), rtol=1e-6)


def test_custom_domain_operator_is_declared():
    def custom(params):
        return (
            onnx_chainer.onnx_helper.make_node(
                "MyOp", params.input_names, params.output_names, domain="my.domain"
            ),
        )

    model = onnx_chainer.export(
        chainer.Sequential(F.sigmoid),
        np.ones(3, "f"),
        external_converters={"Sigmoid": custom},
        external_opset_imports={"my.domain": 1},
    )
    assert ("my.domain", 1) in [(o.domain, o.version) for o in model.opset_import]


def test_unknown_default_domain_operator_warns_and_skips_checking():
    def custom(params):
        return (
            onnx_chainer.onnx_helper.make_node("NotAnOp", params.input_names, params.output_names),
        )

    with pytest.warns(UserWarning, match="NotAnOp"):
        onnx_chainer.export(
            chainer.Sequential(F.sigmoid), np.ones(3, "f"), external_converters={"Sigmoid": custom}
        )


def test_temporary_arrays_become_initializers():
    class AddsConstant(chainer.Chain):
        def forward(self, x):
            return x + np.arange(3, dtype=np.float32)

    x = input_generator.increasing(2, 3)
    model = onnx_chainer.export(AddsConstant(), x)
    assert len(model.graph.initializer) == 1
    np.testing.assert_allclose(_run(model, {"Input_0": x})[0], x + np.arange(3), rtol=1e-6)


def test_uninitialized_parameters_warn():
    class Unused(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.used = L.Linear(None, 2)
                self.unused = L.Linear(None, 2)

        def forward(self, x):
            return self.used(x)

    with pytest.warns(UserWarning, match="/unused/W"):
        onnx_chainer.export(Unused(), np.ones((1, 3), np.float32))


def test_retain_input_hook_keeps_temporary_inputs():
    from onnx_chainer.export import RetainInputHook

    def forward(x):
        return F.stack([x, chainer.Variable(np.array(7, np.float32))])

    model = chainer.Sequential(forward)
    with RetainInputHook() as hook:
        model(chainer.Variable(np.array(3, np.float32)))
    assert len(hook.retain_inputs) == 1
    assert [type(f).__name__ for f in hook.functions] == ["Stack"]


def _pool_and_upsample(x, ksize, stride):
    y, indexes = F.max_pooling_2d(x, ksize, stride, return_indices=True)
    return F.upsampling_2d(y, indexes, ksize, stride, outsize=x.shape[2:])


@pytest.mark.parametrize(
    "forward,message",
    [
        (lambda x: F.unpooling_2d(x, 3, stride=2, cover_all=False), "no ONNX form"),
        (lambda x: x[[0, 1], :, [0, 1]], "leading axes"),
        (lambda x: F.cast(x, np.int32) // 2, "FloorDivide of integers"),
        (
            lambda x: F.upsampling_2d(x, np.zeros(x.shape, np.int32), 2, outsize=(6, 6)),
            "returned by max_pooling_2d",
        ),
        (lambda x: _pool_and_upsample(x, 3, 2), r"with stride >= ksize"),
        (
            lambda x: F.simplified_dropconnect(F.reshape(x, (2, -1)), np.ones((2, 18), "f")),
            "random mask that ONNX cannot reproduce",
        ),
        (
            lambda x: F.precision(F.reshape(x, (6, 6)), np.arange(6, dtype=np.int32))[0],
            "pass label_num",
        ),
    ],
    ids=[
        "overlapping_unpooling",
        "separated_array_indices",
        "integer_floor_divide",
        "upsampling_constant_indexes",
        "upsampling_overlapping_windows",
        "dropconnect_in_train_mode",
        "classification_summary_without_label_num",
    ],
)
def test_argument_combinations_onnx_cannot_express(forward, message, tmp_path):
    path = tmp_path / "m.onnx"
    with pytest.raises(ValueError, match=message):
        onnx_chainer.export(
            chainer.Sequential(forward),
            input_generator.increasing(2, 2, 3, 3),
            filename=str(path),
            no_testcase=True,
        )
    assert not path.exists()


def test_any_callable_exports(run_onnxruntime):
    x = input_generator.increasing(2, 3)
    model = onnx_chainer.export(lambda v: F.relu(v) * 2, x)
    np.testing.assert_allclose(run_onnxruntime(model, {"Input_0": x})[0], np.maximum(x, 0) * 2)


def test_functions_after_array_arithmetic_are_traced(run_onnxruntime):
    # ``x.array + 1`` cuts the graph; as in Chainer v7 the sigmoid applied to the result is
    # still exported (its input becomes a constant of the traced value).
    x = input_generator.increasing(2, 3)
    model = onnx_chainer.export(lambda v: F.sigmoid(v.array + 1), x)
    (sigmoid,) = [n for n in model.graph.node if n.op_type == "Sigmoid"]
    assert sigmoid.input[0] != "Input_0"
    (initializer,) = model.graph.initializer
    assert initializer.name == sigmoid.input[0]
    want = 1 / (1 + np.exp(-(x + 1)))
    np.testing.assert_allclose(run_onnxruntime(model, {"Input_0": x})[0], want, rtol=1e-6)


def test_inputs_that_do_not_require_grad_are_traced(run_onnxruntime):
    x = chainer.Variable(input_generator.increasing(2, 3), requires_grad=False)
    model = onnx_chainer.export(lambda v: F.relu(v) * 2, x)
    assert [n.op_type for n in model.graph.node] == ["Relu", "Constant", "Mul"]
    assert model.graph.node[0].input[0] == "Input_0"
    np.testing.assert_allclose(
        run_onnxruntime(model, {"Input_0": x.array})[0], np.maximum(x.array, 0) * 2
    )
    assert not x.requires_grad and x.creator is None


def test_no_backprop_mode_inside_the_model_is_not_traced():
    def forward(v):
        with chainer.no_backprop_mode():
            offset = F.relu(v)
        return v + offset.array

    model = onnx_chainer.export(forward, input_generator.increasing(2, 3))
    assert [n.op_type for n in model.graph.node] == ["Add"]


def test_forget_exports_the_function_it_wraps(run_onnxruntime):
    x = input_generator.increasing(2, 3)
    model = onnx_chainer.export(lambda v: F.forget(lambda a: (F.relu(a) * 2, -a), v)[0] + 1, x)
    assert [n.op_type for n in model.graph.node if n.op_type != "Constant"] == [
        "Relu",
        "Mul",
        "Add",
    ]
    want = np.maximum(x, 0) * 2 + 1
    np.testing.assert_allclose(run_onnxruntime(model, {"Input_0": x})[0], want)


def test_as_strided_of_a_view_reading_outside_it_is_an_error(tmp_path):
    base = np.arange(8, dtype=np.float32)
    path = tmp_path / "m.onnx"
    with pytest.raises(ValueError, match="AsStrided reads memory outside its input"):
        onnx_chainer.export(
            lambda v: F.as_strided(v, (4,), (1,), 0),
            chainer.Variable(base[2:4]),
            filename=str(path),
            no_testcase=True,
        )
    assert not path.exists()
