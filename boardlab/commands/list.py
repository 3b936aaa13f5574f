"""`boardlab list`: the games and their variants."""

from __future__ import annotations

from boardlab.analysis.engines import ENGINES
from boardlab.layouts import GAMES, load, variants_of


def register(subparsers) -> None:
    p = subparsers.add_parser("list", help="the games and their variants",
                              description="List every game boardlab knows, its player counts and its variants.")
    p.set_defaults(run=run)


def run(args) -> int:
    for game_id in GAMES:
        d = load(game_id)
        info = d.game
        engine = "engine" if game_id in ENGINES else "no engine yet"
        print(f"{game_id:10} {info.name:10} {info.min_players}-{info.max_players} players  "
              f"{info.minutes} min  [{engine}]  {info.summary}")
        for name in variants_of(game_id):
            print(f"    variant {name}")
    return 0
