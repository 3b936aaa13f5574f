"""`boardlab moves links`, `simulate links` and their errors, through the command line."""

from __future__ import annotations

import json

import pytest

from boardlab.cli import main

POSITION = {"game": "links", "players": 3, "to_move": 2,
            "hand": ["R1-B2", "empty", "ONE", "Y2-Y2"],
            "lines": [{"cards": ["G1-R1", "R1-R2", "R2-B2", "B2-B1"]}, {"cards": ["Y1-G2"], "counted": 1}],
            "captured": [[], ["R2-G2", "G1-G1"], []],
            "hand_sizes": [4, 4, 4],
            "deck": 23}


def run_moves(tmp_path, capsys, data):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    code = main(["moves", "links", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_moves_of_a_position(tmp_path, capsys):
    code, out, err = run_moves(tmp_path, capsys, POSITION)
    assert code == 0 and not err
    moves = json.loads(out)["moves"]
    assert moves[0] == {"card": "ONE", "line": 0, "new_line": False, "exposes": None, "captures": 4}
    assert {"card": "R1-B2", "line": 2, "new_line": True, "exposes": "R1", "captures": 0} in moves
    assert not any(m["line"] == 1 and m["card"] in ("R1-B2", "Y2-Y2") for m in moves)  # nothing links to G2
    assert len(moves) == 9 and moves == sorted(moves, key=lambda m: (m["line"], m["card"], m["exposes"] or ""))


@pytest.mark.parametrize("change,message", [
    ({"deck": 22}, "add up to 41"),
    ({"lines": [{"cards": ["G1-R1", "R2-R1"]}]}, "does not link to the open end R1"),
    ({"hand": ["R1-B2", "empty", "ONE", "Y9-Y9"]}, "unknown card 'Y9-Y9'"),
    ({"captured": [["R1-B2"], [], []]}, "R1-B2 appears 2 times (hand, captured[0])"),
    ({"hand": ["empty", "empty", "empty", "ONE"]}, "empty appears 3 times"),
    ({"players": 9}, "players: 9"),
    ({"lines": [{"cards": ["G1-R1", "TWO", "R1-R2"]}]}, "would have"),
    ({"to_move": 3}, "to_move"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"lines": [{"cards": ["G1-R1", "*empty"]}]}, "cannot be a capturing card that stayed"),
], ids=["deck-size", "no-link", "unknown-card", "two-places", "too-many-copies", "players", "master-count",
        "to-move", "unknown-key", "stayed-empty"])
def test_impossible_positions_are_one_line_errors(tmp_path, capsys, change, message):
    code, out, err = run_moves(tmp_path, capsys, {**POSITION, **change})
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err


def test_a_capturing_card_that_stayed_need_not_link_to_the_card_before(tmp_path, capsys):
    lines = {"lines": [{"cards": ["G1-R1", "*B1-Y1", "Y1-Y2"]}], "deck": 25}
    code, out, err = run_moves(tmp_path, capsys, {**POSITION, **lines})
    assert code == 0, err
    assert {"card": "Y2-Y2", "line": 0, "new_line": False, "exposes": "Y2", "captures": 0} in json.loads(out)["moves"]
    code, out, err = run_moves(tmp_path, capsys, {**POSITION, "lines": [{"cards": ["G1-R1", "B1-Y1"]}], "deck": 26})
    assert code == 2 and "does not link" in err


def simulate(capsys, *extra):
    assert main(["simulate", "links", "--json", *extra]) == 0
    data = json.loads(capsys.readouterr().out)
    data.pop("seconds")
    return data


def test_simulate_is_the_same_with_one_or_two_workers(capsys):
    args = ("--players", "4", "--games", "300", "--seed", "1")
    one = simulate(capsys, *args, "--workers", "1")
    two = simulate(capsys, *args, "--workers", "2")
    assert one == two
    assert one["games"] == 300 and sum(one["wins_by_seat"]) + one["draws"] + one["unfinished"] == 300
    assert all(lo <= r["rate"] <= hi for r in one["win_rate_by_seat"] for lo, hi in [r["ci95"]])
    links = one["links"]
    assert set(links["captures"]) == {"fifth", "ONE", "TWO", "THREE", "FOUR"}
    assert 0 < links["share_of_turns_without_a_play"] < 1 and links["rounds"]["mean"] > 0


@pytest.mark.parametrize("players", range(2, 9))
def test_simulate_every_player_count(capsys, players):
    data = simulate(capsys, "--players", str(players), "--games", "20", "--workers", "1")
    assert data["players"] == players and data["unfinished"] == 0


def test_simulate_mixed_agents_reports_per_agent(capsys):
    data = simulate(capsys, "--players", "2", "--agents", "greedy,random", "--games", "20", "--workers", "1")
    assert set(data["win_rate_by_agent"]) == {"greedy", "random"}
