"""Public surface: Chainer 7's class names, modules, signatures, defaults and argument checks."""

import inspect
import math
import warnings

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer.optimizer import GradientMethod, UpdateRule

SIGNATURES = {
    "AdaDelta": ("ada_delta", "(rho=0.95, eps=1e-06)"),
    "AdaGrad": ("ada_grad", "(lr=0.001, eps=1e-08)"),
    "Adam": (
        "adam",
        "(alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-08, eta=1.0, weight_decay_rate=0, "
        "amsgrad=False, adabound=False, final_lr=0.1, gamma=0.001)",
    ),
    "AdamW": (
        "adam",
        "(alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-08, eta=1.0, weight_decay_rate=0)",
    ),
    "AMSGrad": ("adam", "(alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-08, eta=1.0)"),
    "AdaBound": (
        "adam",
        "(alpha=0.001, beta1=0.9, beta2=0.999, final_lr=0.1, gamma=0.001, eps=1e-08, eta=1.0)",
    ),
    "AMSBound": (
        "adam",
        "(alpha=0.001, beta1=0.9, beta2=0.999, final_lr=0.1, gamma=0.001, eps=1e-08, eta=1.0)",
    ),
    "CorrectedMomentumSGD": ("corrected_momentum_sgd", "(lr=0.01, momentum=0.9)"),
    "MomentumSGD": ("momentum_sgd", "(lr=0.01, momentum=0.9)"),
    "MSVAG": ("msvag", "(lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0)"),
    "NesterovAG": ("nesterov_ag", "(lr=0.01, momentum=0.9)"),
    "RMSprop": ("rmsprop", "(lr=0.01, alpha=0.99, eps=1e-08, eps_inside_sqrt=False)"),
    "RMSpropGraves": ("rmsprop_graves", "(lr=0.0001, alpha=0.95, momentum=0.9, eps=0.0001)"),
    "SGD": ("sgd", "(lr=0.01)"),
    "SMORMS3": ("smorms3", "(lr=0.001, eps=1e-16)"),
}


def _plain_signature(obj):
    # Drop annotations: the spec lists names and defaults only.
    params = [
        p.replace(annotation=inspect.Parameter.empty)
        for p in inspect.signature(obj).parameters.values()
    ]
    return str(inspect.Signature(params))


def test_exports_exactly_chainer_7_optimizers():
    assert sorted(optimizers.__all__) == sorted(SIGNATURES)


@pytest.mark.parametrize("name", list(SIGNATURES))
def test_signature_module_and_hyperparameters(name):
    module, signature = SIGNATURES[name]
    cls = getattr(optimizers, name)
    assert cls.__module__ == f"chainer.optimizers.{module}"
    assert issubclass(cls, GradientMethod)
    assert _plain_signature(cls) == signature
    optimizer = cls()
    for param_name, param in inspect.signature(cls).parameters.items():
        # Every argument is a hyperparameter, readable and writable on the optimizer.
        assert getattr(optimizer, param_name) == param.default
        assert getattr(optimizer.hyperparam, param_name) == param.default
    rule = optimizer.create_update_rule()
    assert isinstance(rule, UpdateRule)
    assert rule.hyperparam.parent is optimizer.hyperparam
    assert type(rule).__module__ == f"chainer.optimizers.{module}"


def test_variants_preset_adams_flags():
    assert (optimizers.AMSGrad().amsgrad, optimizers.AMSGrad().adabound) == (True, False)
    assert (optimizers.AdaBound().amsgrad, optimizers.AdaBound().adabound) == (False, True)
    assert (optimizers.AMSBound().amsgrad, optimizers.AMSBound().adabound) == (True, True)
    assert optimizers.AdamW(weight_decay_rate=0.1).weight_decay_rate == 0.1
    assert all(
        issubclass(getattr(optimizers, n), optimizers.Adam)
        for n in ("AdamW", "AMSGrad", "AdaBound", "AMSBound")
    )


def test_setting_a_proxy_changes_the_hyperparameter():
    optimizer = optimizers.MomentumSGD()
    optimizer.lr = 0.5
    assert optimizer.hyperparam.lr == 0.5


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: optimizers.SGD(lr="0.1"),
            r"SGD: hyperparameter 'lr' must be a real number, got str '0\.1'",
        ),
        (
            lambda: optimizers.Adam(beta1=None),
            r"Adam: hyperparameter 'beta1' must be a real number, got NoneType",
        ),
        (
            lambda: optimizers.MomentumSGD(momentum=True),
            r"'momentum' must be a real number, got bool True",
        ),
        (
            lambda: optimizers.Adam(amsgrad=None),
            r"Adam: option 'amsgrad' must be a bool, got None",
        ),
        (
            lambda: optimizers.RMSprop(eps_inside_sqrt="yes"),
            r"RMSprop: option 'eps_inside_sqrt' must be a bool, got str",
        ),
        (
            lambda: optimizers.adam.AdamRule(alpha=[1]),
            r"AdamRule: hyperparameter 'alpha' must be a real number, got list",
        ),
    ],
)
def test_bad_hyperparameters_are_refused(make, message):
    with pytest.raises(TypeError, match=message):
        make()


def test_a_number_as_an_option_is_kept_and_read_by_its_truth_value():
    # v7 accepts numbers for its boolean options (its own tests set amsgrad=0.1).
    link = chainer.Link()
    with link.init_scope():
        link.w = chainer.Parameter(numpy.zeros(3, numpy.float32))
    link.w.grad = numpy.ones(3, numpy.float32)
    optimizer = optimizers.Adam(amsgrad=0.1).setup(link)
    assert optimizer.hyperparam.amsgrad == 0.1
    optimizer.update()
    assert "vhat" in link.w.update_rule.state  # 0.1 is true: AMSGrad keeps vhat
    assert optimizers.RMSprop(eps_inside_sqrt=0).hyperparam.eps_inside_sqrt == 0


def test_numpy_scalars_are_accepted():
    assert optimizers.SGD(lr=numpy.float32(0.5)).lr == 0.5
    assert optimizers.Adam(amsgrad=numpy.bool_(True)).amsgrad is True


class TestAdamLearningRate:
    def _stepped(self, steps, **kwargs):
        param = chainer.Parameter(numpy.zeros(2, numpy.float32))
        link = chainer.link.Link()
        with link.init_scope():
            link.p = param
        optimizer = optimizers.Adam(**kwargs).setup(link)
        for _ in range(steps):
            param.grad = numpy.ones(2, numpy.float32)
            optimizer.update()
        return optimizer, param.update_rule

    def test_alpha_t_is_the_bias_corrected_step(self):
        optimizer, rule = self._stepped(3, alpha=0.2, beta1=0.5, beta2=0.75)
        expected = 0.2 * math.sqrt(1 - 0.75**3) / (1 - 0.5**3)
        assert optimizer.alpha_t == pytest.approx(expected, rel=1e-15)
        assert rule.alpha_t == pytest.approx(expected, rel=1e-15)

    def test_lr_is_a_deprecated_alias(self):
        optimizer, rule = self._stepped(2)
        with pytest.warns(DeprecationWarning, match=r"Adam\.lr is deprecated: use Adam\.alpha_t"):
            assert optimizer.lr == optimizer.alpha_t
        with pytest.warns(DeprecationWarning, match=r"AdamRule\.lr is deprecated"):
            assert rule.lr == rule.alpha_t

    def test_alpha_t_needs_an_update_first(self):
        with pytest.raises(RuntimeError, match=r"learning rate of Adam before its first update"):
            _ = optimizers.Adam().alpha_t
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            with pytest.raises(RuntimeError, match=r"t == 0"):
                _ = optimizers.adam.AdamRule().lr

    def test_adabound_bounds_follow_alpha_relative_to_the_first_update(self):
        optimizer, rule = self._stepped(1, alpha=0.1, adabound=True, final_lr=0.2, gamma=0.5)
        assert rule.initial_alpha == 0.1
        optimizer.alpha = 0.05  # a schedule halves alpha: the bounds halve too
        lower, upper = rule._bounds()
        assert lower == pytest.approx(0.1 * (1 - 1 / (0.5 * 1 + 1)))
        assert upper == pytest.approx(0.1 * (1 + 1 / 0.5))


def test_msvag_rho_needs_an_update_first():
    with pytest.raises(RuntimeError, match=r"rho of M-SVAG before its first update"):
        _ = optimizers.msvag.MSVAGRule().rho
