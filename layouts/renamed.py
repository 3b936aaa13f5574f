"""Keys that definitions once had, so that an old variant naming one is told what became of it
("renamed to ...", "removed: ...") instead of "unknown key" (`schema.former_key`).

One entry per key, by its path of names (list positions left out); it holds for every game whose
schema lacks the old key.  Renaming a key is one entry here, in the same commit.
"""

#: old key path -> its new path
RENAMED: dict[str, str] = {
    "print.chip_gap": "print.piece_gap",
}

#: old key path -> why it is gone, and where what it said lives now
REMOVED: dict[str, str] = {
    "rulebook.text": "a rulebook's text is a file of its own, layouts/rulebooks/GAME.LANG.md",
}
