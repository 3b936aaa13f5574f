"""`boardlab sweep GAME --vary KEY=VALUES ...`: every headline metric against rule values, on the same seeds."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.common.notes import note
from boardlab.arguments import (add_agent_argument, add_budget_arguments, add_game_arguments, add_seed_argument,
                                add_store_arguments, at_most, budget_minutes, game_definition, store_and_backend)
from boardlab.layouts import BoardlabError
from boardlab.layouts.limits import MAX_GAMES

if TYPE_CHECKING:
    from boardlab.analysis.sweep import Axis
    from boardlab.layouts.common import GameDefinition, GameInfo

#: games per point unless --games says otherwise
DEFAULT_GAMES = 1000
#: where sweep reports go unless --out says otherwise
DEFAULT_OUT = Path("build") / "sweeps"

#: the command's line in `boardlab --help`
HELP = "every headline metric against the values of one or more rule keys (charts, tables)"


def add_players_argument(p: argparse.ArgumentParser, allow_all: bool) -> None:
    p.add_argument("--players", metavar="N|all" if allow_all else "N",
                   help="number of players" + (", or 'all' for every allowed count" if allow_all else "")
                        + " (default: the game's maximum)")


def player_counts(text: str | None, info: GameInfo, allow_all: bool = True) -> tuple[int, ...]:
    """The player counts of --players: one count, or every allowed one for 'all'.

    :raises BoardlabError: for a count the game does not allow or a word that is not a count.
    """
    if text is None:
        return (info.max_players,)
    if allow_all and text.strip().lower() == "all":
        return tuple(range(info.min_players, info.max_players + 1))
    try:
        n = int(text)
    except ValueError:
        raise BoardlabError(f"--players: '{text}' is not a whole number" + (" or 'all'" if allow_all else "")) from None
    return (info.check_players(n),)


def add_lang_argument(p: argparse.ArgumentParser, what: str) -> None:
    """`--lang LANG|all` of sweep and tune: the language of their text (`what`), as report's."""
    p.add_argument("--lang", metavar="LANG",
                   help=f"the language of {what}: one of the definition's [rulebook] languages, or 'all' for each "
                        "of them (default: en, English)")


def languages(args: argparse.Namespace, definition: GameDefinition) -> list[str]:
    """The languages --lang asks for: English unless it names one of the definition's, or 'all'.

    :raises BoardlabError: for a language the definition does not list.
    """
    from boardlab.commands.print import languages_of
    from boardlab.layouts.terms import SOURCE_LANGUAGE

    return languages_of(definition, args.lang) if args.lang else [SOURCE_LANGUAGE]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "sweep", help=HELP,
        description="Play the definition at every value of the varied keys (several --vary make a grid), every "
                    "point on the same seeds, and write a sweep report (Markdown with SVG charts, PDF, JSON): each "
                    "headline metric against the values with its 95% band. Every point goes through the results "
                    "store, so a rerun or an interrupted sweep plays only what is missing.")
    add_game_arguments(p)
    p.add_argument("--vary", action="append", required=True, metavar="KEY=VALUES",
                   help="a key of the definition and its values: a list (3,4,5 or house,carry or true,false) or a "
                        "whole-number range (10..40, or 10..40:5 for every fifth); repeat for a grid")
    add_players_argument(p, allow_all=True)
    p.add_argument("--games", type=at_most(MAX_GAMES), default=DEFAULT_GAMES, metavar="N",
                   help=f"the most games per point and player count (default: {DEFAULT_GAMES:,}); a point that "
                        "differs from the written rules stops at an earlier look (a quarter, a half) once it is shown")
    p.add_argument("--every-game", action="store_true",
                   help="every point plays all its games: no point stops early once it differs from the written "
                        "rules (for the narrowest band at every point)")
    add_agent_argument(p)
    add_seed_argument(p)
    add_budget_arguments(p, "sweep")
    add_store_arguments(p)
    add_lang_argument(p, "every text of the sweep report and of what it prints (tables, notes, charts, glossary)")
    p.add_argument("--out", metavar="DIR", help=f"output folder (default: {DEFAULT_OUT}); a report in another "
                                                "language than English goes to its subfolder LANG")
    p.add_argument("--json", action="store_true", help="print the sweep's result as JSON")
    p.set_defaults(run=run)


def prepare(args: argparse.Namespace, flag: str, texts: list[str]) -> tuple[str, GameDefinition, list[Axis], str]:
    """(base name, definition, axes, agent) of a sweep or tune; every check before anything is played.

    :raises BoardlabError: for bad input (one line).
    """
    from boardlab.analysis.report.build import check_agent
    from boardlab.analysis.report.options import model_agent
    from boardlab.analysis.sweep import check_axes, parse_axis

    base = args.variant or args.game
    definition = game_definition(args.game, args.variant)
    from boardlab.layouts.registry import game_entry

    if not game_entry(args.game).has("engine"):
        raise BoardlabError(f"{args.game} has no rules engine to play it")
    axes = [parse_axis(base, definition, t, flag) for t in texts]
    check_axes(axes)
    agent = check_agent(args.game, args.agent or model_agent(definition))
    return base, definition, axes, agent


def run(args: argparse.Namespace) -> int:
    from boardlab.analysis.report.document import slug
    from boardlab.analysis.report.sweep_report import sweep_document
    from boardlab.analysis.report.wording import number, say
    from boardlab.analysis.sweep import SweepOptions, grid, in_language, sweep
    from boardlab.commands.report import report_folder
    from boardlab.layouts.terms import speaking
    from boardlab.printkit.reports import write_report

    base, definition, axes, agent = prepare(args, "--vary", args.vary)
    spoken = languages(args, definition)
    players = player_counts(args.players, definition.game)
    grids = {n: grid(base, axes, n) for n in players}  # before the store is opened: nothing played yet
    if all(p.refused for points in grids.values() for p in points):
        first = grids[players[0]][0]
        raise BoardlabError(f"every point is refused, nothing to play ({first.label()}: {first.refused})")
    options = SweepOptions(players=players, agent=agent, games=args.games, seed=args.seed, workers=args.workers,
                           progress=True, cpu_minutes=budget_minutes(args, definition, "sweep"), quick=args.quick,
                           sequential=not args.every_game)
    started = time.perf_counter()
    with speaking(spoken[0], definition), store_and_backend(args) as (store, backend):
        result = sweep(base, definition, axes, store, dataclasses.replace(options, backend=backend), grids)
    variant = getattr(definition, "variant", "baseline")
    name = slug(f"{args.game if variant == 'baseline' else variant}-{'-'.join(a.name for a in axes)}")
    base_out = Path(args.out) if args.out else DEFAULT_OUT
    printed = []
    for language in spoken:  # one sweep, its report in each language
        with speaking(language, definition):
            document = sweep_document(in_language(result, grids))
            out = report_folder(base_out, language)
            written = write_report(document, name, out)
            printed.append(summary_text(document))
            note(say("sweep.wrote", n=len(written), md=f"{out / name}.md", svgs=f"{out / name}/*.svg",
                     seconds=number(time.perf_counter() - started, ".1f")), file=sys.stderr)
    if args.json:  # the result as its first language's report holds it
        print(json.dumps(result, indent=2))
    else:
        print("\n".join(printed), end="")
    return 0


def summary_text(document: dict) -> str:
    """The sweep's tables and notes (every point, every metric) as Markdown, for the terminal."""
    from boardlab.printkit.report_markdown import blocks_markdown

    return "".join(f"## {section['title']}\n\n" + blocks_markdown(
        [b for b in section["blocks"] if b["kind"] != "chart"], "") for section in document["sections"]).rstrip() + "\n"
