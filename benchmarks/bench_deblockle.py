"""`make bench`: Deblockle speed and agent-strength figures (printed; docs/project/speed.md quotes them).

1. random self-play, default rules: games per second as `boardlab simulate deblockle
   --workers 1` runs it (compiled path: setups, records and summary included), the compiled
   games alone, and the reference engine one game at a time; target 5,000 games/s in one
   process.  Random games almost all run to the 300-turn cap, so a game is 300 moves;
2. the compiled agents against their Python twins (the same moves, `search.py`): greedy and
   MCTS (default budget and 4096 iterations) moves per second from positions of random games;
3. MCTS (default budget) against random and against greedy: seats alternated (every setup
   played once with each seat order), win rate with its Wilson 95% interval; targets 90%
   and 60%;
4. the Deblockle report from an empty results store (`boardlab report deblockle`, every core):
   wall and CPU seconds; target 60 s on 2 cores.

Rates are printed by the wall clock and by the process's CPU time (see benchmarks/bench.py).

Usage: python benchmarks/bench_deblockle.py [--quick]   (--quick: a smoke test, not figures)
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from bench import command_seconds, duel, line, machine, timed, verdict  # noqa: E402

from boardlab.analysis import engines  # noqa: E402
from boardlab.analysis.deblockle import kernel  # noqa: E402
from boardlab.analysis.deblockle.agents import (DEFAULT_BUDGET, CompiledGreedyAgent, CompiledMCTSAgent,  # noqa: E402
                                                GreedyAgent, python_mcts)
from boardlab.analysis.deblockle.batch import BATCH_STREAM, derive_seeds, setups  # noqa: E402
from boardlab.analysis.runner import default_workers, make_match, play_one, run  # noqa: E402
from boardlab.layouts import load  # noqa: E402

TARGET = 5000
REPORT_TARGET = 60.0


def positions(game, count: int) -> list:
    """Positions of random games after 0..19 moves (not over)."""
    rng = random.Random(3)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        for _ in range(rng.randrange(20)):
            if not state.is_terminal():
                state.apply(state.random_move(rng))
        if not state.is_terminal() and len(state.legal_moves()) > 1:
            found.append(state)
    return found


def agents_against_twins(game, quick: bool) -> None:
    """Moves per second of each compiled agent and of its Python twin, on the same positions."""
    few = positions(game, 4 if quick else 20)
    pairs = [("greedy", CompiledGreedyAgent(), GreedyAgent(), few),
             (f"mcts-{DEFAULT_BUDGET}", CompiledMCTSAgent(DEFAULT_BUDGET), python_mcts(DEFAULT_BUDGET), few[:4 if quick else 10]),
             ("mcts-4096", CompiledMCTSAgent(4096), python_mcts(4096), few[:1 if quick else 2])]
    for name, fast, slow, states in pairs:
        fast.choose(states[0], random.Random(0))  # warm-up: numba's cache, the tables

        def play(agent):
            return lambda: [agent.choose(state, random.Random(i)) for i, state in enumerate(states)]

        compiled = line(f"{name}, compiled", len(states), timed(play(fast)), "moves/s")
        python = line(f"{name}, Python twin", len(states), timed(play(slow)), "moves/s")
        print(f"  {'':<44} {compiled[0] / python[0]:11.0f}x {compiled[1] / python[1]:11.0f}x  faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few games: a smoke test, not figures")
    quick = parser.parse_args().quick
    game = engines.make_game(load("deblockle"))
    random_agent = engines.agent_factories("deblockle")["random"]
    print(f"Deblockle benchmark{' (quick)' if quick else ''}: {machine()}")
    print(f"  {'measure':<44} {'wall clock':>12} {'CPU time':>12}")
    games = 2000 if quick else 20_000
    repeats = 1 if quick else 3

    def simulate():
        run(game, [random_agent] * 2, games, seed=1, workers=1, agent_names=["random"] * 2, progress=False)

    simulate()  # warm-up: numba's cache, the tables
    rate = line(f"random self-play, simulate (best of {repeats})", games, timed(simulate, repeats), "games/s")
    indices = np.arange(games)
    orientations = setups(game, 1, indices)
    keys = derive_seeds(1, BATCH_STREAM, indices)
    line("compiled games alone", games, timed(lambda: kernel.play_setups(game, orientations, keys), repeats), "games/s")
    slow = 20 if quick else 200
    match = make_match(game, [random_agent] * 2, 1, agent_names=["random"] * 2)
    line("reference engine, one game at a time", slow,
         timed(lambda: [play_one(match, i) for i in range(slow)]), "games/s")
    print(f"  target {TARGET:,} games/s in one process: {verdict(rate[0] >= TARGET)} (wall), "
          f"{verdict(rate[1] >= TARGET)} (CPU)")
    print("Compiled agents against their Python twins (the same moves):")
    agents_against_twins(game, quick)
    print("Agent strength, seats alternated (targets: 90% against random, 60% against greedy):")
    duel_games = 20 if quick else 200
    for opponent in ("random", "greedy"):
        print("  " + duel(game, ["mcts", opponent], duel_games, default_workers()))
    with tempfile.TemporaryDirectory() as scratch:
        wall, cpu = command_seconds(["report", "deblockle", "--store", f"{scratch}/results.sqlite", "--out", scratch])
    print(f"Deblockle report from an empty store: {wall:.1f} s wall, {cpu:.1f} s CPU (all processes); "
          f"target {REPORT_TARGET:.0f} s on 2 cores: {verdict(wall <= REPORT_TARGET)}")
    print(f"finished; load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
