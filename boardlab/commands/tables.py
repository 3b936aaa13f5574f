"""`boardlab tables GAME`: exact (or seeded, estimated) tables of a game."""

from __future__ import annotations

import argparse
import dataclasses
import json

from boardlab.arguments import add_game_arguments, add_seed_argument, at_most, game_definition, worker_count
from boardlab.layouts import game_part
from boardlab.layouts.limits import MAX_DEALS

#: the command's line in `boardlab --help`
HELP = "exact probability and structure tables"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("tables", help=HELP,
                              description="Print a game's exact tables (or tables estimated over "
                                          "seeded random deals) as Markdown, JSON or CSV.")
    add_game_arguments(p, "tables", players="every allowed count")
    p.add_argument("--format", choices=("md", "json", "csv"), default="md", help="output format (default: md)")
    p.add_argument("--deals", type=at_most(MAX_DEALS), default=1000, metavar="N",
                   help=f"random deals for estimated tables (default: 1000; at most {MAX_DEALS:,})")
    add_seed_argument(p)
    p.add_argument("--workers", type=worker_count, metavar="W", help="worker processes (default: the number of cores)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from boardlab.analysis.tables import TableOptions, to_csv, to_markdown

    definition = game_definition(args.game, args.variant)
    if args.players is not None:
        definition.game.check_players(args.players)
    options = TableOptions(players=args.players, deals=args.deals, seed=args.seed, workers=args.workers,
                           progress=True)
    tables = game_part(args.game, "tables").tables(definition, options)
    if definition.variant != "baseline":  # every output names the variant it is of
        tables = dataclasses.replace(tables, title=f"{tables.title} (variant {definition.variant})",
                                     data={"variant": definition.variant, **tables.data})
    if args.format == "json":
        print(json.dumps(tables.data, indent=2))
    elif args.format == "csv":
        print(to_csv(tables), end="")
    else:
        print(to_markdown(tables), end="")
    return 0
