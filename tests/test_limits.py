"""Absurd counts are refused at once with one line and exit 2, never tried until memory runs out."""

from __future__ import annotations

import pytest

from boardlab.analysis.agents import AgentTable
from boardlab.analysis.runner import MAX_GAMES, run_records
from boardlab.analysis.tables import MAX_DEALS
from boardlab.cli import main

HUGE = str(10 ** 12)


@pytest.mark.parametrize("argv,message", [
    (["simulate", "blockd", "--games", HUGE], f"--games: at most {MAX_GAMES:,}"),
    (["tables", "blockd", "--deals", HUGE], f"--deals: at most {MAX_DEALS:,}"),
    (["compare", "blockd", "blockd-flat", "--games", HUGE], f"--games: at most {MAX_GAMES:,}"),
    (["report", "blockd", "--deals", HUGE], f"--deals: at most {MAX_DEALS:,}"),
    (["simulate", "blockd", "--games", "2", "--agents", "mcts-" + HUGE],
     f"the N of mcts-N is a whole number from 1 to {AgentTable.MAX_NUMBER:,}"),
])
def test_absurd_counts_are_one_line_and_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as done:
        code = main(argv)
        raise SystemExit(code)
    err = capsys.readouterr().err
    assert done.value.code == 2 and err.count("\n") == 1 and message in err


def test_the_runner_refuses_too_many_games_too():
    with pytest.raises(ValueError, match="games must be between 0 and"):
        run_records(None, [], MAX_GAMES + 1, seed=1)
