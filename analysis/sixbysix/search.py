"""6x6's search agent `search-N`: Monte Carlo over its marker and bet through sampled dice.

Every decision of a 6x6 round comes before its dice, and the dice are all that is left to chance,
so a search needs no tree of the other players' replies: it tries a few moves on the same luck.
At a decision of seat s the agent

1. narrows its moves to the candidates (`candidates`): the `NUMBERS` free numbers greedy prefers
   most (the most probable sums), each with its `FACES` best bet faces (`faces.face_values`),
   made as (face, number) pairs without the full move list;
2. draws N samples of dice (N the budget), each the dice of this round (and of `AHEAD` more
   rounds, none by default), one die per position of the rolling order; every candidate meets
   the same samples (common random numbers: the candidates are compared on the same luck);
3. per candidate and sample, plays the candidate, the rest of the round with greedy players (the
   engine's `MarkerAgent`) and the sample's dice (then `AHEAD` more rounds of greedy play);
4. values the position reached for seat s (`value`): its share of the win at the end of a
   finished game, else its share of the chips in play (its chips and an equal part of the bank
   among the players left, over everyone's chips and the bank: every chip in play ends with the
   winner);
5. plays the candidate of highest mean value, the earlier on a tie (so greedy's own move first).

The sampled dice of this round decide most of a value, and two candidates' markers win on
different sums, so common dice alone leave the comparison noisy (with 16 samples the search lost
61% of its decided games to greedy at 2 players). Each value is therefore corrected by a control
variate: X, seat s's chips after this round and an equal part of the bank left then among the
round's players, over the chips in play at the decision, whose mean is known exactly
(`round_expectation`: chips, refund chances, and what each marker takes of the bank and of the
stakes that miss, weighted by the chance that the dice sum to it); the value counted is
V - X + E[X], of the same mean as V and of much smaller spread, since what varies of V beyond
this round's chips is the later rounds only.  With no round ahead, what is left to sample is
only where the value bends: a game that ends (the win instead of the chips) or players who drop
out.  So the search weighs its own chips and the bank that others may take: it bets the face
whose refund keeps its chip out of the bank in the rolls where another marker wins, which
greedy's face rule (`faces.best_face`: its own marker only) does not see.

Two twins compute the means from the same seed (`random.Random(seed).randrange(len(faces))` per
die, in the order sample, round, position): `plain_values` over the engine's own state (clone,
apply, `MarkerAgent`: the one written copy of the rules), and `_values`, compiled over integer
arrays, which the agent uses; tests compare them value for value and move for move.

>>> from boardlab.layouts import load
>>> from boardlab.analysis.sixbysix.engine import SixBySixGame
>>> state = SixBySixGame(load("sixbysix"), 2).new_initial_state()
>>> [move.text() for move in candidates(state)]   # 7, then 6 and 8 (as likely); faces of equal value: the lowest first
['1@7', '2@7', '6@6', '1@6', '1@8', '2@8']
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

import numpy as np

from boardlab.analysis.agents import Agent
from boardlab.analysis.jit import njit
from boardlab.analysis.mersenne import STATE_WORDS, randrange, seed_state, twister_matches_python
from boardlab.analysis.protocol import CHANCE
from boardlab.analysis.sixbysix.dice import sum_probabilities
from boardlab.analysis.sixbysix.faces import face_values
from boardlab.analysis.sixbysix.kernel import round_order, round_winner
from boardlab.analysis.sixbysix.markers import GREEDY
from boardlab.analysis.sixbysix.kernel import Arr, Int

if TYPE_CHECKING:
    from boardlab.analysis.protocol import Game
    from boardlab.analysis.restricted import RestrictedView
    from boardlab.analysis.sixbysix.engine import Move, SixBySixGame, SixBySixState

#: free numbers tried per decision (greedy's order), and bet faces per number (best first)
NUMBERS = 3
FACES = 2
#: rounds of greedy play after the current one before a position is valued: none, since the
#: later rounds' dice add noise and no signal (measured against greedy at 2 players, 1,200 games
#: each, 16 samples: 51.9% of decided games with 0 rounds ahead, 44.8% with 1, 42.4% with 2)
AHEAD = 0


def candidates(state: SixBySixState | RestrictedView) -> list[Move]:
    """The moves the search tries (see the module docstring): on the engine's own state from its
    free numbers; on a restricted view (`restricted.RestrictedView`) from its legal moves."""
    from boardlab.analysis.sixbysix.engine import Move, SixBySixState

    game = state.game
    active = len(state.order)
    if type(state) is SixBySixState:
        free = set(state.free_numbers())
        faces_of: Mapping[int, Sequence[int]] = {number: game.faces for number in free}
    else:
        listed: dict[int, list[int]] = {}
        for move in state.legal_moves():
            listed.setdefault(move.number, []).append(move.face)
        faces_of = listed
    numbers = [x for x in game.preference(GREEDY, active) if x in faces_of][:NUMBERS]
    out = []
    for number in numbers:
        values = face_values(game.faces, active, number)
        ranked = sorted(dict.fromkeys(faces_of[number]), key=lambda face: (-values[face], face))
        out += [Move(face, number) for face in ranked[:FACES]]
    return out


def value(state: SixBySixState, seat: int) -> float:
    """What a position is worth to `seat` (see the module docstring)."""
    if state.terminal and not state.unfinished:
        return 1.0 / len(state.winning) if seat in state.winning else 0.0
    return (state.chips[seat] + state.bank / sum(state.active)) / (sum(state.chips) + state.bank)


def dice_samples(seed: int, samples: int, rounds: int, players: int, faces: int) -> list:
    """The dice indices of the samples, [sample][round][position], as both twins draw them."""
    rng = random.Random(seed)
    return [[[rng.randrange(faces) for _ in range(players)] for _ in range(rounds)] for _ in range(samples)]


def round_expectation(state: SixBySixState, seat: int, die: np.ndarray, sums: np.ndarray, house: bool) -> float:
    """The exact mean of X times the chips in play (the module docstring): `seat`'s chips once
    the dice of this round are rolled, plus the bank left then over the round's players, from a
    state whose markers are all placed and no die rolled (`die[face]`: a face's chance;
    `sums[k][t]`: the chance that k dice sum to t).  A marker on m takes, on average, the bank
    times P(sum = m) plus every stake that misses while the sum is m: P(sum = m) - P(die = bet)
    P(the other dice sum to m - bet); seat's chips gain its refund chance and what its marker
    takes; the bank keeps what it held and every miss, less what the markers take (nothing with
    `house`).  Tested against every roll of the engine."""
    k = len(state.order)
    won, own, missed = 0.0, 0.0, 0.0
    for j in state.order:
        m = state.markers[j]
        win = sums[k][m] if m < len(sums[k]) else 0.0
        w = state.bank * win
        for s in state.order:
            rest = m - state.bets[s]
            w += win - die[state.bets[s]] * (sums[k - 1][rest] if 0 <= rest < len(sums[k - 1]) else 0.0)
        won += w
        if j == seat:
            own = w
        missed += 1.0 - die[state.bets[j]]
    bank = 0.0 if house else state.bank + missed - won
    return state.chips[seat] + die[state.bets[seat]] + own + bank / k


def plain_values(state: SixBySixState, moves: list[Move], seed: int, samples: int, ahead: int = AHEAD) -> list[float]:
    """The mean corrected value of each move over `samples` samples of dice from `seed`, played
    move by move on the engine's state (the slow, obvious twin of `_values`)."""
    from boardlab.analysis.sixbysix.engine import MarkerAgent

    game = state.game
    seat = state.current_player()
    die, sums = _greedy_tables(game)[-2:]
    greedy, unused = MarkerAgent(GREEDY, game), random.Random(0)  # greedy draws no random number
    dice = dice_samples(seed, samples, ahead + 1, game.players, len(game.faces))
    held = sum(state.chips) + state.bank  # the chips in play at the decision
    means = []
    for move in moves:
        placed = state.clone()
        placed.apply(move)
        while placed.current_player() != CHANCE:
            placed.apply(greedy.choose(placed, unused))
        k = len(placed.order)
        exact = round_expectation(placed, seat, die, sums, game.rules.unclaimed_bank == "house") / held
        total = 0.0
        for sample in dice:
            s = placed.clone()
            start = s.rounds
            after = None  # X: the seat's chips when this round is over
            while not s.is_terminal() and s.rounds <= start + ahead:
                if s.current_player() == CHANCE:
                    s.apply(game.faces[sample[s.rounds - start][s.step]])
                    if s.rounds == start + 1 and after is None:
                        after = (s.chips[seat] + s.bank / k) / held
                else:
                    s.apply(greedy.choose(s, unused))
            assert after is not None  # the round was played
            total += value(s, seat) - after + exact
        means.append(total / samples)
    return means


def _greedy_tables(game: SixBySixGame) -> tuple:
    """The compiled kernel's tables of a game with greedy in every seat (faces, allowed numbers,
    greedy's preference order and best face per active count, rules), made once per game."""
    from boardlab.analysis.sixbysix.kernel import _tables

    key = ("search",)
    if key not in game.kernel_tables:
        faces, _, allowed, allowed_len, pref, pref_len, bestface, rules, _ = _tables(game, [GREEDY] * game.players)
        die = np.zeros(max(game.faces) + 1, dtype=np.float64)
        for face, p in game.die.items():
            die[face] = float(p)
        n = game.players
        sums = np.zeros((n + 1, n * max(game.faces) + 1), dtype=np.float64)
        sums[0, 0] = 1.0
        for k in range(1, n + 1):
            for total, p in sum_probabilities(game.faces, k).items():
                sums[k, total] = float(p)
        game.kernel_tables[key] = (faces, allowed, allowed_len, pref[0].copy(), pref_len[0].copy(), bestface, rules,
                                   die, sums)
    return game.kernel_tables[key]


def compiled_values(state: SixBySixState, moves: list[Move], seed: int, samples: int, ahead: int = AHEAD) -> list[float]:
    """`plain_values` by `_values` (the same numbers)."""
    game = state.game
    n = game.players
    faces, allowed, allowed_len, pref, pref_len, bestface, rules, die, sums = _greedy_tables(game)
    means = np.zeros(len(moves), dtype=np.float64)
    _values(np.uint64(seed), samples, ahead, state.current_player(),
            np.array(state.chips, dtype=np.int64), np.array(state.active, dtype=np.int64), state.bank, state.lead,
            state.rounds, np.array(state.order + [0] * (n - len(state.order)), dtype=np.int64), len(state.order),
            state.step, np.array(state.markers, dtype=np.int64), np.array(state.bets, dtype=np.int64),
            np.array([m.face for m in moves], dtype=np.int64), np.array([m.number for m in moves], dtype=np.int64),
            faces, allowed, allowed_len, pref, pref_len, bestface, rules, die, sums, means)
    return means.tolist()


@njit(cache=True)
def _values(seed: np.uint64, samples: Int, ahead: Int, seat: Int, chips0: Arr, active0: Arr, bank0: Int, lead0: Int,
            rounds0: Int, order0: Arr, k0: Int, step0: Int, markers0: Arr, bets0: Arr, move_face: Arr, move_number: Arr,
            faces: Arr, allowed: Arr, allowed_len: Arr, pref: Arr, pref_len: Arr, bestface: Arr, rules: Arr, die: Arr,
            sums: Arr, means: Arr) -> None:
    """`plain_values` over integer arrays: the rules as `kernel.play_games` plays them, from a
    position in the middle of a round (`order0[:k0]` the round's order, `step0` placed)."""
    n, max_rounds, fixed, house = rules[0], rules[2], rules[3], rules[4]
    face_count = faces.shape[0]
    mt = np.zeros(STATE_WORDS, dtype=np.uint32)
    seed_state(mt, seed)
    dice = np.zeros((samples, ahead + 1, n), dtype=np.int64)
    for j in range(samples):
        for r in range(ahead + 1):
            for i in range(n):
                dice[j, r, i] = faces[randrange(mt, face_count)]
    chips = np.zeros(n, dtype=np.int64)
    active = np.zeros(n, dtype=np.int64)
    order = np.zeros(n, dtype=np.int64)
    markers = np.zeros(n, dtype=np.int64)
    bets = np.zeros(n, dtype=np.int64)
    taken = np.zeros(bestface.shape[1], dtype=np.int64)
    held0 = bank0
    for p in range(n):
        held0 += chips0[p]
    for c in range(move_face.shape[0]):
        total_value = 0.0
        for j in range(samples):
            chips[:] = chips0
            active[:] = active0
            order[:] = order0
            markers[:] = markers0
            bets[:] = bets0
            bank, lead, rounds, k = bank0, lead0, rounds0, k0
            taken[:] = 0
            for i in range(step0):
                taken[markers[order[i]]] = 1
            s = order[step0]
            chips[s] -= 1
            bets[s] = move_face[c]
            markers[s] = move_number[c]
            taken[move_number[c]] = 1
            start = step0 + 1
            finished, winners = False, 0
            exact, after = 0.0, 0.0
            for r in range(ahead + 1):
                for i in range(start, k):  # greedy places the round's other markers
                    s = order[i]
                    number = 0
                    for x in range(pref_len[k]):
                        number = pref[k, x]
                        if not taken[number]:
                            break
                    chips[s] -= 1
                    bets[s] = bestface[k, number]
                    markers[s] = number
                    taken[number] = 1
                start = 0
                if r == 0:  # E[X]: `round_expectation`, term for term
                    won, own, missed = 0.0, 0.0, 0.0
                    for jj in range(k):
                        m = markers[order[jj]]
                        win = sums[k, m] if m < sums.shape[1] else 0.0
                        w = bank * win
                        for i in range(k):
                            rest = m - bets[order[i]]
                            w += win - die[bets[order[i]]] * (sums[k - 1, rest] if 0 <= rest < sums.shape[1] else 0.0)
                        won += w
                        if order[jj] == seat:
                            own = w
                        missed += 1.0 - die[bets[order[jj]]]
                    kept = 0.0 if house else bank + missed - won
                    exact = (chips[seat] + die[bets[seat]] + own + kept / k) / held0
                total = 0
                for i in range(k):
                    s = order[i]
                    face = dice[j, r, i]
                    total += face
                    if face == bets[s]:
                        chips[s] += 1
                    else:
                        bank += 1
                winner = round_winner(markers, order, k, total)
                if winner >= 0:
                    chips[winner] += bank
                    bank = 0
                elif house:
                    bank = 0
                if r == 0:
                    after = (chips[seat] + bank / k) / held0
                rounds += 1
                out_mask, left_mask, left = 0, 0, 0
                for p in range(n):
                    if active[p] and chips[p] == 0:
                        active[p] = 0
                        out_mask |= 1 << p
                    if active[p]:
                        left_mask |= 1 << p
                        left += 1
                if left <= 1:
                    finished = True
                    winners = left_mask if left else out_mask
                    break
                if rounds >= max_rounds:
                    break
                lead, k = round_order(active, 0 if fixed else lead + 1, order)
                taken[:] = 0
                markers[:] = 0
            v = 0.0
            if finished:
                count = 0
                for p in range(n):
                    count += winners >> p & 1
                v = 1.0 / count if winners >> seat & 1 else 0.0
            else:
                held = bank
                for p in range(n):
                    held += chips[p]
                v = (chips[seat] + bank / left) / held
            total_value += v - after + exact
        means[c] = total_value / samples


class SearchAgent(Agent):
    """Plays the candidate of highest mean value over `samples` samples of dice (module docstring)."""

    def __init__(self, samples: int, name: str = "search", compiled: bool = True, ahead: int | None = None):
        if samples < 1:
            raise ValueError(f"the search needs at least 1 sample of dice, got {samples}")
        self.samples = samples
        self.ahead = AHEAD if ahead is None else ahead
        self.name = name
        self.compiled = compiled

    def choose(self, state: SixBySixState, rng: random.Random) -> Move:
        moves = candidates(state)
        if len(moves) == 1:
            return moves[0]
        seed = rng.getrandbits(64)
        twin = compiled_values if self.compiled and twister_matches_python() else plain_values
        means = twin(state, moves, seed, self.samples, self.ahead)
        return moves[max(range(len(moves)), key=lambda i: (means[i], -i))]


def search_agent(samples: int) -> Callable[[Game], SearchAgent]:
    """The factory of `search-N` (N samples of dice per candidate move)."""
    return functools.partial(_make_search, samples)


def _make_search(samples: int, game: Game) -> SearchAgent:
    return SearchAgent(samples, name=f"search-{samples}")
