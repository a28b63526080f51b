"""``perudo serve`` in a real browser: Playwright driving the system's Chromium (Debian's
``chromium``, never a download). Two people and a bot play a full game from two pages, one
page is reloaded mid-game and takes its seat back, every message a page received holds
only its own seat's view, and the screenshots the docs show are taken."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from web_server import Server  # noqa: E402

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


#: On this seat's turn (the page says so), one move by the picker: every third turn a call
#: where one is offered (the first: Dudo or the edition's word), else the Bid button with
#: what the picker chose (the lowest legal quantity of a face); whether it clicked. The
#: status read and the click are one step of the page's own thread: a message that
#: arrives between them (the table moved on) cannot leave the test waiting for a button
#: that is gone.
PLAY_BY_PICKER = """(turn) => {
  if (!document.getElementById("status").textContent.includes("your turn")) return false;
  const call = document.querySelector("#calls button");
  if (call && turn % 3 === 2) { call.click(); return true; }
  const bid = document.getElementById("bid");
  if (!bid.disabled && bid.offsetParent !== null) { bid.click(); return true; }
  if (call) { call.click(); return true; }
  return false;
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


def _play(people: dict[int, Person], until: str, on_move: Any = None) -> int:
    """Click moves on every page whose turn it is until each page's status is ``until``;
    ``on_move(moves)`` after each round of clicks. The moves clicked."""
    moves = 0
    first = next(iter(people.values()))
    for _ in range(3000):
        if all(p.status == until for p in people.values()):
            return moves
        for person in people.values():
            moves += bool(person.page.evaluate(PLAY_BY_PICKER, moves))
        if on_move is not None:
            on_move(moves)
        first.page.wait_for_timeout(40)
    raise AssertionError(f"the game did not end: {[p.status for p in people.values()]}")


@pytest.mark.slow
def test_two_people_and_a_bot_play_by_the_picker_through_a_reload_a_restart_and_a_rematch(
    server: Server, tmp_path: Path
) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            server.table([None, "odds", "odds"], seed=5)  # a table already open in the list
            ana = Person(browser, server.url + "/")
            ana.page.wait_for_selector("#tables tr")
            # the lobby lists editions by name, a seed edition first
            assert ana.page.eval_on_selector("#variant", "s => s.value") == "italian"
            assert "Italian Palifico" in ana.page.inner_text("#variant")
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
            events = {"reloaded": False, "restarted": False, "shot": False}

            def interrupt(moves: int) -> None:
                picker = ana.page.locator("#picker")
                if not events["shot"] and picker.is_visible():
                    ana.page.screenshot(path=str(shots / "web_table.png"))
                    events["shot"] = True
                if moves >= 4 and not events["reloaded"]:  # mid-game: Ben reloads his page
                    seat = ben.seat()
                    ben.page.reload()
                    ben.page.wait_for_function(f"{STATUS}.startsWith('You are Ben')")
                    assert ben.seat() == seat  # the seat came back by the stored token
                    events["reloaded"] = True
                if moves >= 10 and not events["restarted"]:  # the server dies and comes back
                    logged = ana.page.locator("#log li").count()
                    heard = ana.page.evaluate("window.perudoMessages.length")
                    server.kill()
                    ana.page.wait_for_function(f"{STATUS}.startsWith('Disconnected')")
                    server.start()
                    for person in people.values():  # each page reconnects by itself
                        person.page.wait_for_function(
                            f"{STATUS}.startsWith('You are')", timeout=30_000
                        )
                    # the log came back whole with the first message after reconnecting
                    whole = ana.page.evaluate(
                        f"window.perudoMessages.slice({heard}).filter((m) => m.log_start === 0)"
                        ".map((m) => m.log.length)"
                    )
                    assert whole
                    assert whole[-1] >= logged
                    assert ana.page.locator("#log li").count() >= logged
                    events["restarted"] = True

            _play(people, "Game over", interrupt)
            assert all(events.values()), events
            # the log kept every move: the first round's opening, each showdown, the end
            lines = ana.page.locator("#log li").all_inner_texts()
            assert lines[0].startswith("Round 1:")
            assert any("loses a die" in line for line in lines)
            assert lines[-1].endswith(" wins.")
            end = ana.page.locator("#end")
            assert end.is_visible()
            assert len(ana.page.locator("#places li").all_inner_texts()) == 3
            record = ana.page.locator("#record-link")
            assert record.get_attribute("href").endswith("/record")
            ana.page.screenshot(path=str(shots / "web_end.png"))
            # the rematch: the same seats, each page taken to the new table with its seat
            ana.page.click("#rematch")
            for person in people.values():
                person.page.wait_for_url(lambda url: url != table_url and "/tables/" in url)
            for seat, person in people.items():
                name = "Ana" if person is ana else "Ben"
                person.page.wait_for_function(f"{STATUS}.startsWith('You are {name}')")
                assert person.seat() == seat
            _play(people, "Game over")
        finally:
            browser.close()
    for seat, person in people.items():
        _only_own_views(person.frames, seat)
    for shot in ("web_table.png", "web_lobby.png", "web_end.png"):
        assert (shots / shot).read_bytes().startswith(b"\x89PNG")


@pytest.mark.slow
def test_the_picker_on_a_phone_by_keyboard_alone(server: Server, tmp_path: Path) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    table = server.table([None, "odds"], seed=8)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            page.goto(f"{server.url}/tables/{table}")
            page.fill("#name", "Ana")
            page.keyboard.press("Enter")
            page.wait_for_function(f"{STATUS}.endsWith('your turn')", timeout=20_000)
            # nothing wider than the phone
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.screenshot(path=str(shots / "web_phone.png"), full_page=True)
            # every face a radio with an accessible name saying from what quantity it is bid
            radios = page.get_by_role("radio")
            assert radios.count() == 6
            assert "from" in (radios.first.get_attribute("aria-label") or "")
            assert page.get_by_role("button", name="Bid").is_enabled()
            # by keyboard alone: the face chosen, the next face, a larger quantity, Bid
            page.focus("#faces input:checked")
            face = int(page.eval_on_selector("#faces input:checked", "e => e.value"))
            page.keyboard.press("ArrowRight")
            chosen = int(page.eval_on_selector("#faces input:checked", "e => e.value"))
            assert chosen != face
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.id") == "quantity"
            lowest = int(page.eval_on_selector("#quantity", "e => e.value"))
            page.keyboard.press("ArrowDown")
            quantity = int(page.eval_on_selector("#quantity", "e => e.value"))
            assert quantity == lowest + 1
            while page.evaluate("document.activeElement.id") != "bid":
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
            page.wait_for_function(
                "window.perudoMessages.some((m) => m.view && m.view.bids.some("
                f"(b) => b.bid === '{quantity}x{chosen}'))"
            )
            # a refused choice says why on hover: a quantity under the lowest legal one
            page.wait_for_function(f"{STATUS}.endsWith('your turn')", timeout=20_000)
            titles = page.eval_on_selector_all(
                "#quantity option:disabled", "o => o.map(e => e.title)"
            )
            assert titles
            assert all(titles)
            calls = page.locator("#calls button")
            assert calls.count() >= 1
            described = calls.first.get_attribute("aria-describedby")
            assert page.inner_text(f"#{described}").startswith("Dubito:")
        finally:
            browser.close()
    assert (shots / "web_phone.png").read_bytes().startswith(b"\x89PNG")


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
            page.click("#bid")  # the lowest bid of the face the picker chose
            page.wait_for_function(f"{STATUS}.endsWith('your move')")  # the bots wait for her
            labels = [b.lower() for b in page.locator("#calls button").all_inner_texts()]
            assert labels[-1] == "pass"
            assert all(move.startswith("reroll") for move in labels[:-1])
            page.locator("#calls button").first.click()  # put one die out, re-roll four
            out = "window.perudoMessages.find((m) => m.view && m.view.seats[0].open.length === 1)"
            page.wait_for_function(f"{out} !== undefined")
            data = page.evaluate(out)
        finally:
            browser.close()
    assert 'class="open"' in data["svg"]
    assert len(data["view"]["dice"]) == 4  # the four dice still under the cup
    assert data["view"]["acts"][0]["act"].startswith("reroll")
