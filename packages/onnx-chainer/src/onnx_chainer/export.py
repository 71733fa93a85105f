"""``onnx_chainer.export``: trace a model once and write the ONNX graph of what ran."""

from __future__ import annotations

import collections
import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import onnx
import onnx.helper

import chainer
import chainer.functions
from chainer.functions.util.forget import Forget
from onnx_chainer import mapping, onnx_helper, replace_func
from onnx_chainer.context import Context
from onnx_chainer.functions import _registry
from onnx_chainer.graph import Graph, reachable_functions, value_info

MINIMUM_OPSET_VERSION = _registry.MINIMUM_OPSET_VERSION
MAXIMUM_OPSET_VERSION = _registry.MAXIMUM_OPSET_VERSION

# Chainer computes these outside the graph (they have no gradient); during export they run as
# function nodes so that the exported graph contains them.
_OUT_OF_GRAPH_FUNCTIONS = {"sign": "Sign", "floor": "Floor", "ceil": "Ceil"}


class RetainInputHook(chainer.LinkHook):
    """Records every function applied in the block, in order, with its input arrays.

    A function node refers to its inputs weakly, so a temporary input (``x + np.ones(3)``) is
    gone once the forward pass returns; this hook keeps such inputs alive. ``retain_inputs``
    lists the variables kept: inputs created inside the forward pass, not passed to a link.
    """

    name = "RetainInputHook"

    def __init__(self) -> None:
        self.link_inputs: set[int] = set()
        self.retain_inputs: list[chainer.Variable] = []
        self.functions: list[Any] = []
        self.input_arrays: dict[int, list[Any]] = {}
        self._outputs: list[Any] = []
        self._original_apply = None

    def _collect_link_inputs(self, values: Any) -> None:
        for value in values:
            if isinstance(value, (list, tuple)):
                self._collect_link_inputs(value)
            elif isinstance(value, dict):
                self._collect_link_inputs(value.values())
            elif isinstance(value, chainer.Variable):
                self.link_inputs.add(id(value))

    def forward_preprocess(self, args) -> None:
        self._collect_link_inputs(args.args)
        self._collect_link_inputs(args.kwargs.values())

    def _record(self, func: Any, inputs: tuple, outputs: Any) -> None:
        if func.inputs is None:  # applied without building a graph (no_backprop_mode)
            return
        arrays = [x.array if isinstance(x, chainer.Variable) else x for x in inputs]
        for i, node in enumerate(func.inputs):
            variable = node.get_variable_or_none()
            if variable is None:
                variable = chainer.Variable(arrays[i], requires_grad=False)
                self.retain_inputs.append(variable)
            elif id(variable) not in self.link_inputs:
                self.retain_inputs.append(variable)
        self.functions.append(func)
        self.input_arrays[id(func)] = arrays
        self._outputs.append(outputs)

    def __enter__(self):
        original = chainer.FunctionNode.apply
        hook = self

        def recording_apply(func, inputs):
            if chainer.config.enable_backprop:
                inputs = _traceable(inputs)
                if isinstance(func, Forget):
                    return _forgotten_function_traced(func, inputs)
            outputs = original(func, inputs)
            hook._record(func, tuple(inputs), outputs)
            return outputs

        self._original_apply = original
        chainer.FunctionNode.apply = recording_apply
        try:
            return super().__enter__()
        except BaseException:
            chainer.FunctionNode.apply = original
            raise

    def __exit__(self, *exc_info):
        chainer.FunctionNode.apply = self._original_apply
        return super().__exit__(*exc_info)


def _forgotten_function_traced(func: Any, inputs: tuple) -> tuple:
    """Run the function wrapped by ``F.forget`` so that what it applies is traced.

    ``forget`` only changes how gradients are computed (recomputed in backward); the exported
    graph is that of the wrapped function.
    """
    variables = [x if isinstance(x, chainer.Variable) else chainer.Variable(x) for x in inputs]
    outputs = func.func(*variables)
    return (outputs,) if isinstance(outputs, chainer.Variable) else tuple(outputs)


def _traceable(inputs: Any) -> Any:
    """``inputs`` such that applying a function to them builds a graph node.

    Chainer records a function only when an input requires grad; Chainer v7 recorded every
    function while backprop was enabled, so code that computes on ``.array`` (which cuts the
    graph) still exported the functions applied after it. Arrays and Variables that do not
    require grad are passed as fresh Variables that do (on the same arrays), and only when no
    input requires grad: the caller's Variables are left untouched.
    """
    inputs = tuple(inputs)
    if any(isinstance(x, chainer.Variable) and x.requires_grad for x in inputs):
        return inputs
    return tuple(
        chainer.Variable(x.array if isinstance(x, chainer.Variable) else x, requires_grad=True)
        if isinstance(x, chainer.Variable) or isinstance(x, chainer.get_array_types())
        else x
        for x in inputs
    )


@contextlib.contextmanager
def _out_of_graph_functions_as_nodes() -> Iterator[None]:
    originals = {name: getattr(chainer.functions, name) for name in _OUT_OF_GRAPH_FUNCTIONS}
    try:
        for name, label in _OUT_OF_GRAPH_FUNCTIONS.items():
            wrapped = replace_func.fake_as_funcnode(
                originals[name], label, experimental_warning=False
            )
            setattr(chainer.functions, name, wrapped)
        yield
    finally:
        for name, original in originals.items():
            setattr(chainer.functions, name, original)


def _as_variable(value: Any, what: str) -> chainer.Variable:
    if isinstance(value, chainer.Variable):
        return value
    if isinstance(value, chainer.get_array_types()):
        return chainer.Variable(value)
    raise ValueError(
        f"{what} must be a chainer.Variable or an array, got {type(value).__name__}: {value!r}"
    )


def _inputs(args: Any, input_names: Any):
    """(positional args, keyword args, [(ONNX name, Variable)]) for ``args``."""
    if isinstance(args, dict):
        keys = list(args)
        variables = [_as_variable(args[k], f"args[{k!r}]") for k in keys]
        call = ((), dict(zip(keys, variables)))
    elif isinstance(args, (list, tuple)):
        keys = list(range(len(args)))
        variables = [_as_variable(a, f"args[{i}]") for i, a in enumerate(args)]
        call = (tuple(variables), {})
    else:
        keys = [0]
        variables = [_as_variable(args, "args")]
        call = ((variables[0],), {})
    if input_names is None:
        names = [f"Input_{i}" for i in range(len(variables))]
    elif isinstance(input_names, dict):
        missing = [k for k in keys if k not in input_names]
        if missing or len(input_names) != len(keys):
            raise ValueError(
                f"input_names keys must be the argument keys {keys}, got {list(input_names)}"
            )
        names = [input_names[k] for k in keys]
    else:
        names = [input_names] if isinstance(input_names, str) else list(input_names)
        if len(names) != len(variables):
            raise ValueError(
                f"input_names has {len(names)} names for {len(variables)} inputs: {names}"
            )
    return call[0], call[1], list(zip(names, variables))


def _outputs(outputs: Any, output_names: Any) -> list[tuple[str | None, chainer.Variable]]:
    if isinstance(outputs, chainer.Variable):
        keys, values = [0], [outputs]
    elif isinstance(outputs, (list, tuple)):
        keys, values = list(range(len(outputs))), list(outputs)
    elif isinstance(outputs, dict):
        keys, values = list(outputs), list(outputs.values())
    else:
        raise RuntimeError(
            f"Unexpected output type from the model: {type(outputs).__name__}; expected a "
            "chainer.Variable, or a list, tuple or dict of them"
        )
    for key, value in zip(keys, values):
        if not isinstance(value, chainer.Variable):
            raise ValueError(
                f"model output [{key!r}] must be Chainer Variable, got {type(value).__name__}"
            )
    if output_names is None:
        names = [None] * len(values)
    elif isinstance(output_names, dict):
        if set(output_names) != set(keys):
            raise ValueError(f"output_names keys must be {keys}, got {list(output_names)}")
        names = [output_names[k] for k in keys]
    else:
        names = [output_names] if isinstance(output_names, str) else list(output_names)
        if len(names) != len(values):
            raise ValueError(
                f"output_names has {len(names)} names for {len(values)} outputs: {names}"
            )
    return list(zip(names, values))


def _is_shape(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(
        isinstance(d, (int, str, np.integer)) or d is None for d in value
    )


def _input_shapes(input_shapes: Any, args: Any, inputs) -> list[list[Any] | None]:
    """One shape (or None) per input from the ``input_shapes`` option; ValueError on mismatch."""
    if input_shapes is None:
        return [None] * len(inputs)
    keys = list(args) if isinstance(args, dict) else None
    if isinstance(input_shapes, dict):
        if keys is None or set(input_shapes) != set(keys):
            raise ValueError(
                f"input_shapes keys {list(input_shapes)} must be the argument keys {keys}"
            )
        shapes = [input_shapes[k] for k in keys]
    elif _is_shape(input_shapes) and len(inputs) == 1:
        shapes = [input_shapes]
    elif isinstance(input_shapes, (list, tuple)) and all(_is_shape(s) for s in input_shapes):
        shapes = list(input_shapes)
    else:
        raise ValueError(
            f"input_shapes must be a shape tuple, or a list/dict of them, got {input_shapes!r}"
        )
    if len(shapes) != len(inputs):
        raise ValueError(f"input_shapes has {len(shapes)} shapes for {len(inputs)} inputs")
    for shape, (name, variable) in zip(shapes, inputs):
        if len(shape) != variable.ndim:
            raise ValueError(
                f"input_shapes for {name} has {len(shape)} dims, the input has shape "
                f"{variable.shape}"
            )
        for given, actual in zip(shape, variable.shape):
            if isinstance(given, (int, np.integer)) and given != actual:
                raise ValueError(
                    f"input_shapes for {name} is {tuple(shape)}, the input has shape "
                    f"{variable.shape}"
                )
    return [list(s) for s in shapes]


def _check_opset(opset_version: int | None) -> int:
    if opset_version is None:
        return MAXIMUM_OPSET_VERSION
    if not isinstance(opset_version, (int, np.integer)) or not (
        MINIMUM_OPSET_VERSION <= opset_version <= MAXIMUM_OPSET_VERSION
    ):
        raise ValueError(
            f"opset_version must be an int from {MINIMUM_OPSET_VERSION} to "
            f"{MAXIMUM_OPSET_VERSION}, got {opset_version!r}"
        )
    return int(opset_version)


def _warn_uninitialized(model: Any) -> None:
    if not isinstance(model, chainer.Link):
        return
    missing = [path for path, p in model.namedparams() if p.array is None]
    if missing:
        warnings.warn(
            f"parameters {missing} are not initialized (their links were not called); they are "
            "left out of the ONNX graph",
            UserWarning,
            stacklevel=3,
        )


def _fill_tensor(tensor: onnx.TensorProto, name: str, array: np.ndarray) -> None:
    """Write ``array`` into ``tensor`` in place (one copy of the bytes, none of the proto)."""
    array = np.ascontiguousarray(array)
    tensor.name = name
    tensor.data_type = mapping.onnx_type(array.dtype)
    tensor.dims.extend(array.shape)
    tensor.raw_data = array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()


def _check(model: onnx.ModelProto) -> None:
    unknown = sorted(
        {
            n.op_type
            for n in model.graph.node
            if n.domain in ("", "ai.onnx") and not onnx.defs.has(n.op_type)
        }
    )
    if unknown:
        warnings.warn(
            f"operators {unknown} are not ONNX standard operators in the default domain; the "
            "model is not checked with onnx.checker",
            UserWarning,
            stacklevel=3,
        )
        return
    onnx.checker.check_model(model)


def export(
    model: Any,
    args: Any,
    filename: Any = None,
    export_params: bool = True,
    graph_name: str = "Graph",
    save_text: bool = False,
    opset_version: int | None = None,
    input_names: Any = None,
    output_names: Any = None,
    train: bool = False,
    return_named_inout: bool = False,
    external_converters: dict[str, Any] | None = None,
    external_opset_imports: dict[str, int] | None = None,
    input_shapes: Any = None,
    no_testcase: bool = False,
):
    """Export a Chainer model (any callable) to ONNX by running it once on ``args``.

    Args:
        model: A ``chainer.Chain`` (or any callable taking ``args``).
        args: Input array/Variable, a list/tuple of them (positional arguments), or a dict
            (keyword arguments).
        filename: Path or writable binary file object; ``None`` writes nothing.
        export_params: Store parameters as initializers (``False``: as graph inputs).
        graph_name: Name of the ONNX graph.
        save_text: Also write ``<filename>.txt`` with the readable model.
        opset_version: Opset of the default domain (default: ``MAXIMUM_OPSET_VERSION``).
        input_names: Names of the inputs (list, or dict keyed like ``args``).
        output_names: Names of the outputs (list, or dict keyed like the model's dict output).
        train: Run the model with ``chainer.config.train`` set to this.
        return_named_inout: Also return ``{input name: array}`` and ``{output name: Variable}``.
        external_converters: ``{function name: converter(params)}``; overrides built-ins.
        external_opset_imports: ``{domain: version}`` of custom domains the converters use.
        input_shapes: Shapes to declare for the inputs; a ``str`` dim is symbolic (dynamic),
            e.g. ``('batch', 3, 224, 224)``.
        no_testcase: Silence the deprecation warning of exporting a file without test data
            (use :func:`onnx_chainer.export_testcase`).

    Returns:
        The ``onnx.ModelProto`` (with ``return_named_inout``, ``(model, inputs, outputs)``).
    """
    opset_version = _check_opset(opset_version)
    call_args, call_kwargs, inputs = _inputs(args, input_names)
    shapes = _input_shapes(input_shapes, args, inputs)
    if filename is not None and not no_testcase:
        warnings.warn(
            "Exporting ONNX without test data is deprecated; use onnx_chainer.export_testcase",
            DeprecationWarning,
            stacklevel=2,
        )

    hook = RetainInputHook()
    with (
        chainer.using_config("train", train),
        chainer.using_config("enable_backprop", True),
        _out_of_graph_functions_as_nodes(),
        hook,
    ):
        raw_outputs = model(*call_args, **call_kwargs)
    outputs = _outputs(raw_outputs, output_names)
    _warn_uninitialized(model)

    context = Context(model, opset_version)
    context.traced_functions = list(hook.functions)
    for name, variable in inputs:
        context.set_name(variable, name)
        context.set_name(variable.array, name)
    input_nodes = {id(v.node) for _, v in inputs}
    recorded = {id(f): i for i, f in enumerate(hook.functions)}
    functions = reachable_functions([v for _, v in outputs], recorded, input_nodes)

    graph = Graph(context, opset_version, external_converters)
    pinned: set[int] = set()
    for name, variable in outputs:
        node_id = id(variable.node)
        if name is not None and node_id not in input_nodes and node_id not in pinned:
            context.set_name(variable, name)
            pinned.add(node_id)
    graph.convert(functions, hook.input_arrays)

    output_infos: list[onnx.ValueInfoProto] = []
    used = {name for name, _ in inputs}
    dynamic = any(s is not None for s in shapes)
    for index, (name, variable) in enumerate(outputs):
        source = context.get_name(variable)
        target = name or source
        if target in used:
            target = f"{target}_{index}"
        if target != source or source in used:
            graph.nodes.append(onnx_helper.make_node("Identity", [source], [target], name=target))
        used.add(target)
        out_shape = [None] * variable.ndim if dynamic else None
        output_infos.append(value_info(target, variable.array, out_shape))

    input_infos = [value_info(n, v.array, s) for (n, v), s in zip(inputs, shapes)]
    parameters = context.parameters
    as_inputs = [n for n in parameters if not export_params and n in context.model_param_names]
    # The graph is checked with every parameter as a typed input; the tensors are added after,
    # so the checker does not serialize (copy) hundreds of MB of weights.
    parameter_infos = [value_info(n, a) for n, a in parameters.items()]
    onnx_graph = onnx.helper.make_graph(
        graph.nodes, graph_name, input_infos + parameter_infos, output_infos
    )
    opset_imports = [onnx.helper.make_opsetid("", opset_version)]
    for domain, version in (external_opset_imports or {}).items():
        opset_imports.append(onnx.helper.make_opsetid(domain, version))
    onnx_model = onnx.helper.make_model(
        onnx_graph,
        opset_imports=opset_imports,
        producer_name="Chainer",
        producer_version=chainer.__version__,
    )
    onnx_model.ir_version = max(
        4, onnx.helper.find_min_ir_version_for([opset_imports[0]], ignore_unknown=True)
    )
    _check(onnx_model)
    del onnx_model.graph.input[len(input_infos) :]
    onnx_model.graph.input.extend(value_info(n, parameters[n]) for n in as_inputs)
    for name, array in parameters.items():
        if name not in as_inputs:
            _fill_tensor(onnx_model.graph.initializer.add(), name, array)

    if filename is not None:
        data = onnx_model.SerializeToString()
        if isinstance(filename, (str, bytes)) or hasattr(filename, "__fspath__"):
            path = str(filename if not isinstance(filename, bytes) else filename.decode())
            onnx_helper.write_bytes_atomically(path, data)
            if save_text:
                onnx_helper.write_bytes_atomically(path + ".txt", str(onnx_model).encode())
        else:
            filename.write(data)
    if return_named_inout:
        named_inputs = collections.OrderedDict((n, v.array) for n, v in inputs)
        named_outputs = collections.OrderedDict(
            (info.name, v) for info, (_, v) in zip(output_infos, outputs)
        )
        return onnx_model, named_inputs, named_outputs
    return onnx_model


def convert_parameter(parameter: Any, context: Context) -> onnx.TensorProto:
    """``TensorProto`` of a ``chainer.Parameter`` (or array), named as ``context`` names it."""
    array = parameter.array if isinstance(parameter, chainer.Variable) else parameter
    array = np.asarray(chainer.backend.CpuDevice().send(array))
    name = context.param_name(parameter) or context.get_name(parameter)
    return onnx.numpy_helper.from_array(array, name)
