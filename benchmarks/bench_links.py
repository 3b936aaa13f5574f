"""`make bench`: Links speed and agent strength figures (printed; docs/project/speed.md quotes them).

1. random self-play, 4 players, default rules: games per second as `boardlab simulate` runs it
   (compiled path: deals, records and summary included) in one process and with every core,
   the compiled games alone, and the reference engine one game at a time;
2. MCTS iterations per second (default budget) from 4-player positions, and the compiled search
   (`kernel.search`) against its plain Python twin on the reference engine
   (`tests/test_links_kernel.py::reference_search`, which the tests hold it equal to) on the
   same positions;
3. MCTS (default budget, hands dealt afresh at random) and the history-consistent search
   `ismcts` (the same budget over hands sampled consistently with the public history) against
   three random and against three greedy players: 4 players, every deal played once with the
   agent in each seat.  Printed: games it won alone (with the Wilson 95% interval), wins shared
   in a tie, and the share of (game, opponent) pairs in which it scored more than that
   opponent; then the same for the greedy agent against random players;
4. the skill trace's costliest step, ismcts-64 against mcts-64 (2 players, seats alternating;
   4 players, ismcts-64 against three mcts-64): CPU seconds of the same games played by the
   reference path (`runner.play_one`, the Python agents: the twin) and by the runner (the
   compiled agent games, `games.py`), and whether their records are equal;
5. with --ceiling: upper bounds for a search of this kind.  The same flat search
   (`agents.SeeingMCTS`, not an agent of the game: it reads the state) shown the other hands
   (the draw pile's order still dealt afresh every iteration), and shown every hand and the draw
   pile's order (budget `SEEING_BUDGET`, win share only); its rollouts play the opponents as
   they really play (random or greedy), so it also knows the opponents' policy.  These stand
   beside section 3's honest agents: how far the observation leaves them below a search that
   sees.

Usage: python benchmarks/bench_links.py [--quick] [--games N] [--ceiling]   (--quick: a smoke test)
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from boardlab.analysis import engines  # noqa: E402
from boardlab.analysis.links import kernel  # noqa: E402
import functools  # noqa: E402

from boardlab.analysis.links.agents import AGENTS, DEFAULT_BUDGET, SeeingMCTS  # noqa: E402
from boardlab.analysis.links.batch import BATCH_BLOCK, BATCH_STREAM, block_deals, derive_seeds, tables_of  # noqa: E402
from boardlab.analysis.runner import default_workers, make_match, play_one, run, run_records  # noqa: E402
from boardlab.analysis.stats import wilson_interval  # noqa: E402
from boardlab.layouts import load  # noqa: E402

#: iterations per move of the searches that see every hand and the deck order (--ceiling)
SEEING_BUDGET = 4000
#: the rollout policy that plays the opponents as they play (self greedy in both)
TRUE_ROLLOUT = {"random": "self-greedy", "greedy": "greedy"}


def self_play_rate(game, games: int, workers: int) -> tuple[float, float]:
    """(games per second of the clock, games per CPU second of this process)."""
    started, cpu = time.perf_counter(), time.process_time()
    run(game, [AGENTS["random"]] * game.players, games, seed=1, workers=workers,
        agent_names=["random"] * game.players, progress=False)
    return games / (time.perf_counter() - started), games / (time.process_time() - cpu)


def kernel_rate(game, games: int) -> float:
    """The compiled games alone: deals dealt beforehand, no records, no summary."""
    t = tables_of(game)
    match = make_match(game, [AGENTS["random"]] * game.players, 1, agent_names=["random"] * game.players)
    _, _, rows = block_deals(game, match, range(games))
    keys = derive_seeds(1, BATCH_STREAM, range(games))
    positions = t.empty_positions(BATCH_BLOCK)
    started = time.perf_counter()
    for low in range(0, games, BATCH_BLOCK):
        high = min(low + BATCH_BLOCK, games)
        kernel.play_games(rows[low:high], keys[low:high], t.offsets, t.kinds, t.rules, t.hand_size,
                          positions[:high - low])
    return games / (time.perf_counter() - started)


def reference_rate(game, games: int) -> float:
    """The reference engine with the random agent, one game at a time (no compiled path)."""
    match = make_match(game, [AGENTS["random"]] * game.players, 1, agent_names=["random"] * game.players)
    started = time.perf_counter()
    for index in range(games):
        play_one(match, index)
    return games / (time.perf_counter() - started)


def mcts_rate(game, positions: int) -> float:
    agent = AGENTS["mcts"](game)
    rng = random.Random(1)
    searched = 0
    started = time.perf_counter()
    for _ in range(positions):
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        for _ in range(rng.randrange(12)):
            state.apply(state.legal_moves()[0])
        if not state.is_terminal():
            agent.search(state.observation(), rng)
            searched += 1
    return searched * agent.iterations / (time.perf_counter() - started)


def twin_rates(game, positions: int, iterations: int) -> tuple[float, float]:
    """Iterations per second of `kernel.search` and of its Python twin, on the same positions."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_links_kernel import reference_search

    from boardlab.analysis.links.batch import pack

    t = tables_of(game)
    rng = random.Random(2)
    roots = []
    for _ in range(positions):
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        for _ in range(rng.randrange(8)):
            state.apply(state.legal_moves()[0])
        seen = state.observation()
        roots.append((game.determinise(seen, rng), seen.unseen()))
    seconds = [0.0, 0.0]
    for root, pool in roots:
        m = len(root.legal_moves())
        visits, values = np.zeros(m, dtype=np.int64), np.zeros(m)
        started = time.perf_counter()
        kernel.search(pack(root), t.offsets, t.kinds, t.rules, np.array(pool, dtype=np.int64), iterations,
                      np.uint64(7), 0.7, 1, 0.5, visits, values)
        seconds[0] += time.perf_counter() - started
        started = time.perf_counter()
        reference_search(root, pool, iterations, 7, 0.7, 1, 0.5)
        seconds[1] += time.perf_counter() - started
    return positions * iterations / seconds[0], positions * iterations / seconds[1]


def series_cpu(players: int, games: int) -> tuple[float, float, bool]:
    """CPU seconds of ismcts-64 against mcts-64 (one ismcts seat) by the reference path and by
    the runner's compiled agent games (both warmed on two games first), and whether the records
    are equal."""
    game = engines.make_game(load("links"), players)
    names = ["ismcts-64"] + ["mcts-64"] * (players - 1)
    match = make_match(game, [AGENTS[n] for n in names], 1, agent_names=names)
    for index in range(2):
        play_one(match, index)
    run_records(game, [AGENTS[n] for n in names], 2, seed=1, workers=1, agent_names=names, progress=False)
    cpu = time.process_time()
    slow = [play_one(match, index) for index in range(games)]
    reference = time.process_time() - cpu
    cpu = time.process_time()
    fast, _ = run_records(game, [AGENTS[n] for n in names], games, seed=1, workers=1, agent_names=names,
                          progress=False)
    return reference, time.process_time() - cpu, fast == slow


def seeing(sees: str, opponent: str, game) -> SeeingMCTS:
    """The upper-bound search (see the module docstring) against three `opponent`s."""
    if sees == "all":
        return SeeingMCTS(SEEING_BUDGET, "all", rollout=TRUE_ROLLOUT[opponent], margin=0.0)
    return SeeingMCTS(DEFAULT_BUDGET, "hands", rollout=TRUE_ROLLOUT[opponent])


def table(game, agent: str, opponent: str, games: int, workers: int, factory=None) -> dict:
    """One `agent` against three `opponent`s, the agent in every seat of every deal."""
    names = [agent] + [opponent] * (game.players - 1)
    records, summary = run_records(game, [factory or AGENTS[agent]] + [AGENTS[opponent]] * (game.players - 1),
                                   games, seed=1, workers=workers, agent_names=names, progress=False)
    alone = shared = beaten = pairs = 0
    for r in records:
        seat = r.agents.index(agent)
        scores = r.stats["scores"]
        alone += r.winners == (seat,)
        shared += seat in r.winners and len(r.winners) > 1
        beaten += sum(scores[seat] > s for i, s in enumerate(scores) if i != seat)
        pairs += len(scores) - 1
    return {"games": len(records), "alone": alone, "shared": shared, "beaten": beaten, "pairs": pairs,
            "unfinished": summary["unfinished"]}


def describe(name: str, opponent: str, t: dict, seconds: float) -> str:
    lo, hi = wilson_interval(t["alone"], t["games"])
    plo, phi = wilson_interval(t["beaten"], t["pairs"])
    return (f"  {name} vs 3 {opponent}: won alone {t['alone']}/{t['games']} = {t['alone'] / t['games']:.1%} "
            f"(95% CI {lo:.1%} .. {hi:.1%}), shared {t['shared']}; scored more than an opponent in "
            f"{t['beaten']}/{t['pairs']} = {t['beaten'] / t['pairs']:.1%} (95% CI {plo:.1%} .. {phi:.1%}); "
            f"{seconds:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few games: a smoke test, not figures")
    parser.add_argument("--games", type=int, default=200, help="games per agent table (default 200)")
    parser.add_argument("--ceiling", action="store_true",
                        help="also the upper bounds: the search shown the other hands, and every hand and the deck")
    args = parser.parse_args()
    quick = args.quick
    cores = default_workers()
    four = engines.make_game(load("links"), 4)
    print(f"Links benchmark ({cores} cores{', quick' if quick else ''})")

    self_play_rate(four, 4096, 1)  # warm-up: compiled functions and imports
    games = 8192 if quick else 50_000
    repeats = 1 if quick else 3
    one, one_cpu = (max(rates) for rates in zip(*(self_play_rate(four, games, 1) for _ in range(repeats))))
    every = max(self_play_rate(four, games, cores)[0] for _ in range(repeats))
    core = max(kernel_rate(four, 8192 if quick else 20_000) for _ in range(repeats))
    slow = reference_rate(four, 200 if quick else 2000)
    print(f"random self-play, 4 players, default rules ({games} games, best of {repeats} runs):")
    print(f"  compiled path, 1 process     {one:10,.0f} games/s   (boardlab simulate: deals, records, summary)")
    print(f"  the same per CPU second      {one_cpu:10,.0f} games/s   (what the process got of a shared machine)")
    print(f"  compiled path, {cores} processes   {every:10,.0f} games/s")
    print(f"  compiled games alone         {core:10,.0f} games/s   (1 process; no deals, records or summary)")
    print(f"  reference engine, 1 process  {slow:10,.0f} games/s")

    rate = mcts_rate(four, 3 if quick else 30)
    print(f"MCTS, budget {DEFAULT_BUDGET}, greedy rollouts, 4 players: {rate:,.0f} iterations/s (1 process)")

    fast, slow = twin_rates(four, 2 if quick else 5, 200)
    print(f"  the compiled search {fast:,.0f} iterations/s, its Python twin {slow:,.0f}: {fast / slow:,.0f}x faster")

    series = 8 if quick else 120
    print(f"ismcts-64 against mcts-64, {series} games, 1 process (CPU seconds; the skill trace's costliest step):")
    for players in (2, 4):
        slow_cpu, fast_cpu, same = series_cpu(players, series)
        print(f"  {players} players: reference path (Python agents) {slow_cpu:6.1f} s, compiled agent games "
              f"{fast_cpu:6.1f} s: {slow_cpu / fast_cpu:4.1f}x; records {'equal' if same else 'DIFFERENT'}")

    n = 16 if quick else args.games
    print(f"agent strength, 4 players, {n} games per line (each deal once with the agent in every seat):")
    for opponent in ("random", "greedy"):
        for agent in ("mcts", "ismcts", "greedy") if opponent == "random" else ("mcts", "ismcts"):
            started = time.perf_counter()
            t = table(four, agent, opponent, n, cores)
            print(describe(agent, opponent, t, time.perf_counter() - started))
    if args.ceiling:
        print(f"upper bounds, 4 players, {n} games per line (a search that reads what a player cannot see; "
              "its rollouts play the opponents' real policy):")
        for sees, label in (("hands", f"sees the other hands, budget {DEFAULT_BUDGET}"),
                            ("all", f"sees every hand and the deck order, budget {SEEING_BUDGET}")):
            for opponent in ("random", "greedy"):
                started = time.perf_counter()
                t = table(four, f"sees-{sees}", opponent, n, cores, functools.partial(seeing, sees, opponent))
                print(describe(f"search that {label},", opponent, t, time.perf_counter() - started))


if __name__ == "__main__":
    main()
