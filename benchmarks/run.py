"""`make bench`: run every benchmark of this folder (bench*.py, bench.py first), show each one's
output as it comes, and write it all to benchmarks/RESULTS.md, the speed figures of record.

The figures are of the machine that ran it (its cores and Python are named at the top of the
file), never asserted by a test: `make test` holds no wall-clock bound.  A benchmark that fails
is recorded with its exit status, and this exits with the first failure's status after the rest
have run.

    python benchmarks/run.py [--out FILE] [SCRIPT ...]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def benchmarks(folder: Path = HERE) -> list[Path]:
    """The benchmark scripts of `folder`: bench.py first, then every other bench*.py by name."""
    found = sorted(folder.glob("bench*.py"))
    return sorted(found, key=lambda p: (p.name != "bench.py", p.name))


def run_one(script: Path) -> tuple[str, int]:
    """Run one benchmark with this Python, echoing its output line by line; (output, exit status)."""
    lines: list[str] = []
    with subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          cwd=script.parent.parent) as process:
        assert process.stdout is not None
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.append(line)
    return "".join(lines), process.returncode


def results_markdown(runs: list[tuple[str, str, int]], when: datetime.datetime) -> str:
    """RESULTS.md from (script name, output, exit status) of each benchmark."""
    head = ["# Benchmark results", "",
            f"Written by `make bench` (benchmarks/run.py) on {when:%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
            f"Python {platform.python_version()} on {platform.system()}. Every figure is of that machine; "
            "each benchmark prints its targets beside its figures.", ""]
    parts = []
    for name, output, status in runs:
        parts += [f"## {name}", ""]
        if status:
            parts += [f"**Failed** (exit status {status}); its output up to then:", ""]
        parts += ["```text", output.rstrip("\n"), "```", ""]
    return "\n".join(head + parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the benchmarks and write their figures to a Markdown file.")
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS.md", help="the file written (default: %(default)s)")
    parser.add_argument("scripts", nargs="*", type=Path, help="benchmarks to run (default: every bench*.py here)")
    args = parser.parse_args(argv)
    runs, failed = [], 0
    for script in args.scripts or benchmarks():
        output, status = run_one(script.resolve())
        runs.append((script.name, output, status))
        failed = failed or status
    args.out.write_text(results_markdown(runs, datetime.datetime.now(datetime.timezone.utc)), encoding="utf-8")
    print(f"wrote {args.out}")
    return failed


if __name__ == "__main__":
    sys.exit(main())
