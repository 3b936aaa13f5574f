"""Golden playthroughs (tests/data/GAME.playthrough, written by `analysis.playthrough`): each
seeded game, replayed through the protocol, gives the very moves, observations and returns on
file.  A change to an engine that changes how a game plays shows here as the first line that
differs; if the change is meant, rewrite the file (the module's docstring says how) and read
its diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.analysis.playthrough import playthrough, read_header
from boardlab.layouts import game_ids, load

DATA = Path(__file__).parent / "data"
FILES = sorted(DATA.glob("*.playthrough"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_seeded_game_plays_as_its_golden_playthrough(path):
    text = path.read_text()
    name, players, seed = read_header(text)
    again = playthrough(name, players, seed)
    for number, (want, got) in enumerate(zip(text.splitlines(), again.splitlines()), start=1):
        assert got == want, f"{path.name}:{number}: the engine now plays {got[:200]!r}"
    assert len(again.splitlines()) == len(text.splitlines())
    assert text.splitlines()[-3].startswith("returns ")


def test_every_playthrough_is_of_a_game_with_an_engine_and_covers_chance_and_moves():
    assert FILES
    for path in FILES:
        text = path.read_text()
        name, players, seed = read_header(text)
        assert load(name).game.id in game_ids("engine") and path.stem == load(name).game.id
        assert "\nmove " in text and "\nchance " in text and "\nobservation " in text


def test_a_playthrough_is_a_function_of_its_seed():
    game_id = game_ids("engine")[0]
    players = load(game_id).game.min_players
    assert playthrough(game_id, players, 3) == playthrough(game_id, players, 3) != playthrough(game_id, players, 4)
