"""Blockd definitions the tests use: the shipped ones plus grids written as variant files.

The grid variants live in tests/data/blockd-grid-*.toml: a designer's 6 x 6 grid with a new
colour, a 4 x 4 grid and a flat 3 x 4 board, loaded with no code change.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from boardlab.layouts import load

DATA = Path(__file__).parent / "data"

#: every shipped Blockd definition and variant, then the test grids
NAMES = ("blockd", "blockd-flat", "blockd-pawns-block", "blockd-pawns-stack", "blockd-pawns-stack-always",
         "blockd-end-of-round",
         "blockd-eliminated-card-stay", "blockd-no-restore", "grid-4x4", "grid-3x4-flat", "grid-6x6-purple")


def definition_named(name: str):
    """A shipped definition or variant by name, or a test grid ("grid-...")."""
    if name.startswith("grid-"):
        return load(DATA / f"blockd-{name}.toml")
    return load(name)


def with_rules(definition, **changes):
    """The definition with some rule options changed (e.g. `torus=False`)."""
    return dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, **changes))


def grid_with(d, cards: dict) -> list[str]:
    """A full grid with the given tokens at the given cells, the rest of the deck elsewhere."""
    rows, columns = d.board.rows, d.board.columns
    deck = [d.colours[d.print.back_colour].letter] * d.cards.blind  # popped last: the blind cards go last
    for suit in d.cards.suits:
        letter = d.colours[suit].letter
        deck += [f"{letter}{d.cards.start_value}"] + [f"{letter}{v}" for v in d.cards.values]
    for token in cards.values():
        deck.remove(token)
    out = []
    for r in range(rows):
        out.append(" ".join(cards[(r, c)] if (r, c) in cards else deck.pop() for c in range(columns)))
    return out


def all_down_except(d, *up):
    return [[r, c] for r in range(d.board.rows) for c in range(d.board.columns) if (r, c) not in up]
