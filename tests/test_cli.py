"""The ``perudo`` command as a shell runs it: validated counts, pipes, Ctrl-C (issue 13)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import LOSE_THE_DIFFERENCE

import perudo

PERUDO = [sys.executable, "-m", "perudo"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PERUDO, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--workers", "0"], "--workers: 0 is not from 1 to 256"),
        (["simulate", "--games", str(10**11)], "--games: 100000000000 is not from 1 to"),
        (["simulate", "--games", "-1"], "--games: -1 is not from 1"),
        (["simulate", "--games", "0"], "--games: 0 is not from 1"),
        (["simulate", "--players", "-3"], "--players: -3 is not from 2 to 20"),
        (["play", "--players", "1"], "--players: 1 is not from 2 to 20"),
        (["simulate", "--seed", "abc"], "--seed: 'abc' is not a whole number"),
        (["simulate", "--seed", "1" * 5000], "is too large: from -9223372036854775808 to"),
        (["simulate", "--seed", "-" + "1" * 30], "is too small: from -9223372036854775808 to"),
        (["simulate", "--games", "9" * 23], "--games: '" + "9" * 23 + "' is too large: from 1 to"),
        (["simulate", "--games", "1x"], "--games: '1x' is not a whole number"),
        (["simulate", "--players", "12", "--games", "1"], "played by 2 to 10 players, not 12"),
        (["simulate", "--bots", "odds,odds,odds,odds,odds"], "5 bots named for 4 players"),
        (["simulate", "--bots", "genius"], "unknown bot 'genius'"),
        (["simulate", "--variant", "spanish", "--compare", "italian", "wango"], "give one"),
        (["demo", "--players", "1"], "--players: 1 is not from 2 to 20"),
        (["demo", "--variant", "klingon"], "unknown edition 'klingon'"),
        (["rules", "my house"], "nor a declaration file (a path ending in .toml)"),
        (["rules", "/dev/zero"], "not a regular file"),
        (["compare", "italian"], "two edition keys"),
    ],
)
def test_bad_arguments_say_one_line_and_exit_2(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stdout == ""


def test_version() -> None:
    done = run("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"perudo {perudo.__version__}"


def test_a_closed_pipe_ends_quietly() -> None:
    process = subprocess.Popen(
        [*PERUDO, "demo", "--seed", "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    _, err = process.communicate(timeout=60)
    assert process.returncode in (0, 141)
    assert b"Traceback" not in err
    assert err == b""


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_cleanly(workers: str) -> None:
    process = subprocess.Popen(
        [*PERUDO, "simulate", "--games", "100000000", "--workers", workers],  # past 2 s
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    time.sleep(2)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends: every process of the group
    # On a first run the batch engine may be compiling a step (up to 20 s idle, more on a
    # busy machine): the Ctrl-C is held until it is compiled, never lost (regression).
    out, err = process.communicate(timeout=240)
    assert process.returncode == 130
    assert err.decode().strip() == "perudo: interrupted"
    assert out == b""


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(child) for child in text]
    return found


def _gone(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{pid}").exists() for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads Linux's /proc")
@pytest.mark.parametrize("sent", ["SIGTERM", "SIGKILL"])
def test_simulate_stopped_by_a_signal_leaves_no_worker_behind(sent: str) -> None:
    """Regression: SIGTERM (what timeout, systemd and job schedulers send) to the parent
    alone ended it and left its workers waiting for ever; a SIGKILL did too."""
    process = subprocess.Popen(
        [*PERUDO, "simulate", "--games", "100000000", "--workers", "2", "--engine", "reference"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while len(workers := _children(process.pid)) < 2:  # the pool under way
        assert time.monotonic() < deadline, "no workers started"
        time.sleep(0.1)
    time.sleep(0.5)
    os.kill(process.pid, getattr(signal, sent))  # the parent alone, not its group
    _, err = process.communicate(timeout=30)
    if sent == "SIGTERM":
        assert process.returncode == 143
        assert err.decode().strip() == "perudo: terminated"
    assert _gone(workers, within=10), workers


def _five_faces(folder: Path) -> Path:
    """A declaration whose 1v2 round spends a minute and more in HiGHS."""
    path = folder / "five.toml"
    path.write_text(
        'extends = "openspiel-liars-dice"\nkey = "five"\n'
        '[dice]\nkind = "standard"\nper_player = 2\nfaces = 5\nprovenance = "reading"\n'
        'reason = "a test"\n[wilds]\nkind = "face"\nface = 5\nprovenance = "reading"\n'
        'reason = "a test"\n'
    )
    return path


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads Linux's /proc")
@pytest.mark.parametrize(("sent", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_solve_stops_at_once_while_highs_works(tmp_path: Path, sent: str, status: int) -> None:
    """Regression: Ctrl-C reached ``perudo solve`` only once HiGHS returned (150 s later,
    measured); SIGTERM ended it without a word."""
    pytest.importorskip("scipy", reason="the solve extra is not installed")
    process = subprocess.Popen(
        [*PERUDO, "solve", str(_five_faces(tmp_path)), "--dice", "1,2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while True:  # HiGHS under way: its thread named
        names = []
        for task in Path(f"/proc/{process.pid}/task").glob("*/comm"):
            with contextlib.suppress(OSError):
                names.append(task.read_text().strip())
        if "perudo-highs" in names:
            break
        assert process.poll() is None, "the solve ended before HiGHS began"
        assert time.monotonic() < deadline, "HiGHS did not start"
        time.sleep(0.05)
    time.sleep(1.0)
    sent_at = time.monotonic()
    os.kill(process.pid, getattr(signal, sent))
    _, err = process.communicate(timeout=60)
    assert time.monotonic() - sent_at < 10  # not when HiGHS returns, a minute on
    assert process.returncode == status
    *progress, last = err.decode().strip().splitlines()
    assert last in ("perudo: interrupted", "perudo: terminated")
    assert all(line.startswith("perudo solve: ") for line in progress)  # what it was doing


@pytest.mark.parametrize("highs", [True, False])
def test_an_interrupted_solve_that_ran_highs_ends_without_cpp_destructors(highs: bool) -> None:
    """Regression (CI, 3 in 30 interrupts): a Ctrl-C just as HiGHS's thread ended let the
    normal exit run C++ destructors beside that thread's own, and the C++ runtime aborted
    the process (SIGABRT, "terminate called without an active exception")."""
    pytest.importorskip("scipy", reason="the solve extra is not installed")
    script = (
        "import atexit, sys\n"
        "from perudo import cli\n"
        "from perudo.solve import lp\n"
        "atexit.register(lambda: print('finalized', flush=True))\n"
        f"if {highs}:\n"
        "    lp.interruptible(lambda: None)\n"
        "print('solved', flush=True)\n"
        "sys.exit(cli._status_past_highs(130))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 130, done.stderr
    assert done.stdout.split() == (["solved"] if highs else ["solved", "finalized"])


def test_simulate_names_the_calls_in_each_editions_words() -> None:
    # regression (issue 18): the report said "calza" for French Jonti's Jonti
    import io

    from perudo.cli import main

    out = io.StringIO()
    assert main(["simulate", "--variant", "french-jonti", "--games", "20"], out=out) == 0
    labels = [line[:34].rstrip() for line in out.getvalue().splitlines()]
    assert "calls per game: Jonti" in labels
    assert "calls per game: Perudo" in labels
    assert not any("calza" in label.lower() for label in labels)
    out = io.StringIO()
    main(["simulate", "--compare", "italian", "spanish", "--games", "20"], out=out)
    assert "calls per game: Dubito/Dudo" in out.getvalue()


def test_a_missing_extra_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import perudo.cli

    def needs_extra(*args: object) -> None:
        raise ImportError("running on a Dask cluster needs the extra: pip install 'perudo[dask]'")

    monkeypatch.setattr(perudo.cli, "_command", needs_extra)
    assert perudo.cli.main(["variants"]) == 2
    assert capsys.readouterr().err == (
        "perudo: running on a Dask cluster needs the extra: pip install 'perudo[dask]'\n"
    )

    def broken(*args: object) -> None:
        raise ImportError("cannot import name 'x'")  # a bug, not a missing extra: not hidden

    monkeypatch.setattr(perudo.cli, "_command", broken)
    with pytest.raises(ImportError, match="cannot import name"):
        perudo.cli.main(["variants"])


def test_install_hints_work_from_a_checkout_and_from_a_wheel() -> None:
    # issue 18: perudo is installed from where it is, so 'perudo[x]' alone would not work
    from perudo.cluster import dask_executor
    from perudo.errors import install_hint

    hint = install_hint("dask")
    assert "pip install '.[dask]' in a checkout" in hint
    assert "pip install 'PATH/TO/perudo-VERSION-py3-none-any.whl[dask]' from a wheel" in hint
    try:
        import distributed  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match=r"'\.\[dask\]' in a checkout"):
            dask_executor("tcp://127.0.0.1:9")


@pytest.mark.slow
def test_a_plugin_registers_kinds_a_declaration_names(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    declaration = tmp_path / "lose.toml"
    declaration.write_text(LOSE_THE_DIFFERENCE, encoding="utf-8")
    without = run("rules", str(declaration))
    assert without.returncode == 2
    assert "lose-the-difference" in without.stderr  # the kind is unknown until its module runs
    plugin = str(examples / "lose_the_difference.py")
    done = run("--plugin", plugin, "rules", str(declaration))
    assert done.returncode == 0, done.stderr
    assert "as many dice as the bid was wrong by" in done.stdout
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no')\n")
    failed = run("--plugin", str(broken), "rules", "italian")
    assert failed.returncode == 2
    assert "did not load: RuntimeError" in failed.stderr
    missing = run("--plugin", "no_such_plugin_module", "rules", "italian")
    assert missing.returncode == 2
    assert "ModuleNotFoundError" in missing.stderr


@pytest.mark.slow
def test_rules_warns_of_a_setting_that_cannot_apply(tmp_path: Path) -> None:
    path = tmp_path / "plain.toml"
    path.write_text(
        'extends = "italian"\nkey = "italian-plain"\n[wilds]\nkind = "none"\n'
        'provenance = "reading"\nreason = "No wilds."\n'
    )
    done = run("rules", str(path))
    assert done.returncode == 0, done.stderr
    assert "conversion prices nothing" in done.stderr
    assert "No face is wild" in done.stdout.split("\n\n")[1]  # the summary is made anew
    assert "Ones are wild" not in done.stdout.split("\n\n")[1]
    assert run("rules", "italian").stderr == ""


def test_a_kind_no_plugin_registered_says_how_to_load_its_plugin(tmp_path: Path) -> None:
    declaration = tmp_path / "kinds.toml"
    declaration.write_text(
        'extends = "wango"\nkey = "kinds"\nname = "Kinds"\nsource = "house"\nlanguage = "en"\n'
        'summary = "A test."\n\n[challenge]\nkind = "no-such-kind"\nprovenance = "reading"\n'
        'reason = "Test."\n'
    )
    done = subprocess.run([*PERUDO, "rules", str(declaration)], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "[challenge] kind: 'no-such-kind' is not one of: dudo" in done.stderr
    assert "or --plugin MODULE on the command line)" in done.stderr
