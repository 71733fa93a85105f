"""Conformance test cases for functions and links: subclass, describe, get every check.

``FunctionTestCase`` checks forward values, first-order gradients and second-order gradients of
a function on every backend injected by :func:`chainer.testing.inject_backend_tests`;
``LinkTestCase`` does the same for a link and its parameters; ``LinkInitializersTestCase``
checks that a link honours the initializers it is given.
"""

from __future__ import annotations

import contextlib
import typing as tp
import unittest
from collections.abc import Iterator

import numpy

import chainer
from chainer import gradient_check
from chainer.testing.array import assert_allclose

_MAX_DODGE_TRIES = 32


def _start(test_case, test_name: str, backend_config) -> None:
    """Expose the running test as v7 did (``test_name``, ``backend_config``), then call the
    ``before_test`` hook, which may read them."""
    test_case.test_name = test_name
    test_case.backend_config = backend_config
    test_case.before_test(test_name)


class FunctionTestError(AssertionError):
    """A check of :class:`FunctionTestCase` failed."""


class LinkTestError(FunctionTestError):
    """A check of :class:`LinkTestCase` or :class:`LinkInitializersTestCase` failed."""


@contextlib.contextmanager
def _failing_as(error_class: type[FunctionTestError], check: str) -> Iterator[None]:
    """Report a failed comparison of ``check`` as ``error_class`` (v7's test errors)."""
    try:
        yield
    except FunctionTestError:
        raise
    except AssertionError as error:
        raise error_class(f"{check} failed:\n{error}") from error


class InitializerArgument:
    """For ``get_initializers``: what is passed to the link, and what it should act like.

    Args:
        argument_value: The value given to ``create_link`` (e.g. ``None`` for the default).
        expected_initializer: The initializer (or array/scalar) whose result is expected.
    """

    def __init__(self, argument_value, expected_initializer) -> None:
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer


def _as_tuple(value, what: str) -> tuple:
    if isinstance(value, tuple):
        return value
    if isinstance(value, list):
        return tuple(value)
    raise FunctionTestError(f"{what} must return a tuple, got {type(value).__name__}")


def _check_arrays(arrays: tuple, what: str) -> None:
    for i, a in enumerate(arrays):
        if not isinstance(a, numpy.ndarray):
            raise FunctionTestError(
                f"{what} must return NumPy arrays; item {i} is a {type(a).__name__}"
            )


def _check_variables(values: tuple, what: str) -> None:
    for i, v in enumerate(values):
        if not isinstance(v, chainer.Variable):
            raise FunctionTestError(
                f"{what} must return Variables; item {i} is a {type(v).__name__}"
            )


def _make_contiguous(arrays, contiguous):
    """``contiguous='C'``: C-contiguous copies; ``None`` (v7's default): non-contiguous
    copies, so that functions are tested on strided arrays too."""
    if contiguous == "C":
        return tuple(numpy.ascontiguousarray(a) for a in arrays)
    if contiguous is not None:
        raise ValueError(f"contiguous must be None or 'C', got {contiguous!r}")
    return tuple(_non_contiguous_copy(a) for a in arrays)


def _non_contiguous_copy(array):
    if not isinstance(array, numpy.ndarray) or array.size <= 1:
        return array  # a single element has no layout to vary
    buffer = numpy.empty(array.shape[:-1] + (2 * array.shape[-1],), array.dtype)
    view = buffer[..., ::2]
    view[...] = array
    return view


def _random_like(arrays: tuple) -> tuple:
    rng = numpy.random
    return tuple(
        None if a is None else rng.uniform(-1, 1, a.shape).astype(a.dtype) for a in arrays
    )


def _own_option_dicts(test) -> None:
    """Give the test its own copy of each ``check_*_options`` dict: tests update them in
    ``setUp`` (as in v7), which must not change the class's dict that other tests share."""
    for name in dir(test):
        if name.startswith("check_") and name.endswith("_options"):
            value = getattr(test, name)
            if isinstance(value, dict):
                setattr(test, name, dict(value))


class FunctionTestBase:
    """What ``FunctionTestCase`` needs from a subclass and what it provides."""

    skip_forward_test = False
    skip_backward_test = False
    skip_double_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype: tp.Any = numpy.float64
    contiguous = None
    check_forward_options: dict = {}
    check_backward_options: dict = {}
    check_double_backward_options: dict = {}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _own_option_dicts(self)

    def before_test(self, test_name: str) -> None:
        """Hook called before each test with its name (``'test_forward'``, ...)."""

    def generate_inputs(self) -> tuple:
        """Return the input arrays (NumPy) of the function under test."""
        raise NotImplementedError("generate_inputs() must be implemented")

    def forward(self, inputs: tuple, device) -> tuple:
        """Apply the function to the input variables; return a tuple of output variables."""
        raise NotImplementedError("forward() must be implemented")

    def forward_expected(self, inputs: tuple) -> tuple:
        """Compute the expected outputs from the input arrays with NumPy."""
        raise NotImplementedError("forward_expected() must be implemented")

    def generate_grad_outputs(self, outputs_template: tuple) -> tuple:
        """Gradients of the outputs used by the backward tests (random by default)."""
        return _random_like(outputs_template)

    def generate_grad_grad_inputs(self, inputs_template: tuple) -> tuple:
        """Gradients of the input gradients used by the double-backward test."""
        return _random_like(inputs_template)

    # -- the checks -------------------------------------------------------------------------

    def _inputs(self) -> tuple:
        inputs = _as_tuple(self.generate_inputs(), "generate_inputs()")
        _check_arrays(inputs, "generate_inputs()")
        return _make_contiguous(inputs, self.contiguous)

    def _forward_on(self, inputs: tuple, backend_config) -> tuple:
        device = backend_config.device
        variables = tuple(chainer.Variable(device.send(x)) for x in inputs)
        with backend_config:
            outputs = _as_tuple(self.forward(variables, device), "forward()")
        _check_variables(outputs, "forward()")
        return outputs

    def run_test_forward(self, backend_config) -> None:
        _start(self, "test_forward", backend_config)
        inputs = self._inputs()
        expected = _as_tuple(
            self.forward_expected(tuple(x.copy() for x in inputs)), "forward_expected()"
        )
        _check_arrays(expected, "forward_expected()")
        outputs = self._forward_on(inputs, backend_config)
        if len(outputs) != len(expected):
            raise FunctionTestError(
                f"forward() returned {len(outputs)} outputs but forward_expected() returned "
                f"{len(expected)}"
            )
        for i, (y, e) in enumerate(zip(outputs, expected)):
            if y.shape != e.shape or y.dtype != e.dtype:
                raise FunctionTestError(
                    f"output {i}: expected shape {e.shape} and dtype {e.dtype}, got "
                    f"shape {y.shape} and dtype {y.dtype}"
                )
            with _failing_as(FunctionTestError, f"forward (output {i})"):
                assert_allclose(e, y.array, **self.check_forward_options)

    def _differentiable_inputs(self, backend_config) -> tuple:
        """Inputs, regenerated while a kink lies within reach of the finite differences.

        The kink is looked for along one random unit direction of all floating inputs (as
        the backward check itself differentiates), so the cost is three forward passes per
        try whatever the input size.
        """
        inputs = self._inputs()
        if not self.dodge_nondifferentiable:
            return inputs
        eps = self.check_backward_options.get("eps", 1e-3)
        for _ in range(_MAX_DODGE_TRIES):
            if self._is_differentiable_at(inputs, backend_config, eps):
                return inputs
            inputs = self._inputs()
        raise FunctionTestError(
            f"could not generate differentiable inputs in {_MAX_DODGE_TRIES} tries"
        )

    def _is_differentiable_at(self, inputs: tuple, backend_config, eps: float) -> bool:
        outputs = self._forward_on(inputs, backend_config)
        grads = tuple(numpy.ones(y.shape, numpy.float64) for y in outputs)
        directions = [
            numpy.random.normal(size=x.shape) if x.dtype.kind == "f" else None for x in inputs
        ]
        norm = numpy.sqrt(sum(float((d * d).sum()) for d in directions if d is not None))
        step = numpy.zeros((), numpy.float64)  # perturbed in place by numerical_grad
        device = backend_config.device
        # Probed in numerical_grad_dtype, as the backward check differentiates (float16 steps
        # would look like kinks everywhere).
        probe_dtype = self.numerical_grad_dtype

        def f():
            shifted = tuple(
                x
                if d is None
                else (x.astype(numpy.float64) + step * d / (norm or 1.0)).astype(
                    probe_dtype or x.dtype
                )
                for x, d in zip(inputs, directions)
            )
            with chainer.no_backprop_mode(), backend_config:
                ys = self.forward(tuple(chainer.Variable(device.send(s)) for s in shifted), device)
            return tuple(_host(y.array) for y in _as_tuple(ys, "forward()"))

        try:
            gradient_check.numerical_grad(f, [step], grads, eps=eps, detect_nondifferentiable=True)
        except gradient_check.NondifferentiableError:
            return False
        return True

    def run_test_backward(self, backend_config) -> None:
        _start(self, "test_backward", backend_config)
        inputs = self._differentiable_inputs(backend_config)
        outputs = self._forward_on(inputs, backend_config)
        grad_outputs = _as_tuple(
            self.generate_grad_outputs(tuple(_host(y.array) for y in outputs)),
            "generate_grad_outputs()",
        )
        device = backend_config.device

        def f(*xs):
            with backend_config:
                return _as_tuple(self.forward(xs, device), "forward()")

        options = {"dtype": self.numerical_grad_dtype, **self.check_backward_options}
        with _failing_as(FunctionTestError, "backward"):
            gradient_check.check_backward(
                f, device.send(inputs), device.send(grad_outputs), **options
            )

    def run_test_double_backward(self, backend_config) -> None:
        _start(self, "test_double_backward", backend_config)
        inputs = self._differentiable_inputs(backend_config)
        outputs = self._forward_on(inputs, backend_config)
        grad_outputs = _as_tuple(
            self.generate_grad_outputs(tuple(_host(y.array) for y in outputs)),
            "generate_grad_outputs()",
        )
        grad_grad_inputs = _as_tuple(
            self.generate_grad_grad_inputs(inputs), "generate_grad_grad_inputs()"
        )
        device = backend_config.device
        # Outputs given no gradient (None) take no part in the first-order gradient, so the
        # check differentiates the others only.
        given = [i for i, gy in enumerate(grad_outputs) if gy is not None]
        kept = None if len(given) in (0, len(grad_outputs)) else given
        if kept is not None:
            grad_outputs = tuple(grad_outputs[i] for i in kept)

        def f(*xs):
            with backend_config:
                ys = _as_tuple(self.forward(xs, device), "forward()")
            return ys if kept is None else tuple(ys[i] for i in kept)

        options = {"dtype": self.numerical_grad_dtype, **self.check_double_backward_options}
        with _failing_as(FunctionTestError, "double backward"):
            gradient_check.check_double_backward(
                f,
                device.send(inputs),
                device.send(grad_outputs),
                device.send(
                    tuple(g for g, x in zip(grad_grad_inputs, inputs) if x.dtype.kind == "f")
                ),
                **options,
            )


def _host(array):
    return chainer.backend.CpuDevice().send(array)


class FunctionTestCase(FunctionTestBase, unittest.TestCase):
    """Forward, backward and double-backward tests of a function on injected backends.

    Implement ``generate_inputs()``, ``forward(inputs, device)`` and
    ``forward_expected(inputs)``; set ``skip_*_test``, ``check_*_options``,
    ``dodge_nondifferentiable`` as needed; decorate with
    :func:`chainer.testing.inject_backend_tests`.

    Example:
        >>> from chainer import testing
        >>> @testing.inject_backend_tests(None, [{}])
        ... class TestSquare(testing.FunctionTestCase):
        ...     def generate_inputs(self):
        ...         return numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32),
        ...     def forward(self, inputs, device):
        ...         x, = inputs
        ...         return x * x,
        ...     def forward_expected(self, inputs):
        ...         x, = inputs
        ...         return x * x,
    """

    def test_forward(self, backend_config):
        """The outputs equal ``forward_expected`` within ``check_forward_options``."""
        if self.skip_forward_test:
            raise unittest.SkipTest("skip_forward_test is set")
        self.run_test_forward(backend_config)

    def test_backward(self, backend_config):
        """First-order gradients match a numerical estimate."""
        if self.skip_backward_test:
            raise unittest.SkipTest("skip_backward_test is set")
        self.run_test_backward(backend_config)

    def test_double_backward(self, backend_config):
        """Second-order gradients match a numerical estimate."""
        if self.skip_double_backward_test:
            raise unittest.SkipTest("skip_double_backward_test is set")
        self.run_test_double_backward(backend_config)


class _LinkTestBase:
    """Shared parts of the link test cases."""

    param_names: tp.Sequence[str] = ()
    contiguous = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _own_option_dicts(self)

    def before_test(self, test_name: str) -> None:
        """Hook called before each test with its name."""

    def generate_params(self) -> tuple:
        """Initial values of the link's parameters (arrays or initializers), in
        ``param_names`` order."""
        raise NotImplementedError("generate_params() must be implemented")

    def create_link(self, initializers: tuple):
        """Create the link under test from ``initializers`` (in ``param_names`` order)."""
        raise NotImplementedError("create_link() must be implemented")

    def generate_inputs(self) -> tuple:
        """Return the input arrays (NumPy) of the link."""
        raise NotImplementedError("generate_inputs() must be implemented")

    def forward(self, link, inputs: tuple, device) -> tuple:
        """Call the link on the input variables; return a tuple of output variables."""
        out = link(*inputs)
        return (out,) if isinstance(out, chainer.Variable) else _as_tuple(out, "forward()")

    def _link_on(self, backend_config, initializers: tuple):
        link = self.create_link(initializers)
        if not isinstance(link, chainer.Link):
            raise TypeError(f"create_link() must return a chainer.Link, got {type(link).__name__}")
        link.to_device(backend_config.device)
        return link

    def _params_of(self, link) -> list:
        params = dict(link.namedparams())
        missing = [n for n in self.param_names if "/" + n not in params]
        if missing:
            raise LinkTestError(
                f"param_names {missing} are not parameters of the link; it has {sorted(params)}"
            )
        return [params["/" + n] for n in self.param_names]


class LinkTestCase(_LinkTestBase, unittest.TestCase):
    """Forward and backward tests of a link (inputs and parameters) on injected backends.

    Implement ``param_names``, ``generate_params()``, ``create_link(initializers)``,
    ``generate_inputs()`` and ``forward_expected(link, inputs)``.
    """

    skip_forward_test = False
    skip_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype: tp.Any = numpy.float64
    check_forward_options: dict = {}
    check_backward_options: dict = {}

    def forward_expected(self, link, inputs: tuple) -> tuple:
        """Expected outputs, computed with NumPy from the link's parameters."""
        raise NotImplementedError("forward_expected() must be implemented")

    def generate_grad_outputs(self, outputs_template: tuple) -> tuple:
        return _random_like(outputs_template)

    def _call(self, link, xs, backend_config):
        with backend_config:
            out = self.forward(link, xs, backend_config.device)
        outputs = (out,) if isinstance(out, chainer.Variable) else _as_tuple(out, "forward()")
        _check_variables(outputs, "forward()")
        return outputs

    def test_forward(self, backend_config):
        """The link's outputs equal ``forward_expected``."""
        if self.skip_forward_test:
            raise unittest.SkipTest("skip_forward_test is set")
        _start(self, "test_forward", backend_config)
        params = _as_tuple(self.generate_params(), "generate_params()")
        inputs = _make_contiguous(
            _as_tuple(self.generate_inputs(), "generate_inputs()"), self.contiguous
        )
        link = self._link_on(backend_config, params)
        device = backend_config.device
        outputs = self._call(
            link, tuple(chainer.Variable(device.send(x)) for x in inputs), backend_config
        )
        # After the call, as in v7: lazily initialized parameters exist by then. The expected
        # values are NumPy maths, so the link's parameters are on the CPU for them.
        link.to_device(chainer.backend.CpuDevice())
        expected = _as_tuple(
            self.forward_expected(link, tuple(x.copy() for x in inputs)), "forward_expected()"
        )
        for i, (y, e) in enumerate(zip(outputs, expected)):
            if y.shape != e.shape or y.dtype != e.dtype:
                raise FunctionTestError(
                    f"output {i}: expected shape {e.shape} and dtype {e.dtype}, got "
                    f"shape {y.shape} and dtype {y.dtype}"
                )
            with _failing_as(LinkTestError, f"forward (output {i})"):
                assert_allclose(e, y.array, **self.check_forward_options)

    def test_backward(self, backend_config):
        """Gradients of inputs and parameters match a numerical estimate."""
        if self.skip_backward_test:
            raise unittest.SkipTest("skip_backward_test is set")
        _start(self, "test_backward", backend_config)
        params = _as_tuple(self.generate_params(), "generate_params()")
        inputs = _make_contiguous(
            _as_tuple(self.generate_inputs(), "generate_inputs()"), self.contiguous
        )
        link = self._link_on(backend_config, params)
        device = backend_config.device
        outputs = self._call(
            link, tuple(chainer.Variable(device.send(x)) for x in inputs), backend_config
        )
        grad_outputs = _as_tuple(
            self.generate_grad_outputs(tuple(_host(y.array) for y in outputs)),
            "generate_grad_outputs()",
        )

        def f(*xs):
            return self._call(link, xs, backend_config)

        options = {"dtype": self.numerical_grad_dtype, **self.check_backward_options}
        with _failing_as(LinkTestError, "backward"):
            gradient_check.check_backward(
                f,
                device.send(inputs),
                device.send(grad_outputs),
                params=self._params_of(link),
                **options,
            )


class LinkInitializersTestCase(_LinkTestBase, unittest.TestCase):
    """Checks that a link's parameters come out of the initializers it was given.

    Implement ``param_names``, ``create_link(initializers)`` and ``get_initializers()``
    (per parameter, a list of initializers to try: arrays, scalars or initializer objects).
    """

    check_initializers_options: dict = {}

    def get_initializers(self) -> tuple:
        raise NotImplementedError("get_initializers() must be implemented")

    def generate_inputs(self) -> tuple:
        return ()

    def test_initializers(self, backend_config):
        """Each parameter equals the array its initializer produces for its shape/dtype."""
        _start(self, "test_initializers", backend_config)
        per_param = _as_tuple(self.get_initializers(), "get_initializers()")
        if len(per_param) != len(self.param_names):
            raise LinkTestError(
                f"get_initializers() returned {len(per_param)} lists for "
                f"{len(self.param_names)} param_names"
            )
        defaults = [_argument(candidates[0]) for candidates in per_param]
        for index, candidates in enumerate(per_param):
            for initializer in candidates:
                chosen = list(defaults)
                chosen[index] = _argument(initializer)
                link = self._link_on(backend_config, tuple(chosen))
                inputs = self.generate_inputs()
                if inputs:
                    device = backend_config.device
                    with backend_config:
                        link(*(chainer.Variable(device.send(x)) for x in inputs))
                param = self._params_of(link)[index]
                if isinstance(initializer, InitializerArgument):
                    initializer = initializer.expected_initializer
                expected = _expected_array(initializer, param)
                if expected is not None:
                    with _failing_as(LinkTestError, f"initializer of parameter {index}"):
                        assert_allclose(
                            expected, _host(param.array), **self.check_initializers_options
                        )


def _argument(candidate):
    if isinstance(candidate, InitializerArgument):
        return candidate.argument_value
    return candidate


def _expected_array(initializer, param):
    """What ``initializer`` gives for ``param``'s shape and dtype (None if random)."""
    if isinstance(initializer, numpy.ndarray):
        return initializer.astype(param.dtype)
    if numpy.isscalar(initializer):
        return numpy.full(param.shape, initializer, dtype=param.dtype)
    from chainer import initializers

    if isinstance(initializer, (initializers.Constant, initializers.Identity)):
        array = numpy.empty(param.shape, dtype=param.dtype)
        initializer(array)
        return array
    return None
