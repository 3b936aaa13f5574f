"""`make bench`: speed and agent-strength figures of the fast paths, with their targets (printed).

Every rate is measured twice: by the wall clock and by the process's CPU time.  On a shared
machine the wall clock counts the time other people's processes held the cores; the CPU time
counts only this process's own work, so ratios of CPU rates measured in the same run are the
fairer comparison (both are printed; neither is asserted).

1. the anchor: OpenSpiel's C++ `random_sim_test` on connect_four (random playouts per
   second), when the optional `open_spiel` package is installed (`pip install -e '.[bench]'`);
   a checking harness (it clones and compares states at every move), so slower than a plain
   C++ rollout: the ratio against it flatters boardlab, and says so;
2. Blockd random self-play, 4 players, default rules: through `runner.run` in one process as
   `boardlab simulate --workers 1` runs it (deals and the summary tally included), the
   compiled games alone, and the reference engine one game at a time;
3. every shipped game's search at its skilled level (the level its committed report reached:
   Blockd, Deblockle and Links mcts-64, Links ismcts-64, 6x6 search-32; Blockd's default
   mcts-200 too), iterations per second as a game calls the agent (per decision: the position
   handed over, the search, the move back), on positions of random games; against OpenSpiel's
   C++ MCTSBot on connect_four, 200 simulations a move, random rollouts, in the same run (issue
   35's target: at least as many iterations per second of CPU). 6x6's search has no tree: an
   iteration is one round played for one candidate move and one sample of dice;
4. 6x6 self-play, 6 players: rounds per second as `boardlab simulate sixbysix --workers 1`
   plays them (both lead rules);
5. `boardlab tables blockd` with its default 1,000 deals and workers, and the first run of
   `boardlab simulate blockd` after install (numba compiling into an empty cache); a 6 x 6
   Blockd variant's first `simulate --games 10` (its walk tables built) and a second run (read
   from the disk cache);
6. MCTS (default budget) against random, greedy and MCTS at twice its budget: 2 players,
   seats alternated, win rate with its Wilson 95% interval.

Usage: python benchmarks/bench.py [--quick]   (--quick: fewer games, for a smoke test)
"""

from __future__ import annotations

import os

# one BLAS thread, so that "one process" means one core
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numba  # noqa: E402
import numpy as np  # noqa: E402

from boardlab.analysis import engines  # noqa: E402
from boardlab.analysis.blockd.agents import DEFAULT_BUDGET  # noqa: E402
from boardlab.analysis.blockd.batch import BATCH_BLOCK, BATCH_STREAM, deal_cards, derive_seeds  # noqa: E402
from boardlab.analysis.blockd.kernel import play_deals  # noqa: E402
from boardlab.analysis.runner import CHANCE_STREAM, Match, default_workers, play_one, run, run_records  # noqa: E402
from boardlab.layouts import load  # noqa: E402

#: targets of issue 13, printed beside the figures (never asserted)
ANCHOR_FACTOR = 8
MCTS_TARGET = 20_000
SIXBYSIX_TARGET = 200_000
TABLES_TARGET = 10.0
FIRST_RUN_TARGET = 20.0
SIX_TARGET = 5.0  # seconds: a 6 x 6 Blockd variant's first `simulate --games 10` (issue 27)


def timed(work, repeats: int = 1) -> tuple[float, float]:
    """(best wall seconds, best CPU seconds) of `work()` over `repeats` runs."""
    wall = cpu = float("inf")
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        work()
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
    return wall, cpu


def line(label: str, count: float, seconds: tuple[float, float], unit: str, note: str = "") -> tuple[float, float]:
    wall, cpu = count / seconds[0], count / seconds[1]
    print(f"  {label:<44} {wall:12,.0f} {cpu:12,.0f}  {unit}{note}")
    return wall, cpu


def machine() -> str:
    model = "unknown CPU"
    try:
        for text in Path("/proc/cpuinfo").read_text().splitlines():
            if text.startswith("model name"):
                model = text.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load_avg = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return (f"{default_workers()} cores ({model}), load average {load_avg[0]:.1f}; Python {platform.python_version()},"
            f" numpy {np.__version__}, numba {numba.__version__}")


def anchor(sims: int) -> tuple[float, float] | None:
    """OpenSpiel's C++ random playouts of connect_four per second, or None without open_spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    pyspiel.random_sim_test(game, num_sims=100, serialize=False, verbose=False)  # warm-up
    seconds = timed(lambda: pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False), 3)
    return line("OpenSpiel C++ connect_four random playouts", sims, seconds, "games/s")


def mcts_bot_rate(quick: bool) -> tuple[float, float] | None:
    """OpenSpiel's C++ MCTSBot on connect_four, random rollouts (one per leaf), `DEFAULT_BUDGET`
    simulations a move from the empty board: iterations per second, or None without open_spiel.
    The search and its rollouts run in C++ (`bot.step`); only the call per move is Python's."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, DEFAULT_BUDGET, 1000, False, 1, False)
    moves = 5 if quick else 40

    def work():
        for _ in range(moves):
            bot.step(game.new_initial_state())
    work()  # warm-up
    return line(f"OpenSpiel C++ MCTSBot-{DEFAULT_BUDGET}, connect_four", moves * DEFAULT_BUDGET, timed(work, 3),
                "iterations/s")


def blockd_self_play(quick: bool) -> tuple[float, float]:
    game = engines.make_game(load("blockd"), 4)
    random_agent = [engines.agent_factories("blockd")["random"]] * 4
    games = 20_000 if quick else 100_000
    run(game, random_agent, BATCH_BLOCK, seed=1, workers=1, progress=False)  # warm-up: compiled code, tables
    through = line("simulate --workers 1 (runner: deals, summary)", games,
                   timed(lambda: run(game, random_agent, games, seed=1, workers=1, progress=False), 3), "games/s")
    cores = default_workers()
    line(f"simulate --workers {cores}", games,
         timed(lambda: run(game, random_agent, games, seed=1, workers=cores, progress=False), 1), "games/s",
         "  (CPU: the main process only)")
    cards = deal_cards(game, derive_seeds(1, CHANCE_STREAM, np.arange(games) // 4).tolist())
    keys = derive_seeds(1, BATCH_STREAM, np.arange(games))
    line("compiled games alone (kernel.play_deals)", games, timed(lambda: play_deals(game, cards, keys), 3), "games/s")
    moves_agent = engines.agent_factories("blockd")["random-moves"]
    match = Match(game, (moves_agent,) * 4, ("random-moves",) * 4, 1, True)
    slow = 300 if quick else 2000
    line("reference engine, one game at a time", slow,
         timed(lambda: [play_one(match, i) for i in range(slow)]), "games/s")
    return through


def decisions(game_id: str, players: int, count: int, seed: int = 1) -> list:
    """`count` positions of random games of a shipped game where the mover has more than one
    move (some at the start, most later): the decisions the searches are timed on."""
    game = engines.make_game(load(game_id), players)
    rng = random.Random(seed)
    found: list = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.current_player() < 0:
                state.apply(state.sample_chance(rng))
                continue
            moves = state.legal_moves()
            if len(moves) > 1 and rng.random() < 0.3:
                found.append(state.clone())
            state.apply(moves[rng.randrange(len(moves))])
    return found


def search_rate(label: str, game_id: str, players: int, agent_name: str, per_decision, quick: bool) -> tuple[float, float]:
    """Iterations per second of a game's search agent as a game calls it (`agent.choose`: the
    position handed over and the move back included), over positions of random games; a
    decision counts `per_decision(agent, state)` iterations."""
    game = engines.make_game(load(game_id), players)
    agent = engines.agent_factories(game_id)[agent_name](game)
    states = decisions(game_id, players, 8 if quick else 40)
    iterations = sum(per_decision(agent, state) for state in states)
    rng = random.Random(2)

    def work():
        for state in states:
            agent.choose(state, rng)
    work()  # warm-up: compiled code loaded, tables built
    return line(label, iterations, timed(work, 3), "iterations/s")


def search_rates(quick: bool) -> dict[str, tuple[float, float]]:
    """Each shipped game's skilled-level search (the level its committed report reached), and
    Blockd's default MCTS: iterations per second (see `search_rate`)."""
    from boardlab.analysis.sixbysix.search import candidates

    def budget(agent, state):
        return int(agent.name.rpartition("-")[2]) if agent.name[-1].isdigit() else DEFAULT_BUDGET

    def playouts(agent, state):  # 6x6's search: one round played per candidate and sample of dice
        return agent.samples * len(candidates(state))
    return {
        "blockd": search_rate(f"Blockd mcts-{DEFAULT_BUDGET}, 2 players", "blockd", 2, "mcts", budget, quick),
        "blockd-64": search_rate("Blockd mcts-64, 2 players", "blockd", 2, "mcts-64", budget, quick),
        "deblockle": search_rate("Deblockle mcts-64", "deblockle", 2, "mcts-64", budget, quick),
        "links": search_rate("Links mcts-64, 4 players", "links", 4, "mcts-64", budget, quick),
        "links-ismcts": search_rate("Links ismcts-64, 4 players", "links", 4, "ismcts-64", budget, quick),
        "sixbysix": search_rate("6x6 search-32 (playouts), 4 players", "sixbysix", 4, "search-32", playouts, quick),
    }


def sixbysix_rate(quick: bool) -> tuple[float, float]:
    game = engines.make_game(load("sixbysix"), 6)
    agents = [engines.agent_factories("sixbysix")["random"]] * 6
    games = 40 if quick else 300
    rounds = []

    def work():
        records, _ = run_records(game, agents, games, seed=1, workers=1, progress=False)
        rounds.append(sum(r.length + r.stats.get("other_lead", {}).get("rounds", 0) for r in records))
    seconds = timed(work, 2)
    return line("6x6 self-play, 6 players (both lead rules)", rounds[-1], seconds, "rounds/s")


def command_seconds(args: list[str], env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its worker processes) of one `boardlab` command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "boardlab.cli", *args], check=True, stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return time.perf_counter() - started, cpu


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def duel(game, names: list[str], games: int, workers: int) -> str:
    table = engines.agent_factories(game.id)
    started = time.perf_counter()
    summary = run(game, [table[n] for n in names], games, seed=1, workers=workers, agent_names=names,
                  progress=False)
    r = summary["win_rate_by_agent"][names[0]]
    lo, hi = r["ci95"]
    return (f"{names[0]} vs {names[1]}: {r['wins']}/{r['seats_played']} = {r['rate']:.1%} (95% CI {lo:.1%} .. "
            f"{hi:.1%}), unfinished {summary['unfinished']}, {time.perf_counter() - started:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few games: a smoke test, not figures")
    args = parser.parse_args()
    quick = args.quick
    print(f"boardlab benchmark{' (quick)' if quick else ''}: {machine()}")
    print(f"  {'measure':<44} {'wall clock':>12} {'CPU time':>12}")
    reference = anchor(3000 if quick else 20_000)
    if reference is None:
        print("  OpenSpiel is not installed (pip install -e '.[bench]'): no anchor measured in this run")
    print("Blockd random self-play, 4 players, default rules (best of 3):")
    blockd = blockd_self_play(quick)
    print("Search and 6x6:")
    bot = mcts_bot_rate(quick)
    rates = search_rates(quick)
    mcts = rates["blockd"]
    if bot is None:
        print("  OpenSpiel is not installed: its MCTSBot is not measured in this run")
    sixbysix = sixbysix_rate(quick)
    print("Commands (seconds; CPU: the command and its workers together):")
    tables = command_seconds(["tables", "blockd", "--format", "json"])
    print(f"  boardlab tables blockd (1,000 deals, every core)  {tables[0]:6.1f} s wall {tables[1]:6.1f} s CPU")
    with tempfile.TemporaryDirectory() as empty:  # numba compiles everything again into an empty cache
        first = command_seconds(["simulate", "blockd", "--games", "1000", "--json"],
                                env={**os.environ, "NUMBA_CACHE_DIR": empty})
    print(f"  first simulate blockd with an empty numba cache   {first[0]:6.1f} s wall {first[1]:6.1f} s CPU")
    with tempfile.TemporaryDirectory() as folder:  # a 6 x 6 torus of 3 suits: walks of up to 10 steps
        variant = Path(folder) / "blockd-six.toml"
        variant.write_text('extends = "blockd"\n[game]\nmax_players = 3\n[board]\nrows = 6\ncolumns = 6\n[cards]\n'
                           'suits = ["red", "blue", "green"]\nvalues = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nblind = 3\n')
        env = {**os.environ, "BOARDLAB_CACHE": str(Path(folder) / "cache")}
        six = [command_seconds(["simulate", "blockd", "--variant", str(variant), "--games", "10", "--json"], env=env)
               for _ in range(2)]
    print(f"  simulate 6 x 6 Blockd variant, 10 games, first     {six[0][0]:6.1f} s wall {six[0][1]:6.1f} s CPU")
    print(f"  the same again (walk tables from the disk cache)  {six[1][0]:6.1f} s wall {six[1][1]:6.1f} s CPU")

    print("Targets (issue 13; wall clock and CPU time as measured above):")
    if reference is not None:
        for i, clock in enumerate(("wall clock", "CPU time")):
            ratio = blockd[i] / reference[i]
            print(f"  Blockd self-play / OpenSpiel connect_four random_sim_test ({clock}): {ratio:.1f}x, target "
                  f"{ANCHOR_FACTOR}x: {verdict(ratio >= ANCHOR_FACTOR)} (random_sim_test is a checking harness that "
                  "clones and compares states at every move, not a plain C++ rollout: this ratio flatters boardlab)")
    if bot is not None:
        print("  MCTS iterations per second of CPU / OpenSpiel's C++ MCTSBot on connect_four, same run (issue 35: at "
              "least 1x; different games: a rollout's length and move generation differ):")
        for key, figure in rates.items():
            ratio = figure[1] / bot[1]
            print(f"    {key:<14} {figure[1]:>12,.0f} / {bot[1]:,.0f} = {ratio:.2f}x: {verdict(ratio >= 1)}")
    for label, figure, target in (("MCTS iterations/s", mcts, MCTS_TARGET),
                                  ("6x6 rounds/s", sixbysix, SIXBYSIX_TARGET)):
        print(f"  {label}: {figure[0]:,.0f} wall, {figure[1]:,.0f} CPU; target {target:,}: "
              f"{verdict(figure[0] >= target)} (wall), {verdict(figure[1] >= target)} (CPU)")
    for label, (wall, cpu), target in (("tables blockd", tables, TABLES_TARGET),
                                       ("first run (compiling)", first, FIRST_RUN_TARGET),
                                       ("6 x 6 variant's first simulate (issue 27)", six[0], SIX_TARGET)):
        print(f"  {label}: {wall:.1f} s wall, {cpu:.1f} s CPU; target under {target:.0f} s: "
              f"{verdict(wall < target)} (wall), {verdict(cpu < target)} (CPU)")

    print("Agent strength, 2 players, seats alternated:")
    two = engines.make_game(load("blockd"), 2)
    duel_games = 20 if quick else 200
    for opponent in ("random", "greedy"):
        print("  " + duel(two, ["mcts", opponent], duel_games, default_workers()))
    print("  " + duel(two, [f"mcts-{2 * DEFAULT_BUDGET}", "mcts"], duel_games // 2, default_workers()))
    print(f"finished; load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
