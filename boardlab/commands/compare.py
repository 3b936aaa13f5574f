"""`boardlab compare GAME VARIANT...`: variants against the baseline on the same seeds."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from boardlab.arguments import (add_agent_argument, add_game_arguments, add_seed_argument, add_store_arguments, at_most,
                                game_definition, number_between, store_and_backend)
from boardlab.layouts import BoardlabError
from boardlab.layouts.limits import MAX_GAMES

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: the command's line in `boardlab --help`
HELP = "variants against the baseline: every headline metric with a verdict"


def register(subparsers: argparse._SubParsersAction) -> None:
    from boardlab.analysis.report.compare import CompareOptions  # the defaults the help states

    p = subparsers.add_parser(
        "compare", help=HELP,
        description="Play the baseline and each variant on the same seeds (same deals and dice, seats turned) "
                    "and print every headline metric with baseline, variant, difference, 95% interval and "
                    "verdict. --until-decided plays in batches until a sequential test (SPRT) on the first-seat "
                    "win share of decided games decides or the cap is reached.")
    add_game_arguments(p, players="the most every compared definition allows", variant=False)
    p.add_argument("variants", metavar="VARIANT", nargs="+",
                   help="variant files or names in layouts/variants/ (the game's own name: the baseline itself)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--games", type=at_most(MAX_GAMES), metavar="N", help=f"games per side (default: {CompareOptions.games})")
    how.add_argument("--until-decided", action="store_true",
                     help=f"play batches of {CompareOptions.batch} games until the SPRT decides "
                          f"(cap: {CompareOptions.cap} games)")
    p.add_argument("--delta", type=number_between(0, 1, inclusive=False), default=CompareOptions.delta, metavar="D",
                   help=f"SPRT indifference region: a change in seat 1's win share smaller than D does not matter "
                        f"(default: {CompareOptions.delta})")
    p.add_argument("--cap", type=at_most(MAX_GAMES), default=CompareOptions.cap, metavar="N",
                   help=f"most games per side with --until-decided (default: {CompareOptions.cap})")
    add_agent_argument(p)
    add_seed_argument(p)
    add_store_arguments(p)
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.set_defaults(run=run)


def common_players(baseline: GameDefinition, variants: Sequence[GameDefinition], players: int | None) -> int:
    """The player count of a comparison: `players` when every compared definition allows it, else
    the most players every one of them allows.

    :raises BoardlabError: for a count one of them does not allow, or definitions whose player
        ranges do not meet.
    """
    compared = [baseline, *variants]
    if players is not None:
        for definition in compared:
            try:
                definition.game.check_players(players)
            except BoardlabError as err:
                raise BoardlabError(f"{definition.variant}: {err}") from None
        return players
    low = max(d.game.min_players for d in compared)
    high = min(d.game.max_players for d in compared)
    if low > high:
        ranges = "; ".join(f"{d.variant}: {d.game.min_players} to {d.game.max_players}" for d in compared)
        raise BoardlabError(f"no player count suits every compared definition ({ranges})")
    return high


def run(args: argparse.Namespace) -> int:
    from boardlab.analysis.report.build import check_agent
    from boardlab.analysis.report.compare import CompareOptions, compare, compare_markdown
    from boardlab.analysis.report.options import model_agent

    baseline = game_definition(args.game, None)
    variants = [game_definition(args.game, v if v != args.game else None) for v in args.variants]
    players = common_players(baseline, variants, args.players)
    agent = check_agent(args.game, args.agent or model_agent(baseline))
    options = CompareOptions(players=players, agent=agent, games=args.games or CompareOptions.games, seed=args.seed,
                             until_decided=args.until_decided, delta=args.delta, cap=args.cap, workers=args.workers)
    with store_and_backend(args) as (store, backend):
        result = compare(baseline, variants, store, dataclasses.replace(options, backend=backend))
    print(json.dumps(result, indent=2) if args.json else compare_markdown(result), end="" if not args.json else "\n")
    return 0
