"""The table in a browser (issue 16): examples/web_table served on 127.0.0.1, a full game
played in a real headless Chromium (the system's, from Debian's packages), every message a
player received checked for other players' hidden dice, and a screenshot for the docs."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_server import web_table

# The docs' picture is refreshed with PERUDO_WEB_SCREENSHOT=docs/_static/web_table.png pytest ...
SHOT_TO = os.environ.get("PERUDO_WEB_SCREENSHOT")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if CHROMIUM is None:  # .ci/run installs Debian's chromium; a developer may not have it
    pytest.skip("no system Chromium (apt-get install chromium)", allow_module_level=True)


VIEW_KEYS = {
    "player", "variant", "round_number", "starting_dice", "dice", "dice_hidden", "seats", "bids",
    "to_act", "may_call", "special_round", "special_player", "offers", "must_declare", "rules",
    "legal_actions", "last_result", "winners", "acts", "seen",
}  # fmt: skip
SEAT_KEYS = {"name", "dice_count", "score", "pressure_left", "open"}


@pytest.fixture
def server() -> Iterator[str]:
    args = ("--variant", "italian", "--players", "3", "--humans", "1", "--seed", "11")
    with web_table(*args) as port:
        yield f"http://127.0.0.1:{port}/"


def test_a_full_game_in_a_browser_never_shows_another_hand(server: str, tmp_path: Path) -> None:
    shot = Path(SHOT_TO) if SHOT_TO else tmp_path / "table.png"
    args = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
            "--disable-background-networking", "--disable-component-update"]  # fmt: skip
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        try:
            page = browser.new_page(viewport={"width": 900, "height": 700})
            received: list[str] = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda f: received.append(
                f if isinstance(f, str) else f.get("payload", ""))))  # fmt: skip
            page.goto(server)
            page.fill("#text", "9x21")  # a refusal comes back with its reason
            page.wait_for_function("window.perudoMessages && window.perudoMessages.length > 0")
            page.click("button[type=submit]")
            page.wait_for_function("document.getElementById('refusal').textContent !== ''")
            assert "Refused (malformed-action)" in page.inner_text("#refusal")
            for _ in range(400):
                status = page.inner_text("#status")
                if status == "Game over":
                    break
                if status == "Your turn":
                    if not shot.exists() and page.locator("#moves button").count() > 1:
                        page.screenshot(path=str(shot))  # mid-round: bids and moves on show
                    page.locator("#moves button").last.click()  # a call when one is open
                page.wait_for_timeout(60)
            assert page.inner_text("#status") == "Game over"
        finally:
            browser.close()
    assert received
    for text in received:
        data = json.loads(text)
        view, seat = data["view"], data["seat"]
        assert seat == 0
        assert view["player"] == 0
        # the only faces in a message: the player's own hand, and hands a call showed to all
        assert set(view) == VIEW_KEYS
        assert all(set(entry) == SEAT_KEYS for entry in view["seats"])  # counts, not faces
        own = 0 if view["dice_hidden"] else view["seats"][0]["dice_count"]
        assert len(view["dice"]) == own - len(view["seats"][0]["open"])
        for name in ("Player 2", "Player 3"):
            assert name in data["svg"]
        assert data["svg"].count("<circle") <= 6 * 5 + 6 * 5 * 3  # own dice and shown hands
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_bluff_in_a_browser_the_bidder_rerolls_and_everyone_sees_the_dice_out() -> None:
    args = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
    table = ("--variant", "bluff", "--players", "3", "--humans", "1", "--seed", "4")
    with web_table(*table) as port, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            page = browser.new_page(viewport={"width": 900, "height": 700})
            page.goto(f"http://127.0.0.1:{port}/")
            status = "document.getElementById('status').textContent === "
            page.wait_for_function(status + "'Your turn'")
            page.locator("#moves button").first.click()  # the lowest bid
            page.wait_for_function(status + "'Your move'")  # the bots wait for the bidder
            labels = page.locator("#moves button").all_inner_texts()
            assert labels[-1] == "pass"
            assert all(move.startswith("reroll") for move in labels[:-1])
            page.locator("#moves button").first.click()  # put one die out, re-roll four
            out = "window.perudoMessages.find((m) => m.view.seats[0].open.length === 1)"
            page.wait_for_function(f"{out} !== undefined")
            data = page.evaluate(out)
        finally:
            browser.close()
    assert 'class="open"' in data["svg"]
    assert len(data["view"]["dice"]) == 4  # the four dice still under the cup
    assert data["view"]["acts"][0]["act"].startswith("reroll")
