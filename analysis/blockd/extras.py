"""Blockd's own figures in its balance report (`BlockdGame.report_extras`): mobility on a dealt
grid and the mean start mobility of a pawn by card, drawn from the engine's own dealing."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from boardlab.analysis.report.document import chart, table
from boardlab.analysis.runner import CHANCE_STREAM, derive_seed

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdState
    from boardlab.layouts.blockd import Definition

#: deals over which Blockd's start mobility is averaged per card
BLOCKD_DEALS = 200


def report_extras(definition: Definition, players: int, seed: int) -> tuple[list, dict]:
    """Mobility on the grid of one deal, and the mean start mobility of a pawn by card."""
    from boardlab.analysis.blockd.engine import make_game, random_deal

    game = make_game(definition, players)

    def dealt(d: int) -> BlockdState:
        state = game.new_initial_state()
        state.apply(random_deal(game, random.Random(derive_seed(seed, CHANCE_STREAM, d))))
        return state

    state = dealt(0)
    deal = state.deal
    assert deal is not None  # dealt above
    grid = game.grid
    values: list[list[int | None]] = []
    labels: list[list[str]] = []
    for row in range(grid.rows):
        values.append([])
        labels.append([])
        for column in range(grid.columns):
            cell = grid.cell(row, column)
            card_id = deal.card_ids[cell]
            blind = game.cards[card_id].is_blind
            values[-1].append(None if blind else state.destinations_from(cell, 0).bit_count())
            pawn = state.pawns.index(cell) + 1 if cell in state.pawns else None
            labels[-1].append(game.token(card_id) + (f" P{pawn}" if pawn else ""))
    by_kind: dict[str, list[int]] = {}
    for d in range(BLOCKD_DEALS):
        s = dealt(d)
        s_deal = s.deal
        assert s_deal is not None  # dealt above
        for cell in range(grid.cells):
            card = game.cards[s_deal.card_ids[cell]]
            if card.is_blind:
                continue
            kind = "start card" if card.value == definition.cards.start_value else f"value {card.value}"
            by_kind.setdefault(kind, []).append(s.destinations_from(cell, 0).bit_count())
    kinds = sorted(by_kind, key=lambda k: (k != "start card", k))
    means = {k: round(sum(v) / len(v), 3) for k, v in ((k, by_kind[k]) for k in kinds)}
    data = {"example_deal_mobility": values, "mobility_by_card": means, "deals": BLOCKD_DEALS}
    blocks = [
        chart("grid", f"blockd-mobility-{players}", f"Mobility on the grid of one deal (deal 0, seed {seed}), "
              f"{players} players", values=values, labels=labels, axis="cells a pawn here could end on",
              note="Number in a cell: the cells a pawn standing there could end on in one move, with no other "
                   "pawn on the board. Grey: the blind card (a pawn never stands there). P1.. mark the start cards "
                   "of the seats."),
        table(f"Start mobility by card, {players} players", [("card", "text"), ("mean cells reachable", "f2")],
              [[k, means[k]] for k in kinds],
              f"Over {BLOCKD_DEALS} deals, each face-up card's cells reachable in one move with no other pawn on "
              "the board. The blind card holds no pawn and blocks every walk through it."),
    ]
    return blocks, data
