"""Links' cards as the engine and the tables see them: kinds, copies and text forms.

Everything comes from the definition's `[deck]` table, so another deck changes every number
with no code change.  A card *kind* is one distinct card: a game card (an unordered pair of
end faces), the empty card, or one master.  Cards of one kind are interchangeable, so hands,
the deck and the piles hold kinds; `copies` says how many cards of each kind a game uses.

Text forms (used by positions and moves):
- a face is its colour's letter followed by its points, e.g. `R1`;
- a game card is its two faces joined by `-`, e.g. `R1-B2` (in a hand, either order; on the
  table, the end touching the line first);
- the empty card is `empty`; a master is its name, e.g. `ONE`.

>>> from boardlab.layouts import load
>>> deck = LinksDeck(load("links"))
>>> len(deck.kinds), deck.copies(2)[deck.empty], deck.copies(4)[deck.empty], sum(deck.copies(2))
(41, 2, 0, 42)
>>> deck.kind_of("B2-R1") == deck.kind_of("R1-B2"), deck.text(deck.kind_of("R1-B2"))
(True, 'R1-B2')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.layouts.links import Definition

#: the exposed end of a line that anything links to (the central card, an empty card, a wild master)
WILD = -1

GAME, EMPTY, MASTER = "game", "empty", "master"
EMPTY_TEXT = "empty"


def _pair(ends: Iterable[int]) -> tuple[int, int]:
    """Two face indices as a pair."""
    first, second = ends
    return first, second


@dataclass(frozen=True)
class Kind:
    """One distinct card.

    `ends` are face indices (game cards, and masters when `rules.master_links = "match"`;
    `None` for a card that links to anything); `master` indexes `deck.masters` (-1 otherwise).
    """

    category: str
    ends: tuple[int, int] | None
    master: int = -1
    value: int = 0  # a master's capture value

    @property
    def is_wild(self) -> bool:
        """Links to anything on both sides."""
        return self.ends is None


class LinksDeck:
    """The kinds of a Links deck and how many of each a game with n players shuffles."""

    def __init__(self, definition: Definition) -> None:
        deck = definition.deck
        self.definition = definition
        self.hand_size = deck.hand_size
        self.faces = deck.faces
        face_index = {face: i for i, face in enumerate(self.faces)}
        letters = definition.colours
        self.face_texts = tuple(f"{letters[f.colour].letter}{f.points}" for f in self.faces)
        matching = definition.rules.master_links == "match"
        # one kind per distinct pair of end faces, in the deck's order, with its number of copies
        # (a generated deck: every pair, `copies` times; a card list: as listed)
        copies: dict[tuple[int, int], int] = {}
        for first, second in deck.game_cards:
            low, high = sorted((face_index[first], face_index[second]))
            copies[low, high] = copies.get((low, high), 0) + 1
        kinds = [Kind(GAME, pair) for pair in copies]
        counts = list(copies.values())
        self.game_kinds = tuple(range(len(kinds)))
        self.empty = len(kinds)
        kinds.append(Kind(EMPTY, None))
        counts.append(deck.empty)
        master_kinds: list[int] = []
        for i, m in enumerate(deck.masters):
            ends = _pair(sorted(face_index[end] for end in m.ends)) if matching else None
            master_kinds.append(len(kinds))
            kinds.append(Kind(MASTER, ends, i, m.value))
            counts.append(m.count)
        self.master_kinds = tuple(master_kinds)
        self.master_names = tuple(m.name for m in deck.masters)
        self.kinds = tuple(kinds)
        self.full_copies = tuple(counts)
        self.removed_empty = dict(deck.removed_empty)
        self._texts = tuple(self._kind_text(k) for k in self.kinds)
        self._by_text = {text: i for i, text in enumerate(self._texts)}
        for i, kind in enumerate(self.kinds):
            if kind.category == GAME and kind.ends is not None and kind.ends[0] != kind.ends[1]:
                self._by_text[self._face_pair(kind.ends[1], kind.ends[0])] = i
        self._face_by_text = {text: i for i, text in enumerate(self.face_texts)}

    # -- counts ---------------------------------------------------------------------------
    def copies(self, players: int) -> tuple[int, ...]:
        """Cards of each kind shuffled for dealing with this many players (empty cards removed).

        :raises BoardlabError: when the removal table has no entry for this player count.
        """
        if players not in self.removed_empty:
            raise BoardlabError(f"the deck's removed_empty table has no entry for {players} players")
        counts = list(self.full_copies)
        counts[self.empty] -= self.removed_empty[players]
        return tuple(counts)

    def category_counts(self, players: int) -> dict[str, int]:
        """Cards per category (game, empty, each master by name) of a game with n players."""
        counts = self.copies(players)
        out = {GAME: sum(counts[k] for k in self.game_kinds), EMPTY: counts[self.empty]}
        for name, k in zip(self.master_names, self.master_kinds):
            out[name] = counts[k]
        return out

    # -- linking --------------------------------------------------------------------------
    def links_to(self, kind: int, end: int) -> bool:
        """Whether a card of `kind` may be laid against an exposed `end` (a face, or `WILD`)."""
        k = self.kinds[kind]
        return end == WILD or k.ends is None or end in k.ends

    def exposures(self, kind: int, end: int) -> tuple[int, ...]:
        """The ends the card may leave exposed when laid against `end` (empty when it cannot link).

        A wild card leaves `WILD`; a card with ends leaves its other end, and on a wild end
        either of its ends (the player chooses).

        >>> from boardlab.layouts import load
        >>> deck = LinksDeck(load("links"))
        >>> k = deck.kind_of("R1-B2")
        >>> [deck.face_texts[e] for e in deck.exposures(k, WILD)], deck.exposures(k, deck.face("G1"))
        (['R1', 'B2'], ())
        """
        k = self.kinds[kind]
        if k.ends is None:
            return (WILD,)
        a, b = k.ends
        if end == WILD:
            return (a,) if a == b else (a, b)
        if end == a:
            return (b,)
        if end == b:
            return (a,)
        return ()

    # -- text -----------------------------------------------------------------------------
    def _face_pair(self, a: int, b: int) -> str:
        return f"{self.face_texts[a]}-{self.face_texts[b]}"

    def _kind_text(self, k: Kind) -> str:
        if k.category == GAME and k.ends is not None:
            return self._face_pair(*k.ends)
        if k.category == EMPTY:
            return EMPTY_TEXT
        return self.master_names[k.master]

    def text(self, kind: int) -> str:
        return self._texts[kind]

    def face_text(self, end: int) -> str | None:
        """The text of an exposed end; None for a wild end."""
        return None if end == WILD else self.face_texts[end]

    def face(self, text: str) -> int:
        """The face index of a text such as `R1`.

        :raises BoardlabError: for an unknown face.
        """
        if text not in self._face_by_text:
            raise BoardlabError(f"'{text}' is not an end of this deck (ends: {', '.join(self.face_texts)})")
        return self._face_by_text[text]

    def kind_of(self, text: Any) -> int:
        """The kind of a card text (a game card's faces in either order).

        :raises BoardlabError: for an unknown card.
        """
        if not isinstance(text, str) or text not in self._by_text:
            raise BoardlabError(f"unknown card {text!r} (write faces such as "
                                f"'{self._texts[0]}', '{EMPTY_TEXT}' or a master's name)")
        return self._by_text[text]

    def kinds_text(self, kinds: Iterable[int]) -> list[str]:
        return [self._texts[k] for k in kinds]

