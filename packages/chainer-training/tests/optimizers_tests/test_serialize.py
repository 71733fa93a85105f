"""Optimizer state survives an NPZ round trip: resumed training is bit-identical on CPU."""

import io

import numpy
import pytest

from chainer import optimizers, serializers

OPTIMIZERS = {
    "SGD": lambda: optimizers.SGD(lr=0.1),
    "MomentumSGD": lambda: optimizers.MomentumSGD(lr=0.1),
    "CorrectedMomentumSGD": lambda: optimizers.CorrectedMomentumSGD(lr=0.1),
    "NesterovAG": lambda: optimizers.NesterovAG(lr=0.1),
    "AdaGrad": lambda: optimizers.AdaGrad(lr=0.1),
    "AdaDelta": lambda: optimizers.AdaDelta(),
    "RMSprop": lambda: optimizers.RMSprop(),
    "RMSpropGraves": lambda: optimizers.RMSpropGraves(),
    "SMORMS3": lambda: optimizers.SMORMS3(),
    "Adam": lambda: optimizers.Adam(alpha=0.05),
    "AdamW": lambda: optimizers.AdamW(weight_decay_rate=0.01),
    "AMSGrad": lambda: optimizers.AMSGrad(),
    "AdaBound": lambda: optimizers.AdaBound(),
    "AMSBound": lambda: optimizers.AMSBound(),
    "MSVAG": lambda: optimizers.MSVAG(),
}


def _save(model, optimizer):
    files = io.BytesIO(), io.BytesIO()
    serializers.save_npz(files[0], model)
    serializers.save_npz(files[1], optimizer)
    for f in files:
        f.seek(0)
    return files


def _train(model, optimizer, steps):
    for _ in range(steps):
        optimizer.update(model)


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32])
@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_resumed_training_is_bit_identical(kit, name, dtype):
    model = kit.Quadratic(dtype, big_size=300)
    optimizer = OPTIMIZERS[name]().setup(model)
    _train(model, optimizer, 3)
    model_file, optimizer_file = _save(model, optimizer)
    _train(model, optimizer, 4)

    # A fresh process would build the model and optimizer anew, then load the snapshot.
    resumed = kit.Quadratic(dtype, seed=7, big_size=300)
    resumed_optimizer = OPTIMIZERS[name]().setup(resumed)
    serializers.load_npz(model_file, resumed)
    serializers.load_npz(optimizer_file, resumed_optimizer)
    assert resumed_optimizer.t == 3
    resumed.targets, resumed.curvatures = model.targets, model.curvatures
    _train(resumed, resumed_optimizer, 4)

    assert resumed_optimizer.t == optimizer.t == 7
    for (path, p), (_, q) in zip(model.namedparams(), resumed.namedparams()):
        numpy.testing.assert_array_equal(q.array, p.array, err_msg=path)
        assert q.update_rule.t == p.update_rule.t == 7
        assert sorted(q.update_rule.state) == sorted(p.update_rule.state)
        for key, value in p.update_rule.state.items():
            numpy.testing.assert_array_equal(q.update_rule.state[key], value, err_msg=key)


def test_snapshot_holds_t_and_state_under_the_parameter_paths(kit):
    model = kit.Quadratic(big_size=4)
    optimizer = optimizers.AMSGrad().setup(model)
    _train(model, optimizer, 2)
    _, optimizer_file = _save(model, optimizer)
    with numpy.load(optimizer_file) as saved:
        keys = set(saved.files)
        numpy.testing.assert_array_equal(saved["w/vhat"], model.w.update_rule.state["vhat"])
    assert keys == {
        "t",
        "epoch",
        *(f"{p}/{k}" for p in ("w", "big") for k in ("t", "m", "v", "vhat")),
    }
