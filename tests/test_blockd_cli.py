"""`boardlab moves blockd`, `boardlab tables blockd` and `boardlab simulate blockd` from the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from blockd_definitions import definition_named
from blockd_reference import Ref, random_position

from boardlab.cli import main


def reference_json(d, players, position) -> dict:
    moves = []
    for restored, to in Ref(d, players, position).moves():
        moves.append(({} if restored is None else {"restore": list(restored)}) | {"to": list(to)})
    return {"moves": moves}


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def on_own_colour(d, position) -> dict:
    """The position with the mover moved onto a free card of its own colour, as a restore bonus needs."""
    mover = position["to_move"]
    letter = d.colours[mover].letter
    cells = [[r, c] for r, row in enumerate(position["grid"]) for c, token in enumerate(row.split())
             if token.startswith(letter)]
    taken = [cell for colour, cell in position["pawns"].items() if colour != mover]
    cell = next(cell for cell in cells if cell not in taken)
    return position | {"pawns": position["pawns"] | {mover: cell}, "down": [x for x in position["down"] if x != cell]}


@pytest.mark.parametrize("variant", [None, "blockd-pawns-block", "blockd-flat"])
def test_moves_prints_the_references_moves(tmp_path, capsys, variant):
    d = definition_named(variant or "blockd")
    for seed in range(5):
        position = on_own_colour(d, random_position(d, 4, random.Random(seed), down_share=0.5, restore=True))
        path = tmp_path / f"p{seed}.json"
        path.write_text(json.dumps(position))
        code, out, err = run(["moves", "blockd", str(path)] + (["--variant", variant] if variant else []), capsys)
        assert code == 0 and err == ""
        assert json.loads(out) == reference_json(d, 4, position)


def good_position() -> dict:
    d = definition_named("blockd")
    return random_position(d, 4, random.Random(1), down_share=0.4, start_pawns=False)


def _replace_token(p, old, new):
    grid = [" ".join(new if t == old else t for t in row.split()) for row in p["grid"]]
    return p | {"grid": grid}


def _pawn_on_down(p):
    return p | {"pawns": p["pawns"] | {p["to_move"]: p["down"][0]}}


def _duplicate(p):
    first = p["grid"][0].split()
    other = p["grid"][1].split()[0]
    return p | {"grid": [" ".join([other] + first[1:])] + p["grid"][1:]}


@pytest.mark.parametrize("text,message", [
    (lambda p: json.dumps(p | {"grid": p["grid"][:4]}), "4 rows, the board has 5"),
    (lambda p: json.dumps(p | {"grid": p["grid"][:4] + [p["grid"][4] + " X"]}), "6 tokens"),
    (lambda p: json.dumps(_replace_token(p, p["grid"][0].split()[0], "Z9")), "unknown card 'Z9'"),
    (lambda p: json.dumps(_pawn_on_down(p)), "face-down card"),
    (lambda p: json.dumps(_duplicate(p)), "appears more often"),
    (lambda p: json.dumps(p | {"to_move": "purple"}), "no pawn on the board"),
    (lambda p: json.dumps(p | {"down": [[7, 0]]}), "off the 5 x 5 grid"),
    (lambda p: json.dumps(p)[:-3], "not valid JSON"),
    (lambda p: "[1, 2]", "JSON object"),
])
def test_malformed_positions_exit_2_with_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text(good_position()))
    code, out, err = run(["moves", "blockd", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("boardlab moves: ") and message in err, err


def test_missing_file_folder_and_unknown_game(tmp_path, capsys):
    for argv, message in [(["moves", "blockd", str(tmp_path / "nope.json")], "no such file"),
                          (["moves", "blockd", str(tmp_path)], "is a folder"),
                          (["moves", "chess", str(tmp_path)], "unknown game"),
                          (["moves", "sixbysix", str(tmp_path)], "no move lister")]:
        code, out, err = run(argv, capsys)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_moves_command_is_a_real_console_command(tmp_path):
    """No traceback through the installed entry point either."""
    path = tmp_path / "bad.json"
    path.write_text("{")
    done = subprocess.run([sys.executable, "-m", "boardlab.cli", "moves", "blockd", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_tables_blockd_formats(capsys):
    code, out, err = run(["tables", "blockd", "--deals", "3", "--players", "2", "--format", "json",
                          "--workers", "1"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["deals"] == 3 and list(data["by_players"]) == ["2"]
    assert data["by_players"]["2"]["start"]["positions"] == 3
    code, out, _ = run(["tables", "blockd", "--deals", "3", "--players", "3", "--workers", "1"], capsys)
    assert code == 0 and "## Trap distance of a pawn" in out and "| start | 3 |" in out
    code, out, _ = run(["tables", "blockd", "--deals", "2", "--players", "2", "--format", "csv",
                        "--workers", "1"], capsys)
    assert code == 0 and out.startswith('table,row,column,value,exact,label\n"Mobility of a pawn')


def _simulate(capsys, *extra):
    code, out, err = run(["simulate", "blockd", "--players", "4", "--games", "140", "--seed", "1", "--json",
                          *extra], capsys)
    assert code == 0
    summary = json.loads(out)
    summary.pop("seconds")
    return summary


def test_simulate_is_reproducible_whatever_the_worker_count(capsys):
    one = _simulate(capsys, "--workers", "1")
    assert one == _simulate(capsys, "--workers", "1") == _simulate(capsys, "--workers", "2")
    assert sum(one["wins_by_seat"]) + one["draws"] + one["unfinished"] == 140
    extra = one["blockd"]
    assert extra["restores_used"] <= extra["restores_earned"]
    eliminated = sum(extra["eliminations_by_round"].values())
    assert eliminated == 3 * (140 - one["unfinished"])  # immediate: every finished game eliminates all but one


def test_simulate_end_of_round_variant_reports_tiebreaks(capsys):
    code, out, _ = run(["simulate", "blockd", "--variant", "blockd-end-of-round", "--players", "2", "--games",
                        "300", "--seed", "2", "--json", "--workers", "1"], capsys)
    summary = json.loads(out)
    extra = summary["blockd"]
    # With 2 players and random moves, both players are sometimes stuck in the same round.
    assert 0 < extra["decided_by_tiebreak"] < 300
    assert extra["tiebreak_share"] == round(extra["decided_by_tiebreak"] / (300 - summary["unfinished"]), 6)


def test_simulate_over_several_batch_blocks_is_the_same_whatever_the_worker_count(capsys):
    """More games than one batch block holds: with two workers the blocks really are shared."""
    from boardlab.analysis.blockd.batch import BATCH_BLOCK

    games = str(2 * BATCH_BLOCK + 7)
    outputs = []
    for workers in ("1", "2"):
        code, out, _ = run(["simulate", "blockd", "--players", "3", "--games", games, "--seed", "5", "--json",
                            "--workers", workers], capsys)
        assert code == 0
        summary = json.loads(out)
        summary.pop("seconds")
        outputs.append(summary)
    assert outputs[0] == outputs[1] and outputs[0]["games"] == int(games)
