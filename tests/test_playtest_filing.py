"""Browser games as playtests: filed from `boardlab play`'s API into the store, listed, imported from a
saved record, and played back move by move to the same final position."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from boardlab.analysis.store import ResultStore  # noqa: E402
from boardlab.cli import main  # noqa: E402
from boardlab.layouts import game_ids, load  # noqa: E402
from boardlab.play_server import TOKEN_HEADER, make_app  # noqa: E402


def played_game(game_id: str, store, seed: int = 5):
    """A game of a person (random clicks) against random played to its end through the API."""
    definition = load(game_id)
    app = make_app(definition, definition.game.min_players, ("person", "random"), store=store)
    c = TestClient(app, base_url="http://127.0.0.1")
    c.headers["Content-Type"] = "application/json"
    g = c.post("/api/games", json={"seed": seed}).json()
    host = {TOKEN_HEADER: g["token"]}
    rng = random.Random(seed)
    while not g["over"]:
        if g["moves"]:
            g = c.post(f"/api/games/{g['id']}/move", json={"ply": g["ply"], "index": rng.randrange(len(g["moves"]))},
                       headers=host).json()
        else:
            g = c.post(f"/api/games/{g['id']}/step", json={"ply": g["ply"]}, headers=host).json()
    return c, g, host


@pytest.mark.parametrize("game_id", game_ids("engine"))
def test_a_finished_browser_game_is_filed_listed_and_played_back_to_the_same_end(tmp_path, capsys, game_id):
    path = tmp_path / "r.sqlite"
    store = ResultStore(path)
    c, g, host = played_game(game_id, store)
    names = [f"P{s + 1}" for s in range(len(g["seats"]))]
    filed = c.post(f"/api/games/{g['id']}/file", json={"names": names}, headers=host)
    assert filed.status_code == 201 and filed.json()["filed"]
    again = c.post(f"/api/games/{g['id']}/file", json={"names": names}, headers=host)
    assert again.status_code == 200 and not again.json()["filed"]  # filed once
    listed = c.get("/api/playtests", headers=host).json()
    assert [(p["seats"], p["winners"], p["source"], p["replay"]) for p in listed] == \
        [(names, g["result"]["winners"], "browser", True)]
    assert c.get("/api/playtests").status_code == 403  # names stay with the page that started the game
    capsys.readouterr()
    assert main(["playtests", "list", game_id, "--store", str(path)]) == 0
    out = capsys.readouterr().out
    assert ", ".join(names) in out and "browser" in out
    # the stored record played back, move by move, ends where the game ended
    replay = c.post("/api/replays", json={"playtest": listed[0]["id"]}, headers=host).json()
    moves = replay["moves"]
    assert moves == sum(1 for h in g["history"] if "seat" in h)
    end = c.get(f"/api/replays/{replay['id']}?move={moves}").json()
    assert end["over"] and end["result"] == g["result"] and end["history"] == [
        {k: v for k, v in h.items() if k != "seconds"} for h in g["history"]]
    first = c.get(f"/api/replays/{replay['id']}?move=1").json()
    assert first["replay"] == {"move": 1, "moves": moves, "seats": ["person", "random"]}
    assert sum(1 for h in first["history"] if "seat" in h) == 1 and not first["moves"]  # nothing to play
    store.close()
    if game_id == "blockd":  # and the report's section shows it (one game is enough to see it there)
        capsys.readouterr()
        assert main(["playtests", "report", game_id, "--store", str(path), "--games", "4", "--agents", "random",
                     "--workers", "1", "--lang", "en", "--quiet"]) == 0
        out = capsys.readouterr().out
        assert f"| {', '.join(names)} | {names[g['result']['winners'][0]]} | {g['result']['length']} |" in out


def test_a_saved_record_is_imported_and_played_back(tmp_path, capsys):
    c, g, host = played_game("sixbysix", None)
    record = c.get(f"/api/games/{g['id']}/record", headers=host).json()
    assert c.post(f"/api/games/{g['id']}/file", json={}, headers=host).status_code == 409  # --no-store: said
    replay = c.post("/api/replays", json={"record": record}).json()
    end = c.get(f"/api/replays/{replay['id']}").json()
    assert end["result"] == g["result"] and end["over"]
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(record))
    store = tmp_path / "r.sqlite"
    assert main(["playtests", "import", "sixbysix", str(saved), "--store", str(store)]) == 0
    assert main(["playtests", "import", "sixbysix", str(saved), "--store", str(store)]) == 0
    with ResultStore(store) as s:
        [(_, game)] = s.playtests("sixbysix")
    assert game.winners == tuple(g["result"]["winners"]) and game.source == "browser" and game.record == record
    broken = dict(record, moves=record["moves"][:3])
    saved.write_text(json.dumps(broken))
    capsys.readouterr()
    assert main(["playtests", "import", "sixbysix", str(saved), "--store", str(store)]) == 2
    assert "not over" in capsys.readouterr().err
    bad = c.post("/api/replays", json={"record": {"format": "boardlab-record", "game": "blockd"}})
    assert bad.status_code == 400 and "not of sixbysix" in bad.json()["error"]
