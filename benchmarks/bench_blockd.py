"""`make bench`: Blockd speed and agent strength figures (printed; the README quotes them).

1. random self-play, 4 players, default rules: games per second by the batched path in one
   process and with every core (as `boardlab simulate` runs it: deals, records and summary
   included), by the batched games alone, and by the reference engine one game at a time;
2. MCTS iterations per second (default budget, random rollouts) from fresh 2-player deals;
3. MCTS (default budget) against random and against greedy: 2 players, seats alternated
   (every deal played once with each seat order), win rate with its Wilson 95% interval.

Usage: python benchmarks/bench_blockd.py [--quick]   (--quick: fewer games, for a smoke test)
"""

from __future__ import annotations

import os

# one BLAS thread, so that "one process" means one core
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from boardlab.analysis import engines  # noqa: E402
from boardlab.analysis.blockd.batch import BATCH_BLOCK, BATCH_STREAM, deal_cards, derive_seeds  # noqa: E402
from boardlab.analysis.blockd.kernel import play_deals  # noqa: E402
from boardlab.analysis.blockd.agents import DEFAULT_BUDGET  # noqa: E402
from boardlab.analysis.mcts import MCTS  # noqa: E402
from boardlab.analysis.runner import CHANCE_STREAM, Match, default_workers, play_one, run  # noqa: E402
from boardlab.layouts import load  # noqa: E402


def self_play_rate(game, games: int, workers: int) -> float:
    factories = [engines.agent_factories("blockd")["random"]] * game.players
    started = time.perf_counter()
    run(game, factories, games, seed=1, workers=workers, agent_names=["random"] * game.players, progress=False)
    return games / (time.perf_counter() - started)


def batch_core_rate(game, games: int) -> float:
    """The batched games alone: deals dealt beforehand, no records, no summary."""
    deal_seeds = derive_seeds(1, CHANCE_STREAM, np.arange(games) // game.players)
    card_ids = deal_cards(game, deal_seeds.tolist())
    keys = derive_seeds(1, BATCH_STREAM, np.arange(games))
    started = time.perf_counter()
    for low in range(0, games, BATCH_BLOCK):
        play_deals(game, card_ids[low:low + BATCH_BLOCK], keys[low:low + BATCH_BLOCK])
    return games / (time.perf_counter() - started)


def reference_rate(game, games: int) -> float:
    factory = engines.agent_factories("blockd")["random"]
    match = Match(game, (factory,) * game.players, ("random",) * game.players, 1, True)
    started = time.perf_counter()
    for index in range(games):
        play_one(match, index)
    return games / (time.perf_counter() - started)


def mcts_rate(game, deals: int) -> float:
    search = MCTS(DEFAULT_BUDGET)
    rng = random.Random(1)
    started = time.perf_counter()
    for _ in range(deals):
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        search.search(state, rng)
    return deals * DEFAULT_BUDGET / (time.perf_counter() - started)


def duel(game, opponent: str, games: int, workers: int) -> dict:
    table = engines.agent_factories("blockd")
    names = ["mcts", opponent]
    _, summary = run(game, [table[n] for n in names], games, seed=1, workers=workers,
                     agent_names=names, progress=False)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few games: a smoke test, not figures")
    args = parser.parse_args()
    quick = args.quick
    cores = default_workers()
    four = engines.make_game(load("blockd"), 4)
    two = engines.make_game(load("blockd"), 2)
    print(f"Blockd benchmark ({cores} cores{', quick' if quick else ''})")

    self_play_rate(four, 4096, 1)  # warm-up: tables and imports
    games = 8192 if quick else 50_000
    repeats = 1 if quick else 3  # the best of a few runs: the machine is shared
    one = max(self_play_rate(four, games, 1) for _ in range(repeats))
    every = max(self_play_rate(four, games, cores) for _ in range(repeats))
    core = max(batch_core_rate(four, 8192 if quick else 16384) for _ in range(repeats))
    slow = reference_rate(four, 200 if quick else 2000)
    print(f"random self-play, 4 players, default rules ({games} games, best of {repeats} runs):")
    print(f"  batched path, 1 process     {one:10,.0f} games/s   (boardlab simulate: deals, records, summary)")
    print(f"  batched path, {cores} processes   {every:10,.0f} games/s")
    print(f"  batched games alone         {core:10,.0f} games/s   (1 process; no deals, records or summary)")
    print(f"  reference engine, 1 process {slow:10,.0f} games/s")

    rate = mcts_rate(two, 2 if quick else 20)
    print(f"MCTS, budget {DEFAULT_BUDGET}, random rollouts, 2 players: {rate:,.0f} iterations/s (1 process)")

    duel_games = 20 if quick else 200
    for opponent in ("random", "greedy"):
        started = time.perf_counter()
        summary = duel(two, opponent, duel_games, cores)
        r = summary["win_rate_by_agent"]["mcts"]
        lo, hi = r["ci95"]
        print(f"mcts (budget {DEFAULT_BUDGET}) vs {opponent}: {r['wins']}/{r['seats_played']} = {r['rate']:.1%}"
              f"  (95% CI {lo:.1%} .. {hi:.1%}), unfinished {summary['unfinished']}, draws {summary['draws']}, "
              f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
