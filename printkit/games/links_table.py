"""Links' table for `boardlab play` (printkit.table): the printed cards, and only your own hand face up.

The central card stands at the left; each line of play runs to the right of it, a card's
touching end towards the centre and its open end outwards, the cards overlapping so that a long
line still fits.  The other players' hands show their backs (how many cards, never which), the
deck its back and size.  A move is two clicks: a card of your hand, then the open end of a line
(or the free row that starts a new one); a card that may leave either end open is chosen by its
text.  A pass, where the rules allow one, is the Pass box beside the hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.analysis.links.cards import GAME
from boardlab.analysis.links.position import move_json
from boardlab.analysis.protocol import CHANCE
from boardlab.layouts import print_conventions
from boardlab.printkit.games.links import end_name, links_cards
from boardlab.printkit.imposition import card_geometry
from boardlab.printkit.pages import Component
from boardlab.printkit.table import TableArt, View, art, box, card_components, label

if TYPE_CHECKING:
    from boardlab.analysis.links.engine import LinksGame, LinksState
    from boardlab.analysis.links.table import Move
    from boardlab.analysis.protocol import Outcome
    from boardlab.layouts.links import Definition

GAP = 6.0
#: how much of a card's length each later card of a line (or a hand) leaves visible
STEP = 0.42
LABEL = 7.0  # mm: text height of the seat labels


class LinksTable(TableArt["Definition", "LinksGame", "LinksState"]):
    """Keys: `hand-K` (a card kind in your hand), `line-S` (line slot S's open end), `pass`."""

    def __init__(self, definition: Definition, game: LinksGame) -> None:
        super().__init__(definition, game)
        self.geometry = card_geometry(definition.print, print_conventions())
        d, deck = definition, game.deck
        self.names: dict[int, str] = {}
        for kind, k in enumerate(deck.kinds):
            if k.category == GAME:
                assert k.ends is not None  # a game card has its two ends
                first, second = (deck.faces[end] for end in k.ends)
                self.names[kind] = f"{end_name(first)}-{end_name(second)}"
            elif kind == deck.empty:
                self.names[kind] = "empty"
            else:
                self.names[kind] = f"master-{deck.master_names[k.master].lower()}"
        self.central = "central" if d.deck.central == 1 else "central-1"

    def components(self) -> dict[str, Component]:
        return card_components(links_cards(self.definition), self.geometry)

    def seat_names(self) -> list[str]:
        return [f"player {s + 1}" for s in range(self.game.players)]

    def view(self, state: LinksState, seat: int | None) -> View:
        w, h = self.geometry.width, self.geometry.height
        n = self.game.players
        names = self.seat_names()
        dealt = state.current_player() != CHANCE
        items: list = []
        y = GAP
        # the other seats (everyone but the viewer): backs only, unless nobody plays by hand
        for s in range(n):
            if s == seat:
                continue
            items.append(label(f"{names[s]}: {len(state.hands[s]) if dealt else 0} in hand, "
                               f"{len(state.captured[s])} captured", GAP, y + LABEL, size=LABEL, anchor="start"))
            y += LABEL + 2
            hand = sorted(state.hands[s]) if dealt else []
            for i, kind in enumerate(hand):
                items.append(art(self.names[kind] if seat is None else "back", GAP + i * w * STEP * 1.3, y, w * 0.6,
                                 h * 0.6))
            y += h * 0.6 + GAP
        # the deck and the table
        top = y
        items.append(art("back", GAP, top, w * 0.6, h * 0.6, title="the deck"))
        items.append(label(f"deck: {len(state.deck)}", GAP + w * 0.3, top + h * 0.6 + LABEL, size=LABEL * 0.8))
        centre_x = GAP * 2 + w * 0.6
        rows = len(state.lines)
        row = w + GAP  # a line's card lies on its side: w tall, h long
        table_height = max(rows * row, h)
        items.append(art(self.central, centre_x, top + (table_height - h) / 2, w, h, title="the central card"))
        start_x = centre_x + w + GAP
        right = start_x + h + GAP
        for slot, line in enumerate(state.lines):
            cy = top + slot * row + w / 2
            x = start_x
            for i, (kind, exposed) in enumerate(line.cards):
                k = self.game.deck.kinds[kind]
                # the component shows its first end on top: turn it so the touching end points to the centre
                touching_first = k.ends is None or k.ends[1] == exposed
                cx = x + h / 2
                items.append(art(self.names[kind], cx - w / 2, cy - h / 2, w, h, rotate=-90 if touching_first else 90,
                                 title=self.game.deck.text(kind)))
                x += h * STEP if i < len(line.cards) - 1 else h
            end_x = x if line.cards else start_x
            size = h if not line.cards else h * 0.5
            items.append(box(end_x - (h * 0.5 if line.cards else 0), cy - w / 2, size, w, key=f"line-{slot}",
                             stroke=None if line.cards else "#9e9e9e", radius=2,
                             title=f"line {slot + 1}" + (f": count {line.count}" if line.cards else ": free")))
            right = max(right, end_x + h * 0.5 + GAP)
        y = top + table_height + GAP
        # the viewer's hand, face up
        if seat is not None and seat < n:  # a seat past the last is nobody: no hand face up
            items.append(label(f"{names[seat]} (you): {len(state.captured[seat])} captured", GAP, y + LABEL,
                               size=LABEL, anchor="start"))
            y += LABEL + 2
            hand = sorted(state.hands[seat]) if dealt else []
            for i, kind in enumerate(hand):
                items.append(art(self.names[kind], GAP + i * (w + GAP / 2), y, w, h, key=f"hand-{kind}",
                                 title=self.game.deck.text(kind)))
            px = GAP + max(len(hand), 1) * (w + GAP / 2)
            items.append(box(px, y + h / 3, w * 0.8, h / 3, key="pass", stroke="#9e9e9e", radius=3, title="pass"))
            items.append(label("Pass", px + w * 0.4, y + h / 2 + 2.5, size=LABEL))
            right = max(right, px + w)
            y += h + GAP
        notes = []
        if dealt:
            scores = state.scores()
            notes = [f"{names[s]}: {len(state.captured[s])} captured, {len(state.hands[s])} in hand, score {scores[s]}"
                     for s in range(n)]
        return View(right, y, items, notes)

    def targets(self, state: LinksState, move: Move) -> list[str]:
        if move.is_pass:
            return ["pass"]
        return [f"hand-{move.kind}", f"line-{move.line}"]

    def move_json(self, state: LinksState, move: Move) -> dict[str, Any]:
        return move_json(state.observation(state.current_player()), move)

    def move_text(self, state: LinksState, move: Move) -> str:
        data = self.move_json(state, move)
        if data.get("pass"):
            return "pass"
        text = f"{data['card']} on line {data['line'] + 1}" + (" (new)" if data["new_line"] else "")
        if data["exposes"] is not None and self.game.deck.kinds[move.kind].ends is not None:
            text += f", {data['exposes']} open"
        if data["captures"]:
            text += f", captures {data['captures']}"
        return text

    def quiet_turns(self, state: LinksState) -> list[str]:
        names = self.seat_names()
        out: list[str] = []
        blocked = state.blocked
        for i, (seat, drawn, _) in enumerate(blocked):
            later = [d for s, d, _ in blocked[i + 1:] if s == seat]
            drew = (later[0] if later else state.draws[seat]) > drawn
            out.append(f"{names[seat]} cannot play: " + ("draws a card" if drew else "no card left to draw"))
        return out

    def chance_text(self, state: LinksState, outcome: Outcome) -> str:
        return "cards shuffled and dealt"

    def scores(self, state: LinksState) -> list[str]:
        return [str(v) for v in state.scores()]
