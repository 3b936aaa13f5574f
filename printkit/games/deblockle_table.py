"""Deblockle's table for `boardlab play` (printkit.table): the printed board, each block as its top face.

A block shows the face on top as the cube nets print it (the face's symbol on the player's
colour) and, small along its upper edge, the face turned north, so a player can tell how it
will tip.  A move is two clicks: the block, then the square where it ends its turn (for a
block that scores, the star it scores on); moves from one block to one square by different
tips are told apart by their text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.analysis.deblockle.board import SCORED, Move
from boardlab.analysis.protocol import CHANCE
from boardlab.printkit.draw import Canvas
from boardlab.printkit.games.deblockle import board_size, square_box
from boardlab.printkit.pages import Component
from boardlab.printkit.palette import contrast_ink, ink_and_paper
from boardlab.printkit.symbols import draw_symbol
from boardlab.printkit.table import TableArt, View, art, box

if TYPE_CHECKING:
    from boardlab.analysis.deblockle.engine import DeblockleGame, DeblockleState
    from boardlab.analysis.protocol import Outcome
    from boardlab.layouts.deblockle import Definition

#: the top face's share of a square, and the north face's share of the top face
FACE_SHARE = 0.78
NORTH_SHARE = 0.3


def face_component(definition: Definition, colour: str, face: str) -> Component:
    """One face of a block of `colour` as the nets print it: the face's symbol on the colour."""
    edge = definition.print.cube_edge
    fill = definition.colours[colour].hex
    ink = ink_and_paper(definition)[0]

    def draw(canvas: Canvas) -> None:
        canvas.rect(0, 0, edge, edge, fill=fill, stroke=ink, width=0.5, radius=edge * 0.08)
        draw_symbol(canvas, definition.faces[face].symbol, edge / 2, edge / 2, edge * 0.6, fill=contrast_ink(fill))
    return Component(face_name(definition, colour, face), edge, edge, draw)


def face_name(definition: Definition, colour: str, face: str) -> str:
    return f"{definition.game.id}-face-{colour}-{face.lower()}"


class DeblockleTable(TableArt["Definition", "DeblockleGame", "DeblockleState"]):
    """The board with the blocks on it; keys are the squares (`sq-c1`)."""

    def components(self) -> dict[str, Component]:
        d = self.definition
        from boardlab.printkit.games.deblockle import board_component

        out = {f"{d.game.id}-board": board_component(d)}
        for player in d.players:
            for face in d.faces:
                component = face_component(d, player.colour, face)
                out[component.name] = component
        return out

    def seat_names(self) -> list[str]:
        return [self.definition.colours[p.colour].label for p in self.definition.players]

    def view(self, state: DeblockleState, seat: int | None) -> View:
        d, game = self.definition, self.game
        width, height = board_size(d)
        items = [art(f"{d.game.id}-board", 0, 0, width, height)]
        for cell, orientation in enumerate(state.orientation):
            if orientation >= 0:
                x, y, w, h = square_box(d, game.board.name(cell))
                colour = d.players[state.owner[cell]].colour
                top, north = game.cube.top(orientation), game.cube.north(orientation)
                size = w * FACE_SHARE
                fx, fy = x + (w - size) / 2, y + (h - size) / 2
                items.append(art(face_name(d, colour, top), fx, fy, size, size,
                                 title=f"{game.board.name(cell)}: {top} on top, {north} north"))
                small = size * NORTH_SHARE
                items.append(art(face_name(d, colour, north), fx + (size - small) / 2, fy - small * 0.55, small, small))
        for cell in range(game.board.cells):
            name = game.board.name(cell)
            items.append(box(*square_box(d, name), key=f"sq-{name}", title=name))
        set_up = state.current_player() != CHANCE
        notes = [f"{name}: {state.left[s]} block{'s' if state.left[s] != 1 else ''} on the board, "
                 f"{d.rules.counts[s] - state.left[s] if set_up else 0} scored"
                 for s, name in enumerate(self.seat_names())]
        return View(width, height, items, notes)

    def targets(self, state: DeblockleState, move: Move) -> list[str]:
        board = self.game.board
        seat = state.current_player()
        end = self.game.target[seat] if move.to == SCORED else move.to
        return [f"sq-{board.name(move.frm)}", f"sq-{board.name(end)}"]

    def move_text(self, state: DeblockleState, move: Move) -> str:
        return move.text(self.game.board)

    def move_json(self, state: DeblockleState, move: Move) -> dict[str, Any]:
        return move.to_json(self.game.board)

    def chance_text(self, state: DeblockleState, outcome: Outcome) -> str:
        return "blocks rolled and set up"
