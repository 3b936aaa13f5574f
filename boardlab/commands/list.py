"""`boardlab list`: the games and their variants (every game of the registry)."""

from __future__ import annotations

import sys

from boardlab.layouts import BoardlabError, DefinitionError, game_entry, game_ids, load, variants_of
from boardlab.layouts.errors import one_line
from boardlab.layouts.loader import VARIANTS

#: the command's line in `boardlab --help`
HELP = "the games and their variants"


def register(subparsers) -> None:
    p = subparsers.add_parser("list", help=HELP,
                              description="List every game boardlab knows, its player counts, its playing time "
                                          "and its variants, each with what it changes.")
    p.add_argument("--ids", action="store_true", help="only the game ids, one a line (for scripts)")
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


def run(args) -> int:
    failed = False
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
        engine = "" if game_entry(game_id).has("engine") else ", no rules engine yet"
        print(f"{game_id} ({info.name}): {player_range(info.min_players, info.max_players)}, about {info.minutes} min"
              f"{engine}. {info.summary}")
        names = variants_of(game_id)
        width = max((len(n) for n in names), default=0)
        for name in names:
            print(f"    {name:{width}}  {variant_summary(name, info.name)}".rstrip())
    return 2 if failed else 0
