"""`boardlab tables sixbysix`: exact dice-sum tables, board coverage and marker values.

Every number is an exact fraction from `dice.sum_distribution`; decimals are for reading.

JSON (`--format json`):

- with ``--players N``: exactly the interface contract,
  ``{"players": N, "sums": {"N": "p/q", ..., "6N": "p/q"}}``;
- without it: ``{"by_players": {"2": {"players": 2, "sums": {...}}, ..., "6": {...}},
  "board": {...}, "coverage": {"2": {...}, ...}, "markers": {"2": {...}, ...}}``, where each
  ``by_players`` entry is the one-player-count document and the other keys hold the board
  check, the coverage and the marker analysis with fractions as "p/q" strings, and
  ``"faces"``: per player count and marker number the exact value of each bet face and the best
  face (`face_document`), and ``"two_player"``: the exact duel (`two_player.two_player_game`) per lead rule, as floats.

>>> from boardlab.layouts import load
>>> t = tables(load("sixbysix"), TableOptions(players=2))
>>> t.data["sums"]["7"], len(t.data["sums"])
('1/6', 11)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Iterable

from boardlab.analysis.sixbysix.board import allowed_numbers, board_check, coverage
from boardlab.analysis.sixbysix.dice import sum_probabilities
from boardlab.analysis.sixbysix.faces import best_face, face_values
from boardlab.analysis.sixbysix.markers import (GREEDY, RANDOM, Chooser, choice_value, greedy_numbers,
                                                 no_winner_probability, rotating_seat_win_probabilities,
                                                 seat_win_probabilities)
from boardlab.analysis.sixbysix.two_player import two_player_game
from boardlab.analysis.tables import Table, TableOptions, TableSet, decimal_text, fraction_text

if TYPE_CHECKING:
    from boardlab.layouts.sixbysix import Definition


def shown(p: Fraction) -> str:
    """A probability for people: "p/q", but "1" and "0" at the ends (never "1/1").

    >>> shown(Fraction(1, 6)), shown(Fraction(1)), shown(Fraction(0))
    ('1/6', '1', '0')
    """
    return str(p.numerator) if p.denominator == 1 else fraction_text(p)


def number_ranges(numbers: Iterable[int]) -> str:
    """Sorted numbers as runs: (2, 3, 4, 5, 9) -> "2..5, 9"; "none" when empty.

    >>> number_ranges((2, 3, 4, 5, 9)), number_ranges(())
    ('2..5, 9', 'none')
    """
    numbers = sorted(numbers)
    if not numbers:
        return "none"
    runs, start, prev = [], numbers[0], numbers[0]
    for x in numbers[1:] + [None]:
        if x is not None and x == prev + 1:
            prev = x
            continue
        runs.append(f"{start}" if start == prev else f"{start}..{prev}")
        if x is not None:
            start = prev = x
    return ", ".join(runs)


def player_counts(definition: Definition, options: TableOptions) -> list[int]:
    info = definition.game
    if options.players is not None:
        return [options.players]
    return list(range(info.min_players, info.max_players + 1))


def sums_document(definition: Definition, players: int) -> dict:
    """The JSON of one player count: ``{"players": N, "sums": {"sum": "p/q", ...}}``."""
    probabilities = sum_probabilities(definition.dice.faces, players)
    return {"players": players, "sums": {str(s): fraction_text(p) for s, p in probabilities.items()}}


def sums_table(definition: Definition, players: int) -> Table:
    faces = definition.dice.faces
    probabilities = sum_probabilities(faces, players)
    total = len(faces) ** players
    rows, below = [], Fraction(0)
    for s, p in probabilities.items():
        at_most = below + p
        at_least = 1 - below
        rows.append((s, p * total, shown(p), decimal_text(p), shown(at_most), decimal_text(at_most),
                     shown(at_least), decimal_text(at_least)))
        below = at_most
    return Table(f"Sum of {players} dice", ("sum s", f"ways of {total}", "P(exactly s)", "P(exactly s), decimal",
                                            "P(at most s)", "P(at most s), decimal", "P(at least s)",
                                            "P(at least s), decimal"), tuple(rows))


def marker_analysis(definition: Definition, players: int) -> dict:
    """Greedy per-seat chances (fixed and rotating lead) and choice values for one player count."""
    probabilities = sum_probabilities(definition.dice.faces, players)
    allowed = allowed_numbers(definition, players)
    greedy = seat_win_probabilities(probabilities, allowed, [GREEDY] * players)
    rotating = rotating_seat_win_probabilities(probabilities, allowed, [GREEDY] * players)
    favourite = Chooser("favourite", definition.analysis.favourite_number)
    choosers = (GREEDY, RANDOM, favourite)
    values = []
    for opponents in choosers:
        for position in range(players):
            values.append({"position": position + 1, "opponents": opponents.name,
                           **{c.name: choice_value(probabilities, allowed, position, c, opponents) for c in choosers}})
    return {"players": players, "allowed": allowed,
            "greedy_numbers": greedy_numbers(probabilities, allowed, players),
            "fixed": greedy, "rotate": rotating, "no_winner": no_winner_probability(probabilities, greedy),
            "choosers": tuple(c.name for c in choosers), "choice_values": values}


def face_document(definition: Definition, players: int) -> dict:
    """Marker number -> {"values": {face: "p/q"}, "best": face} for one player count."""
    faces = definition.dice.faces
    out = {}
    for marker in allowed_numbers(definition, players):
        values = face_values(faces, players, marker)
        out[str(marker)] = {"values": {str(f): fraction_text(v) for f, v in values.items()},
                            "best": best_face(faces, players, marker)}
    return out


def face_table(definition: Definition, counts: Iterable[int]) -> Table:
    """The exact value of every bet face for every marker number a player may take."""
    faces = definition.dice.faces
    rows = []
    for n in counts:
        for marker in allowed_numbers(definition, n):
            values = face_values(faces, n, marker)
            best = best_face(faces, n, marker)
            equal = [f for f in faces if values[f] == values[best]]
            rows.append((n, marker, *(shown(values[f]) for f in faces),
                         "any" if len(equal) == len(faces) else ", ".join(map(str, equal))))
    return Table("Bet face value: P(the chip comes back in a round the player does not win)",
                 ("players", "marker on", *(f"bet {f}" for f in faces), "best bet"), tuple(rows),
                 "Every face comes back as often, but a refund is wasted in a round the player wins (the winner "
                 "takes the bank, own chip included), so the best face is the one least compatible with the "
                 "player's own marker. Greedy and favourite players bet the best face (the lowest of equal ones).")


def _json_fractions(value: object) -> object:
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, dict):
        return {k: _json_fractions(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_fractions(v) for v in value]
    return value


def tables(definition: Definition, options: TableOptions) -> TableSet:
    """Every 6x6 table for the requested player count (or every allowed count)."""
    counts = player_counts(definition, options)
    name = definition.game.name
    out = [sums_table(definition, n) for n in counts]

    cover = coverage(definition)
    check = board_check(definition)
    cover_rows = tuple(
        (n, number_ranges(c.can_win), number_ranges(c.cannot_win_below), number_ranges(c.cannot_win_above),
         number_ranges(c.covered_by_elimination) if n > definition.game.min_players else "(game over)",
         "yes" if c.card_fits and c.card_is_a_row else "NO")
        for n, c in cover.items() if n in counts)
    board_note = (f"Board check: the board holds exactly the sums of {definition.game.min_players}.."
                  f"{definition.game.max_players} dice ({number_ranges(check.needed)})." if check.ok else
                  f"Board check FAILED: missing {number_ranges(check.missing)}; "
                  f"never rolled {number_ranges(check.never_rolled)}.")
    out.append(Table("Board coverage", ("players", "can win", "cannot win (too low, possible later)",
                                        "cannot win (dead: covered when covering is on)",
                                        "card laid at the next elimination covers", "one card = one board row"),
                     cover_rows, board_note))

    markers = {n: marker_analysis(definition, n) for n in counts}
    greedy_rows: list[tuple] = []
    for n, m in markers.items():
        for position, (number, p) in enumerate(zip(m["greedy_numbers"], m["fixed"]), start=1):
            greedy_rows.append((n, position, number, shown(p), decimal_text(p)))
        greedy_rows.append((n, "no winner", "-", shown(m["no_winner"]), decimal_text(m["no_winner"])))
    out.append(Table("Greedy markers: P(win a round) by choosing position", ("players", "position", "number",
                                                                             "P(win)", "P(win), decimal"),
                     tuple(greedy_rows), "Greedy takes the most probable free number; between equally probable "
                                         "numbers, the lower one. Position 1 is the lead player."))
    lead_rows = []
    for n, m in markers.items():
        for seat, (fixed, rotate) in enumerate(zip(m["fixed"], m["rotate"]), start=1):
            lead_rows.append((n, seat, shown(fixed), decimal_text(fixed), shown(rotate),
                              decimal_text(rotate)))
    out.append(Table("Lead rule: per-seat P(win a round), greedy markers",
                     ("players", "seat", 'lead = "fixed"', 'lead = "fixed", decimal',
                      'lead = "rotate" (mean over n rounds)', 'lead = "rotate", decimal'),
                     tuple(lead_rows), "Seat 1 is the starting player; with a rotating lead every seat leads once "
                                       "in n rounds."))
    value_rows = []
    for n, m in markers.items():
        for v in m["choice_values"]:
            greedy, random = v[GREEDY.name], v[RANDOM.name]
            value_rows.append((n, v["position"], v["opponents"],
                               *(f"{shown(v[c])} ({decimal_text(v[c])})" for c in m["choosers"]),
                               decimal_text(greedy - random)))
    chooser_names = markers[counts[0]]["choosers"]
    out.append(Table("Value of the marker choice against other choosers",
                     ("players", "position", "earlier seats", *(f"P(win), {c}" for c in chooser_names),
                      "greedy minus random"), tuple(value_rows),
                     "Exact P(win a round) of one seat choosing at the given position when every earlier seat is "
                     "the given chooser (later seats cannot take its number)."))

    out.append(face_table(definition, counts))

    duels = {}
    if 2 in counts:
        duels = {lead: two_player_game(definition, lead) for lead in ("fixed", "rotate")}
        minutes = definition.analysis.seconds_per_round / 60
        out.append(Table("Two-player game, greedy markers: exact Markov chain",
                         ("lead", "P(seat 1 wins)", "P(seat 2 wins)", "P(draw)", "expected rounds",
                          "expected table minutes", "times the stated time"),
                         tuple((lead, f"{d.win[0]:.1%}", f"{d.win[1]:.1%}", f"{d.draw:.3%}",
                                f"{d.expected_rounds:.1f}", f"{d.expected_rounds * minutes:.0f}",
                                f"{d.expected_rounds * minutes / definition.game.minutes:.1f}")
                               for lead, d in duels.items()),
                         f"Both start with {definition.rules.chips} chips; seat 1 is the starting player; each bets "
                         f"the best face for its marker. Every round's outcomes are enumerated exactly; the chain is "
                         f"solved in floating point, without the round cap. Table minutes at "
                         f"{definition.analysis.seconds_per_round:g} s a round (analysis.seconds_per_round), against "
                         f"the {definition.game.minutes} min the definition states (game.minutes); a game of more "
                         f"players lasts longer, and ends in such a duel from uneven stocks."))
    if options.players is not None:
        data = sums_document(definition, options.players)
    else:
        data = {"by_players": {str(n): sums_document(definition, n) for n in counts},
                "board": {"ok": check.ok, "needed": list(check.needed), "missing": list(check.missing),
                          "never_rolled": list(check.never_rolled)},
                "coverage": {str(n): {"can_win": list(c.can_win), "cannot_win_below": list(c.cannot_win_below),
                                      "cannot_win_above": list(c.cannot_win_above),
                                      "covered_by_elimination": list(c.covered_by_elimination),
                                      "card_fits": c.card_fits, "card_is_a_row": c.card_is_a_row}
                             for n, c in cover.items()},
                "markers": {str(n): _json_fractions({k: v for k, v in m.items() if k != "players"})
                            for n, m in markers.items()},
                "faces": {str(n): face_document(definition, n) for n in counts},
                "two_player": {lead: {"win": list(d.win), "draw": d.draw, "expected_rounds": d.expected_rounds}
                               for lead, d in duels.items()}}
    return TableSet(f"{name}: exact tables", tuple(out), data)


def exact_tables(definition: Definition) -> TableSet:
    """The exact dice-sum tables of every allowed player count (the rulebook's appendix).

    >>> from boardlab.layouts import load
    >>> t = exact_tables(load("sixbysix"))
    >>> t.tables[0].title, t.tables[0].rows[5][:3]
    ('Sum of 2 dice', (7, Fraction(6, 1), '1/6'))
    """
    counts = list(range(definition.game.min_players, definition.game.max_players + 1))
    return TableSet(f"{definition.game.name}: dice sums", tuple(sums_table(definition, n) for n in counts),
                    {"by_players": {str(n): sums_document(definition, n) for n in counts}})
