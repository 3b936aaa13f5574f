"""The C twin of 6x6 that `make bench` times boardlab against (benchmarks/sixbysix_twin.c) plays
the same rules: its figures agree with the compiled engine's within chance (no time is asserted).

The twin draws its own random numbers, so the comparison is statistical: per lead rule, each
seat's share of the finished games and the mean length, on 3,000 games each, by Welch/pooled z
(below 4.5: a wrong rule moves them by far more; a twin told that the house takes an unclaimed
bank, instead of carrying it over, gave |z| 58 and 30 on these two configurations).
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from boardlab.analysis import engines
from boardlab.analysis.runner import make_match
from boardlab.analysis.sixbysix import kernel
from boardlab.analysis.sixbysix.engine import SixBySixGame
from boardlab.layouts import load

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_sixbysix.py"


def bench_module():
    spec = importlib.util.spec_from_file_location("bench_sixbysix", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")), reason="no C compiler")
@pytest.mark.parametrize("lead, players, agent", [("fixed", 6, "greedy"), ("rotate", 3, "random")])
def test_the_c_twin_plays_the_rules_of_the_engine(tmp_path, capsys, lead, players, agent):
    bench = bench_module()
    program = bench.build(tmp_path)
    game = SixBySixGame(load("sixbysix"), players, lead=lead, compare_lead=False)
    agents = [engines.agent_factories("sixbysix")[agent]] * players
    choosers = kernel.choosers_of(make_match(game, agents, 1))
    games = 3000
    figures, _ = bench.run_twin(program, bench.twin_input(game, choosers, games, 7))
    assert figures["games"] == games and len(figures["wins"]) == players
    ours = bench.engine_figures(game, agents, games, 3)
    assert bench.agreement(ours, figures, f"lead {lead}") < 4.5
    assert f"lead {lead}" in capsys.readouterr().out
