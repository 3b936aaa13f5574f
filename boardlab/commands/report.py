"""`boardlab report GAME`: the full balance report (Markdown, PDF, JSON, SVG charts)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

from boardlab.common.notes import note
from boardlab.arguments import (add_agent_argument, add_budget_arguments, add_game_arguments, add_seed_argument,
                                add_store_arguments, at_most, budget_minutes, game_definition, store_and_backend)
from boardlab.layouts.limits import MAX_AGENT_NUMBER, MAX_DEALS, MAX_GAMES

#: the command's line in `boardlab --help`
HELP = "the balance report of a game: Markdown, PDF, JSON and SVG charts"


def register(subparsers: argparse._SubParsersAction) -> None:
    from boardlab.analysis.report.build import ReportOptions  # the defaults the help states

    p = subparsers.add_parser(
        "report", help=HELP,
        description="Simulate and measure a game for every allowed player count (seats, length, decisions, "
                    "skill, open-rule sensitivity, exact tables, findings) and write GAME.md, GAME.pdf, "
                    "GAME.json and GAME/*.svg. Every game played goes into the results store, so a rerun "
                    "or an interrupted run plays only what is missing.")
    add_game_arguments(p, players="every allowed count")
    add_store_arguments(p)
    p.add_argument("--games", type=at_most(MAX_GAMES), metavar="N",
                   help="self-play games per player count; each rule alternative replays half (default: enough for a fair "
                        "seat's 95%% interval to be +/- 2 points: 2400 with 2 players ... 1080 with 8)")
    p.add_argument("--skill-games", type=at_most(MAX_GAMES), default=ReportOptions.skill_games, metavar="N",
                   help=f"games per level of the skill trace and per element of restricted play, rounded up to "
                        f"whole rotations of the seats (default: {ReportOptions.skill_games})")
    p.add_argument("--skill-budget", type=at_most(MAX_AGENT_NUMBER), default=ReportOptions.skill_budget, metavar="B",
                   help=f"the largest search budget the skill trace climbs to; the ladder stops before it at a plateau "
                        f"or when the CPU budget ends (default: {ReportOptions.skill_budget}; boardlab skill climbs to 4096)")
    p.add_argument("--decision-games", type=at_most(MAX_GAMES), default=ReportOptions.decision_games, metavar="N",
                   help=f"games played move by move for the decisions section (default: {ReportOptions.decision_games})")
    p.add_argument("--deals", type=at_most(MAX_DEALS), default=ReportOptions.table_deals, metavar="N",
                   help=f"random deals for tables estimated over deals (default: {ReportOptions.table_deals})")
    add_agent_argument(p)
    add_seed_argument(p)
    add_budget_arguments(p, "report")
    p.add_argument("--lang", metavar="LANG",
                   help="the language of every text of the report (sections, findings, verdict, tables, charts, "
                        "glossary): one of the definition's [rulebook] languages, or 'all' for each of them "
                        "(default: the first)")
    p.add_argument("--out", metavar="DIR", help="output folder (default: reports/ for the game's own definition, "
                                                "build/reports/ for a variant); a report in another language than "
                                                "English goes to its subfolder LANG")
    p.add_argument("--json", action="store_true",
                   help="also print, per language, the files written and the report's JSON (what GAME.json holds) "
                        "on standard output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from boardlab.analysis.report.build import ReportOptions, build_report
    from boardlab.commands.print import languages_of
    from boardlab.layouts.terms import speaking
    from boardlab.printkit.reports import report_json, write_report

    definition = game_definition(args.game, args.variant)
    languages = languages_of(definition, getattr(args, "lang", None))
    options = ReportOptions(games=args.games, seed=args.seed, players=args.players, skill_games=args.skill_games,
                            skill_budget=args.skill_budget,
                            decision_games=args.decision_games, table_deals=args.deals, workers=args.workers,
                            progress=True, agent=args.agent, cpu_minutes=budget_minutes(args, definition, "report"),
                            quick=args.quick)
    variant = getattr(definition, "variant", "baseline")
    name = args.game if variant == "baseline" else variant
    base = Path(args.out) if args.out else Path("reports" if variant == "baseline" else "build/reports")
    printed = []
    for language in languages:
        started = time.perf_counter()
        with speaking(language, definition):
            with store_and_backend(args) as (store, backend):
                document = build_report(definition, store, dataclasses.replace(options, backend=backend))
            # the next language is the same run: the games this one's budget bought, from the store
            options = dataclasses.replace(options, replay=tuple(document["data"].get("budget", {}).get("phases", ())))
            out = report_folder(base, language)
            written = write_report(document, name, out)
        note(f"wrote {len(written)} files: {out / name}.md, .pdf, .json and {out / name}/*.svg "
             f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
        if args.json:  # what GAME.json holds, with the language and the files written
            printed.append({"language": language, "files": [str(path) for path in written],
                            "report": json.loads(report_json(document))})
    if args.json:
        print(json.dumps(printed, indent=1, ensure_ascii=False))
    return 0


def report_folder(base: Path, language: str) -> Path:
    """Where a report in `language` goes: `base` for English (the reports' first language, so that
    their history stays in one place), `base/LANG` for every other.

    >>> str(report_folder(Path("reports"), "en")), str(report_folder(Path("reports"), "es"))
    ('reports', 'reports/es')
    """
    from boardlab.layouts.terms import SOURCE_LANGUAGE

    return base if language == SOURCE_LANGUAGE else base / language
