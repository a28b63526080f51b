"""The editions matrix page fits a 1280 px screen (issue 18): built with the docs' theme and
measured in Debian's Chromium, driven by Playwright."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

import perudo

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
sphinx_cmd = pytest.importorskip("sphinx.cmd.build", reason="sphinx is not installed (dev extra)")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if CHROMIUM is None:  # .ci/run installs Debian's chromium; a developer may not have it
    pytest.skip("no system Chromium (apt-get install chromium)", allow_module_level=True)

DOCS = Path(__file__).parent.parent / "docs"


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")  # Sphinx and MyST deprecation notices
def test_the_editions_matrix_fits_a_1280_px_screen(tmp_path: Path) -> None:
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from perudo_editions import matrix_page
    finally:
        sys.path.pop(0)
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        'extensions = ["myst_parser"]\nhtml_theme = "furo"\nroot_doc = "matrix"\n',
        encoding="utf-8",
    )
    (source / "matrix.md").write_text(matrix_page(), encoding="utf-8")
    out = tmp_path / "html"
    assert sphinx_cmd.build_main(["-q", "-b", "html", str(source), str(out)]) == 0
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto((out / "matrix.html").as_uri())
            widths, whole = page.evaluate(
                "() => [[...document.querySelectorAll('table')].map("
                "t => [t.scrollWidth, t.parentElement.clientWidth]),"
                " document.documentElement.scrollWidth]"
            )
        finally:
            browser.close()
    assert len(widths) == -(-len(perudo.variant_names()) // 7)  # every edition is in one
    for table, room in widths:
        assert table <= room, f"a table of the matrix is {table} px wide in a column of {room} px"
    assert whole <= 1280
