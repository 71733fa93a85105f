"""A test case base that checks a probability distribution against its ``scipy.stats`` twin.

:class:`distribution_unittest` gives a subclass one test per property of a distribution
(``test_mean_cpu``, ``test_log_prob_cpu``, ...; each also as ``*_gpu``, marked ``gpu``); the
subclass chooses which of them run with ``test_targets``. It needs SciPy at run time only, and
works with any :class:`chainer.Distribution` (this module imports no distribution itself).
"""

from __future__ import annotations

import unittest
from collections.abc import Iterator
from typing import Any

import numpy

import chainer
from chainer.testing import array, attr

# Each checkable property: the scipy.stats function it is compared with, or None for a
# property compared with an attribute the subclass sets.
_POINT_FUNCTIONS = {
    "cdf": ("cdf", "cdf"),
    "log_cdf": ("log_cdf", "logcdf"),
    "survival": ("survival_function", "sf"),
    "log_survival": ("log_survival_function", "logsf"),
}
_MOMENTS = {"entropy": "entropy", "mean": "mean", "stddev": "std", "variance": "var"}
TARGETS = frozenset(
    {"batch_shape", "event_shape", "support", "icdf", "log_prob", "prob", "sample"}
    | set(_POINT_FUNCTIONS)
    | set(_MOMENTS)
)

# Sample-moment comparison: draws per distribution and tolerance on mean and stddev.
_SAMPLE_SIZE = 100000
_SAMPLE_TOLERANCE = 3e-2


class distribution_unittest(unittest.TestCase):
    """Base of test cases comparing a :class:`chainer.Distribution` with ``scipy.stats``.

    Parameterize the subclass with ``shape`` (the batch shape), ``sample_shape`` and
    ``is_variable`` (pass the parameters as variables), and define:

    - ``setUp_configure(self)``: set ``self.dist`` (the class, or any callable taking the
      parameters as keywords), ``self.scipy_dist`` (the ``scipy.stats`` distribution),
      ``self.params`` and ``self.scipy_params`` (keyword arguments of both) and
      ``self.test_targets`` (the properties to check, a subset of :data:`TARGETS`); optionally
      ``self.support`` (default ``'real'``), ``self.event_shape`` (default ``()``),
      ``self.continuous`` (default ``True``; ``False`` compares with ``pmf`` instead of
      ``pdf``) and ``self.options`` (extra constructor keywords, not given to SciPy).
    - ``sample_for_test(self)``: points of shape ``sample_shape + shape + event_shape`` at
      which densities and distribution functions are compared.

    Set the class attribute ``scipy_onebyone = True`` when SciPy cannot broadcast the batch of
    parameters: SciPy is then called once per batch element (see
    :meth:`scipy_onebyone_params_iter`). Any ``check_<target>(self, is_gpu)`` may be
    overridden.

    Example:
        >>> import unittest
        >>> from chainer import distributions, testing
        >>> @testing.parameterize(*testing.product({
        ...     'shape': [(2, 3), ()], 'is_variable': [True, False], 'sample_shape': [(3,)]}))
        ... class TestExponential(testing.distribution_unittest):
        ...     scipy_onebyone = True
        ...     def setUp_configure(self):
        ...         from scipy import stats
        ...         self.dist, self.scipy_dist = distributions.Exponential, stats.expon
        ...         lam = numpy.exp(numpy.random.uniform(-1, 1, self.shape)).astype('f')
        ...         self.params = {'lam': lam}
        ...         self.scipy_params = {'scale': 1 / lam}
        ...         self.test_targets = {'batch_shape', 'mean', 'log_prob', 'sample'}
        ...         self.support = 'positive'
        ...     def sample_for_test(self):
        ...         return numpy.random.uniform(0.1, 3, self.sample_shape + self.shape)
    """

    scipy_onebyone = False
    # Set by the parameterization and by ``setUp_configure``.
    shape: tuple[int, ...]
    sample_shape: tuple[int, ...]
    event_shape: tuple[int, ...]
    dist: Any
    scipy_dist: Any
    params: dict[str, Any]
    scipy_params: dict[str, Any]
    options: dict[str, Any]
    test_targets: set[str]

    def setUp(self) -> None:
        self.support = "real"
        if not hasattr(self, "event_shape"):
            self.event_shape = ()
        self.continuous = True
        self.test_targets = set()
        self.options = {}
        self.setUp_configure()
        unknown = set(self.test_targets) - TARGETS
        if unknown:
            raise ValueError(
                f"unknown test_targets {sorted(unknown)}; expected names among {sorted(TARGETS)}"
            )
        if getattr(self, "is_variable", False):
            self.params = {key: _as_variable(value) for key, value in self.params.items()}

    def setUp_configure(self) -> None:
        """Set the distribution, its SciPy twin, their parameters and the test targets."""
        raise NotImplementedError(f"{type(self).__name__} must define setUp_configure()")

    def sample_for_test(self) -> numpy.ndarray:
        """Points of shape ``sample_shape + shape + event_shape`` to evaluate functions at."""
        raise NotImplementedError(f"{type(self).__name__} must define sample_for_test()")

    @property
    def cpu_dist(self) -> Any:
        """The distribution under test built from ``params`` and ``options`` on the CPU."""
        return self.dist(**self.params, **self.options)

    @property
    def gpu_dist(self) -> Any:
        """The distribution under test with its parameters on the current GPU."""
        params = {key: _to_gpu(value) for key, value in self.params.items()}
        return self.dist(**params, **self.options)

    def scipy_onebyone_params_iter(self) -> Iterator[dict[str, Any]]:
        """Yield, for each batch index in C order, ``scipy_params`` at that index.

        Parameters are indexed on their leading ``len(shape)`` axes; scalars are passed as
        they are.
        """
        for index in numpy.ndindex(*self.shape):
            yield {
                key: value if numpy.isscalar(value) else numpy.asarray(value)[index]
                for key, value in self.scipy_params.items()
            }

    # -- the checks (each compares one property; ``is_gpu`` builds the distribution on GPU)

    def _dist(self, is_gpu: bool) -> Any:
        return self.gpu_dist if is_gpu else self.cpu_dist

    def _evaluate(self, is_gpu: bool, method: str, points: numpy.ndarray) -> numpy.ndarray:
        if is_gpu:
            points = chainer.backends.cuda.to_gpu(points)
        result = getattr(self._dist(is_gpu), method)(points)
        return chainer.backends.cuda.to_cpu(result.array)

    def _scipy_at(self, function: str, points: numpy.ndarray) -> numpy.ndarray:
        """SciPy's ``function`` at ``points`` (shape ``sample_shape + shape + event_shape``),
        returned with shape ``sample_shape + shape``."""
        scipy_function = getattr(self.scipy_dist, function)
        if not self.scipy_onebyone:
            return numpy.asarray(scipy_function(points, **self.scipy_params))
        points = numpy.asarray(points)
        sample_ndim = points.ndim - len(self.shape) - len(self.event_shape)
        sample_shape = points.shape[:sample_ndim]
        result = numpy.empty(sample_shape + tuple(self.shape))
        leading = (slice(None),) * sample_ndim
        for index, params in zip(numpy.ndindex(*self.shape), self.scipy_onebyone_params_iter()):
            values = scipy_function(points[leading + index], **params)
            result[leading + index] = numpy.reshape(values, sample_shape)
        return result

    def _scipy_moment(self, function: str) -> numpy.ndarray:
        scipy_function = getattr(self.scipy_dist, function)
        if not self.scipy_onebyone:
            return numpy.asarray(scipy_function(**self.scipy_params))
        values = numpy.asarray(
            [scipy_function(**params) for params in self.scipy_onebyone_params_iter()]
        )
        return values.reshape(tuple(self.shape) + values.shape[1:])

    def _scipy_samples(self, size: tuple[int, ...]) -> numpy.ndarray:
        """Draws from SciPy of shape ``size + shape + event_shape``."""
        if not self.scipy_onebyone:
            return numpy.asarray(
                self.scipy_dist.rvs(size=size + tuple(self.shape), **self.scipy_params)
            )
        event_shape = tuple(self.event_shape)
        samples = numpy.empty(size + tuple(self.shape) + event_shape)
        leading = (slice(None),) * len(size)
        for index, params in zip(numpy.ndindex(*self.shape), self.scipy_onebyone_params_iter()):
            draws = self.scipy_dist.rvs(size=size, **params)
            samples[leading + index] = numpy.reshape(draws, size + event_shape)
        return samples

    def check_batch_shape(self, is_gpu: bool) -> None:
        self.assertEqual(self._dist(is_gpu).batch_shape, tuple(self.shape))

    def check_event_shape(self, is_gpu: bool) -> None:
        self.assertEqual(self._dist(is_gpu).event_shape, tuple(self.event_shape))

    def check_support(self, is_gpu: bool) -> None:
        self.assertEqual(self._dist(is_gpu).support, self.support)

    def _check_point_function(self, is_gpu: bool, method: str, scipy_function: str) -> None:
        points = self.sample_for_test()
        actual = self._evaluate(is_gpu, method, points)
        array.assert_allclose(actual, self._scipy_at(scipy_function, points))

    def check_cdf(self, is_gpu: bool) -> None:
        self._check_point_function(is_gpu, *_POINT_FUNCTIONS["cdf"])

    def check_log_cdf(self, is_gpu: bool) -> None:
        self._check_point_function(is_gpu, *_POINT_FUNCTIONS["log_cdf"])

    def check_survival(self, is_gpu: bool) -> None:
        self._check_point_function(is_gpu, *_POINT_FUNCTIONS["survival"])

    def check_log_survival(self, is_gpu: bool) -> None:
        self._check_point_function(is_gpu, *_POINT_FUNCTIONS["log_survival"])

    def check_prob(self, is_gpu: bool) -> None:
        self._check_point_function(is_gpu, "prob", "pdf" if self.continuous else "pmf")

    def check_log_prob(self, is_gpu: bool) -> None:
        self._check_point_function(is_gpu, "log_prob", "logpdf" if self.continuous else "logpmf")

    def check_icdf(self, is_gpu: bool) -> None:
        shape = tuple(self.sample_shape) + tuple(self.shape)
        quantiles = numpy.random.uniform(1e-5, 1 - 1e-5, shape).astype(numpy.float32)
        actual = self._evaluate(is_gpu, "icdf", quantiles)
        array.assert_allclose(actual, self._scipy_at("ppf", quantiles))

    def _check_moment(self, is_gpu: bool, name: str) -> None:
        actual = chainer.backends.cuda.to_cpu(getattr(self._dist(is_gpu), name).array)
        array.assert_allclose(actual, self._scipy_moment(_MOMENTS[name]))

    def check_entropy(self, is_gpu: bool) -> None:
        self._check_moment(is_gpu, "entropy")

    def check_mean(self, is_gpu: bool) -> None:
        self._check_moment(is_gpu, "mean")

    def check_stddev(self, is_gpu: bool) -> None:
        self._check_moment(is_gpu, "stddev")

    def check_variance(self, is_gpu: bool) -> None:
        self._check_moment(is_gpu, "variance")

    def check_sample(self, is_gpu: bool) -> None:
        size = (_SAMPLE_SIZE,) + tuple(self.sample_shape)
        drawn = self._dist(is_gpu).sample(sample_shape=size).array
        drawn = chainer.backends.cuda.to_cpu(drawn)
        expected = self._scipy_samples(size)
        array.assert_allclose(
            drawn.mean(axis=0),
            expected.mean(axis=0),
            atol=_SAMPLE_TOLERANCE,
            rtol=_SAMPLE_TOLERANCE,
        )
        array.assert_allclose(
            drawn.std(axis=0), expected.std(axis=0), atol=_SAMPLE_TOLERANCE, rtol=_SAMPLE_TOLERANCE
        )


def _as_variable(value: Any) -> Any:
    return chainer.Variable(value) if isinstance(value, numpy.ndarray) else value


def _to_gpu(value: Any) -> Any:
    """A copy of a parameter (array or variable) on the current GPU; scalars as they are."""
    to_gpu = chainer.backends.cuda.to_gpu
    if isinstance(value, chainer.Variable):
        return chainer.Variable(to_gpu(value.array))
    return to_gpu(value) if isinstance(value, numpy.ndarray) else value


def _target_test(target: str, on_gpu: bool) -> Any:
    def test(self: distribution_unittest) -> None:
        if target not in self.test_targets:
            self.skipTest(f"{target!r} is not in test_targets")
        getattr(self, f"check_{target}")(on_gpu)

    test.__name__ = test.__qualname__ = f"test_{target}_{'gpu' if on_gpu else 'cpu'}"
    test.__doc__ = f"Check ``{target}`` on the {'GPU' if on_gpu else 'CPU'} when targeted."
    return attr.gpu(test) if on_gpu else test


for _target in sorted(TARGETS):
    setattr(distribution_unittest, f"test_{_target}_cpu", _target_test(_target, False))
    setattr(distribution_unittest, f"test_{_target}_gpu", _target_test(_target, True))
del _target
