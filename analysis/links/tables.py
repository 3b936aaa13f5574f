"""`boardlab tables links`: exact deck-count statistics from the definition alone.

For every player count: the empty cards removed, the cards shuffled for dealing (the central
card is on the table, not in the deck), the cards dealt, the draw pile, the turns and rounds
until the deck runs out (every turn draws one card), the cards of each kind; for one opening
hand the exact (multivariate hypergeometric) chances of at least one master, each master, at
least one empty card, no special card (master or empty) at all, and of holding a card that
links to a given exposed end; and how the draw pile empties over the game.

Every probability is an exact `Fraction` counted with binomial coefficients: one hand of
h cards is a uniformly random h-subset of the D shuffled cards, so
P(no card of a set of k cards) = C(D - k, h) / C(D, h).

JSON (`--format json`): ``{"deck": {kind: count in the full box}, "by_players": {"N": {...}}}``
with fractions as reduced "p/q" strings (only N when `--players N` is given).

>>> from boardlab.layouts import load
>>> t = tables(load("links"), TableOptions(players=2))
>>> doc = t.data["by_players"]["2"]
>>> doc["deck"], doc["dealt"], doc["draw_pile"], doc["p_empty_in_hand"]
(42, 8, 34, '158/861')
"""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING, Any

from boardlab.analysis.links.cards import EMPTY, GAME, LinksDeck
from boardlab.analysis.tables import Table, TableOptions, TableSet, decimal_text, fraction_text

if TYPE_CHECKING:
    from boardlab.layouts.links import Definition


def p_none(deck_size: int, marked: int, drawn: int) -> Fraction:
    """P(none of `marked` cards among `drawn` cards taken at random from `deck_size`).

    >>> p_none(4, 1, 2)
    Fraction(1, 2)
    """
    return Fraction(comb(deck_size - marked, drawn), comb(deck_size, drawn))


def p_some(deck_size: int, marked: int, drawn: int) -> Fraction:
    """P(at least one of `marked` cards among `drawn`)."""
    return 1 - p_none(deck_size, marked, drawn)


def p_exactly(deck_size: int, marked: int, drawn: int, k: int) -> Fraction:
    """P(exactly k of `marked` cards among `drawn`) (the hypergeometric law)."""
    return Fraction(comb(marked, k) * comb(deck_size - marked, drawn - k), comb(deck_size, drawn))


def linking_cards(deck: LinksDeck, copies: Sequence[int], face: int) -> int:
    """Cards that may be laid against an exposed end showing `face` (wild cards included)."""
    return sum(c for kind, c in enumerate(copies) if deck.links_to(kind, face))


def player_document(deck: LinksDeck, players: int) -> dict:
    """Every exact number of one player count, fractions as `Fraction`."""
    copies = deck.copies(players)
    size = sum(copies)
    hand = deck.hand_size
    dealt = players * hand
    pile = size - dealt
    masters = sum(copies[k] for k in deck.master_kinds)
    empties = copies[deck.empty]
    specials = masters + empties
    by_master = {name: p_some(size, copies[k], hand) for name, k in zip(deck.master_names, deck.master_kinds)}
    links = {deck.face_texts[f]: p_some(size, linking_cards(deck, copies, f), hand) for f in range(len(deck.faces))}
    over_time = []
    for turns in range(0, pile + 1, players):
        left = pile - turns
        over_time.append({"turns": turns, "round": turns // players, "draw_pile": left,
                          "p_card_in_draw_pile": Fraction(left, size),
                          "p_master_in_draw_pile": p_some(size, masters, left) if left else Fraction(0),
                          "p_empty_in_draw_pile": p_some(size, empties, left) if left else Fraction(0)})
    return {
        "players": players,
        "removed": deck.removed_empty[players],
        "deck": size,
        "dealt": dealt,
        "draw_pile": pile,
        "turns_to_empty_deck": pile,
        "rounds_to_empty_deck": -(-pile // players),
        "kinds": deck.category_counts(players),
        "p_master_in_hand": p_some(size, masters, hand),
        "p_each_master_in_hand": by_master,
        "p_empty_in_hand": p_some(size, empties, hand),
        "p_no_special_in_hand": p_none(size, specials, hand),
        "specials_in_hand": {str(k): p_exactly(size, specials, hand, k) for k in range(min(hand, specials) + 1)},
        "p_links_to_end": links,
        "draw_pile_over_time": over_time,
    }


def _json(value: Any) -> Any:
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value


def _both(p: Fraction) -> str:
    return f"{fraction_text(p)} ({decimal_text(p)})"


def tables(definition: Definition, options: TableOptions) -> TableSet:
    """Every Links deck-count table for the requested player count (or every allowed count)."""
    deck = LinksDeck(definition)
    info = definition.game
    counts = [options.players] if options.players is not None else list(range(info.min_players,
                                                                                info.max_players + 1))
    docs = {n: player_document(deck, n) for n in counts}
    box = {GAME: sum(deck.full_copies[k] for k in deck.game_kinds), "central": definition.deck.central,
           EMPTY: deck.full_copies[deck.empty],
           **{name: deck.full_copies[k] for name, k in zip(deck.master_names, deck.master_kinds)}}
    assumption = ("The deck is the definition's assumption (the source lists no deck): "
                  + ", ".join(f"{v} {k}" for k, v in box.items()) + f"; {deck.hand_size} cards a hand.")
    names = deck.master_names
    out = [Table("Deck by player count",
                 ("players", "empty removed", "shuffled", "dealt", "draw pile", "turns until the deck is empty",
                  "rounds", GAME, EMPTY, *names),
                 tuple((n, d["removed"], d["deck"], d["dealt"], d["draw_pile"], d["turns_to_empty_deck"],
                        d["rounds_to_empty_deck"], d["kinds"][GAME], d["kinds"][EMPTY],
                        *(d["kinds"][m] for m in names)) for n, d in docs.items()),
                 assumption + " The central card starts on the table and is not shuffled; every turn draws one "
                              "card, so the deck lasts as many turns as the draw pile holds cards."),
           Table("One opening hand: exact chances",
                 ("players", "at least one master", *(f"{m}" for m in names), "at least one empty",
                  "no master and no empty"),
                 tuple((n, _both(d["p_master_in_hand"]), *(_both(d["p_each_master_in_hand"][m]) for m in names),
                        _both(d["p_empty_in_hand"]), _both(d["p_no_special_in_hand"])) for n, d in docs.items()),
                 f"Hands of {deck.hand_size} cards from the shuffled deck; multivariate hypergeometric counts."),
           Table("Special cards (masters and empty cards) in one opening hand",
                 ("players", *(f"P({k})" for k in range(deck.hand_size + 1))),
                 tuple((n, *(_both(d["specials_in_hand"][str(k)]) if str(k) in d["specials_in_hand"] else "0/1"
                             for k in range(deck.hand_size + 1))) for n, d in docs.items())),
           Table("One opening hand holds a card that links to an exposed end",
                 ("players", *deck.face_texts),
                 tuple((n, *(_both(d["p_links_to_end"][f]) for f in deck.face_texts)) for n, d in docs.items()),
                 "A card links to an end showing the same colour and points; empty cards and "
                 + ("masters link to any end." if definition.rules.master_links == "any" else
                    "(with master_links = \"match\") masters with that end link too.")),
           Table("The draw pile over the game (at the start of each round)",
                 ("players", "round", "turns played", "draw pile", "P(a given card is in it)",
                  "P(a master is in it)", "P(an empty card is in it)"),
                 tuple((n, row["round"], row["turns"], row["draw_pile"], _both(row["p_card_in_draw_pile"]),
                        _both(row["p_master_in_draw_pile"]), _both(row["p_empty_in_draw_pile"]))
                       for n, d in docs.items() for row in d["draw_pile_over_time"]),
                 "Before any card is seen: a given card is equally likely to be at any place of the shuffled "
                 "deck, so after t turns it is still to be drawn with chance (draw pile - t) / deck.")]
    data = {"deck": box, "by_players": {str(n): _json(d) for n, d in docs.items()}}
    return TableSet(f"{info.name}: deck-count statistics", tuple(out), data)


def exact_tables(definition: Definition) -> TableSet:
    """The rulebook's appendix: the deck by player count and the exact chances of one opening hand.

    >>> from boardlab.layouts import load
    >>> [t.title for t in exact_tables(load("links")).tables]
    ['Deck by player count', 'One opening hand: exact chances']
    """
    full = tables(definition, TableOptions())
    return TableSet(full.title, full.tables[:2], full.data)
