"""n_step_gru and n_step_bigru against a per-sequence NumPy GRU."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import NStepCase, gru_cell, n_step_params, n_step_reference, time_major_inputs


@testing.parameterize(
    *testing.product(
        {
            "n_layers": [1, 2],
            "bi": [False, True],
            "lengths": [(3, 2, 2), (2,)],
            "dtype": [numpy.float32, numpy.float64],
        }
    ),
    *testing.product(
        {"n_layers": [2], "bi": [False, True], "lengths": [(3, 1)], "dtype": [numpy.float16]}
    ),
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestNStepGRU(NStepCase, testing.FunctionTestCase):
    functions = (F.n_step_gru, F.n_step_bigru)
    cell = staticmethod(gru_cell)
    n_weights = 6
    state_names = ("hx",)


def test_reset_gate_scales_the_hidden_bias():
    # b_5 sits inside the reset gate: with r = 0 it must have no effect, unlike b_2.
    rng = numpy.random.default_rng(0)
    ws, bs = n_step_params(rng, 1, 1, 6, 3, 2, numpy.float64)
    bs[0][0] = numpy.full(2, -50.0)  # r = sigmoid(-50 + ...) = 0
    xs = time_major_inputs(rng, (2,), 3, numpy.float64)
    hx = rng.uniform(-1, 1, (1, 1, 2))
    hy, _ = F.n_step_gru(1, 0.0, hx, ws, bs, xs)
    bs[0][5] = bs[0][5] + 3.0
    hy_b5, _ = F.n_step_gru(1, 0.0, hx, ws, bs, xs)
    numpy.testing.assert_allclose(hy_b5.array, hy.array, rtol=1e-12)
    bs[0][2] = bs[0][2] + 3.0
    hy_b2, _ = F.n_step_gru(1, 0.0, hx, ws, bs, xs)
    assert not numpy.allclose(hy_b2.array, hy.array)


def test_dropout_acts_only_in_training():
    rng = numpy.random.default_rng(1)
    ws, bs = n_step_params(rng, 2, 2, 6, 3, 2, numpy.float64)
    xs = time_major_inputs(rng, (3, 2), 3, numpy.float64)
    hx = rng.uniform(-1, 1, (4, 2, 2))
    (hy_ref,), _ = n_step_reference(gru_cell, 2, 2, (hx,), ws, bs, xs)
    with chainer.using_config("train", False):
        hy, _ = F.n_step_bigru(2, 0.5, hx, ws, bs, xs)
    numpy.testing.assert_allclose(hy.array, hy_ref, rtol=1e-12)
    with chainer.using_config("train", True):
        hy, _ = F.n_step_bigru(2, 0.5, hx, ws, bs, xs)
    numpy.testing.assert_allclose(hy.array[:2], hy_ref[:2], rtol=1e-12)  # the first layer
    assert not numpy.allclose(hy.array[2:], hy_ref[2:])


def test_rejects_lstm_sized_parameters():
    rng = numpy.random.default_rng(2)
    ws, bs = n_step_params(rng, 1, 1, 8, 3, 2, numpy.float32)
    xs = time_major_inputs(rng, (2,), 3, numpy.float32)
    with pytest.raises(ValueError, match=r"n_step_gru: ws\[0\] must hold 6 arrays, got 8"):
        F.n_step_gru(1, 0.0, numpy.zeros((1, 1, 2), numpy.float32), ws, bs, xs)
