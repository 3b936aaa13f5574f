"""Blockd definitions the tests use: the shipped ones plus grids written as variant files.

The grid variants live in tests/data/blockd-grid-*.toml: a designer's 6 x 6 grid with a new
colour, a 4 x 4 grid and a flat 3 x 4 board, loaded with no code change.
"""

from __future__ import annotations

import dataclasses
import random
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


def option_definitions() -> dict:
    """Every shipped Blockd definition and variant, plus a short turn cap, other start steps,
    a flat 4 x 4 board, a 2 x 5 torus and the test grids: every rule option the fast paths read."""
    base = load("blockd")
    out = {name: load(name) for name in ("blockd", "blockd-flat", "blockd-pawns-block", "blockd-pawns-stack",
                                         "blockd-end-of-round", "blockd-eliminated-card-stay",
                                         "blockd-no-restore", "blockd-pawns-stack-always")}
    out["cap-12"] = with_rules(base, max_turns=12)
    out["start-2-3"] = with_rules(base, start_steps=(2, 3))
    out["stack-end-of-round-stay"] = with_rules(base, pawns="stack", elimination="end_of_round",
                                                eliminated_card="stay")
    out["stack-always-end-of-round-flat"] = with_rules(base, pawns="stack", stacked_flip="always",
                                                       elimination="end_of_round", torus=False)
    out["block-flat-end-of-round"] = with_rules(base, pawns="block", torus=False, elimination="end_of_round")
    small = dataclasses.replace(base, board=dataclasses.replace(base.board, rows=4, columns=4),
                                cards=dataclasses.replace(base.cards, values=(1, 2), blind=4))
    out["flat-4x4"] = with_rules(small, torus=False)
    narrow = dataclasses.replace(base, board=dataclasses.replace(base.board, rows=2, columns=5),
                                 cards=dataclasses.replace(base.cards, values=(1,), blind=2))
    out["torus-2x5"] = narrow  # up and down reach the same cell
    for name in ("grid-6x6-purple", "grid-3x4-flat"):  # 36 cells; 5 players
        out[name] = definition_named(name)
    return out


def engine_positions(game, count: int, seed: int):
    """States where someone is to move, from random engine games (uniform over moves)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        while not state.is_terminal() and len(out) < count:
            if rng.random() < 0.5:
                out.append(state.clone())
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    return out
