"""Every optimizer drives a small quadratic to its minimum via ``optimizer.update(lossfun)``."""

import pytest

from chainer import optimizers

# name: (optimizer, steps). Rates are chosen per method; the check is that each one converges.
CASES = {
    "SGD": (lambda: optimizers.SGD(lr=0.3), 100),
    "MomentumSGD": (lambda: optimizers.MomentumSGD(lr=0.1), 150),
    "CorrectedMomentumSGD": (lambda: optimizers.CorrectedMomentumSGD(lr=0.1), 150),
    "NesterovAG": (lambda: optimizers.NesterovAG(lr=0.1), 150),
    "AdaGrad": (lambda: optimizers.AdaGrad(lr=0.5), 300),
    "AdaDelta": (lambda: optimizers.AdaDelta(rho=0.9, eps=1e-3), 400),
    "RMSprop": (lambda: optimizers.RMSprop(lr=0.01), 300),
    "RMSpropGraves": (lambda: optimizers.RMSpropGraves(lr=0.01), 300),
    "SMORMS3": (lambda: optimizers.SMORMS3(lr=0.05), 300),
    "Adam": (lambda: optimizers.Adam(alpha=0.05), 300),
    "AdamW": (lambda: optimizers.AdamW(alpha=0.05, weight_decay_rate=1e-4), 300),
    "AMSGrad": (lambda: optimizers.AMSGrad(alpha=0.05), 300),
    "AdaBound": (lambda: optimizers.AdaBound(alpha=0.05, final_lr=0.3), 300),
    "AMSBound": (lambda: optimizers.AMSBound(alpha=0.05, final_lr=0.3), 300),
    "MSVAG": (lambda: optimizers.MSVAG(lr=0.3), 200),
}


@pytest.mark.parametrize("name", list(CASES))
def test_converges_on_a_quadratic(kit, name):
    make, steps = CASES[name]
    model = kit.Quadratic(big_size=50)
    optimizer = make().setup(model)
    start = model.distance()
    for _ in range(steps):
        optimizer.update(model)
    assert model.distance() < 1e-3 * start
