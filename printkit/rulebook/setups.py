"""The drawn setup example of a game's rulebook (the `::: setup` directive), made from the print
files' own art.

A game's print module (the `print` part of its registry entry) offers it as
`setup_drawing(definition) -> (draw, width, height)`: a drawing in mm for
`printkit.rulebook.figures.Figure`, every card, board and colour taken from the definition and
the print module (a dealt example from the engine's own dealing, `EXAMPLE_SEED`).  A game
without one leaves the directive out of its rulebook text (`boardlab check` says so).  This
module holds the lookup and what the drawings share.

>>> from boardlab.layouts import game_ids, load
>>> drawn = [g for g in game_ids() if setup_drawing(g) is not None]
>>> draw, width, height = setup_drawing(drawn[0])(load(drawn[0]))
>>> width > 0 and height > 0
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from boardlab.layouts.registry import game_entry, game_ids, game_part
from boardlab.printkit.draw import Canvas, Drawing
from boardlab.printkit.palette import contrast_ink
from boardlab.printkit.symbols import draw_symbol

if TYPE_CHECKING:
    from boardlab.layouts.common import Colour

#: a print module's setup drawing: (draw, width, height in mm)
SetupDrawing = tuple[Drawing, float, float]
#: a print module's worked example: (draw, width, height in mm, caption)
WorkedExample = tuple[Drawing, float, float, str]

#: the seed of the example deal and of the example's rolled faces (any fixed number will do)
EXAMPLE_SEED = 7
#: gap between neighbouring cards of an example, in mm at full size
CARD_GAP = 3.0


def pawn(canvas: Canvas, cx: float, cy: float, size: float, colour: Colour, ink: str) -> None:
    """A pawn seen from above: a disc in the player's colour with the colour's symbol."""
    canvas.circle(cx, cy, size / 2, fill=colour.hex, stroke=ink, width=size * 0.06)
    draw_symbol(canvas, colour.symbol, cx, cy, size * 0.55, fill=contrast_ink(colour.hex))


def setup_drawing(game_id: str) -> Callable | None:
    """The `setup_drawing` of the game's print module, or None when it has none."""
    if not game_entry(game_id).has("print"):
        return None
    return getattr(game_part(game_id, "print"), "setup_drawing", None)


def setup_caption(game_id: str) -> Callable | None:
    """The `setup_caption` of the game's print module (definition -> the caption of what its setup
    drawing shows), or None: then the caption says the drawing is the start of a game."""
    if not game_entry(game_id).has("print"):
        return None
    return getattr(game_part(game_id, "print"), "setup_caption", None)


def worked_example(game_id: str) -> Callable | None:
    """The `worked_example` of the game's print module (`::: example`: a move of a real position,
    drawn, with its caption), or None when it has none."""
    if not game_entry(game_id).has("print"):
        return None
    return getattr(game_part(game_id, "print"), "worked_example", None)


def games_with_setup() -> list[str]:
    """The games whose print module draws a setup example."""
    return [game_id for game_id in game_ids("print") if setup_drawing(game_id) is not None]
