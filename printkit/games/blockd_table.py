"""Blockd's table for `boardlab play` (printkit.table): the dealt grid of printed cards and the pawns.

Face-down cards show the printed back; each pawn is a round piece with its suit's symbol.  A
move is one click on the card the pawn ends on, or, with the restore bonus, two: the face-down
card turned back up, then the destination.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.analysis.protocol import CHANCE
from boardlab.layouts import print_conventions
from boardlab.printkit.games.blockd import blind_card_name, blockd_cards
from boardlab.printkit.imposition import card_geometry
from boardlab.printkit.pages import Component
from boardlab.printkit.palette import ink_and_paper
from boardlab.printkit.pictures import piece_image
from boardlab.printkit.table import TableArt, View, art, box, card_components, label, token_component

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdGame, BlockdState, Move
    from boardlab.analysis.protocol import Outcome
    from boardlab.layouts.blockd import Definition

#: mm between the cards of the grid
GAP = 4.0
#: the band left and above the grid for the row and column numbers the move list uses ("to 1,0": row 1, column 0)
MARGIN = 14.0


class BlockdTable(TableArt["Definition", "BlockdGame", "BlockdState"]):
    """The grid; keys are the cells (`cell-R-C`, row and column from 0 at the top left)."""

    def __init__(self, definition: Definition, game: BlockdGame) -> None:
        super().__init__(definition, game)
        self.geometry = card_geometry(definition.print, print_conventions())

    def components(self) -> dict[str, Component]:
        d = self.definition
        out = card_components(blockd_cards(d), self.geometry)
        ink = ink_and_paper(d)[0]
        for suit in d.cards.suits:
            colour = d.colours[suit]
            out[f"token-{suit}"] = token_component(f"token-{suit}", self.geometry.width * 0.45, colour.hex,
                                                   colour.symbol, ink, piece_image(d, "standees", "pawn"))
        return out

    def seat_names(self) -> list[str]:
        return [self.definition.colours[suit].label for suit in self.game.suits[:self.game.players]]

    def card_name(self, card_id: int) -> str:
        """The component of a card of the deal."""
        game, d = self.game, self.definition
        card = game.cards[card_id]
        if card.is_blind:
            first = next(i for i, c in enumerate(game.cards) if c.is_blind)
            return blind_card_name(card_id - first)
        suit = game.suits[card.suit]
        return f"{suit}-start" if card.value == d.cards.start_value else f"{suit}-{card.value}"

    def cell_box(self, cell: int) -> tuple[float, float, float, float]:
        row, column = divmod(cell, self.game.grid.columns)
        w, h = self.geometry.width, self.geometry.height
        return MARGIN + GAP + column * (w + GAP), MARGIN + GAP + row * (h + GAP), w, h

    def view(self, state: BlockdState, seat: int | None) -> View:
        grid = self.game.grid
        w, h = self.geometry.width, self.geometry.height
        width, height = MARGIN + GAP + grid.columns * (w + GAP), MARGIN + GAP + grid.rows * (h + GAP)
        items = [label("row,column", 1.0, MARGIN * 0.45, size=4.0, anchor="start", fill="#555555")]
        for column in range(grid.columns):
            x, _, _, _ = self.cell_box(column)
            items.append(label(str(column), x + w / 2, MARGIN + GAP * 0.5, size=9.0, bold=True, fill="#555555"))
        for row in range(grid.rows):
            _, y, _, _ = self.cell_box(row * grid.columns)
            items.append(label(str(row), MARGIN / 2 + 1.0, y + h / 2 + 3.2, size=9.0, bold=True, fill="#555555"))
        dealt = state.current_player() != CHANCE
        for cell in range(grid.cells):
            x, y, _, _ = self.cell_box(cell)
            if not dealt:
                items.append(art("back", x, y, w, h))
                continue
            face_down = state.down >> cell & 1
            assert state.deal is not None  # past the chance node: dealt
            items.append(art("back" if face_down else self.card_name(state.deal.card_ids[cell]), x, y, w, h))
        names = self.seat_names()
        if dealt:
            for s, cell in enumerate(state.pawns):
                if cell < 0:
                    continue
                x, y, _, _ = self.cell_box(cell)
                size = w * 0.45
                items.append(art(f"token-{self.game.suits[s]}", x + (w - size) / 2, y + h * 0.52, size, size,
                                 title=f"{names[s]} pawn"))
        for cell in range(grid.cells):
            row, column = divmod(cell, grid.columns)
            items.append(box(*self.cell_box(cell), key=f"cell-{row}-{column}", radius=self.geometry.corner_radius,
                             title=f"{row},{column}"))
        notes = [f"turn {state.turns + 1}, round {state.round}"] if dealt and not state.is_terminal() else []
        if dealt and any(state.restore):
            notes.append("restore bonus: " + ", ".join(names[s] for s, r in enumerate(state.restore) if r))
        gone = [names[s] for s, cell in enumerate(state.pawns) if cell < 0]
        if dealt and gone:
            notes.append("out of the game: " + ", ".join(gone))
        return View(width, height, items, notes)

    def _cell_key(self, cell: int) -> str:
        return "cell-{}-{}".format(*divmod(cell, self.game.grid.columns))

    def targets(self, state: BlockdState, move: Move) -> list[str]:
        keys = [self._cell_key(move.to)]
        return keys if move.restore < 0 else [self._cell_key(move.restore), *keys]

    def move_text(self, state: BlockdState, move: Move) -> str:
        return move.text(self.game.grid.columns)

    def move_json(self, state: BlockdState, move: Move) -> dict[str, Any]:
        return move.to_json(self.game.grid.columns)

    def chance_text(self, state: BlockdState, outcome: Outcome) -> str:
        return "cards dealt"
