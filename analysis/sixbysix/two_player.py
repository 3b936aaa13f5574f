"""The whole two-player game as a Markov chain: exact model, solved in floating point.

Every 6x6 game ends as a two-player duel, and the duel is small enough to solve: its state at
the start of a round is (chips of seat 0, chips of seat 1, bank, lead seat).  Both players use
greedy markers (`markers.GREEDY`, read from the definition's board and dice) and bet the best
face for their marker (`faces.best_face`), like `engine.MarkerAgent`; one round's kernel
enumerates every pair of dice (len(faces) ** 2 cases, exact fractions), then the absorption probabilities and the
expected number of rounds come from one linear solve.  The round cap (`max_rounds`) is
ignored: the model is the game without it.

Seat 0 is the starting player.  ``lead = "fixed"``: seat 0 leads every round;
``"rotate"``: the lead alternates.  When both players run out in the same round it is a draw.

>>> from boardlab.layouts import load
>>> duel = two_player_game(load("sixbysix"), "fixed", chips=1)
>>> round(sum(duel.win) + duel.draw, 12)
1.0
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

from boardlab.analysis.sixbysix.board import allowed_numbers
from boardlab.analysis.sixbysix.dice import sum_probabilities
from boardlab.analysis.sixbysix.faces import best_face
from boardlab.analysis.sixbysix.markers import greedy_numbers
from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.layouts.sixbysix import Definition

PLAYERS = 2


@dataclass(frozen=True)
class DuelOutcome:
    """P(each seat wins the game), P(draw) and the expected number of rounds, from the start."""

    lead: str
    chips: int
    win: tuple[float, float]
    draw: float
    expected_rounds: float


def round_kernel(definition: Definition, lead_seat: int) -> dict[tuple[int, int, int | None], Fraction]:
    """(refund of seat 0, refund of seat 1, round winner or None) -> exact probability, for one lead.

    The lead takes the most probable number, the other seat the next (greedy); each bets the best
    face for its number.

    >>> from boardlab.layouts import load
    >>> k = round_kernel(load("sixbysix"), 0)
    >>> sum(p for (r0, r1, w), p in k.items() if w == 0)
    Fraction(1, 6)
    """
    faces = definition.dice.faces
    probabilities = sum_probabilities(faces, PLAYERS)
    first, second = greedy_numbers(probabilities, allowed_numbers(definition, PLAYERS), PLAYERS)
    marker = {lead_seat: first, 1 - lead_seat: second}
    bet0, bet1 = (best_face(faces, PLAYERS, marker[seat]) for seat in (0, 1))
    counts: dict[tuple[int, int, int | None], int] = {}
    for die0, die1 in itertools.product(faces, repeat=2):
        total = die0 + die1
        winner = next((s for s in (0, 1) if marker[s] == total), None)
        key = (int(die0 == bet0), int(die1 == bet1), winner)
        counts[key] = counts.get(key, 0) + 1
    cases = len(faces) ** 2
    return {key: Fraction(c, cases) for key, c in counts.items()}


def two_player_game(definition: Definition, lead: str | None = None, chips: int | None = None) -> DuelOutcome:
    """Solve the duel from (chips, chips, empty bank, seat 0 leading).

    `lead` and `chips` default to the definition's rules.

    :raises BoardlabError: when the definition does not allow two players or the lead is unknown.
    """
    definition.game.check_players(PLAYERS)
    lead = definition.rules.lead if lead is None else lead
    if lead not in ("fixed", "rotate"):
        raise BoardlabError(f"lead must be fixed or rotate, not '{lead}'")
    chips = definition.rules.chips if chips is None else chips
    house = definition.rules.unclaimed_bank == "house"
    kernels = {seat: [(r0, r1, w, float(p)) for (r0, r1, w), p in round_kernel(definition, seat).items()]
               for seat in (0, 1)}
    states = [(chips, chips, 0, 0)]  # every state reached from the start, in discovery order
    index = {states[0]: 0}
    transitions: list[list[tuple[object, float]]] = []  # per state: (next state or result, probability)
    while len(transitions) < len(states):
        c0, c1, bank, leader = states[len(transitions)]
        moves: list[tuple[object, float]] = []
        for r0, r1, winner, p in kernels[leader]:
            n0, n1 = c0 - 1 + r0, c1 - 1 + r1
            pot = bank + (1 - r0) + (1 - r1)
            if winner == 0:
                n0, pot = n0 + pot, 0
            elif winner == 1:
                n1, pot = n1 + pot, 0
            elif house:
                pot = 0
            if n0 == 0 or n1 == 0:
                moves.append(("draw" if n0 == n1 == 0 else 1 if n0 == 0 else 0, p))
                continue
            following = (n0, n1, pot, leader if lead == "fixed" else 1 - leader)
            if following not in index:
                index[following] = len(states)
                states.append(following)
            moves.append((following, p))
        transitions.append(moves)
    size = len(states)
    rows, cols, values = list(range(size)), list(range(size)), [1.0] * size  # I - Q, Q among live states
    absorb = np.zeros((size, 3))  # seat 0 wins, seat 1 wins, draw
    for i, moves in enumerate(transitions):
        for target, p in moves:
            if isinstance(target, tuple):
                rows.append(i)
                cols.append(index[target])
                values.append(-p)
            else:
                column = 2 if target == "draw" else target  # a winning seat, or the draw column
                assert isinstance(column, int)
                absorb[i, column] += p
    matrix = scipy.sparse.csc_matrix((values, (rows, cols)), shape=(size, size))
    solution = scipy.sparse.linalg.splu(matrix).solve(np.column_stack([absorb, np.ones(size)]))
    w0, w1, draw, rounds = solution[0]
    return DuelOutcome(lead, chips, (float(w0), float(w1)), float(draw), float(rounds))
