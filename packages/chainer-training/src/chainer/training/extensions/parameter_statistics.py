"""Reporting statistics (mean, std, percentiles, ...) of parameters and their gradients."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy

from chainer import backend, reporter
from chainer.training import extension, util


def _xp(array: Any) -> Any:
    return backend.get_array_module(array)


class ParameterStatistics(extension.Extension):
    """Trainer extension to report parameter statistics.

    At every call it computes each statistic of each parameter's data and gradient (as a flat
    array) and accumulates it; when ``trigger`` fires it reports the means over the interval
    and starts a new one. Keys follow :attr:`report_key_template`, e.g.
    ``'predictor/l1/W/data/mean'``: ``link_name`` is the link's name (``'None'`` for a root
    link, as in Chainer v7: ``'None/W/data/mean'``) and ``param_name`` the parameter's path
    below it. A statistic returning several values
    (``'percentile'``) is reported as ``.../percentile/0``, ``.../percentile/1``, ...
    Uninitialized parameters are skipped; a missing gradient (before the first backward, after
    ``cleargrads``) counts as an array of NaN, as Chainer v7's gradients start as NaN.

    Args:
        links: A link or a list of links whose parameters are summarized.
        statistics: Dict of name to function (flat array to a scalar or a 1-d array),
            ``'default'`` (:attr:`default_statistics`) or ``None`` (none until
            :meth:`register_statistics`).
        report_params: Report statistics of the parameter values (``data``).
        report_grads: Report statistics of the gradients (``grad``).
        prefix: Prefix of every key (``'<prefix>/...'``).
        trigger: When to report the accumulated means.
        skip_nan_params: Report NaN instead of computing the statistics of an array holding
            NaN (the computation may be slow or warn).

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> model = L.Classifier(L.Linear(3, 2))
        >>> trainer.extend(ParameterStatistics(model.predictor, prefix='stats'))
    """

    default_name = "parameter_statistics"
    priority = extension.PRIORITY_WRITER

    report_key_template = "{prefix}{link_name}{param_name}/{attr_name}/{function_name}"

    default_statistics: dict[str, Callable[[Any], Any]] = {
        "mean": lambda x: _xp(x).mean(x),
        "std": lambda x: _xp(x).std(x),
        "min": lambda x: _xp(x).min(x),
        "max": lambda x: _xp(x).max(x),
        "zeros": lambda x: _xp(x).count_nonzero(x == 0),
        "percentile": lambda x: _xp(x).percentile(x, (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)),
    }

    def __init__(
        self,
        links: Any,
        statistics: Mapping[str, Callable] | str | None = "default",
        report_params: bool = True,
        report_grads: bool = True,
        prefix: str | None = None,
        trigger: Any = (1, "epoch"),
        skip_nan_params: bool = False,
    ) -> None:
        self._links = list(links) if isinstance(links, (list, tuple)) else [links]
        if statistics is None:
            statistics = {}
        elif isinstance(statistics, str):
            if statistics != "default":
                raise ValueError(
                    f"statistics must be a dict, 'default' or None, got {statistics!r}"
                )
            statistics = self.default_statistics
        self._statistics = dict(statistics)
        self._attrs = [
            name for name, on in (("data", report_params), ("grad", report_grads)) if on
        ]
        self._prefix = prefix
        self._trigger = util.get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._skip_nan_params = skip_nan_params

    def __call__(self, trainer: Any) -> None:
        """Accumulate the current statistics; report their means when the trigger fires."""
        self._summary.add(self._collect())
        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def _collect(self) -> dict[str, Any]:
        statistics = {}
        prefix = f"{self._prefix}/" if self._prefix else ""
        for link in self._links:
            link_name = str(link.name)
            for param_name, param in link.namedparams(include_uninit=False):
                for attr_name in self._attrs:
                    array = getattr(param, attr_name)
                    if array is None:
                        array = param.xp.full(param.shape, numpy.nan, param.dtype)
                    flat = array.ravel()
                    has_nan = self._skip_nan_params and bool(_xp(flat).isnan(flat).any())
                    for function_name, function in self._statistics.items():
                        value = numpy.nan if has_nan else function(flat)
                        key = self.report_key_template.format(
                            prefix=prefix,
                            link_name=link_name,
                            param_name=param_name,
                            attr_name=attr_name,
                            function_name=function_name,
                        )
                        if getattr(value, "size", 1) > 1:
                            statistics.update({f"{key}/{i}": v for i, v in enumerate(value)})
                        else:
                            statistics[key] = value
        return statistics

    def register_statistics(self, name: str, function: Callable[[Any], Any]) -> None:
        """Add (or replace) the statistic ``name`` computed by ``function(flat_array)``."""
        self._statistics[name] = function

    def serialize(self, serializer: Any) -> None:
        """Save or load the trigger and the statistics accumulated so far."""
        if hasattr(self._trigger, "serialize"):
            self._trigger.serialize(serializer["_trigger"])
        self._summary.serialize(serializer["_summary"])
