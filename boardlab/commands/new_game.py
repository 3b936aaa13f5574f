"""`boardlab new-game NAME [--into DIR]`: write the skeleton of a new game (boardlab/newgame.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from boardlab.layouts.errors import BoardlabError
from boardlab.common.notes import note

#: the command's line in `boardlab --help`
HELP = "write the skeleton of a new game: one folder"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "new-game", help=HELP,
        description="Write a new game that works as written: its definition (NAME.toml) and schema, a rules "
                    "engine on the basic protocol (a small race game: replace its rules with yours), a print "
                    "module with one card and its rulebook texts in English and Spanish. In boardlab's source "
                    "tree it goes to games/NAME/, registered by its registration.toml (no other file changes); with "
                    "--into, DIR/NAME/ is a package of its own with registration.py for the boardlab.games "
                    "entry point.")
    p.add_argument("name", metavar="NAME", help="the game id: 2 to 30 lower-case letters, digits and underscores, from a letter; "
                                              "not a Python keyword or module, not a word of boardlab's code")
    p.add_argument("--into", metavar="DIR", type=Path,
                   help="write a package NAME/ into DIR instead of boardlab's source tree")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from boardlab import newgame

    if args.into is not None:
        [folder] = newgame.write_package(args.name, args.into)
        note(f"wrote {folder}/ ({', '.join(sorted(p.name for p in folder.iterdir()))})")
        note(f"register it: in your package's pyproject.toml, [project.entry-points.\"boardlab.games\"] "
              f"{args.name} = \"{args.name}.registration:GAME\" (or register_game(GAME) from Python)")
        return 0
    root = newgame.source_root()
    if root is None:
        raise BoardlabError("boardlab is not installed from its source tree here: give --into DIR to write "
                            "the game as a package of its own")
    folder = newgame.write_in_tree(args.name, root)
    note(f"wrote {folder.relative_to(root)}/ ({', '.join(sorted(p.name for p in folder.iterdir()))}); "
          "registration.toml registers it")
    note(f"next: write your rules in {folder.relative_to(root)}/engine.py, then boardlab check {args.name} "
          f"and the tests (docs/how-to/new-game.md)")
    return 0
