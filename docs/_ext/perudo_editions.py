"""Generate the edition pages, the editions-by-axes matrix and the reason table from the
code at build time, so the docs cannot drift from ``variants/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import perudo
from perudo.prose import AXIS_TITLES, describe, setting
from perudo.variant import AXES


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def edition_page(key: str) -> str:
    variant = perudo.load_variant(key)
    lines = [
        f"# {variant.name} (`{key}`)",
        "",
        variant.summary,
        "",
        f"Source text {variant.source} (language: {variant.language}). "
        f"The challenge is called *{variant.words.dudo}*"
        + (f"; the exact call *{variant.words.calza}*." if variant.words.calza else "."),
        "",
    ]
    for axis in AXES:
        source = variant.provenance_of(axis)
        lines += [
            f"## {AXIS_TITLES[axis]}",
            "",
            describe(variant, axis),
            "",
            f"Declared as: `{setting(variant.component(axis))}`",
            "",
            f"Provenance: **{source.kind}**",
            "",
        ]
        if source.quote:
            lines += [f"> {source.quote}", ""]
        if source.reason:
            lines += [f"{'Why' if source.kind == 'reading' else 'Note'}: {source.reason}", ""]
    return "\n".join(lines)


def matrix_page() -> str:
    keys = perudo.variant_names()
    variants = [perudo.load_variant(key) for key in keys]
    lines = [
        "# Editions by axes",
        "",
        "Each cell is the edition's setting and its provenance: "
        "**S** stated, **I** inherited, **R** reading.",
        "",
        "| axis | " + " | ".join(keys) + " |",
        "|---|" + "---|" * len(keys),
    ]
    marks = {"stated": "S", "inherited": "I", "reading": "R"}
    for axis in AXES:
        cells = [
            f"`{setting(v.component(axis))}` **{marks[v.provenance_of(axis).kind]}**"
            for v in variants
        ]
        lines.append(f"| {AXIS_TITLES[axis]} | " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def reasons_page() -> str:
    lines = [
        "# Reasons an action is refused",
        "",
        "`IllegalActionError.reason` is one of these stable codes.",
        "",
        "| reason | the rule behind it |",
        "|---|---|",
    ]
    lines += [f"| `{reason}` | {_cell(text)} |" for reason, text in perudo.REASONS.items()]
    return "\n".join(lines) + "\n"


def write_pages(app: Any) -> None:
    out = Path(app.srcdir) / "editions" / "generated"
    out.mkdir(parents=True, exist_ok=True)
    pages = {f"{key}.md": edition_page(key) for key in perudo.variant_names()}
    pages["matrix.md"] = matrix_page()
    pages["reasons.md"] = reasons_page()
    for name, text in pages.items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", write_pages)
    return {"parallel_read_safe": True, "version": "1"}
