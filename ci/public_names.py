"""The public modules and names of Chainer v7.8.1, by the distribution that provides them.

``python ci/public_names.py`` regenerates ``ci/public-names.json`` from the API listing beside
the checkout (``../shared/api/``, or the folder ``$CHAINER_API_DIR``). The tests in
``ci/test_public_names.py`` read only that JSON file, so they run in a checkout without the
listing; where the listing is present they also check that the file is current.
"""

from __future__ import annotations

import json
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ROOT / "packages"
NAMES_FILE = ROOT / "ci" / "public-names.json"
API_DIR = pathlib.Path(os.environ.get("CHAINER_API_DIR", ROOT.parent / "shared" / "api"))
# The listing's files: every public module path, and names (with signatures) per module.
MODULES_FILE = "chainer-7.8.1-modules.txt"
NAMES_FILES = ("chainer-7.8.1.json", "chainer-7.8.1-extra.json")


def owner(module: str) -> str:
    """The distribution whose sources hold ``module`` (or its nearest listed parent)."""
    parts = module.split(".")
    for depth in range(len(parts), 0, -1):
        relative = pathlib.Path(*parts[:depth])
        for package in sorted(PACKAGES.iterdir()):
            source = package / "src" / relative
            if source.is_dir() or source.with_suffix(".py").is_file():
                if depth == 1 and not (source / "__init__.py").is_file():
                    continue  # a namespace share (chainer/ in a sibling): not the owner
                return package.name
    raise ValueError(f"no distribution under {PACKAGES} provides {module!r} or a parent of it")


def from_listing(api_dir: pathlib.Path) -> dict[str, dict[str, list[str]]]:
    """Distribution -> module -> sorted public names (``[]``: a module listed by path only)."""
    modules: dict[str, set[str]] = {}
    for line in (api_dir / MODULES_FILE).read_text().split():
        modules.setdefault(line, set())
    for filename in NAMES_FILES:
        for module, entries in json.loads((api_dir / filename).read_text()).items():
            names = entries["names"] if "names" in entries else entries
            modules.setdefault(module, set()).update(n for n in names if not n.startswith("_"))
    table: dict[str, dict[str, list[str]]] = {}
    for module in sorted(modules):
        table.setdefault(owner(module), {})[module] = sorted(modules[module])
    return dict(sorted(table.items()))


def render(table: dict[str, dict[str, list[str]]]) -> str:
    return json.dumps(table, indent=1, sort_keys=True) + "\n"


def regenerate(argv: list[str], path: pathlib.Path, make_text) -> int:
    """The command line of a generator script: no arguments; writes ``make_text()`` to
    ``path`` through a synced temporary file and a rename."""
    if argv:
        print(f"usage: python {pathlib.Path(sys.argv[0]).name} (regenerates {path.name})")
        return 2
    text = make_text()
    temporary = path.with_suffix(".json.tmp")
    with open(temporary, "w") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
    print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(regenerate(sys.argv[1:], NAMES_FILE, lambda: render(from_listing(API_DIR))))
