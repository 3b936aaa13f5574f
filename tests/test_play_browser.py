"""`boardlab play` in a real browser: Debian's chromium, headless, driven by Playwright.

Each game's server is the real command (`boardlab play GAME --port 0`, a subprocess on
127.0.0.1, killed at the end).  A person (the test) plays whole games by clicking highlighted
places on the table, checks that a click on anything else changes nothing, and replays the
move list the page shows in the engine: the result must be the one the page announces.

Screenshots of each game's page go to $BOARDLAB_SCREENSHOTS when it is set (the README's come
from `BOARDLAB_SCREENSHOTS=docs/playtest make test`), else to the test's temporary folder.
Without chromium (or Playwright) the browser tests skip with one line saying why; the test
of the command itself runs anyway.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from boardlab.layouts import game_ids, game_part, load
from boardlab.analysis import engines
from boardlab.analysis.protocol import CHANCE
from boardlab.playtest import chance_outcome, replay

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-proxy-server"]
#: the tests talk to 127.0.0.1 only: never through a proxy the environment may name
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
GAMES = [g for g in game_ids("engine") if hasattr(game_part(g, "print"), "table_art")]
#: seconds to wait for the server's first line (start-up imports numpy, numba...)
START_TIMEOUT = 120


class Server:
    """`boardlab play GAME --port 0` in a subprocess; `url` once it listens."""

    def __init__(self, game: str, agents: str = "person,random"):
        pytest.importorskip("uvicorn")
        self.process = subprocess.Popen([sys.executable, "-m", "boardlab.entry", "play", game, "--port", "0",
                                         "--host", "127.0.0.1", "--agents", agents],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(START_TIMEOUT)
        found = re.search(r"http://127\.0\.0\.1:\d+/", line[0]) if line else None
        if found is None:
            self.stop()
            raise AssertionError(f"boardlab play {game} did not start: {line} {self.process.stderr.read()[-500:]}")
        self.url = found.group(0)

    def get(self, path: str):
        with DIRECT.open(self.url + path.lstrip("/"), timeout=30) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@pytest.fixture(scope="module")
def servers():
    started: dict[str, Server] = {}

    def server(game: str) -> Server:
        if game not in started:
            started[game] = Server(game)
        return started[game]
    try:
        yield server
    finally:
        for s in started.values():
            s.stop()


def browser_missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no browser at {CHROMIUM} (apt-get install chromium; make test does so as root): browser tests skipped"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install playwright; make test does): browser tests skipped"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = browser_missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


def test_the_command_serves_on_127_0_0_1_and_stops(servers):
    for game in GAMES[:1]:
        server = servers(game)
        assert server.get("/api/setup")["game"] == game


def screenshot_folder(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("BOARDLAB_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait_for_turn(page, after: int) -> None:
    """Until the page shows a ply after `after` where a person is to move, or the end."""
    page.wait_for_function(
        f"""() => {{ const b = document.body.dataset;
            return b.busy !== '1' && Number(b.ply) > {after} && (b.waiting === 'person' || b.over === '1'); }}""",
        polling=25, timeout=60_000)


#: what the page shows, read in one round trip
LOOK = """() => ({ply: Number(document.body.dataset.ply), busy: document.body.dataset.busy === '1',
    lit: document.querySelectorAll('#board .hit.legal').length,
    others: document.querySelectorAll('#board .hit:not(.legal):not(.chosen)').length,
    chosen: document.querySelectorAll('#board .hit.chosen').length,
    choices: document.querySelectorAll('#choices button.choice').length,
    error: document.getElementById('error').textContent})"""
#: a click on the i-th element of a selector, dispatched in the page
CLICK = "([selector, i]) => document.querySelectorAll(selector)[i].dispatchEvent(new MouseEvent('click', {bubbles: true}))"


def ply(page) -> int:
    return int(page.evaluate("document.body.dataset.ply"))


def click_a_legal_move(page, rng: random.Random, requests: list, check: bool, real: bool) -> None:
    """Click highlighted places until a move is sent.  With `check`, first click something not
    highlighted and see that nothing changed and nothing was sent; with `real`, click with the
    mouse (else dispatch the click in the page, which is quicker)."""
    look = page.evaluate(LOOK)
    before = look["ply"]
    if check and look["others"]:
        sent = len(requests)
        page.evaluate(CLICK, ["#board .hit:not(.legal):not(.chosen)", rng.randrange(look["others"])])
        after = page.evaluate(LOOK)
        assert len(requests) == sent and after == look, (after, look)
    while True:
        if look["choices"] and (not look["lit"] or rng.random() < 0.5):
            page.locator("#choices button.choice").nth(rng.randrange(look["choices"])).click()
            return
        assert look["lit"], f"a person to move with nothing to click: {look}"
        index = rng.randrange(look["lit"])
        if real:
            page.locator("#board .hit.legal").nth(index).click()
        else:
            page.evaluate(CLICK, ["#board .hit.legal", index])
        look = page.evaluate(LOOK)
        if look["busy"] or look["ply"] != before or look["error"]:
            return


def play_in_page(page, server: Server, seats: list[str], seed: int, rng: random.Random, shots: Path | None,
                 game: str) -> dict:
    requests: list = []
    page.on("request", lambda r: requests.append(r.url) if "/api/games/" in r.url and r.method == "POST" else None)
    page.goto(server.url)
    page.wait_for_selector("#board")
    page.fill("#delay", "0")
    page.fill("#seed", str(seed))
    inputs = page.locator("input.seat")
    for s, name in enumerate(seats):
        inputs.nth(s).fill(name)
    first = page.evaluate("location.hash")
    page.click("#new")
    page.wait_for_function(f"() => document.body.dataset.busy !== '1' && location.hash !== {json.dumps(first)} "
                           f"&& (document.body.dataset.waiting === 'person' || document.body.dataset.over === '1')",
                           timeout=60_000)
    turns = 0
    while page.evaluate("document.body.dataset.over") != "1":
        before = ply(page)
        click_a_legal_move(page, rng, requests, check=turns < 3, real=turns == 0)
        turns += 1
        wait_for_turn(page, before)
        if turns == 3 and shots is not None:  # a few moves in, a person to move: the moves lit
            page.screenshot(path=str(shots / f"{game}.png"))
        assert not page.locator("#error").inner_text()
    texts = page.eval_on_selector_all("#moves li", "items => items.map(li => li.dataset.text)")
    status = page.inner_text("#status")
    game_id = page.evaluate("location.hash.slice(1)")
    return {"texts": texts, "status": status, "id": game_id, "turns": turns}


def replay_texts(game_id: str, players: int, seed: int, texts: list[str]):
    """The engine's game of the move list the page shows (each text names one legal move)."""
    definition = load(game_id)
    game = engines.make_game(definition, players)
    table = game_part(game_id, "print").table_art(definition, game)
    state = game.new_initial_state()
    chances = 0
    for text in texts:
        if state.current_player() == CHANCE:
            state.apply(chance_outcome(state, seed, chances))
            chances += 1
            continue
        matching = [m for m in state.legal_moves() if table.move_text(state, m) == text]
        assert len(matching) == 1, (text, [table.move_text(state, m) for m in state.legal_moves()][:10])
        state.apply(matching[0])
    return state, table


#: the agent each game's person plays against: random, but greedy in Deblockle (the issue's
#: test; two random players there take hundreds of turns)
OPPONENTS = {"deblockle": "greedy"}


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_clicked_in_the_browser(game, browser, servers, tmp_path):
    server = servers(game)
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    seats = ["person", OPPONENTS.get(game, "random")]
    try:
        seed = 3
        out = play_in_page(page, server, seats, seed, random.Random(1), screenshot_folder(tmp_path), game)
    finally:
        page.close()
    assert out["turns"] > 0
    state, table = replay_texts(game, 2, seed, out["texts"])
    assert state.is_terminal()
    # the record the page saves replays to the same end
    record = server.get(f"/api/games/{out['id']}/record")
    assert record["seats"] == seats
    assert [m["text"] for m in record["moves"]] == out["texts"]
    assert record["result"]["winners"] == list(state.winners())
    assert record["result"]["returns"] == list(state.returns())
    assert list(replay(load(game), record).winners()) == list(state.winners())
    names = table.seat_names()
    if state.is_unfinished():
        assert "unfinished" in out["status"]
    for seat in state.winners():
        assert names[seat] in out["status"]


def test_no_browser_means_one_line(monkeypatch):
    """The skip reason is one line naming what is missing."""
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", "/nonexistent/chromium")
    reason = browser_missing()
    assert reason and "\n" not in reason and "/nonexistent/chromium" in reason
