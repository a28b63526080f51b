"""Generate the edition pages, the editions-by-axes matrix and the reason table from the
code at build time, so the docs cannot drift from ``variants/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

import perudo
from perudo.prose import AXIS_TITLES, describe, label, setting, source_line
from perudo.rules import rule_kinds
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
        f"{source_line(variant)} The challenge is called *{variant.words.dudo}*"
        + (f"; the exact call *{variant.words.calza}*." if variant.words.calza else "."),
        "",
    ]
    if any(variant.provenance_of(axis).translation for axis in AXES):
        lines += [
            "Each quoted sentence is given in the source's words, with an English "
            "translation made for perudo beside it (marked *our translation*).",
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
        if source.translation:
            lines += [f"> *Our translation:* {source.translation}", ""]
        if source.reason:
            lines += [f"{'Why' if source.kind == 'reading' else 'Note'}: {source.reason}", ""]
    return "\n".join(lines)


_PER_TABLE = 7  # editions in one table of the matrix: with the axis column, it fits 1280 px


def matrix_page() -> str:
    keys = perudo.variant_names()
    variants = [perudo.load_variant(key) for key in keys]
    lines = [
        "# Editions by axes",
        "",
        "Each cell is the edition's setting in short, as `perudo compare` shows it, and its "
        "provenance: **S** stated, **I** inherited, **R** reading. Each edition's page "
        "(linked at the top of its column, by its key with spaces for hyphens) gives the "
        "setting in full, its declaration and the source's words. The editions are shown "
        f"in tables of at most {_PER_TABLE}, in the order of their keys, so that a table "
        "fits a screen.",
    ]
    marks = {"stated": "S", "inherited": "I", "reading": "R"}
    tables = -(-len(keys) // _PER_TABLE)
    size = -(-len(keys) // tables)  # as even as the editions allow
    for start in range(0, len(keys), size):
        some, shown = keys[start : start + size], variants[start : start + size]
        lines += [
            "",
            "| axis | " + " | ".join(f"[{key.replace('-', ' ')}]({key}.md)" for key in some) + " |",
            "|---|" + "---|" * len(some),
        ]
        for axis in AXES:
            cells = [f"{label(v, axis)} **{marks[v.provenance_of(axis).kind]}**" for v in shown]
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


def schema_page() -> str:
    """Every axis a declaration sets, its kinds and their parameters, from the registry."""
    lines = [
        "# Declaration schema",
        "",
        "A declaration (`variants/<key>.toml`) sets `schema = 1`, the header keys `key`,",
        "`name`, `source`, `language`, `summary`, a `[words]` table (`dudo`, the challenge;",
        "`calza`, the exact call, when the edition has one; `special_round`, the one-die round,",
        "when it has one; optionally `ones` and `ordinary`), and one table per axis below.",
        "Each axis table has `kind`, the kind's parameters (all required), and its provenance:",
        "`provenance` (`stated`, `inherited` or `reading`), `quote` (the source's sentence,",
        "required when stated), `translation` (an English translation of the quote made for",
        "perudo, where the source is in another language) and `reason` (required when",
        'inherited or reading). `source` says what the source is ("an Italian rule book")',
        "and `language` the code of the language it is written in (`it`, `fr`, `es`, `en`).",
        "",
        'A declaration may instead start with `extends = "KEY"` (a shipped edition, or in a',
        "file the path of another declaration file) and give a new `key` and only the sections",
        "it changes; each changed section says its own provenance. The kinds below are",
        "perudo's own and those registered when the docs were built",
        "(`perudo.rules.register_kind`).",
        "",
    ]
    for axis in AXES:
        lines += [f"## `[{axis}]`: {AXIS_TITLES[axis]}", ""]
        for kind, cls in rule_kinds(axis).items():
            doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
            lines += [f'`kind = "{kind}"`: {doc}', ""]
            for field in attrs.fields(cls):
                meta = field.metadata
                allowed = []
                if meta.get("choices"):
                    allowed.append("one of " + ", ".join(f"`{c}`" for c in meta["choices"]))
                if meta.get("minimum") is not None:
                    allowed.append(f"at least {meta['minimum']}")
                if meta.get("maximum") is not None:
                    allowed.append(f"at most {meta['maximum']}")
                extra = f" ({'; '.join(allowed)})" if allowed else ""
                kind = "list of int, each once" if meta["type"] is tuple else meta["type"].__name__
                lines.append(f"- `{field.name}`: {kind}{extra}")
            if attrs.fields(cls):
                lines.append("")
    return "\n".join(lines) + "\n"


def encoding_page() -> str:
    """The action numbers and vector sizes of every edition, from :mod:`perudo.encoding`."""
    from perudo.encoding import action_encoding, observation_encoding
    from perudo.interop.turns import TurnActions

    lines = [
        "# Action numbers by edition",
        "",
        "The numbers of {class}`perudo.encoding.ActionEncoding`, generated from the code.",
        "Bids follow the actions listed: `Bid(1, 1)` has the first bid number, then every",
        "face of quantity 1, then quantity 2, and so on (each bid followed by its pressured",
        "form in WANGO party mode). A *pass* (adapters only, {mod}`perudo.interop.turns`)",
        "takes the number after the last bid in the editions that ask seats about an",
        "out-of-turn call.",
        "",
        "| edition | numbers before the bids | first bid | pass | actions (2 / 4 / 6 players)"
        " | observation entries (2 / 4 / 6 players) |",
        "|---|---|---|---|---|---|",
    ]
    for key in perudo.variant_names():
        small = action_encoding(key, 2)
        head = ", ".join(f"{n} `{a}`" for n, a in enumerate(small.actions[: small.first_bid]))
        passes = "last" if TurnActions(small).pass_number is not None else "none"
        top = perudo.load_variant(key).players.max
        tables = [n for n in (2, 4, 6) if n <= top]
        sizes = " / ".join(str(TurnActions.of(key, n).size) for n in tables)
        vectors = " / ".join(str(observation_encoding(key, n).size) for n in tables)
        lines.append(f"| {key} | {head} | {small.first_bid} | {passes} | {sizes} | {vectors} |")
    return "\n".join(lines) + "\n"


def write_pages(app: Any) -> None:
    out = Path(app.srcdir) / "editions" / "generated"
    out.mkdir(parents=True, exist_ok=True)
    pages = {f"{key}.md": edition_page(key) for key in perudo.variant_names()}
    pages["matrix.md"] = matrix_page()
    pages["reasons.md"] = reasons_page()
    pages["schema.md"] = schema_page()
    pages["encoding.md"] = encoding_page()
    for name, text in pages.items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def check_documented(app: Any, env: Any) -> None:
    """Warn (so ``-W`` fails the build) for a public name of perudo that no page documents."""
    from sphinx.util import logging

    documented = set(env.get_domain("py").objects)
    tails = {name.rsplit(".", 1)[-1] for name in documented}
    modules = (
        "perudo", "perudo.rules", "perudo.bots", "perudo.odds", "perudo.comparison",
        "perudo.encoding", "perudo.interop.turns", "perudo.interop.pettingzoo",
        "perudo.interop.gymnasium", "perudo.interop.openspiel", "perudo.batch",
        "perudo.batch.bots", "perudo.batch.rules", "perudo.batch.match", "perudo.prose",
    )  # fmt: skip
    for module in modules:
        for name in __import__(module, fromlist=["__all__"]).__all__:
            if name.startswith("_") or f"{module}.{name}" in documented or name in tails:
                continue
            logging.getLogger(__name__).warning(f"{module}.{name} is public but not documented")


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", write_pages)
    app.connect("env-check-consistency", check_documented)
    return {"parallel_read_safe": True, "version": "1"}
