"""Class decorators that turn one test class into several generated ones.

A decorator such as ``parameterize`` replaces the decorated class, in its module, by the classes
it generates (``TestFoo_param_0_{...}``, ...). The name ``TestFoo`` itself is bound to a
:class:`GeneratedTestClasses` record, which is neither a class nor callable, so neither pytest
nor unittest collects the original. Decorators stack: each one expands every class the previous
one generated and replaces them in the module.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

#: Given one test class, yields ``(class_name, attributes)`` for each class to generate from it.
#: An attribute set to ``None`` removes an inherited test method from the generated class.
CaseGenerator = Callable[[type], Iterable[tuple[str, dict[str, Any]]]]


class GeneratedTestClasses:
    """What a generating decorator leaves under the decorated class's name.

    Attributes:
        module: The module the classes were registered in.
        classes: The generated classes, also set as attributes of ``module``.
    """

    def __init__(self, module: ModuleType, classes: list[type]) -> None:
        self.module = module
        self.classes = classes

    def __repr__(self) -> str:
        names = ", ".join(cls.__name__ for cls in self.classes)
        return f"<generated test classes in {self.module.__name__}: {names}>"


def expand(
    decorator_name: str, target: type | GeneratedTestClasses, generate: CaseGenerator
) -> GeneratedTestClasses:
    """Apply ``generate`` to a test class (or to each class an earlier decorator generated).

    Args:
        decorator_name: Name used in error messages.
        target: The decorated class, or the record an earlier generating decorator returned.
        generate: Yields the name and extra attributes of each class to derive from a base.

    Returns:
        The record to bind to the decorated name.
    """
    if isinstance(target, GeneratedTestClasses):
        module, bases = target.module, target.classes
        for cls in bases:
            if getattr(module, cls.__name__, None) is cls:
                delattr(module, cls.__name__)
    else:
        loaded = sys.modules.get(target.__module__)
        if loaded is None:
            raise ValueError(
                f"{decorator_name}: the module {target.__module__!r} of {target.__qualname__} is "
                "not in sys.modules; generated test classes must be placed in an imported module"
            )
        module, bases = loaded, [target]
    classes = []
    for base in bases:
        for name, attributes in generate(base):
            namespace = {"__module__": module.__name__, "__qualname__": name, **attributes}
            cls = type(name, (base,), namespace)
            setattr(module, name, cls)
            classes.append(cls)
    return GeneratedTestClasses(module, classes)


def find_test_methods(cls: type) -> list[str]:
    """Names of the test methods of ``cls``, inherited ones included, in sorted order."""
    return [name for name in dir(cls) if name.startswith("test") and callable(getattr(cls, name))]
