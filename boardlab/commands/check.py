"""`boardlab check PATH|GAME...`: validate definitions and variants."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from boardlab.layouts import (BoardlabError, DefinitionError, game_entry, game_ids, game_part, is_conventions_file,
                              load, load_conventions, locate, resolve)
from boardlab.commands.list import player_range
from boardlab.layouts import print_conventions as conventions_of
from boardlab.common.notes import note

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: the command's line in `boardlab --help`
HELP = "validate definitions and variants"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "check", help=HELP,
        description="Validate game definitions and variant files, including that their components "
                    "fit the definition's paper, that their ink reads on their paper and marks on "
                    "every colour, that their rulebook texts name only facts the "
                    "definition holds, and that layouts/terms/ has every text of the outputs in each of the "
                    "definition's languages, and that every image it names is a readable PNG, JPEG or SVG file "
                    "inside the definition's folder, printed at 150 dpi or more (a warning under 300). "
                    "Prints one line per problem, "
                    "FILE:LINE: KEY: what is wrong (what is allowed), and exits with status 2 if any.")
    p.add_argument("targets", nargs="*", metavar="PATH|GAME",
                   help=f"definition or variant files, or game/variant names (default: {', '.join(game_ids())})")
    p.add_argument("--json", action="store_true",
                   help="print, for each target, whether it is ok and its problems, as JSON on standard output "
                        "(exit status 2 still when any has a problem)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    results = [check_target(target) for target in args.targets or game_ids()]
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for result in results:
            for problem in result["problems"] + result["warnings"]:
                print(problem, file=sys.stderr)
            if result["ok"]:
                note(f"{result['file']}: ok ({result['summary']})")
    return 0 if all(result["ok"] for result in results) else 2


def check_target(target: str) -> dict:
    """What `check` finds for one target: {"target", "file", "ok", "summary", "problems"}, each
    problem one line `FILE:LINE: KEY: what is wrong (what is allowed)` (or the error's own line)."""
    from boardlab.printkit.pages import PrintOptions
    from boardlab.printkit.palette import contrast_problems
    from boardlab.layouts.terms import check_terms
    from boardlab.printkit.rulebook.checks import check_texts as rulebook_problems

    from boardlab.printkit.pictures import image_findings

    result: dict = {"target": target, "file": target, "ok": False, "summary": "", "problems": [], "warnings": []}
    problems: list[str] = result["problems"]
    try:
        path = resolve(target)
        if is_conventions_file(path):
            conventions = load_conventions(path)
            result.update(ok=True, summary=f"print conventions: {', '.join(conventions.papers)} paper, "
                                           f"{len(conventions.card_sizes)} card sizes")
            return result
        d = load(path)
    except DefinitionError as err:
        problems += [str(problem) for problem in err.problems]
        return result
    except BoardlabError as err:
        problems.append(f"boardlab check: {err}")
        return result
    result["file"] = d.source
    try:  # the definition must also print on its own paper (card sizes against the sheet)
        if game_entry(d.game.id).has("print"):
            options = PrintOptions(d.print.paper, conventions_of().duplex, conventions_of().layout)
            findings = image_findings(d, game_part(d.game.id, "print").print_files(d, options))
            # each image's resolution where it is printed: under 150 dpi an error, under 300 a warning
            problems += [finding.line for finding in findings if finding.error]
            result["warnings"] += [finding.line for finding in findings if not finding.error]
    except BoardlabError as err:
        file, line = locate(path, ("print",))
        problems.append(f"{file}:{line}: print: {err}")
        return result
    if problems:
        return result
    for agent_key in ("agent", "skilled_agent"):
        agent = agent_problem(d, agent_key)
        if agent:
            file, line = locate(path, ("analysis", agent_key))
            problems.append(f"{file}:{line}: analysis.{agent_key}: {agent}")
            return result
    for key, what, allowed in contrast_problems(d):  # marks and text must read on what they are drawn on
        file, number = locate(path, key)
        problems.append(f"{file}:{number}: {'.'.join(key)}: {what} ({allowed})")
    if problems:
        return result
    problems += [str(p) for p in check_terms(d)] + [str(p) for p in rulebook_problems(d)]
    if problems:
        return result
    what = d.game.name if d.variant == "baseline" else f"{d.game.name}, variant {d.variant}"
    result.update(ok=True, summary=f"{what}, {player_range(d.game.min_players, d.game.max_players)}")
    return result


def agent_problem(d: GameDefinition, key: str = "agent") -> str | None:
    """Why the definition's `analysis.agent` (or another agent key of `analysis`, such as
    `skilled_agent`) is not an agent of its engine, or None.

    "random" (and an unset key) is every engine's; any other name loads the engine to look it up
    (so that checking a definition that keeps the default stays quick).
    """
    agent = getattr(getattr(d, "analysis", None), key, "random") or "random"
    if agent == "random" or not game_entry(d.game.id).has("engine"):
        return None
    from boardlab.analysis import engines

    known = engines.agent_factories(d.game.id)
    return None if agent in known else known.unknown(agent)

