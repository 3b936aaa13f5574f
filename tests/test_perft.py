"""Every perft file in tests/data against its engine, through one routine (`analysis.perft`).

The counts come from independent references (tests/blockd_reference.py,
tests/deblockle_reference.py, the hand products in sixbysix.perft); the routine reaches the
engine only through the protocol, as python-chess's perft runner does for every variant.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.analysis import engines
from boardlab.analysis.perft import PerftEntry, parse_perft, perft, read_perft
from boardlab.layouts import BoardlabError, game_ids, load

DATA = Path(__file__).parent / "data"
FILES = sorted(DATA.glob("*.perft"))
#: leaves per count checked in the fast suite; larger counts run with `make test-slow`
FAST_LIMIT = 200_000


def definition_for(game_file: str, name: str):
    """A perft entry's definition: a game or variant name, or NAME for tests/data/GAME-NAME.toml."""
    try:
        return load(name)
    except BoardlabError:
        return load(DATA / f"{game_file}-{name}.toml")


def cases(fast: bool):
    for path in FILES:
        for entry in read_perft(path):
            for depth, count in sorted(entry.counts.items()):
                if (count <= FAST_LIMIT) == fast:
                    yield pytest.param(path.stem, entry, depth, count, id=f"{path.stem}-{entry.id}-{depth}")


def count(game_file: str, entry: PerftEntry, depth: int) -> int:
    game = engines.make_game(definition_for(game_file, entry.definition), entry.players)
    return perft(entry.start(game), depth)


@pytest.mark.parametrize("game_file,entry,depth,expected", list(cases(fast=True)))
def test_perft_counts(game_file, entry, depth, expected):
    assert count(game_file, entry, depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize("game_file,entry,depth,expected", list(cases(fast=False)))
def test_perft_counts_deep(game_file, entry, depth, expected):
    assert count(game_file, entry, depth) == expected


def test_every_perft_file_is_of_a_game_with_an_engine():
    assert FILES and {path.stem for path in FILES} <= set(game_ids("engine"))


def test_counts_are_by_the_protocol_and_do_not_double_count_chance():
    """A hand-countable case: 6x6 with 2 players, one full round by hand (11 numbers, 6 faces)."""
    game = engines.make_game(load("sixbysix"), 2)
    assert [perft(game.new_initial_state(), d) for d in (0, 1, 2, 3)] == [1, 6 * 11, 6 * 11 * 6 * 10, 6 * 11 * 6 * 10 * 6]


@pytest.mark.parametrize("text,message", [
    ("id a\ndefinition blockd\nperft one 2\n", "x.perft:3: perft: cannot be read"),
    ("id a\ndefinition blockd\ncolour red\nperft 1 2\n", "x.perft:3: unknown key 'colour'"),
    ("id a\nperft 1 2\n", "x.perft:1: the entry has no 'definition' line"),
    ("id a\ndefinition blockd\nposition {nope\nperft 1 2\n", "x.perft:3: position: cannot be read"),
])
def test_malformed_perft_files_say_where(text, message):
    with pytest.raises(BoardlabError) as err:
        parse_perft(text, "x.perft")
    assert str(err.value).startswith(message)
