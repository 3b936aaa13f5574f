"""`boardlab check PATH|GAME...`: validate definitions and variants."""

from __future__ import annotations

import sys

from boardlab.layouts import (BoardlabError, DefinitionError, game_entry, game_ids, game_part, is_conventions_file,
                              load, load_conventions, locate, resolve)
from boardlab.commands.list import player_range
from boardlab.layouts import print_conventions as conventions_of

#: the command's line in `boardlab --help`
HELP = "validate definitions and variants"


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check", help=HELP,
        description="Validate game definitions and variant files, including that their components "
                    "fit the definition's paper, that their ink reads on their paper and marks on "
                    "every colour, that their rulebook texts name only facts the "
                    "definition holds, and that layouts/terms/ has every text of the outputs in each of the "
                    "definition's languages. Prints one line per problem, "
                    "FILE:LINE: KEY: what is wrong (what is allowed), and exits with status 2 if any.")
    p.add_argument("targets", nargs="*", metavar="PATH|GAME",
                   help=f"definition or variant files, or game/variant names (default: {', '.join(game_ids())})")
    p.set_defaults(run=run)


def run(args) -> int:
    from boardlab.printkit.pages import PrintOptions
    from boardlab.printkit.palette import contrast_problems
    from boardlab.layouts.terms import check_terms
    from boardlab.printkit.rulebook.checks import check_texts as rulebook_problems

    failed = False
    for target in args.targets or game_ids():
        try:
            path = resolve(target)
            if is_conventions_file(path):
                conventions = load_conventions(path)
                print(f"{target}: ok (print conventions: {', '.join(conventions.papers)} paper, "
                      f"{len(conventions.card_sizes)} card sizes)")
                continue
            d = load(path)
        except DefinitionError as err:
            for problem in err.problems:
                print(problem, file=sys.stderr)
            failed = True
            continue
        except BoardlabError as err:
            print(f"boardlab check: {err}", file=sys.stderr)
            failed = True
            continue
        try:  # the definition must also print on its own paper (card sizes against the sheet)
            if game_entry(d.game.id).has("print"):
                options = PrintOptions(d.print.paper, conventions_of().duplex, conventions_of().layout)
                game_part(d.game.id, "print").print_files(d, options)
        except BoardlabError as err:
            file, line = locate(path, ("print",))
            print(f"{file}:{line}: print: {err}", file=sys.stderr)
            failed = True
            continue
        agent = agent_problem(d)
        if agent:
            file, line = locate(path, ("analysis", "agent"))
            print(f"{file}:{line}: analysis.agent: {agent}", file=sys.stderr)
            failed = True
            continue
        colours = contrast_problems(d)  # marks and text must read on what they are drawn on
        for key, what, allowed in colours:
            file, number = locate(path, key)
            print(f"{file}:{number}: {'.'.join(key)}: {what} ({allowed})", file=sys.stderr)
        if colours:
            failed = True
            continue
        rulebook = [str(p) for p in check_terms(d)] + list(rulebook_problems(d))
        if rulebook:
            for message in rulebook:
                print(message, file=sys.stderr)
            failed = True
            continue
        what = d.game.name if d.variant == "baseline" else f"{d.game.name}, variant {d.variant}"
        print(f"{d.source}: ok ({what}, {player_range(d.game.min_players, d.game.max_players)})")
    return 2 if failed else 0


def agent_problem(d) -> str | None:
    """Why the definition's `analysis.agent` is not an agent of its engine, or None.

    "random" is every engine's; any other name loads the engine to look it up (so that checking a
    definition that keeps the default stays quick).
    """
    agent = getattr(getattr(d, "analysis", None), "agent", "random")
    if agent == "random" or not game_entry(d.game.id).has("engine"):
        return None
    from boardlab.analysis import engines

    known = engines.agent_factories(d.game.id)
    return None if agent in known else known.unknown(agent)

