"""The base of the hooks that replace a link's weight by a function of it during forward."""

from __future__ import annotations

import typing as tp

from chainer import link_hook, utils
from chainer.links.connection.linear import Linear
from chainer.variable import Variable


class WeightTransformHook(link_hook.LinkHook):
    """A hook that makes a link compute with ``transform(W)`` instead of its weight ``W``.

    Before each forward pass the parameter ``link.<weight_name>`` is swapped for the
    transformed variable (so gradients flow back to the parameter through the
    transformation), and restored right after, so that outside ``forward`` the attribute is
    the parameter itself. A hook instance serves one link.

    Subclasses implement :meth:`transform` and may extend :meth:`prepare`, called once before
    the first transformation.
    """

    def __init__(self, weight_name: str, name: str | None) -> None:
        self.weight_name = weight_name
        self._initialized = False
        self.original_weight: Variable | None = None
        if name is not None:
            self.name = name

    def __enter__(self) -> tp.NoReturn:
        raise NotImplementedError(
            f"{type(self).__name__} is not supposed to be used as a context manager: register "
            "it on a link with link.add_hook(hook)"
        )

    def __exit__(self, *exc_info: tp.Any) -> tp.NoReturn:
        raise NotImplementedError(
            f"{type(self).__name__} is not supposed to be used as a context manager"
        )

    def added(self, link: tp.Any) -> None:
        """Check that ``link`` has the weight; prepare now if it is initialized.

        Raises:
            ValueError: ``link`` has no attribute ``weight_name``.
        """
        if link is None or not hasattr(link, self.weight_name):
            raise ValueError(
                f"Weight '{self.weight_name}' does not exist in "
                f"{type(link).__name__}: {type(self).__name__} needs a link with that weight"
            )
        if getattr(link, self.weight_name).array is not None:
            self.prepare(link)

    def prepare(self, link: tp.Any) -> None:
        """Called once, when the weight is initialized, before the first transformation."""
        self._initialized = True

    def transform(self, link: tp.Any, weight: Variable) -> Variable:
        """The weight the link computes with in this forward pass."""
        raise NotImplementedError(f"{type(self).__name__} must define transform")

    def forward_preprocess(self, cb_args: tp.Any) -> None:
        link = cb_args.link
        if not self._initialized:
            if getattr(link, self.weight_name).array is None and cb_args.args:
                _initialize_lazy_weight(link, cb_args.args[0])
            self.prepare(link)
        self.original_weight = getattr(link, self.weight_name)
        setattr(link, self.weight_name, self.transform(link, self.original_weight))

    def forward_postprocess(self, cb_args: tp.Any) -> None:
        # The graph through the transformed weight is built: the parameter can come back.
        setattr(cb_args.link, self.weight_name, self.original_weight)


def _initialize_lazy_weight(link: tp.Any, x: tp.Any) -> None:
    """Give a lazily initialized weight its shape from the first input ``x``."""
    # Linear flattens everything after the batch axis; the convolutions read channels.
    size = utils.size_of_shape(x.shape[1:]) if isinstance(link, Linear) else x.shape[1]
    link._initialize_params(size)
