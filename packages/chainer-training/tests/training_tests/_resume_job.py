"""A training job run in a subprocess by test_resume.py, to be killed and resumed.

Usage: python _resume_job.py OUT_DIR [pause:N | slowsave:N]

It trains for 20 iterations with shuffling, momentum, a learning-rate schedule, validation,
a log and a snapshot every 5 iterations (``autoload=True``, so running it again in the same
directory resumes). ``pause:N`` stops at iteration N (writing ``OUT_DIR/paused``) and waits to
be killed; ``slowsave:N`` stalls halfway through writing the iteration-N snapshot (writing
``OUT_DIR/saving``). A completed run writes ``OUT_DIR/result.json``.
"""

import json
import os
import pathlib
import sys
import time

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _kit

from chainer import iterators, optimizers, serializers, training
from chainer.serializer import Serializer
from chainer.training import extensions
from chainer.training.extensions import snapshot_writers


class LossHistory(training.Extension):
    """Every iteration's training loss, saved in snapshots."""

    def __init__(self):
        self.losses = []
        self.first_iteration = None

    def __call__(self, trainer):
        if self.first_iteration is None:
            self.first_iteration = trainer.updater.iteration
        self.losses.append(float(trainer.observation["main/loss"].array))

    def serialize(self, serializer):
        if isinstance(serializer, Serializer):
            serializer("losses", json.dumps(self.losses))
        else:
            self.losses = json.loads(str(serializer("losses", "")))


def _wait_to_be_killed(marker):
    pathlib.Path(marker).write_text("ready")
    time.sleep(600)
    raise SystemExit("was not killed")


def main(out, mode):
    action, _, at = mode.partition(":")
    at = int(at) if at else None
    model = _kit.LinearRegression()
    optimizer = optimizers.MomentumSGD(lr=0.05).setup(model)
    order = iterators.ShuffleOrderSampler(numpy.random.RandomState(0))
    train = iterators.SerialIterator(_kit.regression_data(30), 4, order_sampler=order)
    valid = iterators.SerialIterator(
        _kit.regression_data(10, seed=3), 5, repeat=False, shuffle=False
    )
    updater = training.updaters.StandardUpdater(train, optimizer)
    trainer = training.Trainer(updater, (20, "iteration"), out=out)

    def savefun(path, state):
        if action == "slowsave" and int(state["updater/iteration"]) == at:
            with open(path, "wb") as f:
                f.write(b"PK\x03\x04 half of an archive")
                f.flush()
                _wait_to_be_killed(os.path.join(out, "saving"))
        serializers.save_npz(path, state)

    history = LossHistory()
    trainer.extend(history, name="history")
    trainer.extend(extensions.Evaluator(valid, model), trigger=(5, "iteration"))
    trainer.extend(extensions.LogReport(trigger=(5, "iteration")))
    trainer.extend(extensions.ExponentialShift("lr", 0.9), trigger=(3, "iteration"))
    writer = snapshot_writers.SimpleWriter(savefun=savefun)
    trainer.extend(
        extensions.snapshot(writer=writer, autoload=True, n_retains=2), trigger=(5, "iteration")
    )
    if action == "pause":
        trainer.extend(
            lambda t: (
                t.updater.iteration == at and _wait_to_be_killed(os.path.join(out, "paused"))
            ),
            name="pause",
        )
    trainer.run()
    log = [
        {k: v for k, v in e.items() if k != "elapsed_time"}
        for e in trainer.get_extension("LogReport").log
    ]
    result = {
        "first_iteration": history.first_iteration,
        "losses": history.losses,
        "log": log,
        "W": model.W.array.tobytes().hex(),
        "b": model.head.b.array.tobytes().hex(),
        "lr": optimizer.lr,
    }
    pathlib.Path(out, "result.json").write_text(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")
