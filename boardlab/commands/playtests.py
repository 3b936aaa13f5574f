"""`boardlab playtests`: games played at a table, logged, kept in the results store and compared.

    boardlab playtests add GAME --seats Ann,Bo,Cy --winners Bo --rounds 14 --minutes 12
    boardlab playtests import GAME LOG.csv
    boardlab playtests list GAME
    boardlab playtests export GAME [--out LOG.csv]
    boardlab playtests remove GAME ID

The log format is `boardlab.analysis.playtests` (one row per game); everything stays in the
store on this machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import io
import sys
from pathlib import Path
from typing import Callable
from typing import TYPE_CHECKING

from boardlab.arguments import (add_backend_arguments, add_game_arguments, add_seed_argument, add_store_arguments,
                                at_most, backend_of, game_definition, positive)
from boardlab.layouts import BoardlabError
from boardlab.layouts.limits import MAX_GAMES
from boardlab.common.notes import note
from boardlab.layouts.errors import one_line

if TYPE_CHECKING:
    from boardlab.analysis.playtests import TableGame
    from boardlab.analysis.store import ResultStore

#: the command's line in `boardlab --help`
HELP = "log games played at a table (add, import a CSV), list, export and compare them with the model"
#: self-play games per level and player count of `playtests report`
REPORT_GAMES = 600


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "playtests", help=HELP,
        description="Keep the games you play at a table in the results store, apart from the simulated ones and "
                    "tied to the rules they were played under: add one with flags, import a CSV log (one row per "
                    "game: date, players, seats, winners or scores or ranking, turns or rounds, minutes, ...), "
                    "list them, export them as CSV. Names and notes stay on this machine.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name: str, help: str, run: Callable[[argparse.Namespace], int], variant: bool = False
               ) -> argparse.ArgumentParser:
        a = actions.add_parser(name, help=help, description=help[:1].upper() + help[1:] + ".")
        add_game_arguments(a, variant=variant)
        add_store_arguments(a, backend=False)
        a.set_defaults(run=run)
        return a

    a = action("add", "log one game played at a table", run_add, variant=True)
    a.add_argument("--seats", required=True, metavar="A,B,...",
                   help="the players' names or labels in playing order, separated by commas")
    a.add_argument("--winners", metavar="A,...", help="who won (several: a shared win; 'none': nobody)")
    a.add_argument("--scores", metavar="N,N,...", help="final scores, one per name of --seats, in that order")
    a.add_argument("--ranking", metavar="A,B,...", help="every player once, the winner first")
    a.add_argument("--started", metavar="NAME", help="who started (default: the first of --seats)")
    a.add_argument("--players", type=positive, metavar="N", help="how many played (default: the number of --seats)")
    a.add_argument("--turns", metavar="N", help="turns played (games counted in turns)")
    a.add_argument("--rounds", metavar="N", help="rounds played (games counted in rounds)")
    a.add_argument("--minutes", metavar="M", help="minutes at the table")
    a.add_argument("--date", metavar="YYYY-MM-DD", help="the day played (default: today)")
    a.add_argument("--notes", metavar="TEXT", default="", help="free notes")
    a = action("import", "store the games of a CSV playtest log (nothing is stored unless every row is right)",
               run_import)
    a.add_argument("file", metavar="FILE", help="the CSV log (columns: see docs/how-to/playtests.md), or a record "
                                                "saved by boardlab play (a finished game)")
    action("list", "list the table games stored", run_list)
    a = action("export", "write the table games stored as a CSV log (import reads it back)", run_export)
    a.add_argument("--out", metavar="FILE", help="the file to write (default: standard output)")
    a = action("report", "the table games beside the model: seat shares with exact intervals, the level they "
                         "fit, length percentiles, the measured pace (the balance report's 'Your playtests')",
               run_report, variant=True)
    a.add_argument("--agents", metavar="A,B,...",
                   help="the model's levels to compare with, each self-playing (default: the definition's "
                        "analysis.agent, greedy and random, those the engine has)")
    a.add_argument("--games", type=at_most(MAX_GAMES), default=REPORT_GAMES, metavar="N",
                   help=f"self-play games per level and player count (default: {REPORT_GAMES})")
    add_seed_argument(a)
    add_backend_arguments(a)
    a.add_argument("--lang", metavar="LANG", help="the language of the text (default: the definition's first)")
    a = action("remove", "remove table games stored, by the id (or its start) that list shows", run_remove)
    a.add_argument("id", metavar="ID", help="the id of the game (its first characters are enough)")


def _store(args: argparse.Namespace) -> ResultStore:
    from boardlab.analysis.store import ResultStore
    from boardlab.layouts import game_entry

    game_entry(args.game)  # an unknown game is an error naming the known ones
    return ResultStore(args.store)


def run_add(args: argparse.Namespace) -> int:
    from boardlab.analysis.playtests import LogContext, check_row
    from boardlab.analysis.store import definition_hash

    context = LogContext.of(args.game)
    if args.variant is not None and Path(args.variant).is_file():  # a variant file: named by its file
        definition = game_definition(args.game, args.variant)
        context = dataclasses.replace(context, variants={**context.variants,
                                                         definition.variant: definition_hash(definition)})
        args.variant = definition.variant

    def listed(text: str | None) -> str:
        return ";".join(part.strip() for part in text.split(",")) if text else ""

    seats = listed(args.seats)
    row = {"date": args.date or datetime.date.today().isoformat(), "variant": args.variant or "",
           "players": str(args.players or len(seats.split(";"))), "seats": seats, "started": args.started or "",
           "winners": listed(args.winners), "scores": listed(args.scores), "ranking": listed(args.ranking),
           "turns": args.turns or "", "rounds": args.rounds or "", "minutes": args.minutes or "", "notes": args.notes}
    game, problems = check_row(row, context)
    if game is None:
        for column, message in problems:
            print(one_line(f"boardlab playtests add: --{column}: {message}"), file=sys.stderr)
        return 2
    with _store(args) as store:
        ident = store.add_playtest(game)
    print(f"stored {describe(game)} as {ident[:8]}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    from boardlab.analysis.playtests import read_log

    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise BoardlabError(f"{path}: not UTF-8 text (save the log as CSV UTF-8)") from None
    if text.lstrip().startswith("{"):  # a record saved by boardlab play
        games = [_record_game(path, text, args.game)]
    else:
        games = read_log(io.StringIO(text), str(path), args.game)
    with _store(args) as store:
        added, already = store.put_playtests(games)
    print(f"{path}: stored {len(added)} game{'s' if len(added) != 1 else ''} of {args.game}"
          + (f"; {already} already stored" if already else ""))
    return 0


def _record_game(path: Path, text: str, game_id: str) -> TableGame:
    """The playtest of a record file saved by `boardlab play` (checked move by move in the engine)."""
    import json

    from boardlab.playtest_filing import table_game_from_record

    try:
        record = json.loads(text)
    except ValueError as err:
        raise BoardlabError(f"{path}: not JSON ({err})") from None
    if not isinstance(record, dict):
        raise BoardlabError(f"{path}: not a boardlab record")
    variant = record.get("variant", "baseline")
    definition = game_definition(game_id, None if variant == "baseline" else str(variant))
    try:
        return table_game_from_record(definition, record)
    except BoardlabError as err:
        raise BoardlabError(f"{path}: {err}") from None


def describe(game: TableGame) -> str:
    """One game in a few words: "2026-11-28, 3 players (Ann, Bo, Cy), Bo won, 14 rounds, 12 min"."""
    won = ("nobody won" if not game.winners else
           f"{' and '.join(game.seats[s] for s in game.winners)} {'won' if len(game.winners) == 1 else 'shared the win'}")
    parts = [game.date, f"{game.players} players ({', '.join(game.seats)})", won]
    if game.length is not None:
        parts.append(f"{game.length} {game.unit}")
    if game.minutes is not None:
        parts.append(f"{game.minutes:g} min")
    if game.variant != "baseline":
        parts.append(f"variant {game.variant}")
    return ", ".join(parts)


def run_list(args: argparse.Namespace) -> int:
    from boardlab.analysis.playtests import LogContext

    context = LogContext.of(args.game)
    with _store(args) as store:
        stored = store.playtests(args.game)
    if not stored:
        print(f"no playtests of {args.game} stored in {args.store} (boardlab playtests add or import)")
        return 0
    rows = [("id", "date", "variant", "seats (seat 1 started)", "winners", context.unit, "minutes", "from", "")]
    earlier = 0
    for ident, game in stored:
        current = context.variants.get(game.variant)
        old = current != game.definition
        earlier += old
        rows.append((ident[:8], game.date, game.variant, ", ".join(game.seats), game.winner_names().replace(";", ", "),
                     "" if game.length is None else str(game.length),
                     "" if game.minutes is None else f"{game.minutes:g}", game.source,
                     "" if not old else "earlier rules" if current else "a variant file"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    print(f"\n{len(stored)} game{'s' if len(stored) != 1 else ''} of {args.game}"
          + (f"; {earlier} played under earlier rules or a variant file of its own (not the definition "
             "hash of the current rules: kept, and not compared with the current model)" if earlier else ""))
    return 0


def run_export(args: argparse.Namespace) -> int:
    from boardlab.analysis.playtests import write_log

    with _store(args) as store:
        games = [game for _, game in store.playtests(args.game)]
    out = io.StringIO()
    write_log(games, out)
    if args.out is None:
        sys.stdout.write(out.getvalue())
        return 0
    from boardlab.printkit.output import write_rendered

    target = Path(args.out)
    write_rendered({target.name: out.getvalue().encode("utf-8")}, target.parent)
    note(f"wrote {len(games)} game{'s' if len(games) != 1 else ''} of {args.game} to {target}", file=sys.stderr)
    return 0


def run_remove(args: argparse.Namespace) -> int:
    if len(args.id) < 4:
        raise BoardlabError(f"give at least 4 characters of the id, not '{args.id}' (boardlab playtests list shows them)")
    with _store(args) as store:
        matching = [ident for ident, _ in store.playtests(args.game) if ident.startswith(args.id)]
        if len(matching) > 1:
            raise BoardlabError(f"{len(matching)} games have an id starting {args.id}: give more of it")
        if not matching:
            raise BoardlabError(f"no playtest of {args.game} has an id starting {args.id} (boardlab playtests list)")
        store.remove_playtests(args.game, matching[0])
    print(f"removed {matching[0][:8]}")
    return 0


def run_report(args: argparse.Namespace) -> int:
    from boardlab.analysis import engines
    from boardlab.analysis.playtests import with_measured_pace
    from boardlab.analysis.report.jobs import Job, play_jobs
    from boardlab.analysis.report.options import model_agent
    from boardlab.analysis.report.sections import designer_difference
    from boardlab.analysis.report.wording import say
    from boardlab.analysis.report.your_playtests import playtests_blocks, playtests_data
    from boardlab.analysis.skill import rounded_games
    from boardlab.analysis.store import definition_hash
    from boardlab.commands.print import languages_of
    from boardlab.layouts.terms import speaking
    from boardlab.common.notes import quiet
    from boardlab.printkit.report_markdown import blocks_markdown

    definition = game_definition(args.game, args.variant)
    [language] = languages_of(definition, args.lang)[:1]
    known = engines.agent_factories(args.game)
    model = model_agent(definition)
    wanted = ([a.strip() for a in args.agents.split(",") if a.strip()] if args.agents else
              [a for a in dict.fromkeys((model, "greedy", "random")) if a in known])
    for agent in wanted:
        if agent not in known:
            raise BoardlabError(f"{args.game}: {known.unknown(agent)}")
    with _store(args) as store:
        definition = with_measured_pace(definition, store)
        playtests = [g for _, g in store.playtests(args.game)]
        current = definition_hash(definition)
        info = definition.game
        counts = sorted({g.players for g in playtests if g.definition == current and g.variant == definition.variant
                         and info.min_players <= g.players <= info.max_players})
        jobs = [Job(definition, n, (agent,) * n, rounded_games(args.games, n), args.seed)
                for n in counts for agent in wanted]
        with backend_of(args) as backend:
            outcomes = play_jobs(jobs, store, args.workers, not quiet(), backend=backend) if jobs else []
    levels: dict = {}
    for outcome in outcomes:
        levels.setdefault(outcome.job.players, {})[outcome.job.agents[0]] = outcome.records
    unit = engines.make_game(definition, info.min_players).length_unit
    with speaking(language):
        data = playtests_data(definition, playtests, counts, unit, levels, wanted[0], designer_difference(definition))
        print(f"# {say('section.playtests')}: {info.name} ({definition.variant})\n")
        print(blocks_markdown(playtests_blocks(data), args.game).rstrip())
    return 0
