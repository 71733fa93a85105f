"""Lazily imported package attributes, declared once in the package's ``__init__.pyi``.

``chainer.functions`` and ``chainer.links`` re-export a few hundred names from about 300
modules; importing them all costs more than the rest of Chainer. Such a package declares its
names as plain re-exports in an ``__init__.pyi`` stub, which is what type checkers and IDEs
read::

    from . import activation as activation
    from .activation.relu import relu as relu

and its ``__init__.py`` calls :func:`attach_stub`, which reads that stub (the one table of
names) and returns the module-level ``__getattr__``, ``__dir__`` and ``__all__`` (PEP 562).
A name's module is imported on its first access and the object is stored in the package, so
later accesses are plain attribute reads of the very object its module defines.

A package of modules with an empty ``__init__.py`` (``chainer.functions.activation``) calls
:func:`attach_submodules` so that ``chainer.functions.activation.relu`` reaches the module
without importing it first, as it did when the parent package imported every module.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from collections.abc import Callable


def read_stub(package: str, stub_path: str) -> dict[str, tuple[str, str]]:
    """Parse ``stub_path`` into ``{exported name: (absolute module, attribute)}``.

    Only a docstring, comments and relative ``from .module import name as name`` statements
    (one line, or parenthesised) may appear in the stub; anything else raises
    :class:`ValueError` naming the offending text, so the stub cannot declare a name the
    runtime would not provide. (Plain string operations: about 0.25 ms for the 228 names of
    ``chainer.functions``, where ``ast.parse`` alone takes twice that, after an import of
    ``ast`` that costs milliseconds.)
    """
    with open(stub_path, encoding="utf-8") as stub:
        body = stub.read().strip()
    if body.startswith('"""'):
        body = body[body.index('"""', 3) + 3 :]
    lines = [line.partition("#")[0] for line in body.splitlines()]
    head, *statements = "\n".join(["", *lines]).split("\nfrom ")
    if head.strip():
        raise ValueError(_unexpected(head, stub_path))
    table: dict[str, tuple[str, str]] = {}
    for statement in statements:
        relative, keyword, names = statement.partition(" import ")
        relative, names = relative.strip(), names.strip()
        if names[:1] == "(" and names[-1:] == ")":
            names = names[1:-1]
        elif "\n" in names:  # a statement over several lines without parentheses
            keyword = ""
        if not keyword or relative[:1] != "." or "(" in names or ")" in names:
            raise ValueError(_unexpected("from " + statement, stub_path))
        module = package if relative == "." else package + relative
        for item in names.split(","):
            words = item.split()
            if len(words) == 3 and words[1] == "as":
                del words[1]
            if len(words) > 2:
                raise ValueError(_unexpected(item, stub_path))
            if words:
                if words[-1] in table:
                    raise ValueError(f"{stub_path}: {words[-1]!r} is exported twice")
                table[words[-1]] = (module, words[0])
    for name, (module, attribute) in table.items():
        if not all(map(str.isidentifier, [name, attribute, *module.split(".")])):
            text = f"from {module[len(package) :] or '.'} import {attribute} as {name}"
            raise ValueError(_unexpected(text, stub_path))
    return table


def _unexpected(text: str, stub_path: str) -> str:
    return (
        f"{stub_path}: expected only 'from .module import name as name' statements, "
        f"got {text.strip()[:80]!r}"
    )


def attach_stub(
    package: str, package_file: str
) -> tuple[Callable[[str], object], Callable[[], list[str]], list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for ``package`` from its ``__init__.pyi``.

    Call it from the package's ``__init__.py`` as
    ``__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)``.
    ``__all__`` lists every declared name except the subpackages (``from . import x``), so
    ``from package import *`` imports the functions and classes, as an eager package did,
    without binding names such as ``math``.
    """
    stub_path = os.path.join(os.path.dirname(package_file), "__init__.pyi")
    table = read_stub(package, stub_path)
    namespace = vars(sys.modules[package])

    def __getattr__(name: str) -> object:
        try:
            module, attribute = table[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        if module == package:
            value: object = importlib.import_module(f"{package}.{attribute}")
        else:
            value = getattr(importlib.import_module(module), attribute)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(table))

    exported = [name for name, (module, _) in table.items() if module != package]
    return __getattr__, __dir__, [name for name in exported if not name.startswith("_")]


def attach_submodules(
    package: str,
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` giving ``package``'s modules as attributes on access.

    Call it from the package's ``__init__.py`` as
    ``__getattr__, __dir__ = attach_submodules(__name__)``.
    """
    namespace = vars(sys.modules[package])
    found: list[frozenset[str]] = []

    def submodules() -> frozenset[str]:
        if not found:  # listed on first need: most programs never ask
            listed = pkgutil.iter_modules(namespace["__path__"])
            found.append(frozenset(info.name for info in listed))
        return found[0]

    def __getattr__(name: str) -> object:
        if name.startswith("__") or name not in submodules():
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return importlib.import_module(f"{package}.{name}")

    def __dir__() -> list[str]:
        return sorted(set(namespace) | submodules())

    return __getattr__, __dir__
