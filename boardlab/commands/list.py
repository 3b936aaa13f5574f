"""`boardlab list`: the games and their variants (every game of the registry)."""

from __future__ import annotations

import argparse
import json
import sys

from boardlab.layouts import BoardlabError, DefinitionError, game_entry, game_ids, load, variants_of
from boardlab.layouts.errors import one_line
from boardlab.layouts.loader import VARIANTS

#: the command's line in `boardlab --help`
HELP = "the games and their variants"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("list", help=HELP,
                              description="List every game boardlab knows, its player counts, its playing time "
                                          "and its variants, each with what it changes.")
    p.add_argument("--ids", action="store_true", help="only the game ids, one a line (for scripts)")
    p.add_argument("--json", action="store_true",
                   help="print the games as JSON: id, name, players, minutes, summary, whether it has a rules "
                        "engine, and its variants with what each changes")
    p.set_defaults(run=run)


def player_range(low: int, high: int) -> str:
    """ "2 players" or "2 to 4 players".

    >>> player_range(2, 2), player_range(2, 4)
    ('2 players', '2 to 4 players')
    """
    return f"{low} players" if low == high else f"{low} to {high} players"


def variant_summary(name: str, game_name: str) -> str:
    """The first comment line of a variant file, without a leading "GAME: "; "" when there is none.

    >>> variant_summary("blockd-pawns-stack", "Blockd")
    'Pawns may share a cell.'
    """
    try:
        first = (VARIANTS / f"{name}.toml").read_text(encoding="utf-8-sig").splitlines()[0]
    except (OSError, UnicodeDecodeError, IndexError):
        return ""
    if not first.startswith("#"):
        return ""
    text = first.lstrip("#").strip().removeprefix(f"{game_name}: ")
    return text[:1].upper() + text[1:]


def run(args: argparse.Namespace) -> int:
    failed = False
    games = []
    for game_id in game_ids():
        if args.ids:
            print(game_id)
            continue
        try:
            info = load(game_id).game
        except DefinitionError as err:  # one broken game (a plugin's) is said; the others are listed
            print(one_line(f"boardlab list: {game_id}: {err.problems[0]}"), file=sys.stderr)
            failed = True
            continue
        except BoardlabError as err:
            print(one_line(f"boardlab list: {game_id}: {err}"), file=sys.stderr)
            failed = True
            continue
        variants = [{"name": name, "summary": variant_summary(name, info.name)} for name in variants_of(game_id)]
        game = {"id": game_id, "name": info.name, "min_players": info.min_players, "max_players": info.max_players,
                "minutes": info.minutes, "summary": info.summary, "engine": game_entry(game_id).has("engine"),
                "variants": variants}
        if args.json:
            games.append(game)
            continue
        engine = "" if game["engine"] else ", no rules engine yet"
        print(f"{game_id} ({info.name}): {player_range(info.min_players, info.max_players)}, about {info.minutes} min"
              f"{engine}. {info.summary}")
        width = max((len(v["name"]) for v in variants), default=0)
        for v in variants:
            print(f"    {v['name']:{width}}  {v['summary']}".rstrip())
    if args.json and not args.ids:
        print(json.dumps(games, indent=2))
    return 2 if failed else 0
