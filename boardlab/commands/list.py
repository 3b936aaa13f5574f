"""`boardlab list`: the games and their variants (every game of the registry)."""

from __future__ import annotations

from boardlab.layouts import game_entry, game_ids, load, variants_of


def register(subparsers) -> None:
    p = subparsers.add_parser("list", help="the games and their variants",
                              description="List every game boardlab knows, its player counts and its variants.")
    p.add_argument("--ids", action="store_true", help="only the game ids, one a line (for scripts)")
    p.set_defaults(run=run)


def run(args) -> int:
    for game_id in game_ids():
        if args.ids:
            print(game_id)
            continue
        info = load(game_id).game
        engine = "engine" if game_entry(game_id).has("engine") else "no engine yet"
        print(f"{game_id:10} {info.name:10} {info.min_players}-{info.max_players} players  "
              f"{info.minutes} min  [{engine}]  {info.summary}")
        for name in variants_of(game_id):
            print(f"    variant {name}")
    return 0
