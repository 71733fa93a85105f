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
suppress_warnings = ["myst.header"]

html_theme = "furo"
html_title = "Chainer"
exclude_patterns = ["_build"]
nitpicky = True
autodoc_typehints = "description"
napoleon_google_docstring = True
