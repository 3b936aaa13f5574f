"""`make`'s warm-up of the compiled code (analysis/warm.py): after it, the games' commands and
agents compile nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: a process that plays every game with every agent (other budgets, seeds and seat counts than the
#: warm-up's, several blocks, the exact tables) and prints how many compilations numba ran
AFTERWARDS = r"""
from numba.core import event

compiled = []
class Count(event.Listener):
    def on_start(self, ev): compiled.append(ev)
    def on_end(self, ev): pass
event.register("numba:compile", Count())

import random
from boardlab.analysis import engines
from boardlab.analysis.runner import make_match, play_block, tally_block
from boardlab.layouts import game_ids, game_part, load

for game_id in game_ids("engine"):
    definition = load(game_id)
    if game_id in game_ids("tables"):
        game_part(game_id, "tables").exact_tables(definition)
    game = engines.make_game(definition, definition.game.max_players)
    table = engines.agent_factories(game_id)
    names = [f"{n}-9" if n in table.families else n for n in table if n != "perfect"]
    for name in names:
        match = make_match(game, [table[name]] * game.players, seed=7)
        play_block(match, 3, 6)
        tally_block(match, 0, 3)
        state = game.new_initial_state()
        rng = random.Random(5)
        while state.current_player() < 0 and not state.is_terminal():
            state.apply(state.sample_chance(rng))
        if not state.is_terminal():
            table[name](game).choose(state, rng)
print(len(compiled))
"""


@pytest.mark.slow
def test_after_the_warm_up_nothing_is_compiled(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    first = subprocess.run([sys.executable, "-m", "boardlab.analysis.warm"], env=env, capture_output=True,
                           text=True, timeout=900)
    assert first.returncode == 0, first.stderr[-2000:]
    after = subprocess.run([sys.executable, "-c", AFTERWARDS], env=env, capture_output=True, text=True, timeout=900)
    assert after.returncode == 0, after.stderr[-2000:]
    assert after.stdout.split()[-1] == "0"
