"""`boardlab play`'s JSON API (Starlette's TestClient, no network): every game played to its end by
hand against an agent, the record it saves replayed in the engine, and every kind of bad request
refused with a 4xx and one line."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from boardlab.analysis.runner import GameRecord  # noqa: E402
from boardlab.analysis.store import ResultStore, decode_record  # noqa: E402
from boardlab.cli import main  # noqa: E402
from boardlab.layouts import game_ids, game_part, load  # noqa: E402
from boardlab.play_server import MAX_BODY, TOKEN_HEADER, make_app  # noqa: E402
from boardlab.playtest import file_in_store, replay  # noqa: E402

GAMES = [g for g in game_ids("engine") if hasattr(game_part(g, "print"), "table_art")]


class HostClient(TestClient):
    """The page that starts games: each game's requests carry the host token its start returned
    (unless the test gives a token of its own)."""

    def __init__(self, app, **options):
        super().__init__(app, **options)
        self.tokens: dict[str, str] = {}

    def request(self, method, url, *args, **kwargs):
        parts = str(url).split("/")
        headers = dict(kwargs.pop("headers", None) or {})
        if len(parts) > 3 and parts[1:3] == ["api", "games"] and parts[3] in self.tokens:
            headers.setdefault(TOKEN_HEADER, self.tokens[parts[3]])
        response = super().request(method, url, *args, headers=headers, **kwargs)
        if method.upper() == "POST" and str(url) == "/api/games" and response.status_code == 201:
            self.tokens[response.json()["id"]] = response.json()["token"]
        return response


def client(game: str, seats=("person", "random"), **options) -> HostClient:
    """A client of the app as its own page reaches it (Host 127.0.0.1; every POST sends JSON)."""
    definition = load(game)
    c = HostClient(make_app(definition, definition.game.min_players, seats, **options), base_url="http://127.0.0.1")
    c.headers["Content-Type"] = "application/json"
    return c


def keyed(view: dict) -> set[str]:
    return {item["key"] for item in view["items"] if "key" in item}


def play_out(c: TestClient, game_json: dict, rng: random.Random, check=None) -> dict:
    """Play a game to its end: a random legal move for the person, a step for an agent."""
    g = game_json
    while not g["over"]:
        if g["moves"]:
            if check is not None:
                check(g)
            m = g["moves"][rng.randrange(len(g["moves"]))]
            r = c.post(f"/api/games/{g['id']}/move", json={"ply": g["ply"], "index": m["index"]})
        else:
            r = c.post(f"/api/games/{g['id']}/step", json={"ply": g["ply"]})
        assert r.status_code == 200, r.text
        assert r.json()["ply"] > g["ply"]
        g = r.json()
    return g


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_by_hand_replays_to_the_same_result(game, tmp_path, capsys):
    definition = load(game)
    c = client(game)
    art = set()

    def check(g):
        # every click path starts and goes on at things the table draws as clickable
        keys = keyed(g["view"])
        for m in g["moves"]:
            assert m["targets"] and set(m["targets"]) <= keys, (m, sorted(keys))
        # moves sharing a click path are told apart by their text (the page asks which)
        paths = Counter((tuple(m["targets"]), m["text"]) for m in g["moves"])
        assert max(paths.values()) == 1
        art.update(i["art"] for i in g["view"]["items"] if "art" in i)

    start = c.post("/api/games", json={"seed": 7})
    assert start.status_code == 201
    end = play_out(c, start.json(), random.Random(2), check)
    for name in art | {i["art"] for i in end["view"]["items"] if "art" in i}:
        r = c.get(f"/art/{name}.svg")
        assert r.status_code == 200 and r.text.lstrip().startswith("<svg") and r.headers["content-type"].startswith("image/svg")
    record = c.get(f"/api/games/{end['id']}/record").json()
    # the engine, from the record alone, reaches the same end
    state = replay(definition, record)
    assert state.is_terminal()
    assert list(state.winners()) == end["result"]["winners"] == record["result"]["winners"]
    assert list(state.returns()) == end["result"]["returns"]
    assert state.length() == end["result"]["length"]
    assert len(record["moves"]) == len(end["history"]) == end["ply"]
    assert [m["text"] for m in record["moves"]] == [h["text"] for h in end["history"]]
    # the results store reads it: its GameRecord is the engine's
    expected = GameRecord(0, 0, 0, ("person", "random"), tuple(state.winners()), state.is_unfinished(),
                          state.length(), state.stats())
    assert decode_record(0, json.dumps(record["record"])) == expected
    with ResultStore(tmp_path / "results.sqlite") as store:
        config = file_in_store(store, definition, record)
        assert store.records(config, 1) == [expected]
    # `boardlab moves` reads the record: the moves where the last move was played, that move among them
    if definition.game.id in game_ids("moves"):
        path = tmp_path / "record.json"
        path.write_text(json.dumps(record))
        capsys.readouterr()
        assert main(["moves", game, str(path)]) == 0
        listed = json.loads(capsys.readouterr().out)["moves"]
        last = [m for m in record["moves"] if "seat" in m][-1]
        assert last["move"] in listed


@pytest.mark.parametrize("game", [g for g in GAMES if g in game_ids("moves")])
def test_the_offered_moves_are_those_boardlab_moves_lists(game):
    """At every turn by hand, the moves offered (their JSON forms) are exactly what the position
    reader lists for the position the record gives (an independent path through the engine)."""
    definition = load(game)
    lister = game_part(game, "moves")
    c = client(game)
    g = c.post("/api/games", json={"seed": 11}).json()
    rng = random.Random(5)
    turns = 0
    while not g["over"] and turns < 12:
        if g["moves"]:
            position = c.get(f"/api/games/{g['id']}/record").json()["position"]
            offered = sorted(json.dumps(m["move"], sort_keys=True) for m in g["moves"])
            listed = sorted(json.dumps(m, sort_keys=True) for m in lister.moves(definition, position))
            assert sorted(set(offered)) == listed
            turns += 1
            m = g["moves"][rng.randrange(len(g["moves"]))]
            g = c.post(f"/api/games/{g['id']}/move", json={"ply": g["ply"], "index": m["index"]}).json()
        else:
            g = c.post(f"/api/games/{g['id']}/step", json={"ply": g["ply"]}).json()
    assert turns


def test_deblockle_by_hand_against_greedy_replays():
    game = "deblockle"
    c = client(game, ("person", "greedy"))
    end = play_out(c, c.post("/api/games", json={"seed": 3}).json(), random.Random(9))
    record = c.get(f"/api/games/{end['id']}/record").json()
    assert record["seats"] == ["person", "greedy"]
    assert all("seconds" in h for h in end["history"] if h.get("seat") == 1)  # the agent's thinking time
    assert list(replay(load(game), record).winners()) == end["result"]["winners"]


def test_hidden_hands_stay_hidden():
    """A seat played by hand sees its own hand face up and only backs of the other hands; the
    spectator of two agents sees every hand."""
    game = "links"
    c = client(game)
    g = c.post("/api/games", json={"seed": 4}).json()
    session, _ = c.app.state.games.get(g["id"])
    table = session.table
    view = g["view"]
    arts = Counter(i["art"] for i in view["items"] if "art" in i)
    mine = Counter(table.names[k] for k in session.state.hands[0])
    theirs = len(session.state.hands[1])
    assert arts["back"] == theirs + 1  # the other hand and the deck
    keyed_hand = Counter(i["art"] for i in view["items"] if i.get("key", "").startswith("hand-"))
    assert keyed_hand == mine
    watched = client(game, ("random", "random")).post("/api/games", json={"seed": 4}).json()
    assert Counter(i["art"] for i in watched["view"]["items"] if "art" in i)["back"] == 1  # the deck only


def test_undo_takes_back_the_persons_move_and_the_reply():
    game = GAMES[0]
    c = client(game)
    g = c.post("/api/games", json={"seed": 5}).json()
    first = g
    m = g["moves"][0]
    after = c.post(f"/api/games/{g['id']}/move", json={"ply": g["ply"], "index": m["index"]}).json()
    replied = c.post(f"/api/games/{g['id']}/step", json={"ply": after["ply"]}).json()
    undone = c.post(f"/api/games/{g['id']}/undo").json()
    assert undone["ply"] == first["ply"] and undone["moves"] == first["moves"] and undone["view"] == first["view"]
    again = c.post(f"/api/games/{g['id']}/move", json={"ply": undone["ply"], "index": m["index"]}).json()
    again = c.post(f"/api/games/{g['id']}/step", json={"ply": again["ply"]}).json()
    assert [h["text"] for h in again["history"]] == [h["text"] for h in replied["history"]]


def test_watching_agents_step_by_step():
    game = GAMES[0]
    c = client(game, ("random", "random"))
    g = c.post("/api/games", json={"seed": 8}).json()
    assert g["viewer"] is None and g["moves"] == []
    steps = 0
    while not g["over"]:
        before = g["ply"]
        g = c.post(f"/api/games/{g['id']}/step", json={"ply": g["ply"]}).json()
        assert g["ply"] >= before + 1
        steps += 1
    assert steps == sum(1 for h in g["history"] if "seat" in h)
    assert all(h["seconds"] >= 0 for h in g["history"] if "seat" in h)


def test_same_seed_same_game():
    game = GAMES[0]
    c = client(game, ("random", "random"))
    ends = []
    for _ in range(2):
        ends.append(play_out(c, c.post("/api/games", json={"seed": 21}).json(), random.Random(0))["history"])
    assert [h["text"] for h in ends[0]] == [h["text"] for h in ends[1]]


def one_line_error(r, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    reason = r.json()["error"]
    assert reason and "\n" not in reason and "Traceback" not in reason
    return reason


@pytest.mark.parametrize("game", GAMES)
def test_bad_requests_get_a_4xx_and_one_line(game):
    c = client(game)
    g = c.post("/api/games", json={"seed": 1}).json()
    gid, ply = g["id"], g["ply"]
    move = f"/api/games/{gid}/move"
    n = len(g["moves"])
    assert n
    one_line_error(c.get("/api/games/nosuchgame"), 404)
    one_line_error(c.post("/api/games/nosuchgame/move", json={"index": 0}), 404)
    one_line_error(c.get("/art/nosuchpiece.svg"), 404)
    one_line_error(c.post(move, content=b"{not json"), 400)
    one_line_error(c.post(move, content=b"\xff\xfe"), 400)
    one_line_error(c.post(move, json=[0]), 400)
    one_line_error(c.post(move, json={"index": "0"}), 400)
    one_line_error(c.post(move, json={"index": True}), 400)
    one_line_error(c.post(move, json={"index": 0.0}), 400)
    one_line_error(c.post(move, json={"index": 0, "cheat": 1}), 400)
    one_line_error(c.post(move, json={}), 400)
    assert "legal" in one_line_error(c.post(move, json={"ply": ply, "index": n}), 409)
    one_line_error(c.post(move, json={"ply": ply, "index": -1}), 409)
    one_line_error(c.post(move, json={"ply": ply, "index": 10 ** 30}), 409)
    assert "changed" in one_line_error(c.post(move, json={"ply": ply + 1, "index": 0}), 409)
    one_line_error(c.post(f"/api/games/{gid}/step", json={"ply": ply}), 409)  # a person is to move
    one_line_error(c.post(f"/api/games/{gid}/undo"), 409)  # nothing to take back
    one_line_error(c.post(move, content=b'{"index": 0, "pad": "' + b"x" * MAX_BODY + b'"}'), 413)
    one_line_error(c.post(move, content=iter([b'{"index": 0, "pad": "', b"x" * MAX_BODY, b'"}'])), 413)
    # nothing above changed the game
    assert c.get(f"/api/games/{gid}").json() == g
    one_line_error(c.post("/api/games", json={"seats": ["person", "nosuchagent"]}), 400)
    one_line_error(c.post("/api/games", json={"seats": ["person"] * 9}), 400)
    one_line_error(c.post("/api/games", json={"seats": [1, 2]}), 400)
    one_line_error(c.post("/api/games", json={"players": 99}), 400)
    one_line_error(c.post("/api/games", json={"seed": -1}), 400)
    one_line_error(c.post("/api/games", json={"seed": "x"}), 400)
    # a finished game takes no move
    end = play_out(c, c.post("/api/games", json={"seed": 2}).json(), random.Random(1))
    one_line_error(c.post(f"/api/games/{end['id']}/move", json={"index": 0}), 409)
    one_line_error(c.post(f"/api/games/{end['id']}/step"), 409)


def test_games_beyond_the_limit_drop_the_least_recently_used(monkeypatch):
    import boardlab.play_server as play_server

    monkeypatch.setattr(play_server, "CONNECTED_SECONDS", -1.0)  # nobody at any game: all may go
    c = client(GAMES[0], limit=2)
    a = c.post("/api/games").json()["id"]
    b = c.post("/api/games").json()["id"]
    assert c.get(f"/api/games/{a}").status_code == 200  # a is now the most recent
    c.post("/api/games")
    assert c.get(f"/api/games/{b}").status_code == 404
    assert c.get(f"/api/games/{a}").status_code == 200
    assert len(c.app.state.games) == 2


def test_the_page_and_its_script_are_served():
    c = client(GAMES[0])
    page = c.get("/")
    assert page.status_code == 200 and '<script src="/play.js">' in page.text
    script = c.get("/play.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    setup = c.get("/api/setup").json()
    assert setup["game"] == GAMES[0] and "random" in setup["agents"] and "person" in setup["agents"]


def test_play_command_bad_input_is_one_line_and_status_2(capsys):
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        for argv, words in ((["play", "nosuchgame"], "unknown game"),
                            (["play", GAMES[0], "--agents", "person,nosuchagent"], "unknown agent"),
                            (["play", GAMES[0], "--players", "99"], "player"),
                            (["play", GAMES[0], "--allow-host", "evil.example/x"], "not a host name"),
                            (["play", GAMES[0], "--port", "70000"], "65,535"),
                            (["play", GAMES[0], "--port", str(taken.getsockname()[1])], "cannot listen")):
            with pytest.raises(SystemExit) if words == "65,535" else _nothing():
                assert main(argv) == 2
            err = capsys.readouterr().err
            assert len(err.strip().splitlines()) == 1 and words in err, (argv, err)
    finally:
        taken.close()


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_foreign_host_header_is_refused_whatever_it_asks():
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends Host:
    evil.example; the server answers 421 to every request of it and nothing happens."""
    c = client(GAMES[0])
    g = c.post("/api/games", json={"seed": 1}).json()
    games = len(c.app.state.games)
    for host in ("evil.example", "evil.example:8765", "127.0.0.1.evil.example", "localhost.evil.example", ""):
        headers = {"Host": host}
        for r in (c.get("/", headers=headers), c.get("/api/setup", headers=headers),
                  c.get(f"/api/games/{g['id']}", headers=headers),
                  c.post("/api/games", json={"seed": 2}, headers=headers),
                  c.post(f"/api/games/{g['id']}/move", json={"ply": g["ply"], "index": 0}, headers=headers)):
            reason = one_line_error(r, 421)
            assert "--allow-host" in reason
    assert len(c.app.state.games) == games and c.get(f"/api/games/{g['id']}").json() == g
    # the served address and the loopback names pass, any port
    for host in ("127.0.0.1", "127.0.0.1:8765", "localhost:8765", "[::1]:8765"):
        assert c.get("/api/setup", headers={"Host": host}).status_code == 200, host
    # a name the designer allows passes; the served address still does
    named = client(GAMES[0], allow_hosts=("table.lan",))
    assert named.get("/api/setup", headers={"Host": "Table.LAN:8765"}).status_code == 200
    assert named.get("/api/setup", headers={"Host": "other.lan"}).status_code == 421
    # served on every address: any address passes (an address cannot be rebound), a name does not
    definition = load(GAMES[0])
    wide = TestClient(make_app(definition, definition.game.min_players, served="0.0.0.0"),
                      base_url="http://192.168.1.20:8765")
    assert wide.get("/api/setup").status_code == 200
    assert wide.get("/api/setup", headers={"Host": "evil.example"}).status_code == 421


def test_a_post_from_another_site_or_not_json_changes_nothing():
    """What a page of another origin can send without asking first (a form, a `text/plain`
    fetch) is refused, and so is any POST that names another origin or site."""
    c = client(GAMES[0])
    g = c.post("/api/games", json={"seed": 1}).json()
    move = f"/api/games/{g['id']}/move"
    body = json.dumps({"ply": g["ply"], "index": 0})
    games = len(c.app.state.games)
    attempts = [
        ({"Content-Type": "text/plain", "Origin": "http://evil.example"}, 403),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415),
        ({"Content-Type": ""}, 415),
        ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403),
        ({"Content-Type": "application/json", "Origin": "http://127.0.0.1:9999"}, 403),  # another port
        ({"Content-Type": "application/json", "Origin": "null"}, 403),
        ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403),
        ({"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}, 403),
    ]
    for headers, status in attempts:
        for path, content in ((move, body), ("/api/games", "{}"), (f"/api/games/{g['id']}/undo", "{}")):
            one_line_error(c.post(path, content=content, headers=headers), status)
    assert len(c.app.state.games) == games and c.get(f"/api/games/{g['id']}").json() == g
    # the page's own requests: same origin, JSON
    ok = c.post(move, content=body, headers={"Origin": "http://127.0.0.1", "Sec-Fetch-Site": "same-origin",
                                             "Content-Type": "application/json; charset=utf-8"})
    assert ok.status_code == 200 and ok.json()["ply"] > g["ply"]


def faces(view: dict) -> Counter:
    return Counter(i["art"] for i in view["items"] if "art" in i)


def test_each_seat_page_sees_its_own_hand_and_moves_only_for_its_seat():
    """Links with two seats played by hand: the join link of each seat (its token) shows that
    seat's hand face up and the other's backs, and moves only for that seat; the host's page,
    once both seats have joined, shows no hand face up and moves for nobody."""
    c = client("links", ("person", "person"))
    g = c.post("/api/games", json={"seed": 4}).json()
    session, _ = c.app.state.games.get(g["id"])
    names = c.app.state.games.tables.table(session.game).names
    tokens = [seat["token"] for seat in g["seats"]]
    assert g["role"] == "host" and g["hides"] and len(set(tokens + [g["token"]])) == 3
    assert all(len(t) >= 24 for t in tokens)  # 18 random bytes, URL-safe
    path = f"/api/games/{g['id']}"
    pages = [c.get(path, headers={TOKEN_HEADER: t}).json() for t in tokens]
    for s, page in enumerate(pages):
        hand = Counter(names[k] for k in session.state.hands[s])
        other = len(session.state.hands[1 - s])
        assert page["role"] == "seat" and page["seat"] == s and page["viewer"] == s
        assert Counter(i["art"] for i in page["view"]["items"] if i.get("key", "").startswith("hand-")) == hand
        assert faces(page["view"])["back"] == other + 1  # the other hand and the deck
        assert "token" not in page and all("token" not in seat for seat in page["seats"])
        assert bool(page["moves"]) == (session.mover() == s)
    mover = session.mover()
    other = 1 - mover
    # the seat not to move cannot move, nor can the host for a seat that joined elsewhere
    one_line_error(c.post(f"{path}/move", json={"ply": g["ply"], "index": 0}, headers={TOKEN_HEADER: tokens[other]}), 403)
    one_line_error(c.post(f"{path}/move", json={"ply": g["ply"], "index": 0}), 403)
    host = c.get(path).json()
    assert host["viewer"] == 2 and host["moves"] == [] and all(s["remote"] and s["connected"] for s in host["seats"])
    assert faces(host["view"])["back"] == sum(len(h) for h in session.state.hands) + 1
    assert not any(i.get("key", "").startswith("hand-") for i in host["view"]["items"])
    # seats may not undo or read the record (every hand) before the end; no token, a wrong one: 403
    one_line_error(c.post(f"{path}/undo", json={}, headers={TOKEN_HEADER: tokens[mover]}), 403)
    one_line_error(c.get(f"{path}/record", headers={TOKEN_HEADER: tokens[mover]}), 403)
    for headers in ({TOKEN_HEADER: ""}, {TOKEN_HEADER: "x" * 24}, {TOKEN_HEADER: tokens[0][:-1]}):
        one_line_error(c.get(path, headers=headers), 403)
    one_line_error(c.get(f"{path}?token=%C3%A9%00", headers={TOKEN_HEADER: ""}), 403)  # not ASCII, a NUL
    another = c.post("/api/games", json={"seed": 5}).json()
    one_line_error(c.get(f"/api/games/{another['id']}", headers={TOKEN_HEADER: tokens[0]}), 403)
    # the mover's page moves; the record is the host's, by link too
    moved = c.post(f"{path}/move", json={"ply": g["ply"], "index": 0}, headers={TOKEN_HEADER: tokens[mover]})
    assert moved.status_code == 200 and moved.json()["ply"] > g["ply"]
    assert c.get(f"{path}/record?token={g['token']}", headers={TOKEN_HEADER: ""}).status_code == 200


def test_hot_seat_shows_the_hand_of_the_seat_to_move():
    """Two seats by hand at one page: the view is the mover's (the page covers it between turns,
    `hides`); a game without hidden hands does not need the cover."""
    c = client("links", ("person", "person"))
    g = c.post("/api/games", json={"seed": 6}).json()
    session, _ = c.app.state.games.get(g["id"])
    for _ in range(4):
        assert g["viewer"] == session.mover() and g["moves"] and g["hides"]
        mine = Counter(i["art"] for i in g["view"]["items"] if i.get("key", "").startswith("hand-"))
        names = c.app.state.games.tables.table(session.game).names
        assert mine == Counter(names[k] for k in session.state.hands[session.mover()])
        g = c.post(f"/api/games/{g['id']}/move", json={"ply": g["ply"], "index": 0}).json()
    assert not client("deblockle", ("person", "person")).post("/api/games", json={}).json()["hides"]


def test_two_pages_stepping_one_position_make_one_agent_move():
    """Every page steps the agents; two asking at once for the same ply get one move, the other 409."""
    from concurrent.futures import ThreadPoolExecutor

    c = client(GAMES[0], ("random", "random"))
    g = c.post("/api/games", json={"seed": 3}).json()
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: c.post(f"/api/games/{g['id']}/step", json={"ply": g["ply"]}), range(4)))
    assert sorted(r.status_code for r in answers) == [200, 409, 409, 409]
    after = c.get(f"/api/games/{g['id']}").json()
    assert sum(1 for h in after["history"] if "seat" in h) == 1


def test_a_restarted_server_resumes_its_games_from_the_store(tmp_path, monkeypatch):
    """Games kept in the results store after every change; a new server on the same definition
    resumes them with the same ids and tokens, where they stood; those dropped beyond the limit
    and those of another definition are not resumed."""
    import boardlab.play_server as play_server

    monkeypatch.setattr(play_server, "CONNECTED_SECONDS", -1.0)  # nobody at a game: the first goes beyond the limit
    definition = load("links")
    path = tmp_path / "results.sqlite"

    def server(store, limit=3, which=definition):
        c = HostClient(make_app(which, which.game.min_players, ("person", "person"), limit=limit, store=store),
                       base_url="http://127.0.0.1")
        c.headers["Content-Type"] = "application/json"
        return c

    with ResultStore(path) as store:
        c = server(store)
        games = [c.post("/api/games", json={"seed": seed}).json() for seed in range(4)]  # the first dropped
        g = games[-1]
        seat = g["seats"][1]["token"]
        c.get(f"/api/games/{g['id']}", headers={TOKEN_HEADER: seat})  # seat 2 joins from elsewhere
        rng = random.Random(3)
        for _ in range(5):
            g = c.get(f"/api/games/{g['id']}").json()
            token = None if g["mover"] == 0 else seat
            page = c.get(f"/api/games/{g['id']}", headers={TOKEN_HEADER: token} if token else {}).json()
            m = page["moves"][rng.randrange(len(page["moves"]))]
            c.post(f"/api/games/{g['id']}/move", json={"ply": page["ply"], "index": m["index"]},
                   headers={TOKEN_HEADER: token} if token else {})
        before = {x["id"]: c.get(f"/api/games/{x['id']}").json() for x in games[1:]}
        seat_view = c.get(f"/api/games/{g['id']}", headers={TOKEN_HEADER: seat}).json()
        other = load("links-master-match")
        server(store, which=other).post("/api/games", json={})
    with ResultStore(path) as store:
        again = server(store)
        assert again.app.state.games.resumed == 3
        again.tokens = c.tokens
        one_line_error(again.get(f"/api/games/{games[0]['id']}"), 404)
        for ident, was in before.items():
            now = again.get(f"/api/games/{ident}").json()
            assert now == {**was, "seats": now["seats"]}
            assert [(s["remote"], s["token"]) for s in now["seats"]] == [(s["remote"], s["token"]) for s in was["seats"]]
        assert again.get(f"/api/games/{g['id']}", headers={TOKEN_HEADER: seat}).json()["view"] == seat_view["view"]
        assert {ident for ident, _ in store.open_games("links", again.app.state.games.definition_id)} == set(before)


def test_turns_without_a_move_are_in_the_move_list():
    """Links: every turn a seat could not play (it only draws) is a line of the move list, after
    the move it followed, as many as the engine counts; the record keeps them."""
    c = client("links", ("random", "random"))
    seen = 0
    for seed in range(6):
        g = c.post("/api/games", json={"seed": seed}).json()
        while not g["over"]:
            g = c.post(f"/api/games/{g['id']}/step", json={"ply": g["ply"]}).json()
        session, _ = c.app.state.games.get(g["id"])
        quiet = [h["text"] for h in g["history"] if h.get("quiet")]
        assert len(quiet) == len(session.state.blocked) == session.state.stats()["blocked_turns"]
        assert all("cannot play" in line for line in quiet)
        record = c.get(f"/api/games/{g['id']}/record").json()
        assert sum(len(m.get("then", [])) for m in record["moves"]) == len(quiet)
        seen += len(quiet)
    assert seen  # some seed had such a turn


def test_the_agents_are_warmed_when_the_server_starts():
    """With `warm`, the default seats' agents each play a move in the background; /api/warm says
    how far it is, and the page's setup carries the same."""

    definition = load("deblockle")
    c = TestClient(make_app(definition, 2, ("person", "greedy"), warm=True), base_url="http://127.0.0.1")
    first = c.get("/api/setup").json()["warm"]
    assert first["agents"] == ["greedy"]
    c.app.state.warmup.thread.join(300)
    state = c.get("/api/warm").json()
    assert state["ready"] and "failed" not in state and state["seconds"] >= first["seconds"]
    cold = TestClient(make_app(definition, 2, ("person", "person")), base_url="http://127.0.0.1")
    assert cold.get("/api/warm").json() == {"ready": True, "agents": [], "seconds": 0.0}


def test_blockd_moves_name_the_numbers_printed_beside_the_grid():
    """'to R,C' in the move list: the place clicked for it lies in the column under the label C
    and in the row beside the label R."""
    c = client("blockd")
    g = c.post("/api/games", json={"seed": 2}).json()
    items = g["view"]["items"]
    labels = [i for i in items if "label" in i and i["label"].isdigit()]
    boxes = {i["key"]: i["box"] for i in items if "key" in i}
    for m in g["moves"]:
        row, column = m["text"].split("to ")[-1].split(",")
        x, y, w, h = boxes[m["targets"][-1]]
        over = [i for i in labels if i["label"] == column and x <= i["x"] <= x + w and i["y"] < y]
        beside = [i for i in labels if i["label"] == row and y <= i["y"] <= y + h and i["x"] < x]
        assert over and beside, (m["text"], m["targets"])


def test_a_flood_of_new_games_never_pushes_out_a_game_being_played(monkeypatch):
    """With --limit games, a new one drops the least recently used game that no page asked for
    lately; when every game has a page at it, a new game is refused (503), none dropped."""
    import boardlab.play_server as play_server

    clock = [1000.0]
    monkeypatch.setattr(play_server.time, "monotonic", lambda: clock[0])
    c = client(GAMES[0], ("person", "person"), limit=2)
    played = c.post("/api/games", json={}).json()
    seat = played["seats"][0]["token"]
    clock[0] += 10
    idle = c.post("/api/games", json={}).json()  # its host's page asked at its start only
    clock[0] += 10
    c.get(f"/api/games/{played['id']}", headers={TOKEN_HEADER: seat})  # a seat's page is at it
    third = c.post("/api/games", json={})
    assert third.status_code == 201
    assert c.get(f"/api/games/{idle['id']}").status_code == 404
    assert c.get(f"/api/games/{played['id']}").status_code == 200  # older, but being played
    reason = one_line_error(c.post("/api/games", json={}), 503)  # both held games have a page at them now
    assert "--limit" in reason and len(c.app.state.games) == 2
    clock[0] += 10
    assert c.post("/api/games", json={}).status_code == 201  # once nobody asked for a while, room again
