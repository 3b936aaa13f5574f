"""Start-up: the commands that do little import only what they use.

`boardlab list`, `check`, `--help` and `--version` must not load numpy, scipy, numba, reportlab
or dask (their CPU time is measured by `make bench`, benchmarks/bench_startup.py, never by a
timed test).  Every command's own `--help` is tried too: a command module that imports a heavy
library at its top slows every command, since `boardlab --help` reads every command's line.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from boardlab.cli import COMMANDS

HEAVY = ("numpy", "scipy", "numba", "reportlab", "dask", "distributed", "networkx", "svgwrite", "pypdfium2",
         "starlette", "uvicorn")

#: what a command's --help may load, because that help shows it: simulate lists every engine's
#: agents (Links' agents module works on numpy arrays; the compiled kernels, numba, load only when a
#: game is played); export lists the games whose print module draws a Tabletop Simulator box
#: (reportlab). compare and report state the defaults of their options without the statistics
#: (scipy.stats is imported where a test is computed)
HELP_NEEDS = {
    "simulate": {"numpy"},
    "export": {"reportlab", "svgwrite"},
}

PROBE = """
import contextlib, io, json, sys
from boardlab.entry import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        code = main()
    except SystemExit as done:
        code = done.code
print(json.dumps({"code": code, "modules": sorted({m.split('.')[0] for m in sys.modules})}))
"""


def loaded(*argv: str) -> tuple[int, set[str]]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout.splitlines()[-1])
    return answer["code"], set(answer["modules"]) & set(HEAVY)


#: `check` of 6x6 and Deblockle (whose analysis.agent is not "random") imports their engines to look
#: the agent up: the engines, the runner and the tallies import numpy only where they compute
@pytest.mark.parametrize("argv", [["list"], ["list", "--ids"], ["check", "layouts/blockd.toml"],
                                  ["check", "layouts/links.toml"], ["check", "layouts/sixbysix.toml"],
                                  ["check", "layouts/deblockle.toml"], ["check", "blockd-flat"], ["--help"],
                                  ["--version"], []])
def test_the_light_commands_load_no_heavy_library(argv):
    code, heavy = loaded(*argv)
    assert code == (2 if not argv else 0)
    assert heavy == set(), f"boardlab {' '.join(argv)} loaded {sorted(heavy)}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_loads_only_what_it_shows(command):
    code, heavy = loaded(command, "--help")
    assert code == 0
    assert heavy <= HELP_NEEDS.get(command, set()), f"boardlab {command} --help loaded {sorted(heavy)}"
