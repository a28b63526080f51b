"""A study of rule sets: every edition at every table size on the same seeds, with honest
statistics, written as one self-contained HTML page and the same numbers as JSON and CSV.

For each edition and number of players it measures, between equal bots, what
game-evaluation systems measure: **first-player advantage**, **balance** (over the places
in turn order), **decisiveness** (how often the first player to lead alone wins) and
**game length** (rounds and actions, with the distribution of rounds); how often each call
and special round happens; and the **skill share**, how much of the wins a stronger bot
takes from a weaker one under that edition. Every figure carries its 95% confidence
interval (:mod:`perudo.stats`), and at each table size each pair of editions is compared
game by game on the same seeds (a paired difference). Charts show each share's distance
from the fair share; they need the extra ``perudo[plot]`` (matplotlib), and without it the
page has the tables and says how to get the charts.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import os
import platform
import shutil
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import attrs

from perudo.errors import GameSetupError, install_hint, shown
from perudo.loader import load_variant
from perudo.simulate import LABELS, SimulationResult, simulate
from perudo.stats import Difference, Interval
from perudo.variant import Variant

__all__ = [
    "MEASURES",
    "Study",
    "StudyCell",
    "StudyDifference",
    "report_folder",
    "run_identity",
    "run_study",
    "write_report",
]

#: The measures a study compares between editions game by game, each with its label and
#: how to read it from a cell's two runs: (name, label, run, paired measure of
#: :meth:`perudo.simulate.SimulationResult.paired`).
MEASURES = (
    *((name, label, "play", name) for name, label in LABELS.items()),
    ("skill_share", "skill share", "skill", "first_bot"),
)


@attrs.frozen
class StudyCell:
    """One edition at one table size.

    Attributes:
        variant: The edition key.
        players: Players per game.
        play: The games between equal bots (``bots``).
        skill: The games between the stronger and the weaker bot, alternating seats.
    """

    variant: str
    players: int
    play: SimulationResult
    skill: SimulationResult

    @property
    def skill_share(self) -> Interval:
        """The stronger bot's share of the wins per seat it held (a fair share is
        ``1 / players``), with its 95% interval."""
        return dict(self.skill.bot_intervals)[self.skill.bots[0]]

    @property
    def skill_edge(self) -> Interval:
        """How much more of the wins the stronger bot takes than an equal one would (the
        skill share less the fair share), with its 95% interval."""
        return self.skill_share.less(self.play.fair_share)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        skill = self.skill_share
        return {
            "variant": self.variant,
            "players": self.players,
            "play": self.play.to_dict(),
            "skill": self.skill.to_dict(),
            "skill_share": {"estimate": skill.estimate, "low": skill.low, "high": skill.high},
        }


@attrs.frozen
class StudyDifference:
    """Edition ``a`` against edition ``b`` at one table size, game by game on the same
    seeds: each of :data:`MEASURES` as ``a - b``, with its interval.

    Attributes:
        a: The first edition's key.
        b: The second's.
        players: The table size.
        measures: ``(name, difference)`` in the order of :data:`MEASURES`.
    """

    a: str
    b: str
    players: int
    measures: tuple[tuple[str, Difference], ...]

    @classmethod
    def of(cls, a: StudyCell, b: StudyCell) -> StudyDifference:
        """The paired differences of two cells of one table size."""
        measures = tuple(
            (name, getattr(a, run).paired(getattr(b, run), paired))
            for name, _, run, paired in MEASURES
        )
        return cls(a.variant, b.variant, a.players, measures)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        data: dict[str, Any] = {"a": self.a, "b": self.b, "players": self.players}
        for name, difference in self.measures:
            value = difference.interval
            data[name] = {
                "estimate": value.estimate, "low": value.low, "high": value.high,
                "significant": difference.significant,
            }  # fmt: skip
        return data


@attrs.frozen
class Study:
    """Every cell of a study, and how it was run.

    Attributes:
        editions: The edition keys, in the order given.
        tables: The numbers of players.
        games: Games per cell (and as many again for the skill games).
        seed: The seed of every cell (the same games are dealt in each edition).
        bots: The bots of the games between equals.
        strong: The stronger bot of the skill games.
        weak: The weaker bot.
        cells: One per edition and table size the edition allows.
        run: What the numbers depend on besides the above, so a reader can run the study
            again and get them (:func:`run_identity`): perudo's, Python's and NumPy's
            versions, the engine asked for and the engines the games were played on, and
            the command, when the study was run from the command line.
    """

    editions: tuple[str, ...]
    tables: tuple[int, ...]
    games: int
    seed: int
    bots: str
    strong: str
    weak: str
    cells: tuple[StudyCell, ...]
    run: dict[str, Any] = attrs.field(factory=dict)

    def cell(self, variant: str, players: int) -> StudyCell | None:
        """The cell of ``variant`` at ``players``, if the edition allows that table."""
        return next((c for c in self.cells if (c.variant, c.players) == (variant, players)), None)

    def differences(self) -> tuple[StudyDifference, ...]:
        """Each pair of editions at each table size both allow, in the order the editions
        were given: the paired differences of :data:`MEASURES` (the games share their
        seeds). Empty for a study of one edition, or of cells that kept no games."""
        found = []
        for players in self.tables:
            cells = [c for c in self.cells if c.players == players]
            if any(c.play.outcomes is None or c.skill.outcomes is None for c in cells):
                continue
            for k, a in enumerate(cells):
                found += [StudyDifference.of(a, b) for b in cells[k + 1 :]]
        return tuple(found)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "editions": list(self.editions),
            "tables": list(self.tables),
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "strong": self.strong,
            "weak": self.weak,
            "run": dict(self.run),
            "cells": [cell.to_dict() for cell in self.cells],
            "differences": [difference.to_dict() for difference in self.differences()],
        }

    def rows(self) -> list[dict[str, Any]]:
        """One flat row per cell: the CSV's. Every figure has its interval (``_low``,
        ``_high``)."""
        rows = []
        for cell in self.cells:
            play = cell.play
            row: dict[str, Any] = {
                "edition": cell.variant,
                "players": cell.players,
                "engine": play.engine,
                "perudo": self.run.get("perudo"),  # the version: the CSV read alone says it
                "games": play.games,
                "fair_share": play.fair_share,
            }
            figures = [
                ("first_player_advantage", play.first_player_advantage),
                ("balance", play.balance),
                ("decisiveness", play.decisiveness),
                ("rounds_per_game", play.rounds_interval),
                ("actions_per_game", play.actions_interval),
                ("first_player_win_share", play.first_player_interval),
                *((f"place_{k + 1}_win_share", i) for k, i in enumerate(play.place_intervals)),
                ("skill_share", cell.skill_share),
                ("skill_edge", cell.skill_edge),
            ]
            for field, suffix in (("calls", ""), ("special_rounds", "_rounds"),
                                  ("declarations", "_declared"), ("acts", "_acts")):  # fmt: skip
                figures += [(f"{name}{suffix}_per_game", i) for name, i in play.per_game(field)]
            for name, value in figures:
                row[name] = value.estimate
                row[f"{name}_low"] = value.low
                row[f"{name}_high"] = value.high
            rows.append(row)
        return rows


def parse_tables(text: str) -> tuple[int, ...]:
    """Table sizes from ``"4"``, ``"2-6"`` or ``"2,4,6"``.

    >>> parse_tables("2-4"), parse_tables("3,5")
    ((2, 3, 4), (3, 5))

    Raises:
        GameSetupError: not a size, a range or a list of them (2 to 20).
    """
    sizes: set[int] = set()
    for part in str(text).split(","):
        low, dash, high = part.strip().partition("-")
        if not (
            low.isascii() and low.isdigit() and (not dash or (high.isascii() and high.isdigit()))
        ):
            raise GameSetupError(f"players {shown(text)} is not a size, a range or a list")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise GameSetupError(f"players {shown(text)}: the range {first}-{last} runs "
                                 f"backwards (write {last}-{first})")  # fmt: skip
        if not 2 <= first <= last <= 20:
            raise GameSetupError(f"players {shown(text)}: tables seat 2 to 20 players")
        sizes.update(range(first, last + 1))
    return tuple(sorted(sizes))


def run_study(
    editions: Sequence[Variant | str],
    tables: Sequence[int],
    games: int,
    *,
    seed: int = 0,
    bots: str = "odds",
    strong: str = "reader",
    weak: str = "odds",
    workers: int = 1,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str = "auto",
    allow_import: bool = False,
    starting_dice: Sequence[int] | None = None,
    command: str | None = None,
) -> Study:
    """Play ``games`` games of every edition at every table size it allows (the same seeds
    in each), and as many between ``strong`` and ``weak`` bots, alternating seats.
    ``engine`` says where the games are played (:func:`perudo.simulate.simulate`'s: with
    ``"auto"``, each lineup whose bots all have a batch form plays on the batch engine).
    ``allow_import`` lets a ``"package.module:Name"`` bot import its module.
    ``starting_dice`` gives each seat's dice at the start, a handicap (as
    :func:`perudo.new_game` takes it): a study of one table size only. ``command`` is the
    command line that ran the study, kept in :attr:`Study.run`.

    The engine is part of a result's identity: the batch engine and ``GameState`` play the
    same rules with different dice, so the same seed gives other games, and other numbers
    within their intervals, on each. :attr:`Study.run` records which played.

    Raises:
        GameSetupError: no edition, no table any edition allows, or a bad count or bot
            (checked before any game is played).
    """
    variants = [v if isinstance(v, Variant) else load_variant(v) for v in editions]
    if not variants:
        raise GameSetupError("a study needs at least one edition")
    plan = [
        (variant, n) for variant in variants for n in tables
        if variant.players.min <= n <= variant.players.max
    ]  # fmt: skip
    if not plan:
        raise GameSetupError("no edition of the study is played at those table sizes")
    if starting_dice is not None and len({players for _, players in plan}) != 1:
        raise GameSetupError(
            "starting dice give each seat's dice: a study with them has one table size"
        )
    for variant, players in plan[:1]:  # checks the counts and bots before anything runs
        for lineup in ([bots], [strong, weak]):
            simulate(variant, players, 0, bots=lineup, seed=seed, workers=workers,
                     engine=engine, allow_import=allow_import,
                     starting_dice=starting_dice)  # fmt: skip
    total, done = 2 * games * len(plan), 0
    cells = []
    for variant, players in plan:
        results = []
        for lineup in ([bots], [strong, weak]):
            results.append(
                simulate(variant, players, games, bots=lineup, seed=seed, workers=workers,
                         executor=executor, engine=engine, allow_import=allow_import,
                         starting_dice=starting_dice, keep_games=True)
            )  # fmt: skip
            done += games
            if progress is not None:
                progress(done, total)
        cells.append(
            StudyCell(variant=variant.key, players=players, play=results[0], skill=results[1])
        )
    return Study(
        editions=tuple(v.key for v in variants),
        tables=tuple(sorted(set(tables))),
        games=games,
        seed=seed,
        bots=bots,
        strong=strong,
        weak=weak,
        cells=tuple(cells),
        run=run_identity(
            engine, sorted({r.engine for cell in cells for r in (cell.play, cell.skill)}), command
        ),
    )


def run_identity(engine: str, engines: Sequence[str], command: str | None) -> dict[str, Any]:
    """What a study's numbers depend on besides its own settings: perudo's, Python's and
    NumPy's versions (``None`` without NumPy), the ``engine`` asked for and the ``engines``
    the games were played on, and the ``command`` that ran it."""
    try:
        import numpy

        numpy_version: str | None = numpy.__version__
    except ImportError:  # the reference engine needs no NumPy
        numpy_version = None
    from perudo import __version__

    return {
        "perudo": __version__,
        "python": platform.python_version(),
        "numpy": numpy_version,
        "engine": engine,
        "engines": list(engines),
        "command": command,
    }


# --- the report ----------------------------------------------------------------------------


def _csv_text(value: Any) -> Any:
    """A text cell that a spreadsheet cannot take for a formula: an edition's words become
    column names, and ``=``, ``+``, ``-``, ``@`` (or a tab or return) at the start of a cell
    would run as one, so such a cell starts with ``'``. Numbers are written as they are."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def report_folder(out: Path | str, *, make: bool = False, existing: bool = True) -> Path:
    """The folder ``out``, checked: it is a folder that takes files, or can be made where
    the nearest folder above it takes files. Call it before the games, so a path that
    cannot take the report fails at once, not after them; nothing is written unless
    ``make`` (then the folder is made). Without ``existing``, a folder already there is
    refused too (``perudo study`` writes into one only with ``--force``).

    Raises:
        GameSetupError: ``out`` is a file or a device, cannot be made or written to, or
            (without ``existing``) is a folder already.
    """
    out = Path(out)
    if not existing and out.is_dir():
        raise GameSetupError(f"the report folder {shown(str(out))} exists already: name a new "
                             "one, or pass --force to write the report into it")  # fmt: skip
    try:
        if make:
            out.mkdir(parents=True, exist_ok=True)
        place = out
        while not place.exists() and place != place.parent:
            place = place.parent
        if not place.is_dir() or not os.access(place, os.W_OK | os.X_OK):
            raise NotADirectoryError(20, f"{place} is not a folder that takes files")
    except (OSError, ValueError) as error:  # FileExistsError: a file or a device is there
        if out.exists() and not out.is_dir():
            problem = "is a file, not a folder"
        else:
            problem = f"cannot be written ({getattr(error, 'strerror', None) or 'not a folder'})"
        raise GameSetupError(f"the report folder {shown(str(out))} {problem}") from None
    return out


def _flat(difference: dict[str, Any]) -> dict[str, Any]:
    """A difference's row of ``differences.csv``: each measure's estimate, its bounds
    (``_low``, ``_high``) and whether it is significant."""
    row = {key: _csv_text(difference[key]) for key in ("a", "b", "players")}
    for name, _, _, _ in MEASURES:
        value = difference[name]
        row[name] = value["estimate"]
        row.update({f"{name}_{k}": value[k] for k in ("low", "high", "significant")})
    return row


def write_report(study: Study, out: Path | str) -> Path:
    """Write ``report.html``, ``study.json``, ``study.csv`` (a row per edition and table
    size) and ``differences.csv`` (a row per pair of editions and table size) into the
    folder ``out`` (made if missing), all at once: they are written beside it first and
    moved in only when complete, so a failure leaves nothing half-written. Returns the
    report's path.

    Raises:
        GameSetupError: as :func:`report_folder`.
    """
    out = report_folder(out, make=True)
    staging = Path(tempfile.mkdtemp(prefix=".perudo-study-", dir=out))
    try:
        (staging / "study.json").write_text(
            json.dumps(study.to_dict(), indent=1, ensure_ascii=False), encoding="utf-8"
        )
        rows = [{_csv_text(k): _csv_text(v) for k, v in row.items()} for row in study.rows()]
        columns = list(dict.fromkeys(key for row in rows for key in row))
        with (staging / "study.csv").open("w", newline="", encoding="utf-8") as file:
            writer = csv.DictWriter(file, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)
        found = study.differences()
        with (staging / "differences.csv").open("w", newline="", encoding="utf-8") as file:
            flat = [_flat(difference.to_dict()) for difference in found]
            writer = csv.DictWriter(file, fieldnames=list(flat[0]) if flat else ["a", "b"])
            writer.writeheader()
            writer.writerows(flat)
        (staging / "report.html").write_text(_html(study, found), encoding="utf-8")
        for name in ("study.json", "study.csv", "differences.csv", "report.html"):
            os.replace(staging / name, out / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out / "report.html"


#: The measures, as the report defines them (the how-to says more).
_DEFINITIONS = (
    ("First-player advantage", "the share of the games won by the player who opened them, "
     "less the fair share (1 / players): 0 in a fair game."),
    ("Balance", "the largest gap between a place's share of the wins (the opener, the next "
     "to act, and so on round the table) and the fair share: 0 when every place wins as "
     "often; its interval holds for all the places at once."),
    ("Decisiveness", "the share of the games won by the first player to lead alone (more "
     "dice than every other player; more points where calls move points): the fair share "
     "if an early lead meant nothing, 100% if it always held."),
    ("Game length", "rounds and actions per game."),
    ("Skill share", "in games between the stronger and the weaker bot, the stronger bot's "
     "share of the wins per seat it held: the further above the fair share, the more the "
     "rules reward the better player."),
)  # fmt: skip


def _html(study: Study, differences: Sequence[StudyDifference]) -> str:
    charts, note = _charts(study)
    head = (
        f"<p>{study.games:,} games per edition and table size, run seed {study.seed}, "
        f"the same deals in every edition; {html.escape(study.bots)} bots in every seat. "
        f"Skill games: {html.escape(study.strong)} against {html.escape(study.weak)}, "
        "alternating seats. Every figure has its 95% confidence interval "
        "(Wilson for shares, normal for means and for the paired differences).</p>"
    )
    run = study.run
    if run:
        command = run.get("command")
        head += (
            f"<p>Run with perudo {html.escape(str(run.get('perudo')))}, Python "
            f"{html.escape(str(run.get('python')))}, NumPy {html.escape(str(run.get('numpy')))}; "
            f"engine {html.escape(str(run.get('engine')))}, the games played on "
            f"{html.escape(', '.join(run.get('engines', [])))}. "
            + (f"Run again: <code>{html.escape(command)}</code>." if command else "")
            + "</p>"
        )
    terms = "".join(f"<dt>{name}</dt><dd>{html.escape(text)}</dd>" for name, text in _DEFINITIONS)
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<title>perudo study</title><style>",
        "body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}",
        "table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;",
        "padding:.25rem .5rem;text-align:right}th{background:#f4f4f4}",
        "td:first-child{text-align:left}dt{font-weight:bold}",
        "img{max-width:100%}.note{background:#fff6d5;padding:.5rem}</style></head><body>",
        f"<h1>Study of {', '.join(map(html.escape, study.editions))}</h1>",
        head,
        f"<h2>The measures</h2><dl>{terms}</dl>",
        "<h2>Each edition at each table size</h2>",
        _table(study),
    ]
    if differences:
        parts += [
            "<h2>Editions compared, game by game</h2>",
            "<p>Each difference is the first edition's figure less the second's, over the "
            "same seeds; <b>bold</b>: significant at 95% (its interval leaves out 0).</p>",
            _differences(differences),
        ]
    parts += [f"<img alt='{html.escape(t)}' src='data:image/png;base64,{d}'>" for t, d in charts]
    if note:
        parts.append(f"<p class='note'>{html.escape(note)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _table(study: Study) -> str:
    header = (
        "<tr><th>edition</th><th>players</th><th>first-player advantage</th>"
        "<th>balance</th><th>decisiveness (fair)</th><th>rounds per game</th>"
        "<th>actions per game</th><th>skill share (fair)</th><th>calls per game</th></tr>"
    )
    rows = []
    for cell in study.cells:
        play = cell.play
        fair = f"{play.fair_share:.1%}"
        calls = "; ".join(f"{c} {i}" for c, i in play.per_game("calls"))
        rows.append(
            f"<tr><td>{html.escape(cell.variant)}</td><td>{cell.players}</td>"
            f"<td>{play.first_player_advantage.signed()}</td><td>{play.balance}</td>"
            f"<td>{play.decisiveness} ({fair})</td><td>{play.rounds_interval}</td>"
            f"<td>{play.actions_interval}</td><td>{cell.skill_share} ({fair})</td>"
            f"<td>{html.escape(calls)}</td></tr>"
        )
    return "<table>" + header + "".join(rows) + "</table>"


def _differences(differences: Sequence[StudyDifference]) -> str:
    header = "<tr><th>editions</th><th>players</th>" + "".join(
        f"<th>{label}</th>" for _, label, _, _ in MEASURES
    )
    rows = []
    for found in differences:
        values = []
        for _, difference in found.measures:
            text = html.escape(difference.interval.signed())
            values.append(
                f"<td><b>{text}</b></td>" if difference.significant else f"<td>{text}</td>"
            )
        rows.append(
            f"<tr><td>{html.escape(found.a)} minus {html.escape(found.b)}</td>"
            f"<td>{found.players}</td>{''.join(values)}</tr>"
        )
    return "<table>" + header + "</tr>" + "".join(rows) + "</table>"


def _charts(study: Study) -> tuple[list[tuple[str, str]], str | None]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        return [], f"Charts need matplotlib, {install_hint('plot')}; then run the study again."
    charts = []
    measures: list[tuple[str, Callable[[StudyCell], Interval], bool]] = [
        ("First-player advantage: the opener's share of the wins less the fair share",
         lambda c: c.play.first_player_advantage, True),
        ("Balance: the largest gap between a place's share of the wins and the fair share",
         lambda c: c.play.balance, True),
        ("Decisiveness less the fair share: how much more often the first sole leader wins",
         lambda c: c.play.decisiveness.less(c.play.fair_share), True),
        ("Skill edge: the stronger bot's share per seat held less the fair share",
         lambda c: c.skill_edge, True),
        ("Game length: rounds per game", lambda c: c.play.rounds_interval, False),
    ]  # fmt: skip
    for title, measure, from_fair in measures:
        figure, axes = pyplot.subplots(figsize=(8, 4))
        for edition in study.editions:
            cells = [c for c in study.cells if c.variant == edition]
            values = [measure(c) for c in cells]
            scale = 100 if from_fair else 1  # shares in points of percentage
            axes.errorbar(
                [c.players for c in cells], [scale * v.estimate for v in values],
                yerr=[[scale * (v.estimate - v.low) for v in values],
                      [scale * (v.high - v.estimate) for v in values]],
                marker="o", capsize=3, label=edition,
            )  # fmt: skip
        if from_fair:
            axes.axhline(0, color="black", linestyle="--", linewidth=1, label="fair")
            axes.set_ylabel("points of percentage")
        axes.set_title(title, fontsize="medium")
        axes.set_xlabel("players")
        axes.set_xticks(sorted({c.players for c in study.cells}))
        axes.legend(fontsize="small")
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        pyplot.close(figure)
        charts.append((title, base64.b64encode(buffer.getvalue()).decode("ascii")))
    return charts, None
