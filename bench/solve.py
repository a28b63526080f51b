"""What exact solving costs: run on demand (``python bench/solve.py``), never as a test.

1. OpenSpiel's ``liars_dice`` at one die each, six faces: :func:`perudo.solve.solve_round`
   (exact, proven) against OpenSpiel's own C++ CFR+ on the same game, run until its average
   policy is as close to an equilibrium as ``--epsilon`` (exploitability), in the same run.
   OpenSpiel's ``sequence_form_lp`` needs cvxopt, which is not installed here: CFR+ is the
   reference the issue allows.
2. Two-player rounds with three dice in play (1v2, 2v1; ``--sizes '2,2 1,3 3,1'`` for
   four) at four faces (``--faces 6`` for the editions' own dice), or whole games
   (``--game``): the value, CPU and wall time, peak memory, and what it took (decisions
   walked, CFR+'s iterations, the linear programs and the largest one's size), every
   shipped edition that seats two (each in a process of its own, so the peak is its own).
   With ``--cfr SECONDS``, section 2 approximates each round by CFR+ instead
   (:func:`perudo.solve.approximate_round`: on the round's public graph, never built),
   until its exploitability is at most ``--epsilon`` or SECONDS have passed: its
   exploitability, the value of its average strategies, the iterations, time and peak.
3. ``--table``: the table of docs/perfect-play.md, printed as Markdown: each edition's round
   and game values at 1v1, 1v2 and 2v1 (at ``--faces``), and the built-in bots'
   exploitability at 1v1.

Each time is the median of ``--repeats`` runs, with min and max, in wall time and CPU time.
Needs the extras ``solve`` and ``openspiel`` (``pip install -e '.[dev]'``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import perudo
from perudo.bots import make_bot
from perudo.solve import SolveError, exploitability, solve_game, solve_round

HERE = Path(__file__).parent

#: What each child process ends with: its result, with its times and the peak of its own
#: memory (ru_maxrss would carry the parent's across exec).
ENDING = """
out["wall"], out["cpu"] = time.perf_counter() - wall, time.process_time() - cpu
status = open("/proc/self/status").read().split("VmHWM:")[1].split()
out["peak_mib"] = int(status[0]) / 1024
print(json.dumps(out))
"""

CHILD = (
    """
import json, sys, time
from perudo.solve import SolveError, solve_game, solve_round
sys.path.insert(0, sys.argv[4])
from solve import fewer_faces
key, dice, faces = sys.argv[1], tuple(int(n) for n in sys.argv[2].split(",")), int(sys.argv[3])
solve = solve_game if sys.argv[5] == "game" else solve_round
variant = fewer_faces(key, faces)
wall, cpu = time.perf_counter(), time.process_time()
try:
    s = solve(variant, dice)
    low, high = s.bounds
    value = str(s.value) if s.exact else f"{float(s.value):.9f} (within {float(high - low):.0e})"
    out = {"value": value, "exact": s.exact, "infosets": s.infosets,
           "effort": s.to_dict()["effort"], "rounds": s.rounds}
except SolveError as error:
    out = {"refused": str(error)}
"""
    + ENDING
)

CFR_CHILD = (
    """
import json, sys, time
from perudo.solve import approximate_round
sys.path.insert(0, sys.argv[4])
from solve import fewer_faces
key, dice, faces = sys.argv[1], tuple(int(n) for n in sys.argv[2].split(",")), int(sys.argv[3])
epsilon, seconds = float(sys.argv[5]), float(sys.argv[6])
wall, cpu = time.perf_counter(), time.process_time()
cfr = approximate_round(fewer_faces(key, faces), dice, exploitability=epsilon, seconds=seconds,
                        progress=lambda line: print(line, file=sys.stderr, flush=True))
out = {"value": cfr.value, "exploitability": cfr.exploitability, "iterations": cfr.iterations,
       "infosets": cfr.infosets}
"""
    + ENDING
)


def timed(work: object, repeats: int) -> tuple[list[float], list[float], object]:
    walls, cpus, result = [], [], None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()  # type: ignore[operator]
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, result


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} s [{min(values):.1f}-{max(values):.1f}]"


def section_liars_dice(repeats: int, epsilon: float) -> None:
    import pyspiel  # here, so that a child process's peak memory holds no OpenSpiel

    print("1. liars_dice, one die each, six faces")
    walls, cpus, solution = timed(lambda: solve_round("openspiel-liars-dice", (1, 1)), repeats)
    print(f"   perudo solve_round: {solution}")  # type: ignore[str-bytes-safe]
    print(f"   wall {spread(walls)}, cpu {spread(cpus)}")

    def cfr() -> tuple[int, float]:
        game = pyspiel.load_game("liars_dice")
        solver = pyspiel.CFRPlusSolver(game)
        iterations, gap = 0, 1.0
        while gap > epsilon:
            for _ in range(10):
                solver.evaluate_and_update_policy()
            iterations += 10
            gap = pyspiel.exploitability(game, solver.average_policy())
        return iterations, gap

    cfr_walls, cfr_cpus, (iterations, gap) = timed(cfr, repeats)  # type: ignore[misc]
    print(f"   OpenSpiel CFR+ to exploitability {gap:.2g} ({iterations} iterations):")
    print(f"   wall {spread(cfr_walls)}, cpu {spread(cfr_cpus)}")
    ratio = statistics.median(cfr_cpus) / statistics.median(cpus)
    print(f"   ratio (CFR+ cpu / perudo cpu): {ratio:.2f} (perudo's value is exact)")


def two_player_editions() -> list[str]:
    """The shipped editions the solver takes: two seats, and actions of their own only
    where they re-roll (Bluff)."""
    return [
        key
        for key in perudo.variant_names()
        if perudo.load_variant(key).players.min <= 2
        and perudo.load_variant(key).actions.kind in ("none", "reroll")
    ]


def section_sizes(
    faces: int, sizes: list[str], game: bool, limit: float, keys: list[str] | None,
    cfr: float | None = None, epsilon: float = 1e-3,
) -> None:  # fmt: skip
    what = "games" if game else "rounds"
    print(f"2. two-player {what} of {', '.join(sizes)} dice, {faces} faces (a process each)")
    for key in keys or two_player_editions():
        for dice in sizes:
            if max(int(n) for n in dice.split(",")) > perudo.load_variant(key).dice.per_player:
                continue  # the edition deals fewer dice
            if cfr is not None:
                section_cfr(key, dice, faces, cfr, epsilon)
                continue
            try:
                done = subprocess.run(
                    [sys.executable, "-c", CHILD, key, dice, str(faces), str(HERE),
                     "game" if game else "round"],
                    capture_output=True,
                    text=True, timeout=limit, check=True,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                print(f"   {key:22} {dice}: not solved within {limit:.0f} s", flush=True)
                continue
            row = json.loads(done.stdout)
            if "refused" in row:
                print(f"   {key:22} {dice}: refused: {row['refused'][:90]}", flush=True)
                continue
            effort = row["effort"]
            print(
                f"   {key:22} {dice}: {row['value']:>14} exact={row['exact']} "
                f"{row['infosets']:>9,} infosets  cpu {row['cpu']:.1f} s  wall {row['wall']:.1f} s"
                f"  peak {row['peak_mib']:.0f} MiB  {effort['decisions']:,} decisions, CFR+ "
                f"{effort['iterations']:,} it., {effort['programs']} LPs, largest "
                f"{effort['rows']:,} x {effort['columns']:,} ({effort['coefficients']:,} "
                "payoff coefficients)",
                flush=True,
            )


def fewer_faces(key: str, faces: int) -> perudo.Variant:
    """The edition with ``faces`` faces; a wild or converting face that is the highest
    (Bluff's star) stays the highest."""
    variant = perudo.load_variant(key)
    if faces == variant.dice.faces:
        return variant
    highest = {
        axis: {"face": faces}
        for axis, rule in (("wilds", variant.wilds), ("conversion", variant.conversion))
        if getattr(rule, "face", None) == variant.dice.faces
    }
    return variant.derive(
        f"{key}-d{faces}", reason="Fewer faces, to solve in the bench.",
        dice={"per_player": variant.dice.per_player, "faces": faces}, **highest,
    )  # fmt: skip


def shown(solve: object, variant: perudo.Variant, dice: tuple[int, int]) -> str:
    if max(dice) > variant.dice.per_player:
        return "-"  # the edition deals fewer dice
    try:
        solution = solve(variant, dice)  # type: ignore[operator]
    except SolveError as error:
        return "refused: " + ("comes back to a round" if "come back" in str(error) else "too big")
    if solution.exact:
        return f"{solution.value} ({float(solution.value):+.4f})"
    gap = float(solution.bounds[1] - solution.bounds[0])
    return f"{float(solution.value):+.6f} (within {gap:.0e})"


def section_cfr(key: str, dice: str, faces: int, seconds: float, epsilon: float) -> None:
    """One round approximated by CFR+ in a process of its own (its progress passed on)."""
    done = subprocess.run(
        [sys.executable, "-c", CFR_CHILD, key, dice, str(faces), str(HERE), str(epsilon),
         str(seconds)],
        stdout=subprocess.PIPE, text=True, check=False,
    )  # fmt: skip
    if done.returncode:
        print(f"   {key:22} {dice}: refused or failed (above)", flush=True)
        return
    row = json.loads(done.stdout)
    print(
        f"   {key:22} {dice}: CFR+ value {row['value']:+.5f}, exploitability "
        f"{row['exploitability']:.2e} after {row['iterations']:,} iterations, "
        f"{row['infosets']:,} infosets  cpu {row['cpu']:.0f} s  wall {row['wall']:.0f} s  "
        f"peak {row['peak_mib']:.0f} MiB",
        flush=True,
    )


def section_table(faces: int, sizes: list[tuple[int, int]]) -> None:
    print(f"3. perfect play at {faces} faces (values for seat 0, seat 0 bidding first)\n")
    columns = [f"{a}v{b}" for a, b in sizes]
    print("| edition | " + " | ".join(f"round {c}" for c in columns) + " | "
          + " | ".join(f"game {c}" for c in columns) + " |")  # fmt: skip
    print("|---" * (1 + 2 * len(sizes)) + "|")
    for key in two_player_editions():
        variant = fewer_faces(key, faces)
        rounds = [shown(solve_round, variant, dice) for dice in sizes]
        games = [shown(solve_game, variant, dice) for dice in sizes]
        print(f"| {key} | " + " | ".join(rounds + games) + " |", flush=True)
    print("\nexploitability of the built-in bots, one die each\n")
    print("| edition | random | odds | reader |\n|---|---|---|---|")
    for key in two_player_editions():
        variant = fewer_faces(key, faces)
        try:
            bots = [make_bot(name) for name in ("random", "odds", "reader")]
            gains = [exploitability(bot, variant) for bot in bots]
        except SolveError:
            print(f"| {key} | refused | | |")
            continue
        print(f"| {key} | " + " | ".join(f"{float(g):.4f}" for g in gains) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--epsilon", type=float, default=1e-3)
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: one repeat, CFR+ to 0.05, section 1"
    )
    parser.add_argument("--faces", type=int, default=4, help="faces of sections 2 and 3")
    parser.add_argument(
        "--sizes", default="1,2 2,1", help="section 2's seats' dice (default: '1,2 2,1')"
    )
    parser.add_argument("--game", action="store_true", help="section 2 solves whole games")
    parser.add_argument(
        "--keys", default=None, help="section 2's editions, by key (default: every one)"
    )
    parser.add_argument("--sizes-only", action="store_true", help="section 2 alone")
    parser.add_argument("--limit", type=float, default=3600, help="seconds a round may take")
    parser.add_argument("--table", action="store_true", help="section 3 alone")
    parser.add_argument(
        "--cfr", type=float, default=None, metavar="SECONDS",
        help="section 2 approximates by CFR+ for at most SECONDS a round (to --epsilon)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.table:
        sizes = [(1, 1)] if args.faces > 4 else [(1, 1), (1, 2), (2, 1)]
        section_table(args.faces, sizes)
        return
    keys = args.keys.split(",") if args.keys else None
    if not args.sizes_only:
        epsilon = max(args.epsilon, 0.05) if args.quick else args.epsilon
        section_liars_dice(1 if args.quick else args.repeats, epsilon)
    if not args.quick:
        section_sizes(
            args.faces, args.sizes.split(), args.game, args.limit, keys, args.cfr, args.epsilon
        )


if __name__ == "__main__":
    main()
