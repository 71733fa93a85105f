"""The call signatures of Chainer v7.8.1's public functions, classes and methods.

``python ci/signatures.py`` regenerates ``ci/signatures.json`` from the API listing beside the
checkout (``../shared/api/``, or ``$CHAINER_API_DIR``): for each ``module`` and ``name`` (or
``Class.method``), the parameters as ``[name, kind, default]``, where kind is ``positional``
(positional or keyword), ``keyword`` (keyword-only), ``*`` or ``**``, and default is the
listing's text of the default value or null. ``ci/test_signatures.py`` compares ours against
that file, so it runs in a checkout without the listing.
"""

from __future__ import annotations

import json
import pathlib
import sys

from public_names import API_DIR, NAMES_FILES, ROOT, regenerate

SIGNATURES_FILE = ROOT / "ci" / "signatures.json"
_OPEN, _CLOSE = "([{<", ")]}>"


def _split_top_level(text: str) -> list[str]:
    """``text`` split at the commas outside brackets and quotes."""
    parts, depth, current, quote = [], 0, "", None
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def parse(signature: str) -> list[list]:
    """``[[name, kind, default], ...]`` of a signature's text as ``inspect`` prints it."""
    depth, end = 0, len(signature)
    for index, char in enumerate(signature):
        depth += char in _OPEN[:3]
        depth -= char in _CLOSE[:3]
        if depth == 0:
            end = index
            break
    params: list[list] = []
    keyword_only = False
    for part in _split_top_level(signature[1:end]):
        if part in ("*", "/"):
            keyword_only = keyword_only or part == "*"
            continue
        stars = len(part) - len(part.lstrip("*"))
        head, _, default = part.lstrip("*").partition("=")
        name = head.split(":")[0].strip()
        if stars:
            params.append([name, "*" * stars, None])
            keyword_only = True
        else:
            kind = "keyword" if keyword_only else "positional"
            params.append([name, kind, default.strip() or None])
    return params


def from_listing(api_dir: pathlib.Path) -> dict[str, dict[str, list[list]]]:
    """Module -> name or ``Class.member`` -> parameters (``self``/``cls`` left out)."""
    table: dict[str, dict[str, list[list]]] = {}
    for filename in NAMES_FILES:
        for module, entries in json.loads((api_dir / filename).read_text()).items():
            names = entries.get("names", entries)
            if not isinstance(names, dict):  # chainerx: names only
                continue
            for name, info in names.items():
                if name.startswith("_") or not isinstance(info, dict):
                    continue
                found = table.setdefault(module, {})
                if info.get("kind") == "function" and "signature" in info:
                    found[name] = parse(info["signature"])
                for member, member_info in info.get("members", {}).items():
                    if "signature" in member_info and not (
                        member.startswith("_") and member != "__init__"
                    ):
                        params = parse(member_info["signature"])
                        if member_info.get("kind") in ("method", "classmethod") and params:
                            params = params[1:] if params[0][0] in ("self", "cls") else params
                        found[f"{name}.{member}"] = params
    return {module: dict(sorted(names.items())) for module, names in sorted(table.items())}


def render(table: dict) -> str:
    """JSON with one line per signature."""
    modules = []
    for module, names in table.items():
        lines = [f"  {json.dumps(name)}: {json.dumps(params)}" for name, params in names.items()]
        modules.append(f" {json.dumps(module)}: {{\n" + ",\n".join(lines) + "\n }")
    return "{\n" + ",\n".join(modules) + "\n}\n"


if __name__ == "__main__":
    sys.exit(regenerate(sys.argv[1:], SIGNATURES_FILE, lambda: render(from_listing(API_DIR))))
