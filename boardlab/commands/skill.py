"""`boardlab skill GAME`: the skill trace (a ladder of agents, ratings, depth, a chart)."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from boardlab.common.notes import note
from boardlab.arguments import (add_game_arguments, add_seed_argument, add_store_arguments, at_most, game_definition,
                                number_between, store_and_backend)
from boardlab.layouts.limits import MAX_AGENT_NUMBER, MAX_GAMES

#: defaults: games per level (a 50% share's 95% interval is then about +/- 5 points) and the top budget
GAMES = 400
MAX_BUDGET = 4096
#: CPU minutes the ladder's climb may take by default (each level is estimated before it is played)
CPU_MINUTES = 10.0

#: the command's line in `boardlab --help`
HELP = "the skill trace: agents of growing strength, each against the one below, rated"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "skill", help=HELP,
        description=textwrap.fill(
            "Play a ladder of agents (random, greedy, then a search with budgets doubling up to --max-budget, or "
            "until two consecutive levels gain nothing significant), each level against the one below (with "
            "more players: the level in one seat, the level below in the others, seats rotating), --games "
            "games and, while the step is undecided (neither a significant gain nor a gain that matters ruled "
            "out), on to 2 and 4 times as many. Print each "
            "level's share of the decided games with its 95% interval, Bradley-Terry ratings on the Elo scale "
            "with 95% intervals from all games, and the depth (levels significantly better than the one "
            "below); write the chart of rating against budget as SVG. Then restricted play: the full agent against "
            "the same agent barred from each optional element the game declares. Games go into the results "
            "store, so a rerun plays only what is missing.", 79))
    add_game_arguments(p, players="the game's fewest")
    p.add_argument("--games", type=at_most(MAX_GAMES), default=GAMES, metavar="N",
                   help=f"games per level at a step's first look (at most 4 times as many until the step is decided), "
                        f"rounded up to whole rotations of the seats (default: {GAMES})")
    p.add_argument("--max-budget", type=at_most(MAX_AGENT_NUMBER), default=MAX_BUDGET, metavar="B",
                   help=f"the largest MCTS budget of the ladder (default: {MAX_BUDGET})")
    p.add_argument("--budget", type=number_between(0, 10_000), default=CPU_MINUTES, metavar="MIN",
                   help=f"CPU minutes the ladder's climb may take (this process and its local workers): before "
                        f"each level its cost is estimated from a probe, and a level that would pass the budget is "
                        f"not played; the output says what the budget bought and left out (default: "
                        f"{CPU_MINUTES:g}; 0: no limit)")
    add_seed_argument(p)
    add_store_arguments(p)
    p.add_argument("--out", metavar="DIR", default="build/skill",
                   help="folder of the chart GAME-Np.svg (default: build/skill)")
    p.add_argument("--no-restricted", action="store_true",
                   help="leave out restricted play (the full agent against the same agent barred from each of "
                        "the game's optional elements, --games games each)")
    p.add_argument("--json", action="store_true", help="print the trace as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from boardlab.analysis import restricted, skill
    from boardlab.printkit.charts import chart_drawing, svg_text
    from boardlab.printkit.output import write_rendered

    definition = game_definition(args.game, args.variant)
    players = args.players if args.players is not None else definition.game.min_players
    definition.game.check_players(players)
    with store_and_backend(args) as (store, backend):
        result = skill.traces(definition, [players], args.games, args.max_budget, args.seed, store, backend,
                              progress=not args.json, cpu_minutes=args.budget or None)[players]
        if not args.no_restricted:
            result["restricted"] = restricted.effects(definition, players, args.games, args.seed, store, backend,
                                                      progress=not args.json)
    name = args.game if definition.variant == "baseline" else definition.variant
    chart = f"{name}-{players}p.svg"
    written = write_rendered({chart: svg_text(chart_drawing(skill.rating_chart(result))).encode()}, Path(args.out))
    if args.json:
        print(json.dumps(result, indent=1))
        note(f"chart: {written[0]}", file=sys.stderr)
    else:
        print(skill.describe(result))
        if "restricted" in result:
            print()
            print(restricted.describe(result["restricted"]))
        note(f"chart: {written[0]}")
    return 0
