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
#: the attacker's name (a reserved domain) resolves to this computer, as a DNS-rebinding site's would
EVIL = "evil.example"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-proxy-server",
         f"--host-resolver-rules=MAP {EVIL} 127.0.0.1"]
#: the tests talk to 127.0.0.1 only: never through a proxy the environment may name
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
GAMES = [g for g in game_ids("engine") if hasattr(game_part(g, "print"), "table_art")]
#: seconds to wait for the server's first line (start-up imports numpy, numba...)
START_TIMEOUT = 120
#: milliseconds any wait of the page may take (a whole game's turns, a search, the page's reconnection;
#: Playwright's own actions too): waits end as soon as their condition holds, so the bound only tells
#: a hang from a slow turn on a loaded machine (a Deblockle game's waits once passed 60 s under load)
WAIT_MS = 300_000


class Server:
    """`boardlab play GAME --port 0` in a subprocess; `url` once it listens."""

    def __init__(self, game: str, agents: str = "person,random", restore_sigint: bool = False,
                 store: Path | None = None, port: int = 0):
        pytest.importorskip("uvicorn")
        import signal
        import tempfile

        # with `restore_sigint`, Ctrl-C reaches the server even when the tests run as a background job
        start = (lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)) if restore_sigint else None
        if store is None:  # never the project's own store
            store = Path(tempfile.mkdtemp(prefix="boardlab-play-")) / "results.sqlite"
        self.store = store
        self.process = subprocess.Popen([sys.executable, "-m", "boardlab.entry", "play", game, "--port", str(port),
                                         "--host", "127.0.0.1", "--agents", agents, "--store", str(store)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=start)
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(START_TIMEOUT)
        self.line = line[0] if line else ""
        found = re.search(r"http://127\.0\.0\.1:\d+/", self.line)
        if found is None:
            self.stop()
            raise AssertionError(f"boardlab play {game} did not start: {line} {self.process.stderr.read()[-500:]}")
        self.url = found.group(0)

    def get(self, path: str, token: str = ""):
        request = urllib.request.Request(self.url + path.lstrip("/"), headers={"X-Boardlab-Token": token})
        with DIRECT.open(request, timeout=WAIT_MS / 1000) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict, token: str = ""):
        request = urllib.request.Request(self.url + path.lstrip("/"), data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", "X-Boardlab-Token": token})
        with DIRECT.open(request, timeout=WAIT_MS / 1000) as response:
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
            yield Patient(chromium)
        finally:
            chromium.close()


class Patient:
    """The browser, whose pages and contexts wait `WAIT_MS` by default (Playwright's own 30 s
    bound is a wall-clock assumption on a loaded machine)."""

    def __init__(self, chromium):
        self.chromium = chromium

    def new_page(self, **options):
        page = self.chromium.new_page(**options)
        page.set_default_timeout(WAIT_MS)
        return page

    def new_context(self, **options):
        context = self.chromium.new_context(**options)
        context.set_default_timeout(WAIT_MS)
        return context


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
        polling=25, timeout=WAIT_MS)


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
                           timeout=WAIT_MS)
    turns = 0
    while page.evaluate("document.body.dataset.over") != "1":
        before = ply(page)
        click_a_legal_move(page, rng, requests, check=turns < 3, real=turns == 0)
        turns += 1
        wait_for_turn(page, before)
        if turns == 3 and shots is not None:  # a few moves in, a person to move: the moves lit
            page.screenshot(path=str(shots / f"{game}.png"))
        assert not page.locator("#error").inner_text()
    texts = page.eval_on_selector_all("#moves li[data-text]", "items => items.map(li => li.dataset.text)")
    status = page.inner_text("#status")
    game_id, token = page.evaluate("location.hash.slice(1)").split(":")
    return {"texts": texts, "status": status, "id": game_id, "token": token, "turns": turns}


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
    record = server.get(f"/api/games/{out['id']}/record?token={out['token']}")
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


class EvilSite:
    """Another site's page, served from another port of this computer (as a page of any site
    reaches 127.0.0.1 after DNS rebinding, or a local dev server would)."""

    PAGE = b"<!doctype html><html><body><h1>a page of another site</h1></body></html>"

    def __init__(self):
        import http.server
        import socketserver

        page = self.PAGE

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args):
                pass

        self.server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


#: what another site's page sends to the play server: `text/plain` fetches (sent without asking
#: first), then a JSON fetch (the browser asks first with OPTIONS, which the server does not allow)
ATTACK = """async ([base, id, ply]) => {
  const plain = (path, body) => fetch(base + path, {method: "POST", mode: "no-cors",
      headers: {"Content-Type": "text/plain"}, body}).then((r) => r.type, (e) => "failed");
  const out = {opened: await plain("api/games", "{}"),
               moved: await plain(`api/games/${id}/move`, JSON.stringify({ply, index: 0}))};
  out.json = await fetch(base + `api/games/${id}/move`, {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({ply, index: 0})})
      .then((r) => r.status, (e) => "blocked");
  return out;
}"""
#: a form another site's page submits (into a frame, so the page stays)
FORM = """([base, id, ply]) => {
  const frame = document.createElement("iframe");
  frame.name = "sink";
  document.body.appendChild(frame);
  const form = document.createElement("form");
  form.method = "POST"; form.action = base + `api/games/${id}/move`; form.target = "sink";
  form.enctype = "text/plain";
  const field = document.createElement("input");
  field.name = '{"ply": ' + ply + ', "index": 0, "x": "'; field.value = '"}';
  form.appendChild(field);
  document.body.appendChild(form);
  form.submit();
}"""


def test_pages_of_other_sites_cannot_drive_the_server(browser, servers):
    """A page on another origin (another port of 127.0.0.1, and a name resolved to 127.0.0.1)
    cannot open a game or play a move; a page that reaches the server under a foreign name
    (DNS rebinding) gets 421 and no game."""
    server = servers(GAMES[0])
    port = int(server.url.rstrip("/").rsplit(":", 1)[1])
    game = server.post("/api/games", {"seed": 1})
    evil = EvilSite()
    try:
        for origin in (f"http://127.0.0.1:{evil.port}/", f"http://{EVIL}:{evil.port}/"):
            page = browser.new_page()
            answers: list = []
            page.on("response", lambda r: answers.append((r.request.method, r.url.replace(server.url, "/"), r.status))
                    if r.url.startswith(server.url) else None)
            try:
                page.goto(origin)
                out = page.evaluate(ATTACK, [server.url, game["id"], game["ply"]])
                with page.expect_response(lambda r: r.request.resource_type == "document" and "/move" in r.url):
                    page.evaluate(FORM, [server.url, game["id"], game["ply"]])
            finally:
                page.close()
            # the server saw the requests that need no asking and refused them; the JSON one never left
            posts = [(path, status) for method, path, status in answers if method == "POST"]
            assert ("/api/games", 403) in posts, (origin, posts)
            assert posts.count((f"/api/games/{game['id']}/move", 403)) == 2, (origin, posts)  # the fetch, the form
            assert all(status in (403, 415) for _, status in posts), posts
            assert out["json"] == "blocked" and out["opened"] == out["moved"] == "opaque", out
        assert server.get(f"/api/games/{game['id']}", game["token"])["ply"] == game["ply"]
        # DNS rebinding: evil.example now resolves to the server itself
        page = browser.new_page()
        try:
            answer = page.goto(f"http://{EVIL}:{port}/")
            assert answer.status == 421 and "--allow-host" in page.content()
            status = page.evaluate("""() => fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: "{}"}).then((r) => r.status)""")
            assert status == 421
        finally:
            page.close()
    finally:
        evil.close()


def test_ctrl_c_stops_the_server_with_one_line(tmp_path):
    """Ctrl-C with a malformed request received, a connection left half-open and an agent thinking:
    the one line of every stopped command, status 130, nothing from the web server."""
    import signal
    import socket

    pytest.importorskip("uvicorn")
    server = Server("deblockle", agents="mcts-200000,random", restore_sigint=True)
    try:
        port = int(server.url.rstrip("/").rsplit(":", 1)[1])
        junk = socket.create_connection(("127.0.0.1", port))
        junk.sendall(b"\x16\x03\x01 not http\r\n\r\n")
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        game = server.post("/api/games", {})
        thinking = threading.Thread(target=lambda: _ignore(server.post, f"/api/games/{game['id']}/step",
                                                           {"ply": game["ply"]}, game["token"]), daemon=True)
        thinking.start()
        thinking.join(1.0)
        assert thinking.is_alive()  # mcts-200000 is still thinking
        server.process.send_signal(signal.SIGINT)
        assert server.process.wait(30) == 130
        err = server.process.stderr.read()
        assert err == "boardlab: interrupted\n", err
        junk.close()
        half.close()
    finally:
        server.stop()


def _ignore(call, *args):
    try:
        call(*args)
    except OSError:
        pass


HAND = "() => [...document.querySelectorAll('#board .hit')].map((n) => n.dataset.key).filter((k) => k.startsWith('hand-')).sort()"
ARTS = "() => [...document.querySelectorAll('#board image')].map((n) => n.getAttribute('href').slice(5, -4)).sort()"


def test_two_browsers_on_two_seats_each_see_only_their_own_hand(browser, servers):
    """Links, both seats played by hand: the host hands out the join links, two browser contexts
    (two people) open them; each page shows its own hand face up and the other's backs, only the
    mover's page can play, and the other page sees the move arrive."""
    server = servers("links")
    game = server.post("/api/games", {"seed": 4, "seats": ["person", "person"]})
    tokens = [seat["token"] for seat in game["seats"]]
    views = [server.get(f"/api/games/{game['id']}", t) for t in tokens]
    contexts = [browser.new_context(viewport={"width": 1000, "height": 800}) for _ in tokens]
    try:
        pages = [context.new_page() for context in contexts]
        for page, t in zip(pages, tokens):
            page.goto(f"{server.url}#{game['id']}:{t}")
            page.wait_for_selector("#board")
        for s, (page, view) in enumerate(zip(pages, views)):
            keys = sorted(i["key"] for i in view["view"]["items"] if i.get("key", "").startswith("hand-"))
            assert keys and page.evaluate(HAND) == keys
            arts = sorted(i["art"] for i in view["view"]["items"] if "art" in i)
            assert page.evaluate(ARTS) == arts
            other = views[1 - s]["view"]["items"]
            their_faces = {i["art"] for i in other if i.get("key", "").startswith("hand-")} - {i["art"] for i in view["view"]["items"] if "art" in i}
            assert not their_faces & set(page.evaluate(ARTS))
            assert f"You play" in page.inner_text("#lobby")
        mover = views[0]["mover"]
        waiting = pages[1 - mover]
        assert waiting.locator("#board .hit.legal").count() == 0 and "on their own page" in waiting.inner_text("#status")
        before = views[0]["ply"]
        pages[mover].locator("#board .hit.legal").first.click()
        while pages[mover].locator("#choices button.choice").count() or pages[mover].evaluate("document.body.dataset.ply") == str(before):
            if pages[mover].locator("#choices button.choice").count():
                pages[mover].locator("#choices button.choice").first.click()
            elif pages[mover].locator("#board .hit.legal").count():
                pages[mover].locator("#board .hit.legal").first.click()
            pages[mover].wait_for_timeout(100)
        # the other page learns of the move by itself (it asks every 1.5 s)
        waiting.wait_for_function(f"() => Number(document.body.dataset.ply) > {before}", timeout=WAIT_MS)
        # the host's page: both seats joined and connected
        host = browser.new_page()
        try:
            host.goto(f"{server.url}#{game['id']}:{game['token']}")
            host.wait_for_selector("#lobby li.connected")
            assert host.locator("#lobby li.connected").count() == 2
            assert host.evaluate(HAND) == []
        finally:
            host.close()
    finally:
        for context in contexts:
            context.close()


def test_hot_seat_hides_the_table_until_the_next_player_takes_it(browser, servers):
    server = servers("links")
    game = server.post("/api/games", {"seed": 5, "seats": ["person", "person"]})
    page = browser.new_page()
    try:
        page.goto(f"{server.url}#{game['id']}:{game['token']}")
        page.wait_for_selector("#handover:not([hidden])")
        assert page.evaluate("getComputedStyle(document.getElementById('table')).visibility") == "hidden"
        first = game["seats"][game["mover"]]["name"]
        assert first in page.inner_text("#handover")
        page.click("#handover-go")
        assert page.evaluate("getComputedStyle(document.getElementById('table')).visibility") == "visible"
        before = int(page.evaluate("document.body.dataset.ply"))
        page.locator("#legal button").first.dispatch_event("click")
        page.wait_for_function(f"() => Number(document.body.dataset.ply) > {before}")
        page.wait_for_selector("#handover:not([hidden])")
        second = [s["name"] for s in game["seats"] if s["name"] != first][0]
        assert second in page.inner_text("#handover")
    finally:
        page.close()


def test_a_restarted_server_resumes_the_game_and_the_page_reconnects(browser, tmp_path):
    """The page says in words that the server is gone, and when a server starts again on the same
    port and store it goes on with the same game where it stood."""
    import socket

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    store = tmp_path / "results.sqlite"
    server = Server("deblockle", agents="person,greedy", store=store, port=port)
    page = browser.new_page()
    try:
        page.goto(server.url)
        page.wait_for_function("() => document.body.dataset.waiting === 'person' && document.body.dataset.busy !== '1'")
        before = int(page.evaluate("document.body.dataset.ply"))
        page.locator("#legal button").first.dispatch_event("click")
        wait_for_turn(page, before)
        shown = page.evaluate("[document.body.dataset.ply, location.hash, document.getElementById('moves').innerText]")
        server.stop()
        page.wait_for_selector("#offline:not([hidden])", timeout=WAIT_MS)
        assert "not answering" in page.inner_text("#offline") and "Failed to fetch" not in page.inner_text("body")
        server = Server("deblockle", agents="person,greedy", store=store, port=port)
        assert "1 game resumed" in server.line
        page.wait_for_selector("#offline", state="hidden", timeout=WAIT_MS)
        again = page.evaluate("[document.body.dataset.ply, location.hash, document.getElementById('moves').innerText]")
        assert again == shown
        page.reload()
        page.wait_for_selector("#board")
        assert page.evaluate("[document.body.dataset.ply, location.hash, document.getElementById('moves').innerText]") == shown
    finally:
        page.close()
        server.stop()


#: elements wider than the viewport, or reaching past its right edge
TOO_WIDE = """() => { const w = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')].filter((n) => { const r = n.getBoundingClientRect();
    return r.width > 0 && (r.right > w + 0.5 || r.width > w + 0.5); })
    .map((n) => n.tagName + '#' + n.id + '.' + (n.getAttribute('class') || '') + ' ' + Math.round(n.getBoundingClientRect().right)); }"""


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_screen_holds_the_whole_page(game, browser, servers, tmp_path):
    """At 390 x 844 (a phone) no element is wider than the screen or reaches past it; the board
    comes first, the panel below it."""
    server = servers(game)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(server.url)
        page.wait_for_function("() => document.body.dataset.waiting === 'person' && document.body.dataset.busy !== '1'")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.evaluate(TOO_WIDE) == []
        # every label of the table at least 10 px high on the screen (drawn in mm, scaled down)
        heights = page.evaluate("() => { const svg = document.querySelector('#board'); "
                                "const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; "
                                "return [...svg.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')) * scale); }")
        assert not heights or min(heights) >= 10, sorted(heights)[:5]
        board = page.locator("#table svg").bounding_box()
        panel = page.locator("aside").bounding_box()
        assert board["width"] >= 300 and panel["y"] >= board["y"] + board["height"] - 1
        page.screenshot(path=str(screenshot_folder(tmp_path) / f"{game}-phone.png"), full_page=True)
    finally:
        context.close()


def test_a_whole_game_with_the_keyboard_alone(browser, servers):
    """Tab to a playable place, Enter: the page plays whole games with no mouse; after each move
    the focus is back on the board, and the status (an aria-live region) says the last move."""
    server = servers("blockd")
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    try:
        page.goto(server.url)
        page.wait_for_selector("#board")
        page.fill("#delay", "0")
        page.focus("#new")
        page.keyboard.press("Enter")
        wait_for_turn(page, 0)
        turns = 0
        while page.evaluate("document.body.dataset.over") != "1":
            before = ply(page)
            for _ in range(400):  # Tab until the focus is on something that plays
                if page.evaluate("() => { const a = document.activeElement; return !!a && "
                                 "((a.classList.contains('legal') && !a.classList.contains('chosen')) || a.classList.contains('choice')); }"):
                    break
                page.keyboard.press("Tab")
            else:
                raise AssertionError("Tab never reached a playable place")
            if turns:  # after the first move the focus was put back on the board by the page
                assert tabbed == 0, tabbed
            page.keyboard.press("Enter")
            page.wait_for_function(f"() => document.body.dataset.busy !== '1' && (Number(document.body.dataset.ply) > {before} "
                                   "|| document.activeElement.matches('.legal:not(.chosen), .choice'))")
            if ply(page) == before:
                continue  # a move of several clicks: the next one
            wait_for_turn(page, before)
            turns += 1
            tabbed = 0 if page.evaluate("() => { const a = document.activeElement; return !!a && "
                                        "(a.matches('.legal:not(.chosen), .choice') || "
                                        "document.body.dataset.over === '1'); }") else 1
            assert page.get_attribute("#status", "aria-live") == "polite"
            if page.evaluate("document.body.dataset.over") != "1":
                assert " played " in page.inner_text("#status")
        assert turns > 3 and "Game over" in page.inner_text("#status")
    finally:
        page.close()


def test_the_ais_view_toggled_with_the_keyboard_and_read_in_spanish(browser, servers):
    """The hint's toggle (a button with aria-pressed, reached and pressed with the keyboard) shows,
    for the position on the board, each legal move's win chance and visits: the table's visits add
    up to the agent's iterations and match the server's rating, the agent's choice first; after the
    game the review lists the moves that lost most.  The page asked for Spanish (?lang=es)."""
    server = servers("blockd")
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    try:
        page.goto(server.url + "?lang=es")
        page.wait_for_selector("#board")
        page.fill("#delay", "0")
        page.wait_for_function("document.body.dataset.waiting === 'person'", timeout=WAIT_MS)
        toggle = "#hint-toggle"
        assert page.inner_text(toggle) == "Ver la opinión de la IA" and page.get_attribute(toggle, "aria-pressed") == "false"
        assert page.is_hidden("#hint")
        page.focus(toggle)
        page.keyboard.press("Enter")
        page.wait_for_function("document.body.dataset.hint === 'shown'", timeout=WAIT_MS)
        assert page.get_attribute(toggle, "aria-pressed") == "true" and page.inner_text(toggle) == "Ocultar la opinión de la IA"
        assert page.get_attribute("#hintbox", "lang") == "es"
        rows = page.evaluate("""() => [...document.querySelectorAll('#hint-table tbody tr')].map((r) => ({
            index: Number(r.dataset.index), visits: Number(r.dataset.visits), best: r.classList.contains('best'),
            cells: [...r.cells].map((c) => c.textContent.replace(/\\s/g, ' '))}))""")
        game_id, token = page.evaluate("location.hash.slice(1)").split(":")
        rating = server.get(f"/api/games/{game_id}/hint", token)
        assert sum(r["visits"] for r in rows) == rating["visits"] == sum(m["visits"] for m in rating["moves"])
        assert sorted(r["index"] for r in rows) == list(range(len(rating["moves"])))
        assert [r["visits"] for r in rows] == sorted((r["visits"] for r in rows), reverse=True)
        assert rows[0]["best"] and rows[0]["index"] == rating["best"]
        for row in rows:
            move = rating["moves"][row["index"]]
            assert row["visits"] == move["visits"] and row["cells"][0].startswith(move["text"])
            if move["win"] is not None:
                assert row["cells"][1] == f"{round(move['win'] * 100)} %"
        assert page.inner_text("#hint-win") == "Probabilidad de ganar"
        assert f"{rating['visits']} de {rating['budget']} iteraciones" in page.inner_text("#hint-status")
        assert rating["agent"] in page.inner_text("#hint-agent")
        while page.evaluate("document.body.dataset.over") != "1":  # play on, the hint on: the first listed move
            before = ply(page)
            page.evaluate("document.querySelector('#legal button').click()")
            wait_for_turn(page, before)
        page.wait_for_function("document.body.dataset.hint === 'shown'", timeout=WAIT_MS)
        review = server.get(f"/api/games/{game_id}/review", token)
        assert page.inner_text("#hint-title") == "Dónde tus jugadas perdieron más frente a la IA"
        assert f"{review['rated']} de {review['total']} jugadas a mano valoradas por {review['agent']}" in page.inner_text("#hint-status")
        listed = page.evaluate("[...document.querySelectorAll('#review li')].map((li) => li.textContent)")
        assert len(listed) == len(review["moves"]) + len(review["untried"])
        for line, move in zip(listed, review["moves"]):
            assert move["played_text"] in line and move["best_text"] in line and line.startswith("Jugada ")
    finally:
        page.close()


def test_a_new_game_asked_for_while_a_step_is_out_drops_the_old_reply(browser):
    """"New game" clicked while an agent's step of the old game is still on its way: the step's
    reply, when it comes, is dropped (the page stays on the new game, which plays on to its end),
    and the old game is not stepped again.  The step is held by the test until the new game shows."""
    server = Server(GAMES[0], agents="random,random")
    page = browser.new_page()
    held: list = []
    page.route("**/api/games/*/step", lambda route: held.append(route) if not held else route.continue_())
    try:
        page.goto(server.url)
        for _ in range(WAIT_MS // 25):  # ends as soon as the first game's first step is out
            if held:
                break
            page.wait_for_timeout(25)
        assert held, "the page never stepped its agents' game"
        old_id, old_token = page.evaluate("location.hash.slice(1)").split(":")
        asked = held[0].request.post_data_json["ply"]
        page.fill("#delay", "0")
        page.click("#new")
        page.wait_for_function(f"() => location.hash.length > 1 && !location.hash.startsWith('#{old_id}:')")
        new_id = page.evaluate("location.hash.slice(1)").split(":")[0]
        held[0].continue_()
        page.wait_for_function("() => document.body.dataset.over === '1' && document.body.dataset.busy !== '1'",
                               polling=25)
        assert page.evaluate("location.hash.slice(1)").split(":")[0] == new_id
        old = server.get(f"/api/games/{old_id}", token=old_token)
        assert old["ply"] == asked + 1 and not old["over"]  # the held step alone moved it
        assert server.get(f"/api/games/{new_id}", token=page.evaluate("location.hash.slice(1)").split(":")[1])["over"]
    finally:
        page.close()
        server.stop()
