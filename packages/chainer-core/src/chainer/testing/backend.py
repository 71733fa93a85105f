"""Run the same test on several backends (NumPy, CuPy, ChainerX, iDeep).

:func:`inject_backend_tests` generates one test class per :class:`BackendConfig`; each chosen
test method receives that config as its ``backend_config`` argument. The config knows its device
(``backend_config.device``, ``.xp``), sends arrays there (``get_array``) and, used as a context
manager, sets the matching configuration keys (``use_cudnn``, ``use_ideep``, ...).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import re
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from chainer.testing import _bundle, _marks

_TERNARY = ("always", "auto", "never")
_NOT_IDENTIFIER = re.compile(r"\W")

# Default of every key a params dict may set, in the order names are built from them.
_DEFAULTS: dict[str, Any] = {
    "use_chainerx": False,
    "chainerx_device": None,
    "use_cuda": False,
    "cuda_device": None,
    "use_cudnn": "never",
    "cudnn_deterministic": False,
    "autotune": False,
    "cudnn_fast_batch_normalization": False,
    "use_ideep": "never",
}

# Keys that are also ``chainer.config`` entries, set while the config is entered.
_CONFIG_KEYS = (
    "use_cudnn",
    "cudnn_deterministic",
    "autotune",
    "cudnn_fast_batch_normalization",
    "use_ideep",
)


def _check_params(params: Any) -> None:
    if not isinstance(params, dict):
        raise TypeError(f"BackendConfig expects a dict of params, got {type(params).__name__}")
    unknown = sorted(set(params) - set(_DEFAULTS))
    if unknown:
        raise ValueError(
            f"BackendConfig: unknown keys {unknown}; the keys are {sorted(_DEFAULTS)}"
        )
    for key in ("use_cudnn", "use_ideep"):
        value = params.get(key, "never")
        if not isinstance(value, bool) and not (isinstance(value, str) and value in _TERNARY):
            # v7 took any value and only compared it with 'never' (one of its own suites
            # passes a list), so a module of such tests still loads: a warning, no error.
            warnings.warn(
                f"BackendConfig: {key} should be one of {_TERNARY} or a bool, got {value!r}; "
                "it counts as not 'never'",
                stacklevel=3,
            )
    if params.get("use_chainerx") and params.get("use_cuda"):
        raise ValueError(
            "BackendConfig: use_chainerx and use_cuda exclude each other; for ChainerX on a GPU "
            "give use_chainerx=True, chainerx_device='cuda:0'"
        )
    if bool(params.get("use_chainerx")) != (params.get("chainerx_device") is not None):
        raise ValueError(
            "BackendConfig: use_chainerx=True and chainerx_device (e.g. 'native:0') go together, "
            f"got use_chainerx={params.get('use_chainerx')!r}, "
            f"chainerx_device={params.get('chainerx_device')!r}"
        )
    if params.get("cuda_device") is not None and not params.get("use_cuda"):
        raise ValueError(
            f"BackendConfig: cuda_device={params['cuda_device']!r} needs use_cuda=True"
        )


class BackendConfig:
    """One backend a test runs on, described by a dict of params.

    Args:
        params: Any of ``use_chainerx`` with ``chainerx_device`` (``'native:0'``, ``'cuda:0'``),
            ``use_cuda`` with optional ``cuda_device`` (default 0), ``use_cudnn`` and
            ``use_ideep`` (``'always'``, ``'auto'``, ``'never'``, or ``True``/``False`` for
            ``'always'``/``'never'``; default ``'never'``; any other value warns and, as in
            v7, counts as not ``'never'``),
            ``cudnn_deterministic``, ``autotune``, ``cudnn_fast_batch_normalization``
            (default ``False``). ``{}`` is the NumPy backend. Every key is also an attribute.

    Example:
        With ``{'use_chainerx': True, 'chainerx_device': 'native:0'}`` the same lines run on
        ChainerX arrays; ``{}`` is the NumPy backend:

        >>> config = BackendConfig({})
        >>> x = config.get_array(numpy.array([-1, 2], numpy.float32))
        >>> with config:
        ...     F.relu(x).array
        array([0., 2.], dtype=float32)
    """

    # Set from the params (or _DEFAULTS) in __init__.
    use_chainerx: bool
    chainerx_device: str | None
    use_cuda: bool
    cuda_device: int | None
    use_cudnn: str
    cudnn_deterministic: bool
    autotune: bool
    cudnn_fast_batch_normalization: bool
    use_ideep: str

    def __init__(self, params: dict[str, Any]) -> None:
        _check_params(params)
        self._params = dict(params)
        for key, default in _DEFAULTS.items():
            setattr(self, key, params.get(key, default))
        for key in ("use_cudnn", "use_ideep"):  # v7 suites also write True / False
            value = getattr(self, key)
            if isinstance(value, bool):
                setattr(self, key, "always" if value else "never")
        if self.use_cuda and self.cuda_device is None:
            self.cuda_device = 0
        self._device = None
        self._entered: list[contextlib.ExitStack] = []

    def __repr__(self) -> str:
        given = " ".join(f"{key}={value!r}" for key, value in self._ordered_params())
        return f"<BackendConfig {given}>" if given else "<BackendConfig numpy>"

    def _ordered_params(self) -> list[tuple[str, Any]]:
        return [(key, self._params[key]) for key in _DEFAULTS if key in self._params]

    @property
    def device(self):
        """The ``chainer.backend.Device`` the test runs on."""
        if self._device is None:
            from chainer import backend

            if self.use_chainerx:
                spec = self.chainerx_device
            elif self.use_cuda:
                spec = f"@cupy:{self.cuda_device}"
            elif self.use_ideep != "never":
                spec = "@intel64"
            else:
                spec = "@numpy"
            self._device = backend.get_device(spec)
        return self._device

    @property
    def xp(self):
        """The array module of the device: ``numpy``, ``cupy`` or ``chainerx``."""
        return self.device.xp

    def get_func_str(self) -> str:
        """A name fragment for this backend, usable in Python identifiers.

        Example:
            >>> BackendConfig({'use_cuda': True, 'cuda_device': 1}).get_func_str()
            'use_cuda_true__cuda_device_1'
        """
        parts = []
        for key, value in self._ordered_params():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            parts.append(key + "_" + _NOT_IDENTIFIER.sub("_", text))
        return "__".join(parts) or "numpy"

    def get_pytest_marks(self) -> list[Any]:
        """The pytest marks of tests on this backend: ``gpu`` and ``chainerx`` markers, and
        skips for the hardware or packages this machine lacks."""
        marks: list[Any] = []
        feature = "chainer.testing.BackendConfig.get_pytest_marks"
        if self.use_chainerx:
            marks += _marks.requirement_marks(
                feature,
                "chainerx",
                _marks.chainerx_available(),
                "needs ChainerX (the chainerx package with its ndarray is not installed)",
            )
        gpu_index = self._gpu_index()
        if gpu_index is not None:
            count = _marks.gpu_count()
            marks += _marks.requirement_marks(
                feature,
                "gpu",
                count > gpu_index,
                f"needs CUDA GPU {gpu_index}; {count} can be used ({_marks.GPU_LIMIT_ENV})",
            )
        if self.use_cudnn != "never" and gpu_index is not None:
            marks += _marks.requirement_marks(
                feature, None, _marks.cudnn_available(), "needs cuDNN"
            )
        if self.use_ideep != "never":
            marks += _marks.requirement_marks(
                feature, None, _marks.ideep_available(), "needs iDeep (ideep4py)"
            )
        return marks

    def _gpu_index(self) -> int | None:
        if self.use_cuda:
            return int(self.cuda_device or 0)  # __init__ made None 0
        chainerx_device = self.chainerx_device or ""  # set whenever use_chainerx is
        if self.use_chainerx and chainerx_device.startswith("cuda"):
            _, _, index = chainerx_device.partition(":")
            return int(index or 0)
        return None

    def get_array(self, np_array: Any) -> Any:
        """Send a NumPy array (or a tuple/list of them) to this backend's device."""
        return self.device.send(np_array)

    def __enter__(self) -> BackendConfig:
        import chainer
        from chainer import backend

        with contextlib.ExitStack() as stack:
            for key in _CONFIG_KEYS:
                stack.enter_context(chainer.using_config(key, getattr(self, key)))
            stack.enter_context(backend.using_device(self.device))
            # Keep the contexts open until __exit__; a failure above has closed them already.
            self._entered.append(stack.pop_all())
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._entered.pop().close()


def _inject_into_method(name: str, method: Callable, config: BackendConfig) -> Callable:
    """A method that calls ``method`` with ``config`` as its ``backend_config`` argument."""
    signature = inspect.signature(method)
    parameters = list(signature.parameters.values())
    # A wrapper's ``(self, *args, **kwargs)`` takes the config through ``*args`` (v7).
    if len(parameters) < 2 or parameters[1].kind not in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        inspect.Parameter.VAR_POSITIONAL,
    ):
        raise ValueError(
            f"inject_backend_tests: {method.__qualname__}{signature} must take the backend "
            "config as its argument after self, e.g. def test_x(self, backend_config)"
        )

    @functools.wraps(method)
    def injected(self, *args, **kwargs):
        return method(self, config, *args, **kwargs)

    # Expose the signature without ``backend_config`` so that pytest does not look for a
    # fixture of that name, yet still passes any other fixtures the method asks for.
    del injected.__wrapped__
    injected.__name__ = name  # pytest applies marks only to functions with a real name
    signature = signature.replace(parameters=parameters[:1] + parameters[2:])
    injected.__signature__ = signature  # type: ignore[attr-defined]  # inspect.signature reads it
    return _marks.apply_marks(injected, config.get_pytest_marks())


def _class_cases(base: type, method_names: list[str] | None, configs: list[BackendConfig]):
    available = _bundle.find_test_methods(base)
    if method_names is None:
        injected = available
    else:
        missing = sorted(set(method_names) - set(available))
        if missing:
            raise ValueError(
                f"inject_backend_tests: {base.__name__} has no test methods {missing}"
            )
        injected = list(method_names)
        others = [name for name in available if name not in injected]
        if others:
            # Methods that take no backend config run once, in a class of their own.
            yield f"{base.__name__}_no_backend", dict.fromkeys(injected)
    for config in configs:
        attributes: dict[str, Any] = {name: None for name in available if name not in injected}
        for name in injected:
            attributes[name] = _inject_into_method(name, getattr(base, name), config)
        yield f"{base.__name__}_{config.get_func_str()}", attributes


def _parametrize_function(func: Callable, configs: list[BackendConfig]) -> Callable:
    pytest = _marks.pytest_module("chainer.testing.inject_backend_tests on a test function")
    values = [
        pytest.param(config, marks=config.get_pytest_marks(), id=config.get_func_str())
        for config in configs
    ]
    return pytest.mark.parametrize("backend_config", values)(func)


def inject_backend_tests(
    method_names: list[str] | None, params: list[dict[str, Any]]
) -> Callable[[Any], Any]:
    """Run test methods once per backend, each receiving a :class:`BackendConfig`.

    Args:
        method_names: Names of the test methods that take a ``backend_config`` argument, or
            ``None`` for every method whose name starts with ``test``. The other methods run
            once, in a generated class named ``<Base>_no_backend``.
        params: One dict per backend, as accepted by :class:`BackendConfig`.

    Returns:
        A decorator for a test class (one generated class per backend, named
        ``<Base>_<get_func_str()>``; stacks with :func:`~chainer.testing.parameterize`) or for
        a pytest test function taking ``backend_config`` (then ``method_names`` must be
        ``None``). Tests on GPU or ChainerX backends carry the ``gpu``/``chainerx`` markers
        and are skipped when that hardware or package is missing.

    Example:
        >>> import unittest
        >>> from chainer import testing
        >>> @testing.inject_backend_tests(
        ...     ['test_forward'],
        ...     [{}, {'use_cuda': True}, {'use_chainerx': True, 'chainerx_device': 'native:0'}])
        ... class TestRelu(unittest.TestCase):
        ...     def test_forward(self, backend_config):
        ...         x = backend_config.get_array(numpy.ones(3, numpy.float32))
        ...         with backend_config:
        ...             y = F.relu(x)
    """
    if not (method_names is None or isinstance(method_names, list)):
        raise TypeError(
            "inject_backend_tests: method_names must be None or a list of names, got "
            f"{type(method_names).__name__}"
        )
    if not isinstance(params, list):
        raise TypeError(
            f"inject_backend_tests: params must be a list of dicts, got {type(params).__name__}"
        )
    configs = [BackendConfig(param) for param in params]

    def cases(base: type) -> Iterable[tuple[str, dict[str, Any]]]:
        return _class_cases(base, method_names, configs)

    def decorator(target: Any) -> Any:
        if isinstance(target, (type, _bundle.GeneratedTestClasses)):
            return _bundle.expand("inject_backend_tests", target, cases)
        if callable(target):
            if method_names is not None:
                raise ValueError(
                    "inject_backend_tests: method_names selects methods of a class; give None "
                    f"when decorating the function {target.__name__}"
                )
            return _parametrize_function(target, configs)
        raise TypeError(
            f"inject_backend_tests decorates a test class or function, got {type(target).__name__}"
        )

    return decorator
