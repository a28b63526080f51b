"""The ``perudo`` command: demo, play, variants, rules, compare, simulate, study."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import itertools
import json
import math
import os
import runpy
import shlex
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

import attrs

from perudo.actions import MAX_PLAYERS
from perudo.bots import BOTS
from perudo.comparison import Comparison, compare
from perudo.demo import run_demo
from perudo.errors import (
    BotError,
    GameSetupError,
    PerudoError,
    RecordError,
    SolveError,
    UnknownVariantError,
    shown,
)
from perudo.loader import load_variant, variant_names
from perudo.prose import AXIS_TITLES, label, rules_text
from perudo.record import MAX_MOVES
from perudo.simulate import (
    ENGINES,
    LABELS,
    MAX_GAMES,
    MAX_WORKERS,
    SimulationResult,
    simulate,
)
from perudo.stats import Interval
from perudo.variant import AXES, Variant, inapplicable, is_edition_key

if TYPE_CHECKING:
    from perudo.web.limits import Limits

__all__ = ["main"]

WIDTH = 80
LABEL = 34  # the width of a label in the simulate report
DIFFERENCE_LABEL = 30  # and of a difference's label


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error said in one line (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        digits = text.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number")
        if len(digits) > 20:  # a whole number, past any limit: said so, never parsed
            size = "small" if text.startswith("-") else "large"
            raise argparse.ArgumentTypeError(f"{shown(text)} is too {size}: from {low} to {high}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not from {low} to {high}")
        return value

    return parse


def _opener(text: str) -> int:
    """An argparse type: ``solve --opener``, seat 1 or 2 (a solve seats two)."""
    if text.strip() == "0":
        raise argparse.ArgumentTypeError("seats count from 1, as in play --seat: the first "
                                         "seat is --opener 1")  # fmt: skip
    return _whole(1, 2)(text)


_PLAYERS = _whole(2, MAX_PLAYERS)  # demo, play and simulate: each edition then says its own
_SEED = _whole(-(2**63), 2**63)  # game i of a run uses seed + i: keep within 64 bits


def _edition(text: str) -> Variant:
    """An edition named on the command line: a shipped key, or the path of a declaration
    file (the person at the terminal names it; nothing else ever reads a path)."""
    if text.endswith(".toml") or os.sep in text:
        return load_variant(Path(text))
    if not is_edition_key(text):  # said in the command line's terms, not the API's
        raise UnknownVariantError(
            f"{shown(text)} is not an edition ({', '.join(variant_names())}) nor a "
            "declaration file (a path ending in .toml)"
        )
    return load_variant(text)


def _parser() -> argparse.ArgumentParser:
    from perudo import __version__

    parser = _Parser(
        prog="perudo", description="Perudo in its regional editions: play, compare, simulate."
    )
    parser.add_argument("--version", action="version", version=f"perudo {__version__}")
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE (a module name, or a .py file) first, running its code, so the "
        "rule kinds it registers can be named in declarations; may be given again",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="watch bots play a game, told in the edition's words")
    demo.add_argument("--variant", default="italian", help="edition key (default: italian)")
    demo.add_argument("--players", type=_PLAYERS, default=4, help="how many bots (default: 4)")
    demo.add_argument("--seed", type=_SEED, default=None, help="seed of the dice and the bots")
    _handicap(demo)
    variants = commands.add_parser("variants", help="list the editions")
    variants.add_argument("--json", action="store_true", help="print JSON")
    rules = commands.add_parser("rules", help="an edition's rules as prose")
    rules.add_argument("variant", help="edition key or path to a .toml declaration")
    rules.add_argument("--json", action="store_true", help="print JSON")
    comp = commands.add_parser(
        "compare", help="two editions side by side with witnesses, or the matrix of all"
    )
    comp.add_argument("variants", nargs="*", help="two edition keys (none: the full matrix)")
    comp.add_argument("--json", action="store_true", help="print JSON")
    solve = commands.add_parser(
        "solve",
        help="solve a round or a game between two players exactly (extra perudo[solve])",
    )
    solve.add_argument("variant", help="edition key or path to a .toml declaration")
    solve.add_argument(
        "--dice", type=_starting_dice, default=(1, 1), metavar="N,N",
        help="seat 1's and seat 2's dice (default: 1,1)",
    )  # fmt: skip
    solve.add_argument(
        "--opener", type=_opener, default=1,
        help="the seat that bids first, from 1 like play --seat (default: 1; --json counts "
        "seats from 0, as the library does)",
    )  # fmt: skip
    solve.add_argument(
        "--game", action="store_true", help="the whole game from those dice (win +1, loss -1)"
    )
    solve.add_argument(
        "--memory", type=_memory, default=None, metavar="SIZE",
        help="the most memory the solve may use, as 4G or 800M (default: what is free)",
    )  # fmt: skip
    solve.add_argument(
        "--cfr", type=_positive, default=None, metavar="EXPLOITABILITY",
        help="approximate the round by CFR+ instead, to this exploitability (a round too big "
        "to solve exactly)",
    )  # fmt: skip
    solve.add_argument(
        "--seconds", type=_positive, default=None,
        help="with --cfr: stop after this many seconds, however close",
    )  # fmt: skip
    solve.add_argument(
        "--quiet", action="store_true", help="no progress on the standard error stream"
    )
    solve.add_argument("--json", action="store_true", help="print JSON")
    sim = commands.add_parser("simulate", help="play many games between bots and tally them")
    sim.add_argument("--variant", default=None, help="edition key (default: italian)")
    sim.add_argument("--compare", nargs=2, metavar=("A", "B"), help="run both on the same seeds")
    sim.add_argument("--players", type=_PLAYERS, default=4, help="players per game (default: 4)")
    sim.add_argument(
        "--games", type=_whole(1, MAX_GAMES), default=1000, help="games (default: 1000)"
    )
    sim.add_argument(
        "--bots",
        default="odds",
        help=f"comma-separated bots by seat: {', '.join(BOTS)}, or package.module:Name "
        "with --bots-from-module",
    )
    _bots_from_module(sim)
    _handicap(sim)
    sim.add_argument(
        "--on-error",
        choices=("stop", "forfeit"),
        default="stop",
        help="when a bot fails: stop, or count the game as its forfeit (default: stop)",
    )
    sim.add_argument("--seed", type=_SEED, default=0, help="the run's seed (default: 0)")
    sim.add_argument(
        "--fixed-seats", action="store_true", help="keep each bot in its seat (default: rotate)"
    )
    sim.add_argument(
        "--workers", type=_whole(1, MAX_WORKERS), default=None, help="processes (default: 1)"
    )
    sim.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run on the Dask cluster of this scheduler (needs perudo[dask])",
    )
    sim.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="auto (the batch engine when every bot has a batch form and perudo[batch] is "
        "installed), batch, or reference (GameState) (default: auto)",
    )
    sim.add_argument("--json", action="store_true", help="print JSON")
    play = commands.add_parser("play", help="play a game against bots in this terminal")
    play.add_argument("--variant", default="italian", help="edition key (default: italian)")
    play.add_argument("--players", type=_PLAYERS, default=3, help="players (default: 3)")
    play.add_argument(
        "--seat", type=_whole(1, MAX_PLAYERS), default=1,
        help="your seat, from 1 (seat 1 is Player 1's; default: 1)",
    )  # fmt: skip
    play.add_argument("--bots", default="odds", help="the bots (default: odds)")
    _bots_from_module(play)
    _handicap(play)
    play.add_argument("--seed", type=_SEED, default=None, help="seed of the dice")
    play.add_argument("--ascii", action="store_true", help="digits instead of die faces")
    play.add_argument(
        "--save", metavar="FILE", default=None,
        help="write the game's record to FILE at the end, or when you leave (else asked, at a "
        "terminal only); perudo replay FILE tells it",
    )  # fmt: skip
    replay = commands.add_parser(
        "replay", help="a saved game's record told move by move, or the table at one move"
    )
    replay.add_argument("record", metavar="FILE", help="a record, as text or JSON")
    replay.add_argument(
        "--at", type=_whole(0, MAX_MOVES), default=None, metavar="N",
        help="stop after move N and draw the table there, every hand shown (0: the start)",
    )  # fmt: skip
    replay.add_argument(
        "--svg", metavar="OUT", default=None,
        help="write the table at --at (else at the end) to OUT as an SVG picture",
    )  # fmt: skip
    replay.add_argument(
        "--key", metavar="FILE", default=None,
        help="check the record's signature with this key file (perudo serve's)",
    )  # fmt: skip
    replay.add_argument(
        "--variant", metavar="TOML", default=None,
        help="the declaration file of an edition that is not shipped (a house rule)",
    )  # fmt: skip
    replay.add_argument("--ascii", action="store_true", help="digits instead of die faces")
    serve = commands.add_parser(
        "serve", help="a table server: people play in their browsers (extra web)"
    )
    serve.add_argument("--host", default="127.0.0.1", help="address (default: 127.0.0.1)")
    serve.add_argument("--port", type=_whole(1, 65535), default=8000, help="port (default: 8000)")
    serve.add_argument(
        "--db", default="perudo.sqlite",
        help="the tables' database: a SQLite file (default: perudo.sqlite), or a PostgreSQL "
        "URL, postgresql://USER@HOST/DB, that several servers share (extra postgres)",
    )  # fmt: skip
    serve.add_argument(
        "--key", default=None, metavar="FILE",
        help="the key that signs the tables (default: beside a SQLite --db, made on the first "
        "start); every server on one PostgreSQL database names the same file",
    )  # fmt: skip
    serve.add_argument(
        "--public-url", default=None, metavar="URL",
        help="where pages reach this server, for the other servers on a PostgreSQL "
        "database to send them here (default: http://HOST:PORT)",
    )  # fmt: skip
    serve.add_argument(
        "--variant", action="append", default=None, metavar="KEY|FILE",
        help="an edition the tables may play (repeat it; default: every shipped edition)",
    )  # fmt: skip
    serve.add_argument(
        "--allowed-host", action="append", default=[], metavar="NAME",
        help="a host name the server answers (repeat it; default: the address it listens "
        "on; on 0.0.0.0, this machine's name and addresses); any other is refused",
    )  # fmt: skip
    serve.add_argument(
        "--limit", action="append", default=[], metavar="NAME=VALUE",
        help="one of the server's limits (repeat it): tables, tables_per_address, archive, "
        "idle, connections, connections_per_address, connections_per_table, head_timeout, "
        "bot_moves, bot_moves_per_address, lease (the server how-to lists the defaults)",
    )  # fmt: skip
    study = commands.add_parser(
        "study", help="every edition at every table size: a report with honest statistics"
    )
    study.add_argument("editions", nargs="+", help="edition keys (or declaration files)")
    study.add_argument("--players", default="2-6", help="table sizes: 4, 2-6 or 2,4,6")
    study.add_argument(
        "--games", type=_whole(1, MAX_GAMES), default=1000, help="games per cell (default 1000)"
    )
    study.add_argument("--seed", type=_SEED, default=0, help="the study's seed (default: 0)")
    study.add_argument("--out", required=True, help="a new folder for report.html, JSON and CSV")
    study.add_argument(
        "--force", action="store_true", help="write the report into a folder that exists"
    )
    study.add_argument("--bots", default="odds", help="the bot of every seat (default: odds)")
    study.add_argument(
        "--strong", default="reader", help="the stronger bot of the skill games (reader)"
    )
    study.add_argument("--weak", default="odds", help="the weaker bot of the skill games (odds)")
    _bots_from_module(study)
    _handicap(study)
    study.add_argument(
        "--workers", type=_whole(1, MAX_WORKERS), default=None, help="processes (default: 1)"
    )
    study.add_argument("--scheduler", default=None, metavar="ADDRESS", help="a Dask scheduler")
    study.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="auto (the batch engine when every bot has a batch form and perudo[batch] is "
        "installed), batch, or reference (GameState) (default: auto)",
    )
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status: 0, 2 for a refused argument or
    edition, 130 when interrupted (Ctrl-C), 143 when terminated (SIGTERM), 141 when the
    output pipe closed early."""
    out = sys.stdout if out is None else out
    args = _parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # a study keeps its command
    try:
        with _terminate_as_interrupt():
            for plugin in args.plugin:
                _load_plugin(plugin)
            _command(args, out)
            out.flush()
    except PerudoError as error:
        # The games are the caller's own here: the seed that replays a failed one is theirs.
        replay = f" (game seed {error.seed})" if isinstance(error, BotError) else ""
        print(f"perudo: {error}{replay}", file=sys.stderr)
        return 2
    except ImportError as error:
        if "pip install" not in str(error):  # not one of ours naming its extra: a bug
            raise
        print(f"perudo: {error}", file=sys.stderr)
        return 2
    except _Terminated:
        print("perudo: terminated", file=sys.stderr)
        return _status_past_highs(143)
    except KeyboardInterrupt:
        print("perudo: interrupted", file=sys.stderr)
        return _status_past_highs(130)
    except BrokenPipeError:  # a reader such as `head` stopped reading: end quietly
        if out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # so the flush at exit fails no more
        return 141
    return 0


def _status_past_highs(status: int) -> int:
    """``status``, or the process ended at once with it when an interrupted solve had run
    HiGHS (see :func:`perudo.solve.lp.highs_ran`): exiting normally might abort."""
    lp = sys.modules.get("perudo.solve.lp")
    if lp is not None and lp.highs_ran():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status


class _Terminated(KeyboardInterrupt):
    """SIGTERM (what ``timeout``, systemd and job schedulers send), raised where the main
    thread is, so a command stops as it does on Ctrl-C: its workers ended, nothing left."""


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """While the command runs, SIGTERM stops it the way Ctrl-C does (in the main thread,
    where a caller has not set a handler of its own); the handler before is put back."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGTERM)
    if before is not signal.SIG_DFL:
        yield
        return

    def terminated(number: int, frame: object) -> None:
        raise _Terminated

    signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _load_plugin(name: str) -> None:
    """Run the plugin ``name``: a ``.py`` file by its path, else a module by its name (entry
    points of the group ``perudo.rules`` need no plugin)."""
    try:
        if name.endswith(".py"):
            path = Path(name)
            if not path.is_file():
                raise GameSetupError(f"--plugin {shown(name)}: there is no such file")
            runpy.run_path(str(path), run_name=f"perudo_plugin_{path.stem}")
        else:
            importlib.import_module(name)
    except PerudoError:
        raise
    except Exception as error:  # the plugin's own code failed: say whose, not a traceback
        raise GameSetupError(
            f"--plugin {shown(name)} did not load: {type(error).__name__}: {shown(str(error))}"
        ) from error


def _command(args: argparse.Namespace, out: TextIO) -> None:
    if args.command == "demo":
        run_demo(
            _edition(args.variant), args.players, seed=args.seed, out=out,
            starting_dice=args.starting_dice,
        )  # fmt: skip
    elif args.command == "variants":
        _variants(args.json, out)
    elif args.command == "rules":
        variant = _edition(args.variant)
        if args.json:
            _json(variant.to_dict(), out)
        else:
            out.write(_wrap_paragraphs(rules_text(variant)))
        for warning in inapplicable(variant):
            print(f"perudo: warning: {variant.key}: {warning}", file=sys.stderr)
    elif args.command == "compare":
        _compare(args.variants, args.json, out)
    elif args.command == "study":
        _study(args, out)
    elif args.command == "solve":
        _solve(args, out)
    elif args.command == "serve":
        _serve(args)
    elif args.command == "replay":
        _replay(args, out)
    elif args.command == "play":
        from perudo.console import play_console

        bots = tuple(name.strip() for name in args.bots.split(","))
        if args.seat > args.players:
            raise GameSetupError(f"--seat {args.seat}: a table of {args.players} has seats 1 "
                                 f"to {args.players}")  # fmt: skip
        play_console(
            _edition(args.variant), args.players, seat=args.seat - 1, bots=bots, seed=args.seed,
            ascii=args.ascii, stdin=sys.stdin, out=out, allow_import=args.bots_from_module,
            starting_dice=args.starting_dice,
            save=None if args.save is None else _writable(args.save, "--save"),
        )  # fmt: skip
    else:
        _simulate(args, out)


def _serve(args: argparse.Namespace) -> None:
    from perudo.web.app import LOOPBACK, TableServer
    from perudo.web.limits import Limits
    from perudo.web.store import store_name

    limits = Limits.parse(args.limit)
    keys = args.variant or list(variant_names())
    variants = {variant.key: variant for variant in map(_edition, keys)}
    limits = _open_files_for(limits)
    address = args.public_url or f"http://{args.host}:{args.port}"
    server = TableServer(args.db, variants, key=args.key, host=args.host,
                         allowed_hosts=args.allowed_host, limits=limits,
                         address=address)  # fmt: skip
    if args.host not in LOOPBACK:
        print(
            f"perudo: warning: serving on {args.host} over plain HTTP: anyone on the way "
            "can read the moves and take a seat's token. Put it behind a TLS proxy (Caddy, "
            "nginx) for anything beyond a LAN you trust.",
            file=sys.stderr,
        )
    editions = f"{len(variants)} edition" + ("s" if len(variants) != 1 else "")

    def bound() -> None:
        print(f"perudo: serving {editions} on http://{args.host}:{args.port}/ (tables in "
              f"{store_name(args.db)}) to the host names "
              f"{', '.join(sorted(server.allowed_hosts))}; Ctrl-C stops", file=sys.stderr,
              flush=True)  # fmt: skip

    try:
        server.run(args.port, bound=bound)
    finally:
        server.close()


def _open_files_for(limits: Limits) -> Limits:
    """``limits`` within the files this process may open: the soft limit raised as far
    as the hard one allows, and the connections cut to what remains (saying so)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return limits
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = limits.connections + 256  # the database, the key, the listening socket...
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    if soft != resource.RLIM_INFINITY and soft < wanted:
        fits = max(16, soft - 256)
        print(f"perudo: warning: this process may open {soft} files: at most {fits} "
              f"connections, not {limits.connections}", file=sys.stderr)  # fmt: skip
        limits = attrs.evolve(limits, connections=fits)
    return limits


def _solve(args: argparse.Namespace, out: TextIO) -> None:
    from perudo.solve import solve_game, solve_round

    if args.cfr is not None or args.seconds is not None:
        _approximate(args, out)
        return
    solve = solve_game if args.game else solve_round
    try:
        solution = solve(
            _edition(args.variant), args.dice, opener=args.opener - 1, memory=args.memory,
            progress=None if args.quiet else _progress,
        )  # fmt: skip
    except SolveError as error:
        if args.game or "too big to solve" not in str(error):
            raise
        raise SolveError(f"{error} (--cfr 1e-3 approximates it)") from None
    if args.json:
        _json(solution.to_dict(), out)
        return
    dice = "v".join(map(str, solution.dice))
    what = f"the game from {dice} (win +1, loss -1)" if solution.game else f"one round {dice}"
    if solution.exact:
        value, proven = f"{solution.value} = {float(solution.value):.6f}", "proven exact"
    else:  # the bounds' fractions may be long: their decimals and the gap
        low, high = solution.bounds
        value = f"{float(solution.value):.6f}"
        gap = float(high - low)
        proven = f"proven within [{float(low):.9f}, {float(high):.9f}], {gap:.1e} wide"
    rounds = f" in {solution.rounds} round{'s' * (solution.rounds != 1)}" if solution.game else ""
    print(
        f"{solution.variant.name}, {what}, seat {solution.opener + 1} bids first\n"
        f"value for seat 1: {value} ({proven})\n"
        f"{solution.infosets:,} information states{rounds}, {solution.seconds:.1f} s",
        file=out,
    )


def _writable(text: str, flag: str) -> Path:
    """The file ``flag`` names, checked before the work it will hold: its folder exists
    and may be written, and it is not a folder."""
    path = Path(text)
    folder = path.parent
    if path.is_dir():
        raise GameSetupError(f"{flag} {shown(text)} is a folder: name a file in it")
    if not folder.is_dir():
        raise GameSetupError(f"{flag} {shown(text)}: there is no folder {shown(str(folder))}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise GameSetupError(f"{flag} {shown(text)}: not allowed to write there")
    return path


def _write(path: Path, flag: str, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise GameSetupError(f"{flag} {shown(str(path))}: {error.strerror}") from None


def _replay(args: argparse.Namespace, out: TextIO) -> None:
    from perudo.narration import opening, told
    from perudo.record import read_record

    key = None
    if args.key is not None:
        from perudo.web.store import read_key

        key = read_key(Path(args.key))
    svg = None if args.svg is None else _writable(args.svg, "--svg")
    record = read_record(args.record, key=key)
    moves = len(record.moves)
    if args.at is not None and args.at > moves:
        raise RecordError(f"--at {args.at}: the record has {moves} move{'s' * (moves != 1)}")
    variant = None if args.variant is None else _edition(args.variant)
    states = record.states(variant)
    state = next(states)
    checked = "; its signature checked" if key is not None else ""
    print(f"{state.variant.name}, seed {record.seed}: {', '.join(record.players)}; "
          f"{moves} move{'s' * (moves != 1)}{checked}", file=out)  # fmt: skip
    print(opening(state).text, file=out)
    for number, after in enumerate(itertools.islice(states, args.at), start=1):
        for line in told(state, after):
            if line.kind == "move":
                print(f"{number:>5}. {line.text}", file=out)
            else:
                print(f"       {line.text}" if line.kind == "showdown" else line.text, file=out)
        state = after
    if args.at is not None:
        print(f"\nThe table after move {args.at}, every hand shown:", file=out)
        print(state.draw(ascii=args.ascii), file=out)
    if svg is not None:
        from perudo.svg import table_svg

        _write(svg, "--svg", table_svg(state.public_view(), [p.cup for p in state.players]))
        print(f"The table after move {len(state.log.moves)} is drawn in {args.svg}.", file=out)


def _approximate(args: argparse.Namespace, out: TextIO) -> None:
    from perudo.solve import approximate_round

    if args.game or args.cfr is None:
        raise GameSetupError(
            "--cfr approximates one round; it takes no --game"
            if args.game
            else "--seconds bounds --cfr: give --cfr EXPLOITABILITY"
        )
    cfr = approximate_round(
        _edition(args.variant), args.dice, opener=args.opener - 1, exploitability=args.cfr,
        seconds=args.seconds, memory=args.memory, progress=None if args.quiet else _progress,
    )  # fmt: skip
    if args.json:
        _json(cfr.to_dict(), out)
        return
    dice = "v".join(map(str, cfr.dice))
    print(
        f"{cfr.variant.name}, one round {dice}, seat {cfr.opener + 1} bids first\n"
        f"value for seat 1: {cfr.value:.6f} (CFR+, exploitability {cfr.exploitability:.1e} "
        f"after {cfr.iterations:,} iterations: the value lies within "
        f"{2 * cfr.exploitability:.1e} of it)\n"
        f"{cfr.infosets:,} information states, {cfr.seconds:.1f} s",
        file=out,
    )


def _positive(text: str) -> float:
    """An argparse type: a positive number, ``1e-3``, ``600``."""
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a positive number")
    return value


def _progress(line: str) -> None:
    """A long solve's progress, one line at a time on the standard error stream."""
    print(f"perudo solve: {line}", file=sys.stderr, flush=True)


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def _memory(text: str) -> int:
    """An argparse type: a memory size in bytes, ``4G``, ``800M``, ``1.5GiB``."""
    cleaned = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = cleaned[-1:] if cleaned[-1:] in _UNITS else ""
    number = cleaned.removesuffix(unit) if unit else cleaned
    digits = number.replace(".", "", 1)
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 15:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a memory size such as 4G or 800M")
    size = int(float(number) * _UNITS[unit])
    if size < 2**20:
        raise argparse.ArgumentTypeError(f"{shown(text)} is less than a megabyte (1M)")
    return size


def _starting_dice(text: str) -> tuple[int, ...]:
    """An argparse type: each seat's dice at the start, ``3,5,5,5``."""
    counts = text.split(",")
    if len(counts) > MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"more than {MAX_PLAYERS} seats in {shown(text)}")
    return tuple(_whole(1, 20)(count.strip()) for count in counts)


def _handicap(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--starting-dice",
        type=_starting_dice,
        default=None,
        metavar="N,N,...",
        help="each seat's dice at the start, a handicap (default: the edition's for all)",
    )


def _bots_from_module(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--bots-from-module",
        action="store_true",
        help="let a bot named package.module:Name import that module (runs its code)",
    )


def _json(data: Any, out: TextIO) -> None:
    json.dump(data, out, indent=1, ensure_ascii=False)
    out.write("\n")


def _wrap_paragraphs(text: str) -> str:
    lines = []
    for line in text.splitlines():
        indent = "   " if line.startswith("  (") else ""
        wrapped = textwrap.wrap(line, WIDTH, subsequent_indent=indent) or [""]
        lines.extend(wrapped)
    return "\n".join(lines) + "\n"


def _variants(as_json: bool, out: TextIO) -> None:
    variants = [load_variant(key) for key in variant_names()]
    if as_json:
        _json([{"key": v.key, "name": v.name, "summary": v.summary} for v in variants], out)
        return
    column = max(len(variant.key) for variant in variants) + 2  # every name in one column
    for variant in variants:
        out.write(f"{variant.key:{column}}{variant.name}\n")
        for line in textwrap.wrap(variant.summary, WIDTH - 4):
            out.write("    " + line + "\n")


def _compare(keys: Sequence[str], as_json: bool, out: TextIO) -> None:
    if not keys:
        _matrix(as_json, out)
        return
    if len(keys) != 2:
        raise GameSetupError("compare takes two edition keys, or none for the full matrix")
    comparison = compare(_edition(keys[0]), _edition(keys[1]))
    perfect = _perfect_play((comparison.a, comparison.b))
    if as_json:
        _json({**comparison.to_dict(), "perfect_play": perfect}, out)
        return
    out.write(_side_by_side(comparison))
    if perfect is None:
        out.write("\nPerfect play: the exact values need the extra perudo[solve].\n")
        return
    out.write("\nPerfect play, one round of one die each (value for the opener's seat):\n")
    for row in perfect:
        said = row.get("value") or f"not solved here: {row['refused']}"
        out.write(f"  {row['variant']}: {said}\n")


#: The most positions ``perudo compare`` solves a round of, so that it answers in seconds.
COMPARE_NODES = 1_000_000


def _perfect_play(variants: Sequence[Variant]) -> list[dict[str, Any]] | None:
    """Each edition's exact value of one round of one die each, or why it is not solved;
    ``None`` without the extra ``solve``."""
    try:
        from perudo.solve import solve_round
    except ImportError:
        return None
    rows: list[dict[str, Any]] = []
    for variant in variants:
        try:
            solution = solve_round(variant, (1, 1), max_nodes=COMPARE_NODES)
        except SolveError as error:
            rows.append({"variant": variant.key, "refused": str(error)})
            continue
        value = solution.value
        rows.append(
            {
                "variant": variant.key,
                "value": f"{value} ({float(value):+.4f})",
                "fraction": str(value),
                "exact": solution.exact,
            }
        )
    return rows


def _columns(cells: Sequence[str], widths: Sequence[int]) -> list[str]:
    wrapped = [
        textwrap.wrap(cell, width) or [""] for cell, width in zip(cells, widths, strict=True)
    ]
    height = max(len(lines) for lines in wrapped)
    rows = []
    for row in range(height):
        parts = [
            (lines[row] if row < len(lines) else "").ljust(width)
            for lines, width in zip(wrapped, widths, strict=True)
        ]
        rows.append("  ".join(parts).rstrip())
    return rows


def _side_by_side(comparison: Comparison) -> str:
    a, b = comparison.a, comparison.b
    widths = (18, 28, 28)
    lines = [f"{a.name} ({a.key})  vs  {b.name} ({b.key})", ""]
    lines += _columns(("axis", a.key, b.key), widths)
    lines.append("  ".join("-" * w for w in widths))
    for item in comparison.axes:
        mark = " *" if not item.same else ""
        cells = (
            AXIS_TITLES[item.axis] + mark,
            f"{label(a, item.axis)} [{item.a_provenance.kind}]",
            f"{label(b, item.axis)} [{item.b_provenance.kind}]",
        )
        lines += _columns(cells, widths)
    lines += ["", "* the editions differ on this axis", ""]
    lines += textwrap.wrap(comparison.summary[0].upper() + comparison.summary[1:] + ".", WIDTH)
    if not comparison.same_words:
        for field in ("dudo", "calza", "ones", "special_round", "ordinary"):
            wa, wb = getattr(a.words, field), getattr(b.words, field)
            if wa != wb:
                lines.append(f"  {field.replace('_', ' ')}: {wa or '-'} / {wb or '-'}")
    lines.append("")
    if comparison.differing:
        lines.append("Witnesses (found by searching small positions):")
        for axis in comparison.differing:
            witnesses = comparison.axis(axis).witnesses
            text = witnesses[0].describe() if witnesses else "none found in the search budget"
            lines += textwrap.wrap(
                f"{AXIS_TITLES[axis]}: {text}", WIDTH, initial_indent="- ", subsequent_indent="  "
            )
    return "\n".join(lines) + "\n"


def _matrix(as_json: bool, out: TextIO) -> None:
    variants = [load_variant(key) for key in variant_names()]
    if as_json:
        data = {
            v.key: {
                axis: {"setting": label(v, axis), "provenance": v.provenance_of(axis).kind}
                for axis in AXES
            }
            for v in variants
        }
        _json(data, out)
        return
    letter = {"stated": "S", "inherited": "I", "reading": "R"}
    lines: list[str] = []
    for start in range(0, len(variants), _MATRIX_COLUMNS):  # blocks that fit 80 columns
        block = variants[start : start + _MATRIX_COLUMNS]
        heads = [_key_lines(v.key) for v in block]
        depth = max(len(head) for head in heads)
        heads = [[""] * (depth - len(head)) + head for head in heads]  # the key's end last
        for row in range(depth):
            first = "axis" if row == depth - 1 else ""
            lines.append((first.ljust(15) + "".join(h[row].ljust(11) for h in heads)).rstrip())
        lines.append("-" * (15 + 11 * len(block) - 1))
        for axis in AXES:
            cells = [f"{label(v, axis)} {letter[v.provenance_of(axis).kind]}" for v in block]
            lines.append(
                (AXIS_TITLES[axis].ljust(15) + "".join(c.ljust(11) for c in cells)).rstrip()
            )
        lines.append("")
    lines += [
        "S stated by the source, I inherited from the base rules, R a reading of it.",
        "Jonti* may be called out of turn. KO: the player who put the loser out opens.",
        "'perudo rules KEY' tells one edition in full; 'perudo compare A B' two.",
    ]
    out.write("\n".join(lines) + "\n")


_MATRIX_COLUMNS = 6


def _key_lines(key: str, width: int = 10) -> list[str]:
    """An edition key as the lines of a matrix column's head, each at most ``width``
    characters where its words allow: its first word, then the rest (``french`` /
    ``calza``), the rest cut at hyphens where it is longer (``immortal`` / ``blade`` /
    ``liars-dice``)."""
    first, _, rest = key.partition("-")
    if not rest:
        return ["", key]
    if len(rest) <= width:
        return [first, rest]
    lines = [first]
    for word in rest.split("-"):
        if len(lines) > 1 and len(lines[-1]) + 1 + len(word) <= width:  # not the first word
            lines[-1] += "-" + word
        else:
            lines.append(word)
    return lines


class _Progress:
    """Games done, their rate and the time left, on one line of stderr (a terminal's)."""

    def __init__(self) -> None:
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        filled = int(30 * done / total) if total else 30
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = done / elapsed
        left = (total - done) / rate if rate else 0.0
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games, "
            f"{rate:,.0f} games/s, {left:,.0f} s left "
        )
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _simulate(args: argparse.Namespace, out: TextIO) -> None:
    bots = tuple(name.strip() for name in args.bots.split(","))
    if args.compare and args.variant is not None:
        raise GameSetupError("--variant and --compare name editions twice: give one of them")
    keys = [_edition(key) for key in args.compare or [args.variant or "italian"]]
    client, executor = _where(args)
    progress = _Progress() if sys.stderr.isatty() and not args.json else None
    try:
        results = [
            simulate(
                key,
                args.players,
                args.games,
                bots=bots,
                seed=args.seed,
                workers=args.workers or (4 if executor is not None else 1),
                fixed_seats=args.fixed_seats,
                executor=executor,
                on_error=args.on_error,
                progress=progress,
                engine=args.engine,
                allow_import=args.bots_from_module,
                starting_dice=args.starting_dice,
                keep_games=len(keys) > 1,  # the paired differences read each game
            )
            for key in keys
        ]
    finally:
        if client is not None:
            client.close()
    if args.json:
        _json([r.to_dict() for r in results] if args.compare else results[0].to_dict(), out)
        return
    out.write(_report(results, keys))


def _where(args: argparse.Namespace) -> tuple[Any, Any]:
    """The Dask client and executor of ``--scheduler``, or ``(None, None)``."""
    if args.scheduler is not None and args.workers is not None:
        raise GameSetupError("--workers and --scheduler both say where to run: give one")
    if args.scheduler is None:
        return None, None
    from perudo.cluster import dask_executor

    return dask_executor(args.scheduler)


def _study(args: argparse.Namespace, out: TextIO) -> None:
    from perudo.study import parse_tables, report_folder, run_study, write_report

    editions = [_edition(key) for key in args.editions]
    tables = parse_tables(args.players)
    report_folder(args.out, existing=args.force)  # before the games: a bad path fails now
    client, executor = _where(args)
    progress = _Progress() if sys.stderr.isatty() else None
    try:
        study = run_study(
            editions, tables, args.games, seed=args.seed, bots=args.bots, strong=args.strong,
            weak=args.weak, workers=args.workers or (4 if executor is not None else 1),
            executor=executor, progress=progress, engine=args.engine,
            allow_import=args.bots_from_module, starting_dice=args.starting_dice,
            command=shlex.join(["perudo", *args.argv]),
        )  # fmt: skip
    finally:
        if client is not None:
            client.close()
    report = write_report(study, args.out)
    out.write(f"{len(study.cells)} cells, {2 * study.games * len(study.cells):,} games: {report}\n")


def _call_word(call: str, variant: Variant) -> str:
    """A simulation's call counter named in the edition's words."""
    words = variant.words
    exact = words.calza or "exact call"
    return {
        "challenge": words.dudo,
        "exact": exact,
        "exact-out-of-turn": f"{exact} out of turn",
        "challenge-out-of-turn": f"{words.dudo} out of turn",
        "bid-out-of-turn": "bids out of turn",
    }.get(call, call)


#: A count that a run never saw, with the interval of none.
_NONE = Interval(estimate=0.0, low=0.0, high=0.0)


def _report(results: Sequence[SimulationResult], variants: Sequence[Variant]) -> str:
    first = results[0]
    seating = "fixed seats" if first.fixed_seats else "bots move one seat a game"
    engine = "the batch engine" if first.engine == "batch" else "GameState"
    lines = textwrap.wrap(
        f"{first.players} players, {first.games} games, run seed {first.seed}, bots "
        f"{', '.join(first.bots)} ({seating}), played on {engine}. Each figure with its 95% "
        f"confidence interval; the fair share is {first.fair_share:.1%}.",
        WIDTH,
    )
    lines.append("")
    rows: list[tuple[str, list[str]]] = [
        ("edition", [r.variant for r in results]),
        (LABELS["first_player_advantage"], [r.first_player_advantage.signed() for r in results]),
        ("balance (largest gap)", [str(r.balance) for r in results]),
        (LABELS["decisiveness"], [str(r.decisiveness) for r in results]),
        (LABELS["game_length"], [str(r.rounds_interval) for r in results]),
        ("actions per game", [str(r.actions_interval) for r in results]),
    ]
    for place in range(first.players):  # places in turn order, as people count them
        label = "won by the opener" if place == 0 else f"won by place {place + 1}"
        rows.append((label, [str(r.place_intervals[place]) for r in results]))
    if len(first.bot_intervals) > 1:  # one bot in every seat holds the fair share by construction
        for index, (bot, _) in enumerate(first.bot_intervals):
            rows.append(
                (
                    f"won per seat held, {bot}"[: LABEL - 1],
                    [str(r.bot_intervals[index][1]) for r in results],
                )
            )
    for title, field in (
        ("calls", "calls"),
        ("rounds", "special_rounds"),
        ("declared", "declarations"),
        ("own actions", "acts"),
    ):
        names = sorted({name for r in results for name, _ in getattr(r, field)})
        for name in names:
            shown_as = name
            if field == "calls":  # each edition's word, once: "Dudo/Dubito" when they differ
                words = dict.fromkeys(_call_word(name, variant) for variant in variants)
                shown_as = "/".join(words)
            rows.append(
                (
                    f"{title} per game: {shown_as}"[: LABEL - 1],
                    [str(dict(r.per_game(field)).get(name, _NONE)) for r in results],
                )
            )
    for title, values in rows:
        lines.append(title.ljust(LABEL) + "".join(v.ljust(24) for v in values).rstrip())
    if len(results) == 2:
        a, b = results
        lines += ["", f"{a.variant} minus {b.variant} (paired: the same seeds, game by game):"]
        # A difference takes up to 50 characters ("+100.0% [-100.0%, 100.0%] (not
        # significant at 95%)"): its label is narrower, so a line stays within 80.
        paired = [(label, measure) for measure, label in LABELS.items()]
        if len(first.bot_intervals) > 1:
            paired.append((f"won per seat held, {first.bots[0]}", "first_bot"))
        for label, measure in paired:
            lines.append(f"  {label}"[: DIFFERENCE_LABEL - 1].ljust(DIFFERENCE_LABEL)
                         + str(a.paired(b, measure)))  # fmt: skip
    return "\n".join(lines) + "\n"
