"""Compile every fast path once, into numba's cache: `make` and `make test` run this first.

The compiled kernels are compiled on their first call after an install or a change, and kept
(`cache=True`, beside their modules) for every later process.  Without this, the first tests
of a fresh clone each compile what they call, several at a time in their worker processes (27
to 46 s for a conformance test); after it, they read the cache.  Compiling is per function and
argument types, not per game or seed: a few games of every registered game with each of its
agents (a numbered agent, such as MCTS, with a small budget), played and tallied block by
block as the runner does, each agent's choice of one move, and the exact tables reach every
kernel the commands use.  Nothing is written but the
cache; the results are thrown away.

    python -m boardlab.analysis.warm     # the seconds it took on standard output
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from boardlab.analysis.protocol import Game
    from boardlab.analysis.runner import AgentFactory

#: games played per agent and path (a block)
GAMES = 2
#: the budget of a numbered agent (mcts-N): its kernel compiles the same for any N
BUDGET = 4


def warm(out: TextIO | None = None) -> list[str]:
    """Play and tally `GAMES` games of every game with each of its agents but perfect play (an
    exhaustive search, nothing compiled); returns what was played, one `GAME: AGENT` each."""
    from boardlab.analysis import engines
    from boardlab.analysis.mersenne import twister_matches_python
    from boardlab.analysis.runner import make_match, play_block, tally_block
    from boardlab.layouts import game_ids, game_part, load

    twister_matches_python()
    played = []
    for game_id in game_ids("engine"):
        definition = load(game_id)
        game = engines.make_game(definition, definition.game.min_players)
        table = engines.agent_factories(game_id)
        names = [f"{name}-{BUDGET}" if name in table.families else name for name in table if name != "perfect"]
        names += [f"{base}-{BUDGET}" for base in table.families if base not in table]
        if game_id in game_ids("tables"):
            game_part(game_id, "tables").exact_tables(definition)
        for name in names:
            match = make_match(game, [table[name]] * game.players, seed=1)
            play_block(match, 0, GAMES)
            tally_block(match, 0, GAMES)
            one_move(game, table[name])
            played.append(f"{game_id}: {name}")
            if out is not None:
                print(f"  {game_id}: {name}", file=out, flush=True)
    return played


def one_move(game: Game, factory: AgentFactory) -> None:
    """The agent's choice at the first decision of a game, as the play server and a mixed
    seating ask it (one move at a time, not a batch of games)."""
    import random

    from boardlab.analysis.protocol import CHANCE

    rng = random.Random(1)
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
    if not state.is_terminal():
        factory(game).choose(state, rng)


def main() -> int:
    started = time.process_time()
    print("compiling the fast paths into numba's cache (once after an install or a change)...", flush=True)
    warm(sys.stdout)
    print(f"done: {time.process_time() - started:.1f} s of CPU", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
