"""Tiny models, data and stand-ins shared by the training tests and their subprocess jobs.

chainer-training does not depend on chainer-links, so the models are written with Parameters
and Variable arithmetic. Test modules get this module through the ``kit`` fixture; scripts run
in a subprocess import it from their own directory.
"""

import os

import numpy

import chainer
from chainer._ops.array_ops import mean
from chainer._ops.matmul import matmul

IN_SIZE, OUT_SIZE = 3, 2


class LinearRegression(chainer.Chain):
    """``y = x @ W + b`` with a mean squared error loss, reported as ``'loss'``.

    A child link ``head`` holds ``b``, so the reporter's naming of descendants is exercised
    (``'main/head/...'``).
    """

    def __init__(self, seed=0, in_size=IN_SIZE, out_size=OUT_SIZE):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.W = chainer.Parameter(rng.normal(0, 0.5, (in_size, out_size)).astype("f"))
            self.head = Bias(out_size)

    def predict(self, x):
        return self.head(matmul(x, self.W))

    def forward(self, x, t):
        diff = self.predict(x) - t
        loss = mean(diff * diff)
        chainer.report({"loss": loss}, self)
        return loss


class Bias(chainer.Link):
    def __init__(self, size):
        super().__init__()
        with self.init_scope():
            self.b = chainer.Parameter(numpy.zeros(size, dtype="f"))

    def forward(self, x):
        chainer.report({"bias_norm": float(numpy.linalg.norm(self.b.array))}, self)
        return x + self.b


def regression_data(n=24, seed=1, in_size=IN_SIZE, out_size=OUT_SIZE):
    """A list of ``(x, t)`` float32 examples of a noisy linear map."""
    rng = numpy.random.default_rng(seed)
    x = rng.normal(size=(n, in_size)).astype("f")
    true_w = rng.normal(size=(in_size, out_size)).astype("f")
    t = (x @ true_w + 0.5 + 0.1 * rng.normal(size=(n, out_size))).astype("f")
    return list(zip(x, t))


def numpy_loss_and_grads(W, b, x, t):
    """Reference of LinearRegression's loss and gradients, in NumPy."""
    diff = x @ W + b - t
    loss = numpy.mean(diff * diff)
    dy = 2 * diff / diff.size
    return loss, x.T @ dy, dy.sum(axis=0)


class StubUpdater:
    """An updater whose position is set by hand (``iterations_per_epoch`` per epoch)."""

    def __init__(self, iterations_per_epoch=10):
        self.iterations_per_epoch = iterations_per_epoch
        self.iteration = 0
        self.previous_epoch_detail = None

    @property
    def epoch_detail(self):
        return self.iteration / self.iterations_per_epoch

    @property
    def epoch(self):
        return self.iteration // self.iterations_per_epoch

    @property
    def is_new_epoch(self):
        return self.iteration > 0 and self.iteration % self.iterations_per_epoch == 0

    def step(self):
        self.previous_epoch_detail = self.epoch_detail
        self.iteration += 1


class StubTrainer:
    """A trainer stand-in for triggers: an updater, an observation and a clock."""

    def __init__(self, iterations_per_epoch=10):
        self.updater = StubUpdater(iterations_per_epoch)
        self.observation = {}
        self.elapsed_time = 0.0
        self.out = "."


def fire_pattern(trigger, trainer, n_iterations, observe=None):
    """The iterations (1-based) at which ``trigger`` fires over ``n_iterations`` steps."""
    fired = []
    for _ in range(n_iterations):
        trainer.updater.step()
        trainer.observation = observe(trainer.updater.iteration) if observe else {}
        if trigger(trainer):
            fired.append(trainer.updater.iteration)
    return fired


class FailingIn(LinearRegression):
    """Raises in the process that created it (``where='creator'``: the master process of a
    MultiprocessParallelUpdater) or in every other one (``where='worker'``)."""

    def __init__(self, where, in_size=IN_SIZE, out_size=OUT_SIZE):
        super().__init__(in_size=in_size, out_size=out_size)
        self.creator_pid = os.getpid()
        self.where = where

    def forward(self, x, t):
        if (os.getpid() == self.creator_pid) == (self.where == "creator"):
            raise RuntimeError(f"boom in the {self.where}")
        return super().forward(x, t)


def stack_batch(examples):
    """The arrays concat_examples makes of a list of (x, t) examples."""
    return numpy.stack([e[0] for e in examples]), numpy.stack([e[1] for e in examples])
