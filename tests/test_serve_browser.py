"""``perudo serve`` in a real browser: Playwright driving the system's Chromium (Debian's
``chromium``, never a download). Two people and a bot play a full game from two pages, one
page is reloaded mid-game and takes its seat back, every message a page received holds
only its own seat's view, and the screenshots the docs show are taken."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from web_server import Server, serving  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:  # .ci/run installs Debian's chromium; a developer may not have it
    pytest.skip("no system Chromium (apt-get install chromium)", allow_module_level=True)

# The docs' pictures are refreshed with PERUDO_WEB_SCREENSHOTS=docs/_static pytest ...
SHOTS = os.environ.get("PERUDO_WEB_SCREENSHOTS")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
        "--disable-background-networking", "--disable-component-update"]  # fmt: skip
VIEW_KEYS = {
    "player", "variant", "round_number", "starting_dice", "dice", "dice_hidden", "seats", "bids",
    "to_act", "may_call", "special_round", "special_player", "offers", "must_declare", "rules",
    "legal_actions", "last_result", "winners", "acts", "seen", "owed",
}  # fmt: skip
SEAT_KEYS = {"name", "dice_count", "score", "pressure_left", "open"}
STATUS = "document.getElementById('status').textContent"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with serving(tmp_path) as running:
        yield running


class Person:
    """A page of its own browser context (its own storage: its own token)."""

    def __init__(self, browser: Any, url: str) -> None:
        self.page = browser.new_context(viewport={"width": 900, "height": 760}).new_page()
        self.frames: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.goto(url)

    def _frame(self, frame: Any) -> None:
        self.frames.append(frame if isinstance(frame, str) else frame.get("payload", ""))

    def sit(self, name: str) -> None:
        self.page.fill("#name", name)
        self.page.click("#join button[type=submit]")
        self.page.wait_for_function(f"{STATUS}.startsWith('You are {name}')")

    @property
    def status(self) -> str:
        return str(self.page.inner_text("#status"))

    def seat(self) -> int:
        return int(self.page.evaluate("window.perudoMessages[0].seat"))


#: Click the last move (a call when one is open) if the page says it is this seat's turn;
#: whether it clicked.
CLICK_LAST_ON_MY_TURN = """() => {
  const buttons = document.querySelectorAll("#moves button");
  if (!document.getElementById("status").textContent.includes("your turn")) return false;
  if (!buttons.length) return false;
  buttons[buttons.length - 1].click();
  return true;
}"""


def _only_own_views(frames: list[str], seat: int) -> None:
    """Every view in ``frames`` is ``seat``'s: its own hand, the others' counts alone."""
    views = [data for data in map(json.loads, frames) if data["type"] == "view"]
    assert views
    for data in views:
        view = data["view"]
        assert data["seat"] == seat
        assert view["player"] == seat
        assert set(view) == VIEW_KEYS
        assert all(set(entry) == SEAT_KEYS for entry in view["seats"])  # counts, not faces
        own = 0 if view["dice_hidden"] else view["seats"][seat]["dice_count"]
        assert len(view["dice"]) == own - len(view["seats"][seat]["open"])
        assert data["svg"].count("<circle") <= 6 * 5 + 6 * 5 * 3  # own dice and shown hands


@pytest.mark.slow
def test_two_people_and_a_bot_play_a_game_and_a_reloaded_page_resumes(
    server: Server, tmp_path: Path
) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            server.table([None, "odds", "odds"], seed=5)  # a table already open in the list
            ana = Person(browser, server.url + "/")
            ana.page.wait_for_selector("#tables tr")
            ana.page.select_option("#variant", "italian")
            ana.page.fill("#people", "2")
            ana.page.fill("#bots", "1")
            ana.page.screenshot(path=str(shots / "web_lobby.png"))
            ana.page.click("#create button[type=submit]")
            ana.page.wait_for_url("**/tables/*")
            table_url = ana.page.url
            ana.sit("Ana")
            ben = Person(browser, table_url)
            ben.sit("Ben")
            people = {ana.seat(): ana, ben.seat(): ben}
            assert set(people) == {0, 1}
            moves, reloaded, shot = 0, False, False
            for _ in range(2000):
                if all(p.status == "Game over" for p in people.values()):
                    break
                for person in people.values():
                    if "your turn" not in person.status:
                        continue
                    buttons = person.page.locator("#moves button")
                    if not shot and buttons.count() > 1:
                        person.page.screenshot(path=str(shots / "web_table.png"))
                        shot = True
                    # The status read and the click in one step of the page's own thread: a
                    # message that arrives between them (the table moved on) cannot leave
                    # the test waiting for a button that is gone.
                    moves += bool(person.page.evaluate(CLICK_LAST_ON_MY_TURN))
                if moves >= 4 and not reloaded:  # mid-game: Ben reloads his page
                    seat = ben.seat()
                    ben.page.reload()
                    ben.page.wait_for_function(f"{STATUS}.startsWith('You are Ben')")
                    assert ben.seat() == seat  # the seat came back by the stored token
                    reloaded = True
                ana.page.wait_for_timeout(40)
            assert all(p.status == "Game over" for p in people.values())
            assert reloaded
            record = ana.page.locator("#record-link")
            assert record.is_visible()
            assert record.get_attribute("href").endswith("/record")
        finally:
            browser.close()
    for seat, person in people.items():
        _only_own_views(person.frames, seat)
    assert (shots / "web_table.png").read_bytes().startswith(b"\x89PNG")
    assert (shots / "web_lobby.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.slow
def test_bluff_in_a_browser_the_bidder_rerolls_and_everyone_sees_the_dice_out(
    server: Server,
) -> None:
    table = server.table([None, "odds", "odds"], seed=4, variant="bluff")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ana = Person(browser, f"{server.url}/tables/{table}")
            ana.sit("Ana")
            page = ana.page
            page.wait_for_function(f"{STATUS}.endsWith('your turn')")
            page.locator("#moves button").first.click()  # the lowest bid
            page.wait_for_function(f"{STATUS}.endsWith('your move')")  # the bots wait for her
            labels = page.locator("#moves button").all_inner_texts()
            assert labels[-1] == "pass"
            assert all(move.startswith("reroll") for move in labels[:-1])
            page.locator("#moves button").first.click()  # put one die out, re-roll four
            out = "window.perudoMessages.find((m) => m.view && m.view.seats[0].open.length === 1)"
            page.wait_for_function(f"{out} !== undefined")
            data = page.evaluate(out)
        finally:
            browser.close()
    assert 'class="open"' in data["svg"]
    assert len(data["view"]["dice"]) == 4  # the four dice still under the cup
    assert data["view"]["acts"][0]["act"].startswith("reroll")
