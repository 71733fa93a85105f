"""Views that change how a tabular dataset presents its data: ``astuple``/``asdict`` and
``with_converter``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.dataset.tabular.delegate_dataset import DelegateDataset
from chainer.dataset.tabular.tabular_dataset import TabularDataset


class AsMode(DelegateDataset):
    """The same table presented in another mode (``tuple`` or ``dict``).

    As in Chainer v7 it keeps the wrapped dataset's :meth:`convert`, which then receives
    data in the new mode.
    """

    def __init__(self, dataset: TabularDataset, mode: type) -> None:
        super().__init__(dataset)
        self._mode = mode

    @property
    def mode(self) -> Any:
        return self._mode


class WithConverter(DelegateDataset):
    """The same table whose :meth:`convert` calls a user function."""

    def __init__(self, dataset: TabularDataset, converter: Callable) -> None:
        super().__init__(dataset)
        self._converter = converter

    def convert(self, data: Any) -> Any:
        if isinstance(data, tuple):
            return self._converter(*data)
        if isinstance(data, dict):
            return self._converter(**data)
        return self._converter(data)
