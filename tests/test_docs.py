"""Every code block in the docs and the README runs: no plain Python fences."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

ROOT = Path(__file__).parent.parent
# The pages written by hand: never what a docs build left under docs/_build (the count of
# collected tests must not change after a build).
PAGES = [
    ROOT / "README.md",
    *sorted(
        page
        for page in (ROOT / "docs").rglob("*.md")
        if not any(part.startswith("_") for part in page.relative_to(ROOT / "docs").parts)
    ),
]
RUNNABLE = {
    "{doctest}", "{testcode}", "{testoutput}", "{literalinclude}", "{toctree}", "{eval-rst}",
    "{glossary}", "{include}",
}  # fmt: skip


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_code_blocks_are_doctests(page: Path) -> None:
    for fence in re.findall(r"^```(\S*)", page.read_text(encoding="utf-8"), flags=re.MULTILINE):
        if page.name == "README.md":
            assert fence in ("", "pycon", "sh"), fence  # pycon runs under pytest; sh in .ci/run
        else:
            assert fence == "" or fence in RUNNABLE, f"{page}: ```{fence} does not run"


def test_readme_commands_are_the_ones_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "perudo demo --variant italian --players 4 --seed 7" in readme
    assert 'perudo" demo --variant italian --players 4 --seed 7' in ci
    assert "pip install -e '.[test]' && .venv/bin/pytest -n 2" in readme
    assert "light/bin/pip\" install -q -e '.[test]'" in ci  # the README's, and its cost
    assert 'light/bin/pytest" -q -p no:cacheprovider -n 2' in ci
    assert '"$bin/pytest" -n 2' in ci  # the same with every extra
    assert "pip\" install -q -e '.[dev]' -c .ci/constraints.txt" in ci


def test_the_licence_file_matches_the_project_metadata() -> None:
    import tomllib

    licence = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["license"]
    assert licence == "MIT"
    assert (ROOT / "LICENSE").read_text("utf-8").startswith("MIT License\n")


def how_to_files() -> list[tuple[str, str]]:
    """The rule-kind how-to's whole files (its kind, its action, its claims) and what each
    prints."""
    page = (ROOT / "docs" / "howto" / "rule-kind.md").read_text(encoding="utf-8")
    codes = re.findall(r"```\{testcode\}\n(.*?)```", page, flags=re.DOTALL)
    outputs = re.findall(r"```\{testoutput\}\n(.*?)```", page, flags=re.DOTALL)
    assert len(codes) == len(outputs) == 3  # the kind ("lose the difference"), the action,
    # the claims (even quantities)
    return list(zip(codes, outputs, strict=True))


@pytest.mark.parametrize("index", [0, 1, 2], ids=["kind", "action", "claims"])
def test_the_files_of_the_rule_kind_how_to_run_from_an_empty_folder(
    tmp_path: Path, index: int
) -> None:
    """Each of the how-to's files is whole: copied into a folder with nothing beside it, it
    runs against the installed perudo and prints what the page says (CI runs them against
    the wheel, too)."""
    import subprocess
    import sys

    code, output = how_to_files()[index]
    (tmp_path / "house.py").write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "house.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == output


def test_the_house_rules_page_declares_the_example_file_word_for_word() -> None:
    """The page holds its declaration whole (it runs outside a checkout); the example file
    beside the scripts is the same text."""
    page = (ROOT / "docs" / "howto" / "house-rules.md").read_text(encoding="utf-8")
    block = page.split(".write_text('''\\\n", 1)[1].split("... ''',", 1)[0]
    text = "".join(line[4:] + "\n" if line != "..." else "\n" for line in block.splitlines())
    assert text == (ROOT / "examples" / "house_rule.toml").read_text(encoding="utf-8")


def test_every_time_the_docs_state_is_one_bench_claims_measures() -> None:
    """Issue 43: a time a page states ("about two seconds") says on what, and
    ``bench/claims.py`` measures it; the sentence it reads the number from is still there
    (the bench stops otherwise), and reads as a time."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("claims", ROOT / "bench" / "claims.py")
    assert spec is not None
    assert spec.loader is not None
    claims = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(claims)
    assert len(claims.CLAIMS) >= 8
    for claim in claims.CLAIMS:
        assert 0 < claim.stated() < 3600, claim
    said = {claim.page for claim in claims.CLAIMS}
    assert {"docs/howto/solve.md", "docs/howto/openspiel.md", "docs/howto/compare.md"} <= said
    gone = attrs.evolve(claims.CLAIMS[0], said=r"about (\w+) (fortnights)")
    with pytest.raises(LookupError, match="no longer says"):
        gone.stated()


def test_every_error_links_the_how_to_that_handles_it() -> None:
    """Issue 43: each error of :mod:`perudo.errors` names the page that says what to do
    about it, and the page is there."""
    import perudo.errors

    errors = [
        value
        for value in vars(perudo.errors).values()
        if isinstance(value, type)
        and issubclass(value, perudo.errors.PerudoError)
        and value is not perudo.errors.PerudoError
    ]
    assert len(errors) == 10
    for error in errors:
        pages = re.findall(r":doc:`(/[\w/.-]+)`", error.__doc__ or "")
        assert "How-to:" in (error.__doc__ or ""), error
        assert pages, error
        for page in pages:
            assert (ROOT / "docs" / f"{page[1:]}.md").exists() or page.startswith(
                "/editions/generated/"
            ), (error, page)


def test_the_friends_page_commands_are_the_command_lines_of_today() -> None:
    """Issue 43: the "Host a game for friends" page's commands parse as ``perudo`` takes
    them, and its limits are the server's."""
    import shlex

    from perudo.cli import _parser

    pytest.importorskip("starlette", reason="the web extra is not installed")
    from perudo.web.limits import Limits

    page = (ROOT / "docs" / "howto" / "friends.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\n(.*?)```", page, flags=re.DOTALL)
    lines = [
        shlex.split(line)[1:]
        for block in blocks
        for line in block.replace("\\\n", " ").splitlines()
        if line.startswith(".venv/bin/perudo ")
    ]
    assert [args[0] for args in lines] == ["serve", "serve", "replay", "replay"]
    for args in lines:
        parsed = _parser().parse_args(args)
        if parsed.command == "serve":
            Limits.parse(parsed.limit)  # each NAME=VALUE a limit the server has
    assert "--allowed-host" in lines[1]
