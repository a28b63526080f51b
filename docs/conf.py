"""Sphinx configuration for perudo's documentation."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

import perudo

project = "perudo"
author = "perudo developers"
copyright = "2026, perudo developers"
release = perudo.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "perudo_editions",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = "perudo"

myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# CI has no network: intersphinx reads local inventories (see _inventories/).
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", str(HERE / "_inventories" / "python.inv")),
    "attrs": ("https://www.attrs.org/en/stable", str(HERE / "_inventories" / "attrs.inv")),
}
# Doctests read example files by their path from the project root.
doctest_global_setup = ""

# Type aliases and short names in signatures that no inventory resolves.
nitpick_ignore_regex = [
    ("py:class", r"(Sequence|Iterable|Iterator|Callable|Mapping|TextIO|PathLike|Any|Literal)"),
    ("py:class", r"(Protocol|TypeAlias|ClassVar|Hands|Table|Part|Round|Strategic)"),
    ("py:class", r"perudo\..*(Raising|Conversion|Wilds|Cap|Scoring|SpecialRound|ExactCallRule)"),
    ("py:class", r"(Raising|Conversion|Wilds|Cap|Scoring|SpecialRound|ExactCallRule|Action)"),
    ("py:class", r"TypeAliasForwardRef|NoneType|Fraction|fractions\.Fraction|Counter"),
    ("py:class", r"perudo\..*\._T|perudo\.batch\.compiled\.F|perudo\.web\.writer\.T"),  # TypeVars
    ("py:class", r"code='.*'"),  # the Shape of a GameArrays field, in its annotation
    ("py:class", r"(concurrent\.futures\._base\.)?Executor"),
    ("py:class", r"(pathlib\.)?Path"),  # the standard library's: no inventory offline
    ("py:class", r"_[A-Za-z]\w*"),  # a private class in a private signature
    # The frameworks of perudo.interop publish no inventory we can read offline.
    ("py:class", r"(pettingzoo|gymnasium|pyspiel|numpy|np|starlette|uvicorn)\..*"),
]

# The pages' {doctest} blocks run in the doctest builder; docstring examples run under
# pytest --doctest-modules.
doctest_test_doctest_blocks = ""
