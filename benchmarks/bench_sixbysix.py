"""`make bench`: 6x6 self-play against a plain C program of the same rules (benchmarks/sixbysix_twin.c).

The C program is built here with the system's C compiler (`cc -O2`; without one this says so and
measures only boardlab). Both play the definition's 6x6 with 6 players and its model agent
(`analysis.agent`, greedy) in every seat, under both lead rules as `boardlab simulate sixbysix`
plays every game (the second replay gives the lead-rule comparison), each in one process:

- boardlab as `simulate --workers 1` plays it (`runner.run`: seeds, the compiled games, the
  summary tally), and the compiled games alone (`kernel.play_arrays`);
- the C twin, given the engine's own tables of the agents' choices (so it decides nothing the
  engine does not), with its own random numbers (xoshiro256**; boardlab draws CPython's Mersenne
  Twister, so that its games are the reference engine's, game for game).

The time is the process's CPU time (user + system; on a shared machine the wall clock counts
other people's work too), per game of `simulate` (both lead rules). The twin's figures are
checked against boardlab's before any ratio is printed: per lead rule, each seat's share of the
finished games and the mean length (Welch z below 4 for each), so the C program is a twin of the
same rules and not a faster game of other rules. The target (issue 35) is boardlab at most 2x the
C program's time; it is printed, never asserted.

Usage: python benchmarks/bench_sixbysix.py [--quick]
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from boardlab.analysis import engines
from boardlab.analysis.runner import make_match, run
from boardlab.analysis.sixbysix import kernel
from boardlab.analysis.sixbysix.engine import SixBySixGame
from boardlab.layouts import load

TARGET = 2.0
SOURCE = Path(__file__).with_name("sixbysix_twin.c")
PLAYERS = 6


def build(folder: Path) -> Path | None:
    """The twin compiled into `folder`, or None when there is no C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None
    program = folder / "sixbysix_twin"
    subprocess.run([compiler, "-O2", "-o", str(program), str(SOURCE)], check=True)
    return program


def twin_input(game: SixBySixGame, choosers: list, games: int, seed: int) -> str:
    """The C program's input: the rules and the engine's own tables of the agents' choices."""
    faces, _, allowed, allowed_len, pref, pref_len, bestface, rules, _ = kernel._tables(game, choosers)
    n = game.players
    words = [games, seed, n, game.rules.chips, game.rules.max_rounds, int(game.lead == "fixed"),
             int(game.rules.unclaimed_bank == "house"), len(faces), *faces.tolist()]
    for k in range(1, n + 1):
        words += [int(allowed_len[k]), *allowed[k, :allowed_len[k]].tolist()]
    for s in range(n):
        for k in range(1, n + 1):
            length = int(pref_len[s, k])
            words += [length, *(pref[s, k, :length].tolist() if length > 0 else [])]
    words.append(bestface.shape[1])
    for k in range(1, n + 1):
        words += bestface[k].tolist()
    return " ".join(str(w) for w in words)


def run_twin(program: Path, text: str) -> tuple[dict, float]:
    """(figures, CPU seconds) of one run of the C program."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([str(program)], input=text, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    words = done.stdout.split()
    figures = {words[i]: int(words[i + 1]) for i in range(0, words.index("wins"), 2)}
    figures["wins"] = [int(w) for w in words[words.index("wins") + 1:]]
    return figures, cpu


def engine_figures(game: SixBySixGame, agents: list, games: int, seed: int) -> dict:
    """The same figures as the twin's, and the lengths, from the compiled engine (one lead rule)."""
    match = make_match(game, agents, seed)
    out = kernel.play_arrays(match, list(range(games)), kernel.choosers_of(match))[0]
    finished = out[:, kernel.UNFINISHED] == 0
    winner = kernel.single_winner(out, game.players)
    lengths = out[finished, kernel.ROUNDS]
    return {"games": games, "unfinished": int((~finished).sum()), "wins": np.bincount(winner[winner >= 0],
            minlength=game.players).tolist(), "mean": float(lengths.mean()), "sd": float(lengths.std(ddof=1))}


def agreement(ours: dict, theirs: dict, label: str) -> float:
    """The largest |z| between boardlab's figures and the twin's (shares by seat, mean length)."""
    worst = 0.0
    n1, n2 = ours["games"] - ours["unfinished"], theirs["games"] - theirs["unfinished"]
    for seat, (a, b) in enumerate(zip(ours["wins"], theirs["wins"])):
        p1, p2 = a / n1, b / n2
        pooled = (a + b) / (n1 + n2)
        se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2)) or 1.0
        worst = max(worst, abs(p1 - p2) / se)
    mean2 = theirs["rounds_of_finished"] / n2
    se = ours["sd"] * math.sqrt(1 / n1 + 1 / n2)
    worst = max(worst, abs(ours["mean"] - mean2) / se)
    print(f"  {label}: mean length {ours['mean']:.1f} rounds (boardlab) and {mean2:.1f} (C); seat shares "
          f"{', '.join(f'{w / n1:.1%}' for w in ours['wins'])} (boardlab) and "
          f"{', '.join(f'{w / n2:.1%}' for w in theirs['wins'])} (C); largest |z| {worst:.1f}")
    return worst


def cpu_of(work) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games, for a smoke test")
    games = 4_000 if parser.parse_args().quick else 20_000
    definition = load("sixbysix")
    agent = definition.analysis.agent
    factory = engines.agent_factories("sixbysix")[agent]
    game = engines.make_game(definition, PLAYERS)
    agents = [factory] * PLAYERS
    load_avg = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"6x6 against a plain C program of its rules: {PLAYERS} players, {agent} in every seat, both lead rules, "
          f"{games:,} games, one process each, CPU time (load average {load_avg} on {os.cpu_count()} cores)")
    run(game, agents, 64, seed=1, workers=1, progress=False)  # warm-up: the compiled code read from the cache
    ours = cpu_of(lambda: run(game, agents, games, seed=1, workers=1, progress=False))
    print(f"  boardlab, as simulate --workers 1 plays it: {ours:6.2f} s CPU, {ours / games * 1e6:7.1f} us a game")
    leads = [SixBySixGame(definition, PLAYERS, lead=lead, compare_lead=False) for lead in ("fixed", "rotate")]
    alone = sum(cpu_of(lambda g=g: kernel.play_arrays(make_match(g, agents, 1), list(range(games)),
                                                       kernel.choosers_of(make_match(g, agents, 1)))) for g in leads)
    print(f"  the compiled games alone (kernel.play_arrays): {alone:6.2f} s CPU, {alone / games * 1e6:7.1f} us a game")
    with tempfile.TemporaryDirectory() as folder:
        program = build(Path(folder))
        if program is None:
            print("  no C compiler (cc, gcc or clang) here: the twin is not measured and no ratio is printed")
            return
        theirs = 0.0
        worst = 0.0
        for g in leads:
            choosers = kernel.choosers_of(make_match(g, agents, 1))
            figures, cpu = run_twin(program, twin_input(g, choosers, games, 1))
            theirs += cpu
            worst = max(worst, agreement(engine_figures(g, agents, games, 1), figures, f"lead {g.lead}"))
    print(f"  the C twin (cc -O2): {theirs:6.2f} s CPU, {theirs / games * 1e6:7.1f} us a game")
    if worst >= 4:
        print(f"  the twin's figures differ from boardlab's (|z| {worst:.1f} >= 4): no ratio printed; the twin or "
              "the engine is wrong")
        sys.exit(1)
    ratio = ours / theirs
    print(f"  boardlab / C: {ratio:.2f}x (the compiled games alone {alone / theirs:.2f}x); target at most {TARGET}x: "
          f"{'met' if ratio <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
