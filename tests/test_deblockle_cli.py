"""`boardlab moves deblockle`, `tables deblockle` and `simulate deblockle` from the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from deblockle_reference import Ref, definition_named, random_position

from boardlab.cli import main


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("variant", [None, "deblockle-no-touching", "deblockle-hopless-ends-turn",
                                     "deblockle-two-blocks"])
def test_moves_prints_the_references_moves(tmp_path, capsys, variant):
    d = definition_named(variant or "deblockle")
    for seed in range(4):
        position = random_position(d, random.Random(seed), near_stars=0.5)
        path = tmp_path / f"p{seed}.json"
        path.write_text(json.dumps(position))
        code, out, err = run(["moves", "deblockle", str(path)] + (["--variant", variant] if variant else []), capsys)
        assert code == 0 and err == ""
        expected = [{"from": a, "tip": t, "to": b} for a, t, b in Ref(d, position).moves()]
        assert json.loads(out) == {"moves": expected}


def good() -> dict:
    return {"game": "deblockle", "to_move": 1,
            "blocks": [{"owner": 1, "at": "c1", "top": "Cross", "north": "Slider"},
                       {"owner": 2, "at": "e7", "top": "Stop", "north": "X"}]}


def _with_block(**change):
    p = good()
    p["blocks"][0] = p["blocks"][0] | change
    return p


def _extra_blocks(owner, squares):
    p = good()
    p["blocks"] += [{"owner": owner, "at": sq, "top": "Stop", "north": "Cross"} for sq in squares]
    return p


@pytest.mark.parametrize("position,message", [
    (_extra_blocks(2, ["c1"]), "c1 already holds a block"),
    (_with_block(at="d2"), "d2 is a star square"),
    (_with_block(at="d6"), "d6 is a star square"),
    (_with_block(at="h1"), "not a square of the board"),
    (_with_block(north="Cross"), "cannot face north with Cross on top"),
    (_with_block(north="X"), "cannot face north with Cross on top"),
    (_with_block(top="Moon"), "unknown face 'Moon'"),
    (_with_block(owner=3), "owner 3 is not a player"),
    (_with_block(owner="1"), "owner '1' is not a player"),
    (_extra_blocks(1, ["a1", "a2", "a3", "a4"]), "player 1 has more than 4 blocks"),
    (good() | {"to_move": 0}, "to_move: 0 is not a player"),
    (good() | {"to_move": "gold"}, "to_move: 'gold' is not a player"),
    (good() | {"game": "blockd"}, "the position is for 'blockd'"),
    (good() | {"colour": 1}, "unknown key 'colour'"),
    ({"game": "deblockle", "to_move": 1}, "no 'blocks'"),
    (_with_block(extra=True), "unknown key 'extra'"),
    ({"game": "deblockle", "blocks": [5], "to_move": 1}, "must be an object"),
])
def test_impossible_positions_exit_2_with_one_line(tmp_path, capsys, position, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(position))
    code, out, err = run(["moves", "deblockle", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("boardlab moves: ") and message in err, err


def test_too_many_blocks_follows_the_variant(tmp_path, capsys):
    path = tmp_path / "three.json"
    path.write_text(json.dumps(_extra_blocks(1, ["a1", "a2"])))
    assert run(["moves", "deblockle", str(path)], capsys)[0] == 0
    code, _, err = run(["moves", "deblockle", str(path), "--variant", "deblockle-two-blocks"], capsys)
    assert code == 2 and "player 1 has more than 2 blocks" in err


def test_moves_through_the_installed_entry_point(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(good()))
    done = subprocess.run([sys.executable, "-m", "boardlab.cli", "moves", "deblockle", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and json.loads(done.stdout)["moves"][0]["from"] == "c1"
    path.write_text(json.dumps(_with_block(at="d2")))
    done = subprocess.run([sys.executable, "-m", "boardlab.cli", "moves", "deblockle", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_tables_deblockle_figures_are_the_twins_shortest_paths(capsys):
    from fractions import Fraction

    from test_deblockle_reach import reference_distances

    code, out, err = run(["tables", "deblockle", "--format", "json"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    d = definition_named("deblockle")
    distances = reference_distances(d, 1)
    faces = list(d.faces)
    for square in d.players[0].start:
        turns = [t for (sq, _, _), t in distances.items() if sq == square]
        assert len(turns) == 24
        figures = data["by_player"]["1"]["start"][square]
        assert Fraction(figures["mean"]) == Fraction(sum(turns), 24)
        assert (figures["min"], figures["max"]) == (min(turns), max(turns))
        worst = [max(t for (sq, top, _), t in distances.items() if sq == square and top == f) for f in faces]
        assert Fraction(figures["adversarial_mean"]) == Fraction(sum(worst), 6)
        assert Fraction(figures["adversarial_cost"]) == Fraction(sum(worst), 6) - Fraction(sum(turns), 24)
    assert data["by_player"]["1"]["never"] == 0 and sum(data["by_player"]["1"]["states_by_turns"].values()) == 47 * 24


def test_tables_deblockle_text_and_csv(capsys):
    _, js, _ = run(["tables", "deblockle", "--format", "json"], capsys)
    c1 = json.loads(js)["by_player"]["1"]["start"]["c1"]
    code, out, _ = run(["tables", "deblockle"], capsys)
    assert code == 0 and f"| 1 (gold) | c1 | {c1['min']} | {c1['mean']} |" in out
    assert "## Mean turns to score from every square, player gold (scores on d6)" in out
    code, out, _ = run(["tables", "deblockle", "--format", "csv", "--variant", "deblockle-two-blocks"], capsys)
    assert code == 0 and out.startswith("table,row,column,value,exact,label\nTurns to score a lone block")
    assert ",e3\n" not in out and ",e3," not in out


def _simulate(capsys, *extra):
    code, out, err = run(["simulate", "deblockle", "--seed", "1", "--json", *extra], capsys)
    assert code == 0, err
    summary = json.loads(out)
    summary.pop("seconds")
    return summary


def test_simulate_is_reproducible_whatever_the_worker_count(capsys):
    args = ("--games", "12", "--agents", "greedy")
    one = _simulate(capsys, *args, "--workers", "1")
    assert one == _simulate(capsys, *args, "--workers", "2")
    d = one["deblockle"]
    assert sum(one["wins_by_seat"]) + one["draws"] + one["unfinished"] == 12 == sum(d["ends"].values())
    assert d["first_player"]["wins"] == one["wins_by_seat"][0]
    # every win by scoring means four blocks of the winner scored
    assert sum(d["scored"]["blocks_by_seat"]) >= 4 * d["ends"]["scored"]
    assert d["scored"]["kth_block_turn"]["1"][0]["games"] >= d["scored"]["kth_block_turn"]["1"][3]["games"]


def test_simulate_every_variant_and_the_text_form(capsys):
    for variant in ("deblockle-two-blocks", "deblockle-no-touching", "deblockle-hopless-ends-turn"):
        s = _simulate(capsys, "--games", "3", "--agents", "greedy", "--variant", variant, "--workers", "1")
        assert s["variant"] == variant and len(s["deblockle"]["scored"]["kth_block_turn"]["1"]) == (
            2 if variant == "deblockle-two-blocks" else 4)
    code, out, _ = run(["simulate", "deblockle", "--games", "2", "--agents", "greedy,random", "--workers", "1"], capsys)
    assert code == 0 and "games with a blocked player" in out and "first player wins" in out


@pytest.mark.parametrize("games", [300, pytest.param(2000, marks=pytest.mark.slow)])
def test_simulate_random_games_are_the_same_whatever_the_workers(capsys, games):
    one = _simulate(capsys, "--games", str(games), "--workers", "1")
    assert one == _simulate(capsys, "--games", str(games), "--workers", "2")
    assert one["games"] == games and sum(one["deblockle"]["ends"].values()) == games
