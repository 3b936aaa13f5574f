"""`make bench`: the start-up of the command line, the CPU time of the commands that do little.

`boardlab list`, `boardlab check layouts/blockd.toml`, `boardlab --help`, `boardlab --version`,
`boardlab report --help` and, for the commands that compute, `boardlab simulate GAME --games 1
--workers 1` of every game (the whole run: an upper bound of the start-up before the first game,
target 0.5 s) are each run as the installed command runs them (a fresh interpreter), once to write the
bytecode caches (with PYTHONDONTWRITEBYTECODE set every run would compile boardlab's own modules
again, which no installed copy does) and then 5 times; the least CPU
time of the process (user + system) is printed against the target of 0.3 s, then the largest
imports left, from `python -X importtime` (cumulative microseconds, the command's own modules
and the libraries they bring).

Usage: python benchmarks/bench_startup.py
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

TARGET_CPU = 0.3
COMMANDS = (["list"], ["check", "layouts/blockd.toml"], ["--help"], ["--version"], ["report", "--help"])
#: the commands that compute: their whole run of one game (an upper bound of the CPU spent
#: before the first game), against the 0.5 s of issue 35
COMPUTE_TARGET_CPU = 0.5
COMPUTING = tuple(["simulate", game, "--games", "1", "--workers", "1"] for game in ("blockd", "sixbysix", "links",
                                                                                      "deblockle"))
START = [sys.executable, "-c", "import sys; from boardlab.entry import main; sys.exit(main())"]
#: the children's environment: bytecode caches written and read, as an installed command has them
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_seconds(args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of `boardlab ARGS` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(START + args, check=True, stdout=subprocess.DEVNULL, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - started, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def largest_imports(args: list[str], count: int = 5) -> list[tuple[int, str]]:
    """The `count` top-level imports that took longest (cumulative microseconds) under -X importtime."""
    done = subprocess.run([sys.executable, "-X", "importtime"] + START[1:] + args, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=True, env=ENV)
    found = []
    for row in done.stderr.splitlines():
        if not row.startswith("import time:") or "cumulative" in row:
            continue
        _, cumulative, name = row[len("import time:"):].split("|")
        if not name.startswith("  "):  # a top-level import: what the command itself asked for
            found.append((int(cumulative), name.strip()))
    return sorted(found, reverse=True)[:count]


def main() -> None:
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"Start-up of the command line (best of 5 fresh processes; CPU = user + system of the process; "
          f"load average {load} on {os.cpu_count()} cores):")
    for args in COMMANDS + COMPUTING:
        target = COMPUTE_TARGET_CPU if args in COMPUTING else TARGET_CPU
        cpu_seconds(args)  # writes the bytecode caches (and numba's, were they missing)
        runs = [cpu_seconds(args) for _ in range(5)]
        wall = min(w for w, _ in runs)
        cpu = min(c for _, c in runs)
        label = "boardlab " + " ".join(args)
        verdict = "met" if cpu < target else "NOT met"
        print(f"  {label:<48} {cpu:5.2f} s CPU {wall:5.2f} s wall; target under {target} s CPU: {verdict}")
        imports = ", ".join(f"{name} {micro / 1000:.0f} ms" for micro, name in largest_imports(args))
        print(f"      largest imports (python -X importtime, cumulative): {imports}")


if __name__ == "__main__":
    main()
