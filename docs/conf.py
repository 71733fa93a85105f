"""Sphinx configuration of the Chainer monorepo documentation."""

project = "Chainer"
author = "The Chainer monorepo developers"
copyright = "2026, The Chainer monorepo developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "myst_parser",
]
# Package pages include each distribution's README.md and CHANGELOG.md, so they never drift.
myst_heading_anchors = 3
suppress_warnings = ["myst.header", "ref.python"]  # ref.python: ambiguous short names

html_theme = "furo"
html_title = "Chainer"
exclude_patterns = ["_build"]
nitpicky = True
autodoc_typehints = "description"
napoleon_google_docstring = True
napoleon_use_ivar = True  # "Attributes:" sections as fields, not second attribute entries
autodoc_member_order = "bysource"


OUR_PACKAGES = {"chainer", "chainerx", "chainermn", "onnx_chainer"}


def _undocumented_python_object(app, env, node, contnode):
    """Render a reference to a real but undocumented Python object (the standard library,
    NumPy, private bases, type aliases) as plain text instead of failing the nitpicky build;
    a target that names nothing importable stays a warning, so typos are still caught."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    if " " in target or (target.islower() and "." not in target and not _resolves(target)):
        return contnode  # prose in a type slot ("keyword only", "pair of ints"), not a name
    module, cls = node.get("py:module"), node.get("py:class")
    contexts = [module, cls, f"{module}.{cls}" if module and cls else None]
    # "...: docstring of chainer.link.Chain.add_link": the documented object's own scopes
    documented = (node.source or "").rpartition("docstring of ")[2].split(".")
    contexts += [".".join(documented[:n]) for n in range(len(documented), 0, -1)]
    candidates = [target, *(f"{c}.{target}" for c in contexts if c)]
    if any(_resolves(name) for name in candidates) or _defined_in_our_modules(target):
        return contnode
    return None


def _defined_in_our_modules(target: str) -> bool:
    """A bare name from a string annotation ("Hyperparameter") that one of our modules binds."""
    import sys

    head, _, rest = target.partition(".")
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] in OUR_PACKAGES and hasattr(module, head):
            if not rest or _resolves(f"{name}.{target}"):
                return True
    return False


def _resolves(dotted: str) -> bool:
    import builtins
    import importlib

    aliases = {"tp": "typing", "np": "numpy", "npt": "numpy.typing"}
    head, _, rest = dotted.partition(".")
    parts = [aliases.get(head, head), *rest.split(".")] if rest else [aliases.get(head, head)]
    if len(parts) == 1:
        return hasattr(builtins, parts[0])
    for split in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for attr in parts[split:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def _prose_first_lines_are_not_types() -> None:
    """Napoleon reads "Shape of the batch: ..." on a property's first line as a type followed
    by a description; keep such a line whole unless its head looks like a type."""
    from sphinx.ext.napoleon.docstring import GoogleDocstring

    consume = GoogleDocstring._consume_inline_attribute

    def consume_inline_attribute(self):
        line = self._lines[0] if self._lines else ""
        head = line.partition(":")[0].strip()
        if " " in head and head[:1].isupper() and "`" not in head:
            self._lines.next()
            rest = [line, *self._dedent(self._consume_to_end())]
            return "", self.__class__(rest, self._config).lines()
        return consume(self)

    GoogleDocstring._consume_inline_attribute = consume_inline_attribute


def setup(app):
    _prose_first_lines_are_not_types()
    app.connect("missing-reference", _undocumented_python_object)


# The doctest builder (run by the `docs` session) executes the tutorial's testcode blocks and
# checks their output; ">>>" examples of docstrings are not collected here.
extensions.append("sphinx.ext.doctest")
doctest_test_doctest_blocks = ""
