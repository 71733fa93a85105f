"""``dataset.transform`` (per example) and ``dataset.transform_batch`` (per batch of rows)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chainer.dataset.tabular import _util
from chainer.dataset.tabular.tabular_dataset import TabularDataset

_UNKNOWN = object()


class _TransformBase(TabularDataset):
    """Shared by both transforms: output keys, the output mode and calling the function.

    The mode is the type of what the function returns (tuple, dict, or anything else for
    unary), found on the first call; an empty dataset falls back to what ``keys`` suggests.
    """

    def __init__(self, dataset: TabularDataset, keys: str | tuple[str, ...], function: Callable):
        if isinstance(keys, str):
            keys = (keys,)
        elif not (isinstance(keys, tuple) and keys and all(isinstance(k, str) for k in keys)):
            raise TypeError(f"keys must be a str or a non-empty tuple of str, got {keys!r}")
        self._dataset = dataset
        self._keys = keys
        self._function = function
        self._mode: Any = _UNKNOWN

    def __len__(self) -> int:
        return len(self._dataset)

    @property
    def keys(self) -> tuple[str, ...]:
        return self._keys

    @property
    def mode(self) -> Any:
        if self._mode is _UNKNOWN:
            if len(self) == 0:
                return None if len(self._keys) == 1 else tuple
            self.get_examples([0], None)
        return self._mode

    def convert(self, data: Any) -> Any:
        return self._dataset.convert(data)

    def _call(self, values: Sequence) -> Any:
        mode = self._dataset.mode
        if mode is tuple:
            return self._function(*values)
        if mode is dict:
            return self._function(**dict(zip(self._dataset.keys, values)))
        return self._function(values[0])

    def _unpack(self, output: Any) -> tuple:
        """Split an output into one value per key, checking it against the keys and mode."""
        if isinstance(output, tuple):
            mode = tuple
            if len(output) != len(self._keys):
                raise ValueError(
                    f"{self._what} returned a tuple of {len(output)} values for the "
                    f"{len(self._keys)} keys {self._keys}"
                )
            values = output
        elif isinstance(output, dict):
            mode = dict
            if output.keys() != set(self._keys):
                raise ValueError(
                    f"{self._what} returned a dict with the keys {sorted(output)}, expected "
                    f"{sorted(self._keys)}"
                )
            values = tuple(output[key] for key in self._keys)
        else:
            mode = None
            if len(self._keys) != 1:
                raise ValueError(
                    f"{self._what} returned a single {type(output).__name__}, but there are "
                    f"{len(self._keys)} keys {self._keys}: return a tuple or a dict"
                )
            values = (output,)
        if self._mode is _UNKNOWN:
            self._mode = mode
        elif mode is not self._mode:
            raise ValueError(
                f"{self._what} returned {_mode_name(mode)} after returning "
                f"{_mode_name(self._mode)}; it must return one kind of value"
            )
        return values


class Transform(_TransformBase):
    """Examples of ``dataset`` mapped one by one through ``transform``."""

    _what = "transform"

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        columns = self._dataset.get_examples(indices, None)
        outputs: list[list] = [[] for _ in self._keys]
        for values in zip(*columns):
            for output, value in zip(outputs, self._unpack(self._call(values))):
                output.append(value)
        return _select(outputs, key_indices)


class TransformBatch(_TransformBase):
    """Rows of ``dataset`` mapped through ``transform_batch`` a batch of columns at a time."""

    _what = "transform_batch"

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        n_rows = _util.count_rows(indices, len(self._dataset))
        outputs = self._unpack(self._call(self._dataset.get_examples(indices, None)))
        for key, output in zip(self._keys, outputs):
            if len(output) != n_rows:
                raise ValueError(
                    f"transform_batch returned {len(output)} values for the column {key!r} "
                    f"of a batch of {n_rows} rows"
                )
        return _select(outputs, key_indices)


def _select(outputs: Sequence, key_indices: Any) -> tuple:
    if key_indices is None:
        return tuple(outputs)
    return tuple(outputs[k] for k in key_indices)


def _mode_name(mode: Any) -> str:
    return {tuple: "a tuple", dict: "a dict"}.get(mode, "a single value")
