"""What Pile's package declares to boardlab: its registry entry (the `boardlab.games` entry point
`toygame = "toygame.registration:GAME"` points here)."""

from boardlab.layouts.registry import GameEntry

GAME = GameEntry("toygame", definition="toygame.definition", engine="toygame.engine", print="toygame.printing",
                 definition_file="toygame.toml")
