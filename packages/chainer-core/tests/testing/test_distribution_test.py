"""distribution_unittest: the generated tests compare a distribution with SciPy and catch errors.

The distributions here are small hand-written ones (NumPy maths wrapped in variables), so
these tests need chainer-core and SciPy only.
"""

import io
import unittest

import numpy
import pytest

import chainer
from chainer import testing
from chainer.testing import distribution_test

stats = pytest.importorskip("scipy.stats")


class _Exponential:
    """Exponential law of rate ``lam``, written directly with NumPy."""

    def __init__(self, lam, mean_offset=0.0):
        self.lam = chainer.as_variable(lam)
        self.mean_offset = mean_offset

    def _lam(self):
        return self.lam.array.astype(numpy.float64)

    @property
    def batch_shape(self):
        return self.lam.shape

    @property
    def event_shape(self):
        return ()

    @property
    def support(self):
        return "positive"

    def log_prob(self, x):
        return chainer.Variable(numpy.asarray(numpy.log(self._lam()) - self._lam() * x))

    def prob(self, x):
        return chainer.Variable(numpy.asarray(numpy.exp(self.log_prob(x).array)))

    def cdf(self, x):
        return chainer.Variable(numpy.asarray(-numpy.expm1(-self._lam() * x)))

    def log_cdf(self, x):
        return chainer.Variable(numpy.asarray(numpy.log(self.cdf(x).array)))

    def survival_function(self, x):
        return chainer.Variable(numpy.asarray(numpy.exp(-self._lam() * x)))

    def log_survival_function(self, x):
        return chainer.Variable(numpy.asarray(-self._lam() * x))

    def icdf(self, q):
        return chainer.Variable(numpy.asarray(-numpy.log1p(-q) / self._lam()))

    @property
    def mean(self):
        return chainer.Variable(numpy.asarray(1 / self._lam() + self.mean_offset))

    @property
    def stddev(self):
        return chainer.Variable(numpy.asarray(1 / self._lam()))

    @property
    def variance(self):
        return chainer.Variable(numpy.asarray(1 / self._lam() ** 2))

    @property
    def entropy(self):
        return chainer.Variable(numpy.asarray(1 - numpy.log(self._lam())))

    def sample(self, sample_shape):
        scale = 1 / self._lam()
        draws = numpy.random.exponential(scale, tuple(sample_shape) + self.batch_shape)
        return chainer.Variable(draws)


class _StandardNormalVector:
    """Normal vectors with mean ``loc`` (last axis is the event) and identity covariance."""

    def __init__(self, loc):
        self.loc = chainer.as_variable(loc)

    @property
    def batch_shape(self):
        return self.loc.shape[:-1]

    @property
    def event_shape(self):
        return self.loc.shape[-1:]

    def log_prob(self, x):
        d = self.loc.shape[-1]
        squares = ((x - self.loc.array) ** 2).sum(axis=-1)
        return chainer.Variable(numpy.asarray(-0.5 * squares - 0.5 * d * numpy.log(2 * numpy.pi)))

    @property
    def mean(self):
        return self.loc

    @property
    def entropy(self):
        d = self.loc.shape[-1]
        value = 0.5 * d * (1 + numpy.log(2 * numpy.pi))
        return chainer.Variable(numpy.full(self.batch_shape, value))


ALL_EXPONENTIAL_TARGETS = {
    "batch_shape",
    "cdf",
    "entropy",
    "event_shape",
    "icdf",
    "log_cdf",
    "log_prob",
    "log_survival",
    "mean",
    "prob",
    "sample",
    "stddev",
    "support",
    "survival",
    "variance",
}


class _ExponentialCase(testing.distribution_unittest):
    __test__ = False  # a template: the tests below run its variants with unittest
    shape = (2, 3)
    sample_shape = (4,)
    is_variable = False
    dist_class = _Exponential
    targets = ALL_EXPONENTIAL_TARGETS

    def setUp_configure(self):
        self.dist = type(self).dist_class
        self.scipy_dist = stats.expon
        lam = numpy.random.uniform(0.5, 2, self.shape).astype(numpy.float32)
        self.params = {"lam": lam}
        self.scipy_params = {"scale": 1 / lam}
        self.test_targets = set(self.targets)
        self.support = "positive"

    def sample_for_test(self):
        size = self.sample_shape + self.shape
        return numpy.random.uniform(0.1, 3, size).astype(numpy.float32)


def _make_case(base=_ExponentialCase, **attributes):
    # Built inside tests so pytest does not collect these cases on their own.
    return type("Case", (base,), attributes)


def _run_cpu_tests(case) -> unittest.TestResult:
    # The plain unittest runner ignores pytest's gpu skip marks, so only the CPU twins run.
    loader = unittest.TestLoader()
    loader.testNamePatterns = ["*_cpu"]
    return unittest.TextTestRunner(stream=io.StringIO()).run(loader.loadTestsFromTestCase(case))


def _outcomes(case):
    result = _run_cpu_tests(case)
    failed = sorted(test.id().rsplit(".", 1)[1] for test, _ in result.failures + result.errors)
    return result, failed


@pytest.mark.parametrize("onebyone", [True, False])
@pytest.mark.parametrize("is_variable", [True, False])
@pytest.mark.parametrize("shape", [(2, 3), ()])
def test_a_correct_distribution_passes_every_target(onebyone, is_variable, shape):
    case = _make_case(scipy_onebyone=onebyone, is_variable=is_variable, shape=shape)
    result, failed = _outcomes(case)
    assert failed == []
    assert result.testsRun == len(ALL_EXPONENTIAL_TARGETS)
    assert result.skipped == []


def test_a_wrong_mean_fails_only_the_mean_test():
    class OffMean(_Exponential):
        def __init__(self, lam):
            super().__init__(lam, mean_offset=0.5)

    result, failed = _outcomes(_make_case(dist_class=OffMean))
    assert failed == ["test_mean_cpu"]
    assert "Not equal to tolerance" in str(result.failures + result.errors)


def test_a_wrong_sampler_fails_the_sample_test():
    class SlowSampler(_Exponential):
        def sample(self, sample_shape):
            return chainer.Variable(2 * super().sample(sample_shape).array)

    _, failed = _outcomes(_make_case(dist_class=SlowSampler))
    assert failed == ["test_sample_cpu"]


def test_targets_not_listed_are_skipped_with_the_reason():
    case = _make_case(targets={"mean"})
    result, failed = _outcomes(case)
    assert failed == []
    reasons = {test.id().rsplit(".", 1)[1]: reason for test, reason in result.skipped}
    assert reasons["test_cdf_cpu"] == "'cdf' is not in test_targets"
    assert "test_mean_cpu" not in reasons


def test_unknown_targets_are_rejected():
    result, failed = _outcomes(_make_case(targets={"mean", "median"}))
    assert "test_mean_cpu" in failed
    messages = "".join(trace for _, trace in result.errors)
    assert "ValueError: unknown test_targets ['median']" in messages


def test_parameters_are_variables_when_is_variable():
    seen = []

    class Recording(_Exponential):
        def __init__(self, lam):
            seen.append(type(lam))
            super().__init__(lam)

    _run_cpu_tests(_make_case(dist_class=Recording, is_variable=True, targets={"mean"}))
    _run_cpu_tests(_make_case(dist_class=Recording, is_variable=False, targets={"mean"}))
    assert set(seen[: len(seen) // 2]) == {chainer.Variable}
    assert set(seen[len(seen) // 2 :]) == {numpy.ndarray}


def test_options_reach_the_constructor_but_not_scipy():
    seen = []

    class WithOption(_Exponential):
        def __init__(self, lam, flag):
            seen.append(flag)
            super().__init__(lam)

    class Case(_ExponentialCase):
        dist_class = WithOption
        targets = {"mean"}

        def setUp_configure(self):
            super().setUp_configure()
            self.options = {"flag": "on"}

    _, failed = _outcomes(Case)
    assert failed == []
    assert seen and set(seen) == {"on"}


@pytest.mark.parametrize("onebyone", [True, False])
@pytest.mark.parametrize("sample_shape", [(3, 2), ()])
def test_vector_events_compare_per_batch_element(onebyone, sample_shape):
    class Case(testing.distribution_unittest):
        shape = (2,)
        is_variable = True
        event_shape = (3,)
        scipy_onebyone = onebyone

        def setUp_configure(self):
            self.dist = _StandardNormalVector
            self.scipy_dist = stats.multivariate_normal
            loc = numpy.random.uniform(-1, 1, self.shape + (3,))
            self.params = {"loc": loc}
            self.scipy_params = {"mean": loc}
            self.test_targets = {"batch_shape", "event_shape", "log_prob", "entropy"}

        def sample_for_test(self):
            return numpy.random.normal(size=self.sample_shape + self.shape + (3,))

    Case.sample_shape = sample_shape
    _, failed = _outcomes(Case)
    # SciPy's multivariate_normal takes one mean at a time: only one-by-one calls work.
    assert failed == ([] if onebyone else ["test_entropy_cpu", "test_log_prob_cpu"])


def test_scipy_onebyone_params_iter_indexes_the_batch():
    case = _make_case()("test_mean_cpu")
    case.shape = (2, 2)
    case.scipy_params = {"a": numpy.arange(4.0).reshape(2, 2), "b": 7.0}
    params = list(case.scipy_onebyone_params_iter())
    assert [p["a"] for p in params] == [0.0, 1.0, 2.0, 3.0]
    assert {p["b"] for p in params} == {7.0}


def test_gpu_twins_are_marked_gpu():
    names = {name for name in dir(testing.distribution_unittest) if name.startswith("test_")}
    expected = {f"test_{t}_{d}" for t in ALL_EXPONENTIAL_TARGETS for d in ("cpu", "gpu")}
    assert names == expected
    marks = testing.distribution_unittest.test_mean_gpu.pytestmark
    assert "gpu" in {mark.name for mark in marks}
    assert distribution_test.TARGETS == frozenset(ALL_EXPONENTIAL_TARGETS)


def test_a_subclass_without_configuration_says_what_is_missing():
    class Bare(testing.distribution_unittest):
        shape = ()

    result = _run_cpu_tests(Bare)
    assert "Bare must define setUp_configure()" in result.errors[0][1]
