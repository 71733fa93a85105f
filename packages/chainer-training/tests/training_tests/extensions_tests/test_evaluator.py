"""Evaluator: reported validation means, evaluation mode, hooks and iterator handling."""

import io

import numpy
import pytest

import chainer
from chainer import iterators, training
from chainer.training import extensions


def _validation_iterator(kit, n=10, batch_size=4):
    return iterators.SerialIterator(
        kit.regression_data(n, seed=7), batch_size, repeat=False, shuffle=False
    )


def _reference_loss(kit, model, data, batch_size=4):
    # The mean over batches of each batch's mean loss (as the summary computes it).
    losses = []
    for start in range(0, len(data), batch_size):
        x, t = kit.stack_batch(data[start : start + batch_size])
        loss, _, _ = kit.numpy_loss_and_grads(model.W.array, model.head.b.array, x, t)
        losses.append(loss)
    return numpy.mean(losses)


def test_reports_validation_means_into_the_trainer_observation(make_trainer, kit):
    trainer = make_trainer((2, "epoch"))
    model = trainer.updater.get_optimizer("main").target
    evaluator = extensions.Evaluator(_validation_iterator(kit), model)
    trainer.extend(evaluator)
    seen = []
    trainer.extend(
        lambda t: seen.append(
            (
                t.updater.iteration,
                {k: float(v) for k, v in t.observation.items() if k.startswith("validation")},
            )
        ),
        name="spy",
        trigger=(1, "epoch"),
    )
    trainer.run()
    assert [iteration for iteration, _ in seen] == [6, 12]
    final = seen[-1][1]
    assert sorted(final) == ["validation/main/head/bias_norm", "validation/main/loss"]
    expected = _reference_loss(kit, model, kit.regression_data(10, seed=7))
    assert final["validation/main/loss"] == pytest.approx(expected, rel=1e-6)
    assert evaluator.name == "validation" and evaluator.priority == training.PRIORITY_WRITER


def test_standalone_call_returns_unprefixed_means_in_evaluation_mode(kit):
    model = kit.LinearRegression()
    modes = []
    original = model.forward

    def forward(x, t):
        modes.append((chainer.config.train, chainer.config.enable_backprop))
        return original(x, t)

    model.forward = forward
    result = extensions.Evaluator(_validation_iterator(kit), model)()
    assert modes == [(False, False)] * 3
    expected = _reference_loss(kit, model, kit.regression_data(10, seed=7))
    assert float(result["main/loss"]) == pytest.approx(expected, rel=1e-6)
    assert chainer.config.train  # restored


def test_eval_func_hook_converter_and_device(kit):
    calls = []
    model = kit.LinearRegression()

    @chainer.dataset.converter()
    def converter(batch, device):
        calls.append(("convert", len(batch), device))
        return kit.stack_batch(batch)

    def eval_func(x, t):
        chainer.report({"size": x.shape[0]})

    evaluator = extensions.Evaluator(
        {"main": _validation_iterator(kit)},
        {"main": model},
        converter=converter,
        device="@numpy",
        eval_hook=lambda e: calls.append(("hook", e is evaluator)),
        eval_func=eval_func,
    )
    result = evaluator()
    cpu = chainer.get_device("@numpy")
    assert calls == [("hook", True), ("convert", 4, cpu), ("convert", 4, cpu), ("convert", 2, cpu)]
    assert result == {"size": pytest.approx(10 / 3)}
    assert evaluator.get_target("main") is model
    assert evaluator.get_all_targets() == {"main": model}
    assert list(evaluator.get_all_iterators()) == ["main"]


def test_targets_may_be_an_empty_dict_with_an_eval_func(kit):
    sizes = []
    evaluator = extensions.Evaluator(
        _validation_iterator(kit), {}, eval_func=lambda x, t: sizes.append(len(x))
    )
    evaluator()
    assert sizes == [4, 4, 2] and evaluator.get_all_targets() == {}
    with pytest.raises(
        KeyError,
        match=r"needs an eval_func or a 'main' target to evaluate, got the targets \['x'\]",
    ):
        extensions.Evaluator(_validation_iterator(kit), {"x": kit.LinearRegression()})()


def test_every_evaluation_restarts_the_iterator(kit):
    model = kit.LinearRegression()
    evaluator = extensions.Evaluator(_validation_iterator(kit), model)
    first, second = evaluator(), evaluator()
    assert float(first["main/loss"]) == float(second["main/loss"])


def test_a_repeating_iterator_warns(kit):
    it = iterators.SerialIterator(kit.regression_data(8), 4)
    with pytest.warns(UserWarning, match="The `repeat` property of the iterator 'main' is True"):
        extensions.Evaluator(it, kit.LinearRegression())


def test_an_iterator_without_reset_is_copied_with_a_deprecation_warning(kit):
    class NoReset:
        def __init__(self, batches):
            self.batches = list(batches)

        def __iter__(self):
            return iter(self.batches)

        def finalize(self):
            pass

    data = kit.regression_data(4)
    evaluator = extensions.Evaluator(NoReset([data[:2], data[2:]]), kit.LinearRegression())
    with pytest.warns(DeprecationWarning, match="does not have the reset method"):
        result = evaluator()
    assert set(result) == {"main/loss", "main/head/bias_norm"}


def test_progress_bar_shows_the_pass(kit, capsys):
    evaluator = extensions.Evaluator(
        _validation_iterator(kit, n=40), kit.LinearRegression(), progress_bar=True
    )
    evaluator()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 10  # one line per tenth of the pass in a log
    assert lines[-1].startswith(
        "[##############################] 100.00% | validation | 10 batches"
    )


def test_finalize_finalizes_the_iterators(kit):
    it = _validation_iterator(kit)
    finalized = []
    it.finalize = lambda: finalized.append(True)
    extensions.Evaluator(it, kit.LinearRegression()).finalize()
    assert finalized == [True]


def test_unknown_keyword_is_refused(kit):
    with pytest.raises(TypeError, match="unexpected keyword argument\\(s\\) 'progressbar'"):
        extensions.Evaluator(_validation_iterator(kit), kit.LinearRegression(), progressbar=True)


def test_progress_bar_on_a_terminal_redraws_every_batch(kit):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    out = Terminal()
    iterator = _validation_iterator(kit, n=10)
    progress = extensions.util.IteratorProgressBar(iterator, out=out)
    for _ in iterator:
        progress.update()
    progress.close()
    draws = out.getvalue().split("\033[K\r")
    assert len(draws) == 4  # three batches, then the final line kept with a newline
    assert draws[0].startswith("[############") and "40.00% | validation | 1 batches" in draws[0]
    assert draws[-1].endswith("100.00% | validation | 3 batches | " + draws[-1].split(" | ")[-1])
    assert draws[-1].endswith("\033[K\n")
