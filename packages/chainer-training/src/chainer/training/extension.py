"""Trainer extensions: the base class, the decorator for function extensions, priorities.

An extension is a callable that takes the :class:`~chainer.training.Trainer`. The trainer calls
it after an update whenever its trigger fires; extensions whose triggers fire on the same
iteration run in decreasing order of priority (then in the order they were added).

Example:
    >>> @make_extension(trigger=(10, 'epoch'))
    ... def lr_drop(trainer):
    ...     trainer.updater.get_optimizer('main').lr *= 0.1
    >>> from chainer.testing import get_trainer_with_mock_updater
    >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
    >>> trainer.extend(lr_drop)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer.utils import argument

if TYPE_CHECKING:
    from chainer.training.trainer import Trainer

#: Priority of extensions that write records to the observation (they run first).
PRIORITY_WRITER = 300
#: Priority of extensions that edit records already written to the observation.
PRIORITY_EDITOR = 200
#: Priority of extensions that only read the observation, or do not use it (they run last).
PRIORITY_READER = 100

_INVOKE_BEFORE_TRAINING_REMOVED = (
    "invoke_before_training has been removed since Chainer v2.0.0: use initializer= (for "
    "make_extension) or an initialize(trainer) method instead"
)


class Extension:
    """Base class of trainer extensions.

    Subclasses implement :meth:`__call__`; they may override :meth:`initialize`,
    :meth:`on_error`, :meth:`finalize` and :meth:`serialize`.

    Attributes:
        trigger: Default trigger, used when :meth:`Trainer.extend` is given none: a
            ``(period, unit)`` tuple or a callable taking the trainer. Every iteration here.
        priority: Default priority (:data:`PRIORITY_READER` here).
        name: Name under which the trainer registered the extension (set by ``extend``).

    Example:
        >>> class CountUpdates(Extension):
        ...     trigger = 1, 'iteration'
        ...     def __init__(self):
        ...         self.count = 0
        ...     def __call__(self, trainer):
        ...         self.count += 1
        ...     def serialize(self, serializer):
        ...         self.count = serializer('count', self.count)
    """

    trigger: Any = 1, "iteration"
    priority: int = PRIORITY_READER
    name: str | None = None

    @property
    def default_name(self) -> str:
        """Name used when neither ``extend(name=...)`` nor :attr:`name` gives one."""
        return type(self).__name__

    def __call__(self, trainer: Trainer) -> None:
        """Run the extension; the trainer calls it whenever the trigger fires."""
        raise NotImplementedError(f"{type(self).__name__} must implement __call__(trainer)")

    def finalize(self) -> None:
        """Release resources; called once when the training loop ends (even on error)."""

    def initialize(self, trainer: Trainer) -> None:
        """Prepare the extension; called once before the training loop starts.

        It is also called on a trainer resumed from a snapshot, so it should set up state from
        the (possibly loaded) attributes rather than assume a fresh start.
        """

    def on_error(self, trainer: Trainer, exc: BaseException, tb: Any) -> None:
        """Handle an exception raised in the training loop, before :meth:`finalize`.

        Args:
            trainer: The trainer.
            exc: The exception.
            tb: Its traceback.
        """

    def serialize(self, serializer: Any) -> None:
        """Save or load the extension's state (nothing here)."""


def make_extension(
    trigger: Any = None,
    default_name: str | None = None,
    priority: int | None = None,
    finalizer: Callable[[], None] | None = None,
    initializer: Callable[[Trainer], None] | None = None,
    on_error: Callable[[Trainer, BaseException, Any], None] | None = None,
    **kwargs: Any,
) -> Callable[[Callable], Callable]:
    """Decorator that gives a function the attributes of a trainer extension.

    Args:
        trigger: Default trigger of the extension (every iteration when ``None``).
        default_name: Default name (the function's ``__name__`` when ``None``).
        priority: Default priority (:data:`PRIORITY_READER` when ``None``).
        finalizer: Called with no arguments when the training loop ends.
        initializer: Called with the trainer before the training loop starts.
        on_error: Called as ``on_error(trainer, exc, tb)`` when the training loop raises.

    Returns:
        A decorator that sets ``trigger``, ``default_name``, ``priority``, ``finalize``,
        ``initialize`` and ``on_error`` on the function and returns the function itself.

    Example:
        >>> @make_extension(trigger=(1, 'epoch'), priority=PRIORITY_WRITER)
        ... def observe_lr(trainer):
        ...     trainer.observation['lr'] = trainer.updater.get_optimizer('main').lr
    """
    argument.check_unexpected_kwargs(
        kwargs, invoke_before_training=_INVOKE_BEFORE_TRAINING_REMOVED
    )
    argument.assert_kwargs_empty(kwargs)
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(function: Callable) -> Callable:
        if not callable(function):
            raise TypeError(
                f"make_extension decorates a callable taking the trainer, got {function!r}"
            )
        function.trigger = trigger
        function.default_name = default_name or function.__name__
        function.priority = priority
        function.finalize = finalizer
        function.initialize = initializer
        function.on_error = on_error
        return function

    return decorator
