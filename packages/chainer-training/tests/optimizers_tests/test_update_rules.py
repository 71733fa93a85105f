"""Every optimizer's update against its formula written out in NumPy, step by step.

Each step starts from the parameter and state the optimizer holds, computes the expected new
values in float64 with the textbook formula, and compares. Several steps run, so the state
carried from step to step and ``t``-dependent terms are covered; the parameters include one
longer than two CPU chunks, so chunk boundaries are covered too.
"""

import math

import numpy
import pytest

import chainer
from chainer import backend, optimizers
from chainer.backends import _chainerx

# ChainerX parameters run the ChainerX twin of each CPU kernel where one exists (SGD, the
# momentum family, AdaGrad, RMSprop, the Adam family), else the CPU kernel on NumPy views.
DEVICES = [
    "@numpy",
    pytest.param(
        "native:0",
        marks=[
            pytest.mark.chainerx,
            pytest.mark.skipif(not _chainerx.is_available(), reason="chainerx is not available"),
        ],
    ),
]
to_numpy = backend.CpuDevice().send


def zeros(*names):
    return lambda shape: {name: numpy.zeros(shape) for name in names}


def ref_sgd(p, g, s, t, hp):
    return p - hp["lr"] * g, s


def ref_momentum(p, g, s, t, hp):
    v = hp["momentum"] * s["v"] - hp["lr"] * g
    return p + v, {"v": v}


def ref_corrected_momentum(p, g, s, t, hp):
    v = hp["momentum"] * s["v"] - g
    return p + hp["lr"] * v, {"v": v}


def ref_nesterov(p, g, s, t, hp):
    mu, lr = hp["momentum"], hp["lr"]
    v = mu * s["v"] - lr * g
    return p + mu * mu * v - (1 + mu) * lr * g, {"v": v}


def ref_ada_grad(p, g, s, t, hp):
    h = s["h"] + g * g
    return p - hp["lr"] * g / (numpy.sqrt(h) + hp["eps"]), {"h": h}


def ref_ada_delta(p, g, s, t, hp):
    rho, eps = hp["rho"], hp["eps"]
    msg = rho * s["msg"] + (1 - rho) * g * g
    dx = numpy.sqrt((s["msdx"] + eps) / (msg + eps)) * g
    msdx = rho * s["msdx"] + (1 - rho) * dx * dx
    return p - dx, {"msg": msg, "msdx": msdx}


def ref_rmsprop(p, g, s, t, hp):
    ms = hp["alpha"] * s["ms"] + (1 - hp["alpha"]) * g * g
    if hp.get("eps_inside_sqrt"):
        denominator = numpy.sqrt(ms + hp["eps"])
    else:
        denominator = numpy.sqrt(ms) + hp["eps"]
    return p - hp["lr"] * g / denominator, {"ms": ms}


def ref_rmsprop_graves(p, g, s, t, hp):
    a = hp["alpha"]
    n = a * s["n"] + (1 - a) * g * g
    mean = a * s["g"] + (1 - a) * g
    delta = hp["momentum"] * s["delta"] - hp["lr"] * g / numpy.sqrt(n - mean * mean + hp["eps"])
    return p + delta, {"n": n, "g": mean, "delta": delta}


def ref_smorms3(p, g, s, t, hp):
    r = 1 / (s["mem"] + 1)
    mean = (1 - r) * s["g"] + r * g
    mean_sq = (1 - r) * s["g2"] + r * g * g
    x = mean * mean / (mean_sq + hp["eps"])
    p = p - g * numpy.minimum(hp["lr"], x) / (numpy.sqrt(mean_sq) + hp["eps"])
    return p, {"mem": 1 + s["mem"] * (1 - x), "g": mean, "g2": mean_sq}


def smorms3_init(shape):
    return {"mem": numpy.ones(shape), "g": numpy.zeros(shape), "g2": numpy.zeros(shape)}


def ref_adam(p, g, s, t, hp):
    b1, b2 = hp.get("beta1", 0.9), hp.get("beta2", 0.999)
    eps, eta = hp.get("eps", 1e-8), hp.get("eta", 1.0)
    m = b1 * s["m"] + (1 - b1) * g
    v = b2 * s["v"] + (1 - b2) * g * g
    new = {"m": m, "v": v}
    if hp.get("amsgrad"):
        v = new["vhat"] = numpy.maximum(s["vhat"], v)
    alpha_t = hp["alpha"] * math.sqrt(1 - b2**t) / (1 - b1**t)
    step = alpha_t / (numpy.sqrt(v) + eps)
    if hp.get("adabound"):
        final_lr, gamma = hp.get("final_lr", 0.1), hp.get("gamma", 1e-3)
        lower = final_lr * (1 - 1 / (gamma * t + 1))
        upper = final_lr * (1 + 1 / (gamma * t))
        step = numpy.clip(step, lower, upper)
    return p - eta * (step * m + hp.get("weight_decay_rate", 0) * p), new


def ref_msvag(p, g, s, t, hp):
    beta, lr, eta = hp["beta"], hp["lr"], hp.get("eta", 1.0)
    m = beta * s["m"] + (1 - beta) * g
    v = beta * s["v"] + (1 - beta) * g * g
    mt, vt = m / (1 - beta**t), v / (1 - beta**t)
    rho = (1 - beta) * (1 + beta**t) / ((1 + beta) * (1 - beta**t))
    if t == 1:
        factor = numpy.ones_like(p)  # rho == 1: no variance estimate yet, taken as 0 (v7)
    else:
        variance = (vt - mt * mt) / (1 - rho)
        factor = numpy.clip(mt * mt / (mt * mt + rho * variance), 0, 1)
    step = lr * factor * mt + hp.get("weight_decay_rate", 0) * p
    return p - eta * step, {"m": m, "v": v}


# name: (optimizer class, hyperparameters, reference, initial state). The hyperparameters
# make each step large enough to see at float16 precision.
CASES = {
    "SGD": (optimizers.SGD, {"lr": 0.1}, ref_sgd, lambda shape: {}),
    "MomentumSGD": (
        optimizers.MomentumSGD,
        {"lr": 0.1, "momentum": 0.8},
        ref_momentum,
        zeros("v"),
    ),
    "CorrectedMomentumSGD": (
        optimizers.CorrectedMomentumSGD,
        {"lr": 0.1, "momentum": 0.8},
        ref_corrected_momentum,
        zeros("v"),
    ),
    "NesterovAG": (
        optimizers.NesterovAG,
        {"lr": 0.1, "momentum": 0.8},
        ref_nesterov,
        zeros("v"),
    ),
    "AdaGrad": (optimizers.AdaGrad, {"lr": 0.1, "eps": 1e-4}, ref_ada_grad, zeros("h")),
    "AdaDelta": (
        optimizers.AdaDelta,
        {"rho": 0.9, "eps": 1e-2},
        ref_ada_delta,
        zeros("msg", "msdx"),
    ),
    "RMSprop": (
        optimizers.RMSprop,
        {"lr": 0.05, "alpha": 0.9, "eps": 1e-4},
        ref_rmsprop,
        zeros("ms"),
    ),
    "RMSprop-eps_inside_sqrt": (
        optimizers.RMSprop,
        {"lr": 0.05, "alpha": 0.9, "eps": 1e-2, "eps_inside_sqrt": True},
        ref_rmsprop,
        zeros("ms"),
    ),
    "RMSpropGraves": (
        optimizers.RMSpropGraves,
        {"lr": 0.05, "alpha": 0.9, "momentum": 0.8, "eps": 1e-2},
        ref_rmsprop_graves,
        zeros("n", "g", "delta"),
    ),
    "SMORMS3": (optimizers.SMORMS3, {"lr": 0.1, "eps": 1e-6}, ref_smorms3, smorms3_init),
    "Adam": (optimizers.Adam, {"alpha": 0.1}, ref_adam, zeros("m", "v")),
    "Adam-eta-decay": (
        optimizers.Adam,
        {"alpha": 0.1, "beta1": 0.8, "beta2": 0.9, "eps": 1e-4, "eta": 0.5},
        ref_adam,
        zeros("m", "v"),
    ),
    "AdamW": (
        optimizers.AdamW,
        {"alpha": 0.1, "weight_decay_rate": 0.2, "eta": 0.7},
        ref_adam,
        zeros("m", "v"),
    ),
    "AMSGrad": (
        optimizers.AMSGrad,
        {"alpha": 0.1, "amsgrad": True},
        ref_adam,
        zeros("m", "v", "vhat"),
    ),
    "AdaBound": (
        optimizers.AdaBound,
        {"alpha": 0.1, "adabound": True, "final_lr": 0.05, "gamma": 0.1},
        ref_adam,
        zeros("m", "v"),
    ),
    "AMSBound": (
        optimizers.AMSBound,
        {"alpha": 0.1, "amsgrad": True, "adabound": True, "final_lr": 0.05, "gamma": 0.1},
        ref_adam,
        zeros("m", "v", "vhat"),
    ),
    "MSVAG": (
        optimizers.MSVAG,
        {"lr": 0.5, "beta": 0.5},
        ref_msvag,
        zeros("m", "v"),
    ),
    "MSVAG-decay": (
        optimizers.MSVAG,
        {"lr": 0.5, "beta": 0.5, "eta": 0.5, "weight_decay_rate": 0.1},
        ref_msvag,
        zeros("m", "v"),
    ),
}

# Tolerances relative to the values' scale (about 1): float16 keeps about 3 digits.
TOLERANCES = {
    numpy.float16: {"rtol": 5e-3, "atol": 5e-3},
    numpy.float32: {"rtol": 1e-5, "atol": 1e-6},
    numpy.float64: {"rtol": 1e-12, "atol": 1e-13},
}
STEPS = 4


def _make_optimizer(name):
    cls, hp, _, _ = CASES[name]
    # Flags that the subclass fixes (amsgrad, adabound) are not constructor arguments.
    kwargs = {
        k: v for k, v in hp.items() if k not in ("amsgrad", "adabound") or cls is optimizers.Adam
    }
    return cls(**kwargs)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize("name", list(CASES))
def test_each_step_matches_the_formula(kit, name, dtype, device):
    _, hp, reference, initial_state = CASES[name]
    device = chainer.get_device(device)
    model = kit.Quadratic(dtype)
    model.to_device(device)
    optimizer = _make_optimizer(name).setup(model)
    rng = numpy.random.default_rng(1)
    for t in range(1, STEPS + 1):
        expected = {}
        for param in model.params():
            grad = rng.uniform(-1, 1, param.shape).astype(dtype)
            param.grad = device.send(grad)
            rule = param.update_rule
            state = (
                initial_state(param.shape)
                if rule.state is None
                else {k: to_numpy(v).astype(numpy.float64) for k, v in rule.state.items()}
            )
            before = to_numpy(param.array).astype(numpy.float64)
            expected[param.name] = reference(before, grad.astype(numpy.float64), state, t, hp)
        arrays = {param.name: param.array for param in model.params()}
        optimizer.update()
        for param in model.params():
            want_param, want_state = expected[param.name]
            rule = param.update_rule
            assert rule.t == t
            assert sorted(rule.state) == sorted(want_state)
            for key, value in want_state.items():
                assert rule.state[key].dtype == dtype
                assert backend.get_device_from_array(rule.state[key]) == device
                numpy.testing.assert_allclose(
                    to_numpy(rule.state[key]),
                    value,
                    **TOLERANCES[dtype],
                    err_msg=f"state {key!r}",
                )
            assert param.array is arrays[param.name]  # updated in place
            assert param.array.dtype == dtype
            numpy.testing.assert_allclose(to_numpy(param.array), want_param, **TOLERANCES[dtype])
    assert optimizer.t == STEPS


@pytest.mark.parametrize("name", list(CASES))
def test_a_rule_made_by_hand_uses_the_defaults_and_its_overrides(name):
    cls = CASES[name][0]
    # The Adam variants only preset Adam's flags; their rules default to plain Adam.
    base = optimizers.Adam if issubclass(cls, optimizers.Adam) else cls
    rule = _make_optimizer(name).create_update_rule()
    default_rule = type(rule)()
    defaults = base().hyperparam.get_dict()
    assert default_rule.hyperparam.get_dict() == defaults
    first = next(iter(defaults))
    value = defaults[first]
    overridden = type(rule)(**{first: not value if isinstance(value, bool) else value + 1})
    assert getattr(overridden.hyperparam, first) != value
    assert overridden.is_elementwise is True


def test_rule_hyperparameters_fall_back_to_the_optimizer():
    optimizer = optimizers.MomentumSGD(lr=0.5, momentum=0.0)
    param = chainer.Parameter(numpy.ones(3, numpy.float32))
    optimizer.setup(chainer.link.Link())
    rule = optimizer.create_update_rule()
    optimizer.lr = 0.25  # a later change of the optimizer reaches the rule
    param.grad = numpy.full(3, 2.0, numpy.float32)
    rule.update(param)
    numpy.testing.assert_array_equal(param.array, [0.5, 0.5, 0.5])
    rule.hyperparam.lr = 0.125  # an override on the rule wins
    param.grad = numpy.full(3, 2.0, numpy.float32)
    rule.update(param)
    numpy.testing.assert_array_equal(param.array, [0.25, 0.25, 0.25])
