"""`make bench`: both cores. 10^6 Blockd games on one worker, two local workers and a local Dask cluster.

Each run is `boardlab simulate blockd --games 1000000 --json` as a user types it (a fresh process:
start-up, the pool's or the cluster's start, the games, the summary), with `--workers 1`,
`--workers 2` and `--cluster local --workers 2`, the three interleaved (one of each per round,
so that a change in the machine's load falls on all three alike) and the best of the rounds
kept. The time is the wall clock (what the second core is for); the CPU time of the command and
all its processes is printed beside it. The summaries of the three must be the same but for the
seconds (one seed, whatever the worker count or backend): a difference is printed and fails.

The targets (issue 35): two local workers at least 1.7x one (wall clock); the local Dask
cluster within 1.3x of the local pool's time. Printed, never asserted. On a machine whose
cores other processes keep busy the wall clock cannot show a second core's worth: the load
average at the start and the end is printed, and so is what the runs would take on free cores
by their CPU time (one worker: its CPU time; two: half the games' CPU time, plus what is not
shared out, the command's own start-up and its summary).

Usage: python benchmarks/bench_workers.py [--quick] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

TWO_TARGET = 1.7
DASK_TARGET = 1.3
START = [sys.executable, "-c", "import sys; from boardlab.entry import main; sys.exit(main())"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def command(args: list[str]) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of the command and its children, its JSON summary)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(START + args, check=True, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, json.loads(done.stdout)


def same(a: dict, b: dict) -> bool:
    """Equal summaries but for the seconds they took."""
    return {k: v for k, v in a.items() if k != "seconds"} == {k: v for k, v in b.items() if k != "seconds"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^5 games, one round: a smoke test")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (the best is kept)")
    args = parser.parse_args()
    games = 100_000 if args.quick else 1_000_000
    rounds = 1 if args.quick else args.rounds
    try:
        import distributed  # noqa: F401
        dask = True
    except ImportError:
        dask = False
    runs = {"one worker": ["--workers", "1"], "two workers": ["--workers", "2"]}
    if dask:
        runs["local Dask cluster, 2 workers"] = ["--cluster", "local", "--workers", "2"]
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"Both cores: boardlab simulate blockd --games {games:,} --json, each configuration {rounds} time(s), "
          f"interleaved, best kept (load average {load} on {os.cpu_count()} cores at the start)")
    base = ["simulate", "blockd", "--games", str(games), "--json"]
    # bytecode and numba caches read once before timing; then the start-up: one game's whole run
    startup = min(command(base + ["--games", "1", "--workers", "1"])[1] for _ in range(3))
    best: dict[str, tuple[float, float, float]] = {}
    summaries: dict[str, dict] = {}
    for _ in range(rounds):
        for label, extra in runs.items():
            wall, cpu, summary = command(base + extra)
            summaries[label] = summary
            w, c, s = best.get(label, (float("inf"), float("inf"), float("inf")))
            best[label] = (min(w, wall), min(c, cpu), min(s, summary["seconds"]))
    reference = summaries["one worker"]
    for label, (wall, cpu, seconds) in best.items():
        print(f"  {label:<32} {wall:6.2f} s wall {cpu:6.2f} s CPU (all its processes); the games and summary "
              f"{seconds:6.2f} s wall, the rest (start-up, exit) {wall - seconds:5.2f} s")
    differing = [label for label, summary in summaries.items() if not same(summary, reference)]
    if differing:
        print(f"  the summaries differ from one worker's: {', '.join(differing)} (one seed must give one result)")
        sys.exit(1)
    print("  the summaries are identical (but for the seconds) whatever the workers or backend")
    one, two = best["one worker"], best["two workers"]
    ratio = one[0] / two[0]
    print(f"  two workers / one, wall clock: {ratio:.2f}x faster; target at least {TWO_TARGET}x: "
          f"{'met' if ratio >= TWO_TARGET else 'NOT met'}")
    # on two free cores, by the CPU times: the start-up (one game's whole run) is paid once before
    # the workers start; the games, and what the pool adds (its workers' own start), are shared out
    games_cpu = max(0.0, one[1] - startup)
    extra = max(0.0, two[1] - one[1])
    free = one[1] / (startup + (games_cpu + extra) / 2)
    # (S + G) / (S + (G + E) / 2) >= T  <=>  S <= (G - T (G + E) / 2) / (T - 1)
    allowed = (games_cpu - TWO_TARGET * (games_cpu + extra) / 2) / (TWO_TARGET - 1)
    print(f"  by the CPU times, on two free cores: one worker {one[1]:.2f} s = start-up {startup:.2f} s (a whole "
          f"one-game run) + games {games_cpu:.2f} s; two workers add {extra:.2f} s of CPU; so about "
          f"{one[1]:.2f} / ({startup:.2f} + ({games_cpu:.2f} + {extra:.2f}) / 2) = {free:.2f}x "
          f"({TWO_TARGET}x needs a start-up of at most {allowed:.2f} s with these games)")
    if dask:
        cluster = best["local Dask cluster, 2 workers"]
        ratio = cluster[0] / two[0]
        print(f"  local Dask cluster / local pool, wall clock: {ratio:.2f}x the time; target at most {DASK_TARGET}x: "
              f"{'met' if ratio <= DASK_TARGET else 'NOT met'} (by the CPU time of all their processes: "
              f"{cluster[1] / two[1]:.2f}x)")
    else:
        print("  Dask is not installed (pip install -e '.[cluster]'): the cluster is not measured")
    print(f"  load average at the end {', '.join(f'{v:.1f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
