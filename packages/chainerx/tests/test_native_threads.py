"""Native kernels split among threads (OPENBLAS_NUM_THREADS) agree with one sample at a time."""

import os
import subprocess
import sys

import pytest

# Runs in a fresh process: the thread count is read once, when the first kernel needs it. Three
# threads split the batches (and the GEMM's rows) unevenly; per-sample calls stay serial.
SCRIPT = """
import numpy
import chainerx as chx

rng = numpy.random.default_rng(0)
for dtype, rtol in (("float32", 1e-5), ("float64", 1e-12)):
    def arr(*shape):
        return chx.array(rng.standard_normal(shape).astype(dtype))

    def close(got, expected, tol=rtol):
        numpy.testing.assert_allclose(chx.to_numpy(got), expected, rtol=tol, atol=tol)

    def per_sample(f, x):
        return numpy.concatenate([chx.to_numpy(f(x[i : i + 1])) for i in range(24)])

    x, w, b = arr(24, 4, 32, 30), arr(5, 4, 3, 3), arr(5)
    y = chx.conv(x, w, b, stride=(2, 1), pad=1)
    expected = per_sample(lambda xi: chx.conv(xi, w, b, stride=(2, 1), pad=1), x)
    close(y, expected)

    # Weight gradient (summed over the batch in per-thread shares) and input gradient.
    gy = arr(*y.shape)
    wg = w.copy().require_grad()
    xg = x.copy().require_grad()
    (chx.conv(xg, wg, b, stride=(2, 1), pad=1) * gy).sum().backward()
    gw_parts = []
    gx_parts = []
    for i in range(24):
        wi = w.copy().require_grad()
        xi = x[i : i + 1].copy().require_grad()
        (chx.conv(xi, wi, b, stride=(2, 1), pad=1) * gy[i : i + 1]).sum().backward()
        gw_parts.append(chx.to_numpy(wi.grad))
        gx_parts.append(chx.to_numpy(xi.grad))
    close(wg.grad, sum(gw_parts), rtol * 10)
    close(xg.grad, numpy.concatenate(gx_parts))

    # Max pooling and its gradient move values without arithmetic: identical.
    xp = x.copy().require_grad()
    pooled = chx.max_pool(xp, 3, stride=2, pad=1)
    gp = arr(*pooled.shape)
    (pooled * gp).sum().backward()
    numpy.testing.assert_array_equal(
        chx.to_numpy(pooled), per_sample(lambda xi: chx.max_pool(xi, 3, stride=2, pad=1), x)
    )
    gx_pool = []
    for i in range(24):
        xi = x[i : i + 1].copy().require_grad()
        (chx.max_pool(xi, 3, stride=2, pad=1) * gp[i : i + 1]).sum().backward()
        gx_pool.append(chx.to_numpy(xi.grad))
    numpy.testing.assert_array_equal(chx.to_numpy(xp.grad), numpy.concatenate(gx_pool))

    # A GEMM split into slabs of rows (tall) and of columns (wide) against NumPy.
    a, m = arr(64, 300), arr(300, 200)
    a_np, m_np = chx.to_numpy(a), chx.to_numpy(m)
    close(chx.dot(a, m), a_np @ m_np, rtol * 10)
    close(chx.dot(m.T, a.T), m_np.T @ a_np.T, rtol * 10)
    # Element-wise loops split in the middle of runs: strided, broadcast and masked operands.
    big = arr(301, 517)
    big_np = chx.to_numpy(big)
    close(big.T * 2.5 + big.T, big_np.T * 2.5 + big_np.T, 0)
    close(big[:, ::2] - big[0, ::2], big_np[:, ::2] - big_np[0, ::2], 0)
    close(chx.where(big > 0, big, 0.0), numpy.where(big_np > 0, big_np, 0), 0)
    close(chx.exp(big[::-1]), numpy.exp(big_np[::-1]), rtol)
print("ok")
"""


@pytest.mark.parametrize("threads", ["3", "1"])
def test_threaded_kernels_match_per_sample(threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
