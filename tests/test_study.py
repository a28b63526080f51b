"""perudo study (issue 15): every edition at every table size, a report with honest
statistics, written whole or not at all."""

from __future__ import annotations

import csv
import io
import json
import platform
import shlex
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

import perudo
from perudo import GameSetupError
from perudo.cli import main
from perudo.study import parse_tables, run_study, write_report


def test_a_study_measures_every_cell_on_the_same_seeds(tmp_path: Path) -> None:
    study = run_study(["italian", "openspiel-liars-dice"], (2, 3), 20, seed=4)
    assert [(c.variant, c.players) for c in study.cells] == [
        ("italian", 2), ("italian", 3), ("openspiel-liars-dice", 2),
    ]  # fmt: skip
    cell = study.cell("italian", 3)
    assert cell is not None
    assert cell.play.games == cell.skill.games == 20
    assert cell.skill.bots == ("reader", "odds", "reader")
    first = cell.play.first_player_interval
    assert first.low <= first.estimate <= first.high
    assert 0.0 <= cell.skill_share.estimate <= 1.0
    assert sum(n for _, n in cell.play.rounds_histogram) == 20
    liars = study.cell("openspiel-liars-dice", 2)
    assert liars is not None
    assert liars.play.rounds_interval.estimate == 1.0
    report = write_report(study, tmp_path / "out")
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert files == ["differences.csv", "report.html", "study.csv", "study.json"]
    data = json.loads((tmp_path / "out" / "study.json").read_text("utf-8"))
    assert len(data["cells"]) == 3
    rows = list(csv.DictReader((tmp_path / "out" / "study.csv").open(encoding="utf-8")))
    assert rows[0]["edition"] == "italian"
    for measure in (
        "first_player_win_share",
        "first_player_advantage",
        "balance",
        "decisiveness",
        "rounds_per_game",
        "skill_share",
        "challenge_per_game",
    ):
        low, value, high = (float(rows[0][measure + end]) for end in ("_low", "", "_high"))
        assert low <= value <= high, measure  # every figure with its interval
    (pair,) = data["differences"]  # italian against liars dice at 2 players, game by game
    assert (pair["a"], pair["b"], pair["players"]) == ("italian", "openspiel-liars-dice", 2)
    assert set(pair["game_length"]) == {"estimate", "low", "high", "significant"}
    page = report.read_text("utf-8")
    assert "<table>" in page
    assert "95% confidence interval" in page
    assert "http" not in page.split("<body>")[1]  # self-contained: no external resource
    if find_spec("matplotlib"):  # the plot extra (in the dev install): one chart a figure
        assert page.count("data:image/png;base64,") == 5
    else:  # without it: no chart, and the page names the extra
        assert "data:image/png" not in page
        assert "perudo[plot]" in page


def test_without_matplotlib_the_report_says_how_to_get_charts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    study = run_study(["wango"], (2,), 5)
    page = write_report(study, tmp_path).read_text("utf-8")
    assert "data:image" not in page
    assert "pip install &#x27;.[plot]&#x27; in a checkout" in page  # as installed (issue 18)
    assert ".whl[plot]&#x27; from a wheel" in page


def test_table_sizes_read_as_sizes_ranges_and_lists() -> None:
    assert parse_tables("2-6") == (2, 3, 4, 5, 6)
    assert parse_tables("2,4,6") == (2, 4, 6)
    for bad in ("7-3", "1", "x", "2-30", "4-"):
        with pytest.raises(GameSetupError):
            parse_tables(bad)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["klingon"], "unknown edition 'klingon'"),
        (["wango", "--players", "7"], "no edition of the study is played at those table"),
        (["wango", "--workers", "0"], "--workers: 0 is not from 1"),
        (["wango", "--bots", "genius"], "unknown bot 'genius'"),
        (
            ["wango", "--scheduler", "tcp://127.0.0.1:9"],
            "no Dask scheduler answers" if find_spec("distributed") else "perudo[dask]",
        ),
        (["wango", "--players", "2-x"], "is not a size, a range or a list"),
        (["wango", "--players", "6-2"], "the range 6-2 runs backwards (write 2-6)"),
    ],
)
@pytest.mark.slow
def test_bad_input_is_one_line_and_writes_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "perudo", "study", *args, "--games", "5", "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr
    assert not out.exists()


def test_the_command_writes_the_report(tmp_path: Path) -> None:
    out = io.StringIO()
    argv = [
        "study",
        "italian",
        "spanish",
        "--players",
        "3",
        "--games",
        "10",
        "--out",
        str(tmp_path),
    ]
    argv[-1] = str(tmp_path / "report")
    assert main(argv, out=out) == 0
    assert "2 cells, 40 games" in out.getvalue()
    assert (tmp_path / "report" / "report.html").exists()


def test_an_existing_folder_is_refused_before_any_game_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["study", "italian", "--players", "3", "--games", "4", "--out", str(tmp_path)]
    assert main(argv, out=io.StringIO()) == 2
    assert "exists already" in capsys.readouterr().err
    assert not (tmp_path / "report.html").exists()
    assert main([*argv, "--force"], out=io.StringIO()) == 0
    assert (tmp_path / "report.html").exists()


@pytest.mark.slow
def test_the_report_records_what_its_numbers_depend_on_and_its_command_reruns_them(
    tmp_path: Path,
) -> None:
    argv = ["study", "italian", "--players", "3", "--games", "12", "--seed", "9",
            "--engine", "reference", "--out", str(tmp_path / "first")]  # fmt: skip
    assert main(argv, out=io.StringIO()) == 0
    first = json.loads((tmp_path / "first" / "study.json").read_text("utf-8"))
    run = first["run"]
    assert run["perudo"] == perudo.__version__
    assert run["python"] == platform.python_version()
    assert run["engine"] == "reference"
    assert run["engines"] == ["reference"]
    assert run["command"] == shlex.join(["perudo", *argv])
    again = shlex.split(run["command"])[1:]
    again[again.index("--out") + 1] = str(tmp_path / "again")
    assert main(again, out=io.StringIO()) == 0
    second = json.loads((tmp_path / "again" / "study.json").read_text("utf-8"))
    assert second["cells"] == first["cells"]  # the same numbers
    html = (tmp_path / "first" / "report.html").read_text("utf-8")
    assert "the games played on reference" in html
    assert "Run again: <code>perudo study italian" in html
    assert "engine" in (tmp_path / "first" / "study.csv").read_text("utf-8").splitlines()[0]
    # The CSV read alone says which perudo made it (regression: only the JSON and HTML did).
    rows = list(csv.DictReader((tmp_path / "first" / "study.csv").open(encoding="utf-8")))
    assert {row["perudo"] for row in rows} == {perudo.__version__}


def test_editions_are_compared_game_by_game_at_each_table_size() -> None:
    """A paired difference for each pair of editions at each table size, the first named
    less the second: it is the difference of the cells' own figures, with an interval
    from the games' differences."""
    study = run_study(["italian", "spanish", "wango"], (2, 3), 60, seed=2)
    found = study.differences()
    assert [(d.a, d.b, d.players) for d in found] == [
        ("italian", "spanish", 2), ("italian", "wango", 2), ("spanish", "wango", 2),
        ("italian", "spanish", 3), ("italian", "wango", 3), ("spanish", "wango", 3),
    ]  # fmt: skip
    first = found[3]
    a, b = study.cell("italian", 3), study.cell("spanish", 3)
    assert a is not None
    assert b is not None
    measures = dict(first.measures)
    assert measures["game_length"].interval.estimate == pytest.approx(
        a.play.mean_rounds - b.play.mean_rounds
    )
    assert measures["skill_share"].interval.estimate == pytest.approx(
        a.skill_share.estimate - b.skill_share.estimate
    )
    assert measures["first_player_advantage"].interval.estimate == pytest.approx(
        a.play.first_player_advantage.estimate - b.play.first_player_advantage.estimate
    )
    assert not run_study(["italian"], (2,), 5).differences()  # one edition: nothing to pair
