"""Shared checks of the distribution tests: SciPy references, gradients and sample statistics.

SciPy is a test-only dependency of chainer-links; every check that needs it skips cleanly
without it.
"""

import numpy
import pytest

from chainer import gradient_check, testing

FLOAT_DTYPES = [numpy.float32, numpy.float64]

# Agreement with SciPy's float64 values: float32 keeps about 6 significant digits.
TOLERANCES = {
    numpy.dtype(numpy.float32): {"rtol": 1e-4, "atol": 1e-5},
    numpy.dtype(numpy.float64): {"rtol": 1e-9, "atol": 1e-11},
}

# Distribution method -> the frozen SciPy distribution's method.
SCIPY_FUNCTIONS = {
    "log_prob": "logpdf",
    "prob": "pdf",
    "cdf": "cdf",
    "log_cdf": "logcdf",
    "survival_function": "sf",
    "log_survival_function": "logsf",
    "icdf": "ppf",
}
DISCRETE_FUNCTIONS = {"log_prob": "logpmf", "prob": "pmf"}
SCIPY_STATISTICS = {"entropy": "entropy", "mean": "mean", "variance": "var", "stddev": "std"}


def stats():
    return pytest.importorskip("scipy.stats")


def assert_matches(actual, expected, dtype, **tolerances) -> None:
    """The variable ``actual`` has ``dtype``, the shape of ``expected`` and its values."""
    assert actual.dtype == dtype
    expected = numpy.asarray(expected)
    assert actual.shape == expected.shape
    testing.assert_allclose(actual.array, expected, **(tolerances or TOLERANCES[actual.dtype]))


def check_functions(dist, reference, x, names, discrete=False, **tolerances) -> None:
    """Compare ``dist.<name>(x)`` with the frozen SciPy ``reference`` for each name."""
    table = {**SCIPY_FUNCTIONS, **DISCRETE_FUNCTIONS} if discrete else SCIPY_FUNCTIONS
    for name in names:
        expected = getattr(reference, table[name])(x.astype(numpy.float64))
        assert_matches(getattr(dist, name)(x), expected, x.dtype, **tolerances)


def check_statistics(dist, reference, dtype, names, **tolerances) -> None:
    """Compare ``dist.<name>`` (entropy and moments) with the frozen SciPy ``reference``."""
    for name in names:
        expected = getattr(reference, SCIPY_STATISTICS[name])()
        assert_matches(getattr(dist, name), expected, dtype, **tolerances)


def check_samples(dist, reference, n=100_000, moments=True, ks=True) -> None:
    """Draw ``n`` samples of each distribution of a 1-d batch and test them against SciPy.

    The sample mean and variance must agree with the reference within 5 standard errors
    (``moments``), and a Kolmogorov-Smirnov test must not reject the reference (``ks``).
    The caller fixes the random state, so the check is deterministic.
    """
    samples = dist.sample_n(n)
    assert samples.shape == (n, *dist.batch_shape, *dist.event_shape)
    values = samples.array.astype(numpy.float64).reshape(n, -1)
    mean, var = reference.mean().ravel(), reference.var().ravel()
    kurtosis = reference.stats(moments="k").ravel() if moments else None
    for i in range(values.shape[1]):
        column = values[:, i]
        if moments:
            assert abs(column.mean() - mean[i]) <= 5 * numpy.sqrt(var[i] / n)
            # Var of the sample variance is var^2 (kurtosis + 2) / n (excess kurtosis).
            assert abs(column.var() - var[i]) <= 5 * var[i] * numpy.sqrt((kurtosis[i] + 2) / n)
        if ks:
            assert stats().kstest(column, _element(reference, i).cdf).pvalue > 1e-3


def _element(reference, i):
    # The frozen SciPy distribution of the i-th element of a batched one.
    arrays = numpy.broadcast_arrays(*reference.args, *reference.kwds.values())
    values = [a.ravel()[i] for a in arrays]
    n_args = len(reference.args)
    return reference.dist(*values[:n_args], **dict(zip(reference.kwds, values[n_args:])))


def check_gradient(func, inputs, **tolerances) -> None:
    """Numerical check of the gradient of ``func(*inputs)`` w.r.t. the float64 ``inputs``."""
    outputs = func(*(numpy.asarray(a) for a in inputs))
    y_grad = numpy.random.uniform(-1, 1, outputs.shape)
    options = {"eps": 1e-6, "atol": 1e-7, "rtol": 1e-5, **tolerances}
    gradient_check.check_backward(func, tuple(inputs), y_grad, **options)


def seeded(sample):
    """Wrap ``sample(*params)`` so every call draws the same noise (numerical gradients)."""

    def func(*params):
        numpy.random.seed(1)
        return sample(*params)

    return func


def integrated_kl(reference1, reference2, bounds=None):
    """KL(reference1 || reference2) of each batch element, by numerical integration.

    The integral runs over ``bounds``, by default all but ``1e-14`` of each tail of
    ``reference1`` (heavy tails, where that range is huge, integrate over the real line).
    """
    integrate = pytest.importorskip("scipy.integrate")
    size = numpy.broadcast_shapes(numpy.shape(reference1.mean()), numpy.shape(reference2.mean()))
    values = []
    for i in range(int(numpy.prod(size))):
        p, q = _element(reference1, i), _element(reference2, i)

        def integrand(x, p=p, q=q):
            log_p = p.logpdf(x)
            return numpy.exp(log_p) * (log_p - q.logpdf(x))

        lower, upper = bounds or (p.ppf(1e-14), p.isf(1e-14))
        values.append(integrate.quad(integrand, lower, upper, limit=200)[0])
    return numpy.array(values).reshape(size)


def summed_kl(reference1, reference2, support):
    """KL(reference1 || reference2) of each batch element of discrete laws, summed on support."""
    support = numpy.asarray(support, numpy.float64).reshape(-1, *([1] * reference1.mean().ndim))
    log_p, log_q = reference1.logpmf(support), reference2.logpmf(support)
    terms = numpy.where(log_p == -numpy.inf, 0.0, numpy.exp(log_p) * (log_p - log_q))
    return terms.sum(axis=0)
