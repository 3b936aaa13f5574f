"""6x6's table for `boardlab play` (printkit.table): the printed board, the player cards, markers and chips.

Each player's card lies beside the board; the chip of their bet sits on the face box they bet
on and, once rolled, their die on the card's right.  A marker is a round piece in the seat's
colour on its number.  A move is two clicks: a face box of your card, then a free number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from functools import partial

from boardlab.analysis.protocol import CHANCE
from boardlab.printkit.dice import draw_die_face
from boardlab.printkit.games.sixbysix import board_component, board_size, card_size, player_cards, printed_board_size
from boardlab.printkit.draw import Canvas, Drawing
from boardlab.printkit.pages import Component
from boardlab.printkit.palette import ink_and_paper
from boardlab.printkit.pictures import piece_image
from boardlab.printkit.table import TableArt, View, art, box, label, token_component

if TYPE_CHECKING:
    from boardlab.analysis.sixbysix.engine import Move, SixBySixGame, SixBySixState
    from boardlab.layouts.sixbysix import Definition

GAP = 8.0


class SixBySixTable(TableArt["Definition", "SixBySixGame", "SixBySixState"]):
    """Keys: `face-F` (a face box of the mover's card) and `num-N` (a board number)."""

    def components(self) -> dict[str, Component]:
        d = self.definition
        game_id = d.game.id
        ink, paper = ink_and_paper(d)
        board = board_component(d)
        out = {board.name: board}
        width, height = card_size(d)
        side = d.print.board_square
        fronts = {card.name: card.front for card in player_cards(d)}
        for seat in d.components.seats:
            colour = d.colours[seat]
            out[f"{game_id}-card-{seat}"] = Component(f"{game_id}-card-{seat}", width, height,
                                                      partial(_clipped, width=width, height=height, definition=d,
                                                              front=fronts[f"{game_id}-card-{seat}"]))
            out[f"{game_id}-marker-{seat}"] = token_component(f"{game_id}-marker-{seat}", side * 0.7, colour.hex,
                                                              colour.symbol, ink, piece_image(d, "standees", "marker"))
            out[f"{game_id}-chip-{seat}"] = token_component(f"{game_id}-chip-{seat}", d.print.chip, colour.hex,
                                                            colour.symbol, ink, piece_image(d, "tokens", "chip"))
        die = side * 0.8
        for face in sorted(set(d.dice.faces)):
            out[f"{game_id}-die-{face}"] = Component(
                f"{game_id}-die-{face}", die, die,
                partial(draw_die_face, cx=die / 2, cy=die / 2, size=die * 0.95, value=face, face=paper, ink=ink))
        return out

    def seat_names(self) -> list[str]:
        return [self.definition.colours[seat].label for seat in self.game.seats]

    def number_boxes(self) -> dict[int, tuple[float, float, float, float]]:
        d = self.definition
        side = d.print.board_square
        return {int(token): (c * side, r * side, side, side) for r, row in enumerate(d.board.cells)
                for c, token in enumerate(row) if token != d.board.base}

    def view(self, state: SixBySixState, seat: int | None) -> View:
        d, game = self.definition, self.game
        game_id = d.game.id
        side = d.print.board_square
        bw, bh = board_size(d)
        cw, ch = card_size(d)
        items = [art(f"{game_id}-board", 0, 0, *printed_board_size(d))]  # the grid at the top, the bank under it
        bh = printed_board_size(d)[1]
        numbers = self.number_boxes()
        names = self.seat_names()
        for s, number in enumerate(state.markers):
            if number:
                x, y, w, h = numbers[number]
                items.append(art(f"{game_id}-marker-{game.seats[s]}", x + w * 0.15, y + h * 0.15, w * 0.7, h * 0.7,
                                 title=f"{names[s]} marker"))
        cards_x = bw + GAP
        die = side * 0.8
        mover = state.current_player()
        for s in range(game.players):
            y = s * (ch + GAP + 6)
            items.append(label(f"{names[s]}: {state.chips[s]} chips" + ("" if state.active[s] else " (out)")
                               + (" - to move" if s == mover else ""), cards_x, y + 5, size=5, anchor="start"))
            y += 7
            items.append(art(f"{game_id}-card-{game.seats[s]}", cards_x, y, cw, ch))
            placed = state.markers[s] != 0
            if placed and state.bets[s]:
                k = game.faces.index(state.bets[s])
                size = d.print.chip
                items.append(art(f"{game_id}-chip-{game.seats[s]}", cards_x + k * side + (side - size) / 2,
                                 y + (ch - size) / 2, size, size, title=f"bet on {state.bets[s]}"))
            if state.dice[s]:
                items.append(art(f"{game_id}-die-{state.dice[s]}", cards_x + cw + GAP / 2, y + (ch - die) / 2, die, die,
                                 title=f"rolled {state.dice[s]}"))
            if s == seat and s == mover:
                for k, face in enumerate(game.faces):
                    items.append(box(cards_x + k * side, y, side, ch, key=f"face-{face}", title=f"bet on {face}"))
        for number, (x, y, w, h) in numbers.items():
            items.append(box(x, y, w, h, key=f"num-{number}", title=str(number)))
        width = cards_x + cw + GAP + die
        height = max(bh, game.players * (ch + GAP + 13))
        notes = [f"bank: {state.bank} chips", f"round {state.rounds + 1}"]
        return View(width, height, items, notes)

    def targets(self, state: SixBySixState, move: Move) -> list[str]:
        return [f"face-{move.face}", f"num-{move.number}"]

    def move_text(self, state: SixBySixState, move: Move) -> str:
        return move.text()

    def chance_text(self, state: SixBySixState, outcome: int) -> str:
        """The roll, and with the round's last die, the sum and who takes the bank."""
        seat = state.order[state.step]
        names = self.seat_names()
        text = f"{names[seat]} rolls {outcome}"
        if state.step == len(state.order) - 1:
            total = sum(state.dice[s] for s in state.order[:-1]) + outcome
            bank = state.bank + (outcome != state.bets[seat])
            winner = next((s for s in state.order if state.markers[s] == total), None)
            text += f"; sum {total}: " + (f"{names[winner]} takes the bank ({bank})" if winner is not None
                                          else "nobody takes the bank")
        return text

    def scores(self, state: SixBySixState) -> list[str]:
        return [f"{c} chips" for c in state.chips]


def _clipped(canvas: Canvas, width: float, height: float, definition: Definition, front: Drawing) -> None:
    with canvas.clip(0, 0, width, height, definition.print.corner_radius):
        front(canvas)
