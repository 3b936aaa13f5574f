"""The table of a game in play, drawn from its print art: what `boardlab play` shows in the browser.

A game's print module offers `table_art(definition, game) -> TableArt`.  The `TableArt` knows
the game's printed components (cards, board, cube faces, markers, chips: the same `Component`s
the print files show as SVG) and lays them out for one position:

- `view(state, seat)` is the table as `seat` sees it (None: a spectator of agents, who sees
  everything): a size in mm and a list of items, each a JSON-ready dict
  (`art`: a component by name; `box`, `disc`, `label`: plain shapes and text).  An item with a
  `key` is something a person may click; the page highlights the keys that start or continue a
  legal move and sends nothing but the index of the move the clicks spell.
- `targets(state, move)` is the click path of a legal move: the keys clicked in order (e.g.
  a block, then the square it ends on).  Several moves may share a path; the page then asks
  which one, by their text.
- `move_text(state, move)` and `chance_text(state, outcome)` are the move list's words, and
  `move_json(state, move)` the move's JSON form (that of `boardlab moves` where the game has one).

So the page draws and matches keys; which moves are legal is the engine's alone.

>>> item = art("back", 1, 2, 30, 40, key="deck")
>>> item["art"], item["key"], item["w"]
('back', 'deck', 30)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, Sequence, TypeVar

from boardlab.analysis.protocol import Game, State
from boardlab.layouts.common import GameDefinition
from boardlab.printkit.draw import Canvas
from boardlab.printkit.pages import Component

if TYPE_CHECKING:
    from boardlab.analysis.protocol import Move, Outcome
    from boardlab.layouts.art import Placement
    from boardlab.printkit.decks import Card
    from boardlab.printkit.imposition import CardGeometry

Item = dict[str, Any]

#: a table's definition, game and state types (a game's own, so that its table reads them typed)
D = TypeVar("D", bound=GameDefinition)
G = TypeVar("G", bound=Game[Any])
S = TypeVar("S", bound=State)


def art(name: str, x: float, y: float, w: float, h: float, *, key: str | None = None, rotate: float = 0,
        title: str | None = None) -> Item:
    """A component drawn in the box (x, y, w, h) mm, turned by `rotate` degrees about its centre."""
    item: Item = {"art": name, "x": x, "y": y, "w": w, "h": h}
    if rotate:
        item["rotate"] = rotate
    return _keyed(item, key, title)


def box(x: float, y: float, w: float, h: float, *, key: str | None = None, fill: str | None = None,
        stroke: str | None = None, radius: float = 0.0, title: str | None = None) -> Item:
    """A rectangle (a hit area when it has a key and no fill)."""
    item: Item = {"box": [x, y, w, h], "fill": fill, "stroke": stroke, "radius": radius}
    return _keyed(item, key, title)


def disc(cx: float, cy: float, r: float, *, fill: str | None = None, stroke: str | None = None,
         key: str | None = None, title: str | None = None) -> Item:
    """A circle (a pawn, a die's place)."""
    return _keyed({"disc": [cx, cy, r], "fill": fill, "stroke": stroke}, key, title)


def label(text: str, x: float, y: float, *, size: float = 4.0, fill: str = "#222222", anchor: str = "middle",
          bold: bool = False) -> Item:
    """Text at (x, y) mm, `size` mm high."""
    return {"label": text, "x": x, "y": y, "size": size, "fill": fill, "anchor": anchor, "bold": bold}


def _keyed(item: Item, key: str | None, title: str | None) -> Item:
    if key is not None:
        item["key"] = key
    if title is not None:
        item["title"] = title
    return item


@dataclass
class View:
    """One position as one seat sees it: `width` x `height` mm of items, and lines of text
    (`notes`) for what the table does not show (deck sizes, the bank...)."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "items": self.items, "notes": self.notes}


class TableArt(Generic[D, G, S]):
    """A game's table for `boardlab play` (see the module docstring); one per definition."""

    def __init__(self, definition: D, game: G) -> None:
        self.definition = definition
        self.game = game

    def components(self) -> dict[str, Component]:
        """Every component the views name, by name."""
        raise NotImplementedError

    def seat_names(self) -> list[str]:
        """A name per seat (a colour), for the page."""
        return [f"seat {s + 1}" for s in range(self.game.players)]

    def view(self, state: S, seat: int | None) -> View:
        """The table as `seat` sees it; None sees everything (agents watched); a seat past the last
        (`game.players`) sees what nobody's hand shows (a page whose seats all play elsewhere)."""
        raise NotImplementedError

    def targets(self, state: S, move: Move) -> Sequence[str]:
        """The keys a person clicks, in order, to play `move` (a legal move of `state`)."""
        raise NotImplementedError

    def move_text(self, state: S, move: Move) -> str:
        """`move` (legal in `state`, before it is played) in the project's words."""
        return str(move)

    def move_json(self, state: S, move: Move) -> Any:
        """`move`'s JSON form (that of `boardlab moves` where the game has one)."""
        return self.move_text(state, move)

    def chance_text(self, state: S, outcome: Outcome) -> str:
        """A chance outcome of `state` (a chance node) for the move list."""
        return "chance"

    def quiet_turns(self, state: S) -> list[str]:
        """A line for every turn so far in which a seat had no move to make (Links: it only
        draws), in order; none in a game where every turn is a move."""
        return []

    def scores(self, state: S) -> list[str] | None:
        """Per-seat scores as text when the game has scores beyond who won (None: it has none)."""
        return None


def card_components(cards: Sequence[Card], geometry: CardGeometry) -> dict[str, Component]:
    """The faces of `cards` (printkit.decks.Card) as they lie on the table: the cut size, rounded
    corners, no bleed or guides (a face shared by several cards, such as the back, once)."""
    out: dict[str, Component] = {}
    for card in cards:
        for name, face in ((card.name, card.front), (card.back_name, card.back)):
            if name not in out:
                out[name] = Component(name, geometry.width, geometry.height, _trimmed(face, geometry))
    return out


def _trimmed(face: Callable[[Canvas], None], geometry: CardGeometry) -> Callable[[Canvas], None]:
    def draw(canvas: Canvas) -> None:
        with canvas.clip(0, 0, geometry.width, geometry.height, geometry.corner_radius):
            face(canvas)
    return draw


def token_component(name: str, size: float, fill: str, symbol: str, ink: str,
                    picture: Placement | None = None) -> Component:
    """A round playing piece of `size` mm: `symbol` (printkit.symbols) on `fill`, outlined in `ink`;
    with `picture` (a layouts.art.Placement: the designer's image of the piece) that image over it,
    inside the outline."""
    from boardlab.printkit.palette import contrast_ink
    from boardlab.printkit.pictures import draw_placed
    from boardlab.printkit.symbols import draw_symbol

    def draw(canvas: Canvas) -> None:
        canvas.circle(size / 2, size / 2, size / 2 - 0.4, fill=fill, stroke=ink, width=0.8)
        draw_symbol(canvas, symbol, size / 2, size / 2, size * 0.55, fill=contrast_ink(fill))
        if picture is not None:
            inner = size / 2 - 0.8
            with canvas.transform(size / 2 - inner, size / 2 - inner):
                draw_placed(canvas, picture, "token", 2 * inner, 2 * inner, 0.0, radius=inner)
    return Component(name, size, size, draw)
