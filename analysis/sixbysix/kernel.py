"""6x6's compiled fast path: whole games as rounds of plain integers, compiled with numba.

The engine itself (`runner.play_one` over `SixBySixState`) is the reference and the one written
copy of the rules; this kernel plays the same games *record for record*: it draws exactly the
random numbers the state and the agents draw, in the same order, because it runs a compiled
copy of CPython's Mersenne Twister (`boardlab.analysis.mersenne`: `seed_state`, `randrange`).
The tests compare its records with the engine's, and its moves (the log `play_games` keeps when
given room) with the engine's move for move, on many seeds and rule options;
`choosers_of` also checks, once per process, that this copy draws what the running Python's
`random` draws, and otherwise the engine's own loop plays (`engine.play_range`).

What it plays: the common random agent (one draw into the face-major legal move list) and
the marker agents (greedy, favourite-N: a preference order over the allowed numbers and the
best face for the marker, tabulated per active player count), every rule option of 6x6
(`lead` fixed or rotate, `unclaimed_bank` carry or house, `covering` through the allowed
numbers per player count, `chips`, `max_rounds`) and any die (a face drawn by index).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Sequence, cast

import numpy as np
from boardlab.analysis.jit import njit

from boardlab.analysis.mersenne import STATE_WORDS, randrange, seed_state, twister_matches_python
from boardlab.analysis.runner import AGENT_STREAM, CHANCE_STREAM, GameRecord, Match, derive_seed
from boardlab.analysis.seeds import derive_seeds
from boardlab.analysis.sixbysix.engine import CHECKPOINTS, chips_over_time, marker_choosers
from boardlab.analysis.sixbysix.faces import best_face

if TYPE_CHECKING:
    from boardlab.analysis.sixbysix.engine import SixBySixGame
    from boardlab.analysis.sixbysix.markers import Chooser
    from boardlab.analysis.tally import SummaryTally

#: a compiled function's array argument, and its integer (a Python int, or numpy's inside the kernel)
Arr = np.ndarray
Int = int | np.integer

# per-game outputs: fields of `out[g]`
(ROUNDS, UNFINISHED, WINNERS, FIRST_ELIMINATION, N_ELIM, NO_WINNER, LARGEST, HOUSE, BANK,
 N_SNAPSHOTS) = range(10)
FIELDS = 10


# -- the game -------------------------------------------------------------------------------
@njit(cache=True)
def play_games(seeds: Arr, faces: Arr, face_slot: Arr, allowed: Arr, allowed_len: Arr, pref: Arr, pref_len: Arr,
               bestface: Arr, rules: Arr, checkpoints: Arr, out: Arr, chips_out: Arr, elim: Arr, bets_by_face: Arr,
               refunds_by_face: Arr, round_wins: Arr, snapshots: Arr, log: Arr, logged: Arr) -> None:
    """Play one game per row of `seeds` (chance seed, then one agent seed per seat).

    `allowed[k, :allowed_len[k]]`: the numbers open to markers with k active players;
    `pref[s, k, :pref_len[s, k]]`: seat s's preference order (pref_len -1: a random seat);
    `bestface[k, number]`: the marker agents' face; `rules` = (players, chips, max_rounds,
    fixed lead, house).  Results go to the output arrays, row g per game.  `log[g]` gets the
    game's moves in the order played, as long as it has room (none in simulation): (seat, face,
    number) for a marker placed, (-1, face, 0) for a die rolled; `logged[g]` counts them all.
    """
    n, start_chips, max_rounds, fixed, house = rules[0], rules[1], rules[2], rules[3], rules[4]
    face_count = faces.shape[0]
    chance = np.zeros(STATE_WORDS, dtype=np.uint32)
    draws = np.zeros((n, STATE_WORDS), dtype=np.uint32)
    chips = np.zeros(n, dtype=np.int64)
    active = np.zeros(n, dtype=np.int64)
    bets = np.zeros(n, dtype=np.int64)
    markers = np.zeros(n, dtype=np.int64)
    order = np.zeros(n, dtype=np.int64)
    taken = np.zeros(bestface.shape[1], dtype=np.int64)  # by number: a marker stands there this round
    for g in range(seeds.shape[0]):
        seed_state(chance, seeds[g, 0])
        for s in range(n):
            if pref_len[s, n] < 0:
                seed_state(draws[s], seeds[g, 1 + s])
        st = out[g]
        st[:] = 0
        st[FIRST_ELIMINATION] = -1
        chips[:] = start_chips
        active[:] = 1
        bank = 0
        lead = 0
        rounds = 0
        first = True
        while True:
            out_mask = 0
            for s in range(n):
                if active[s] and chips[s] == 0:
                    active[s] = 0
                    out_mask |= 1 << s
                    elim[g, st[N_ELIM]] = rounds
                    st[N_ELIM] += 1
            if out_mask and st[FIRST_ELIMINATION] < 0:
                st[FIRST_ELIMINATION] = rounds
            left_mask = 0
            left = 0
            for s in range(n):
                if active[s]:
                    left_mask |= 1 << s
                    left += 1
            if left <= 1:
                st[WINNERS] = left_mask if left else out_mask
                break
            if rounds >= max_rounds:
                st[UNFINISHED] = 1
                break
            start = 0 if fixed else (lead if first else lead + 1)
            first = False
            lead, k = round_order(active, start, order)
            for i in range(allowed_len[k]):
                taken[allowed[k, i]] = 0
            for i in range(k):
                s = order[i]
                if pref_len[s, k] < 0:  # the random agent: one draw into face-major (face, free number) pairs
                    free = 0
                    for j in range(allowed_len[k]):
                        free += 1 - taken[allowed[k, j]]
                    pick = randrange(draws[s], face_count * free)
                    face = faces[pick // free]
                    nth = pick % free
                    for j in range(allowed_len[k]):
                        if not taken[allowed[k, j]]:
                            if nth == 0:
                                number = allowed[k, j]
                                break
                            nth -= 1
                else:
                    for j in range(pref_len[s, k]):
                        number = pref[s, k, j]
                        if not taken[number]:
                            break
                    face = bestface[k, number]
                if logged[g] < log.shape[1]:
                    log[g, logged[g], 0], log[g, logged[g], 1], log[g, logged[g], 2] = s, face, number
                logged[g] += 1
                chips[s] -= 1
                bets[s] = face
                markers[s] = number
                taken[number] = 1
            total = 0
            for i in range(k):
                s = order[i]
                face = faces[randrange(chance, face_count)]
                if logged[g] < log.shape[1]:
                    log[g, logged[g], 0], log[g, logged[g], 1], log[g, logged[g], 2] = -1, face, 0
                logged[g] += 1
                total += face
                slot = face_slot[bets[s]]
                bets_by_face[g, slot] += 1
                if face == bets[s]:
                    chips[s] += 1
                    refunds_by_face[g, slot] += 1
                else:
                    bank += 1
            st[LARGEST] = max(st[LARGEST], bank)
            winner = round_winner(markers, order, k, total)
            if winner >= 0:
                chips[winner] += bank
                bank = 0
                round_wins[g, winner] += 1
            else:
                st[NO_WINNER] += 1
                if house:
                    st[HOUSE] += bank
                    bank = 0
            rounds += 1
            if st[N_SNAPSHOTS] < checkpoints.shape[0] and checkpoints[st[N_SNAPSHOTS]] == rounds:  # in order
                snapshots[g, st[N_SNAPSHOTS], :n] = chips
                snapshots[g, st[N_SNAPSHOTS], n] = bank
                st[N_SNAPSHOTS] += 1
        st[ROUNDS] = rounds
        st[BANK] = bank
        chips_out[g] = chips


@njit(cache=True)
def round_order(active: Arr, start: Int, order: Arr) -> tuple[Int, Int]:
    """(lead, k): the round's lead, the first active seat from seat `start` on, and the k active
    seats in playing order from it, written into `order[:k]`."""
    n = active.shape[0]
    lead = start % n
    for i in range(n):
        if active[(start + i) % n]:
            lead = (start + i) % n
            break
    k = 0
    for i in range(n):
        if active[(lead + i) % n]:
            order[k] = (lead + i) % n
            k += 1
    return lead, k


@njit(cache=True)
def round_winner(markers: Arr, order: Arr, k: Int, total: Int) -> Int:
    """The seat whose marker stands on the dice's `total` among the round's `order[:k]`, or -1."""
    for i in range(k):
        if markers[order[i]] == total:
            return order[i]
    return -1


# -- Python entry points --------------------------------------------------------------------
def _tables(game: SixBySixGame, choosers: Sequence[Chooser | None]) -> tuple:
    """The per-game arrays of `play_games` for a seat order of choosers (None: random)."""
    n = game.players
    faces = np.array(game.faces, dtype=np.int64)
    face_slot = np.zeros(max(game.faces) + 1, dtype=np.int64)
    for i, face in enumerate(game.faces):  # the last of equal faces (as a face -> index dict keeps)
        face_slot[face] = i
    numbers = max(max(game.allowed[k], default=0) for k in range(1, n + 1)) + 1
    allowed = np.zeros((n + 1, numbers), dtype=np.int64)
    allowed_len = np.zeros(n + 1, dtype=np.int64)
    bestface = np.zeros((n + 1, numbers), dtype=np.int64)
    pref = np.zeros((n, n + 1, numbers), dtype=np.int64)
    pref_len = np.full((n, n + 1), -1, dtype=np.int64)
    for k in range(1, n + 1):
        allowed_len[k] = len(game.allowed[k])
        allowed[k, :allowed_len[k]] = game.allowed[k]
        if any(c is not None for c in choosers):
            for number in game.allowed[k]:
                bestface[k, number] = best_face(game.faces, k, number)
        for s, chooser in enumerate(choosers):
            if chooser is not None:
                order = game.preference(chooser, k)
                pref_len[s, k] = len(order)
                pref[s, k, :len(order)] = order
    rules = np.array([n, game.rules.chips, game.rules.max_rounds, game.lead == "fixed",
                      game.rules.unclaimed_bank == "house"], dtype=np.int64)
    checkpoints = np.array([c for c in CHECKPOINTS if c <= game.rules.max_rounds], dtype=np.int64)
    return faces, face_slot, allowed, allowed_len, pref, pref_len, bestface, rules, checkpoints


def _cached_tables(game: SixBySixGame, choosers: tuple[Chooser | None, ...]) -> tuple:
    """`_tables`, computed once per game and seat order of choosers (the arrays are only read)."""
    cache = game.kernel_tables
    if choosers not in cache:
        cache[choosers] = _tables(game, list(choosers))
    return cache[choosers]


def game_seeds(seed: int, indices: np.ndarray, deals: np.ndarray, players: int) -> np.ndarray:
    """Per game (row), its chance seed then one agent seed per seat: `derive_seed(seed,
    CHANCE_STREAM, deal)` and `derive_seed(seed, AGENT_STREAM, index, s)`, as `runner.play_one`
    seeds the game, computed for every game at once (`seeds.derive_seeds`).

    >>> game_seeds(4, np.array([3]), np.array([1]), 2).tolist() == [[derive_seed(4, CHANCE_STREAM, 1),
    ...     derive_seed(4, AGENT_STREAM, 3, 0), derive_seed(4, AGENT_STREAM, 3, 1)]]
    True
    """
    seeds = np.zeros((len(indices), players + 1), dtype=np.uint64)
    if len(indices):
        seeds[:, 0] = derive_seeds(seed, CHANCE_STREAM, deals)
        seeds[:, 1:] = derive_seeds(seed, AGENT_STREAM, indices[:, None], np.arange(players)[None, :])
    return seeds


def choosers_of(match: Match) -> list[Chooser | None] | None:
    """Per agent of the match, its marker chooser (None for the random agent), or None when an
    agent is of another kind or this kernel's twister does not match Python's."""
    choosers = marker_choosers([factory(match.game) for factory in match.agents])
    return choosers if choosers is not None and twister_matches_python() else None


def play_arrays(match: Match, indices: Sequence[int], choosers: Sequence[Chooser | None],
                log_room: int = 0) -> tuple[Arr, ...]:
    """The kernel's arrays of games `indices` of a match, row g for game indices[g]: (out, chips,
    elim, bets, refunds, wins, snapshots, log, logged) as `play_games` fills them, with room for
    `log_room` moves of each game in its log."""
    game = cast("SixBySixGame", match.game)  # a 6x6 match
    n = game.players
    layouts = [match.seating(i) for i in indices]
    seeds = game_seeds(match.seed, np.array(indices, dtype=np.int64).reshape(-1),
                       np.array([deal for deal, _, _ in layouts], dtype=np.int64).reshape(-1), n)
    by_order: dict[tuple, list[int]] = {}
    for row, (_, _, order) in enumerate(layouts):
        by_order.setdefault(order, []).append(row)
    count = len(indices)
    out = np.zeros((count, FIELDS), dtype=np.int64)
    chips = np.zeros((count, n), dtype=np.int64)
    elim = np.zeros((count, n), dtype=np.int64)
    bets = np.zeros((count, len(game.faces)), dtype=np.int64)
    refunds = np.zeros((count, len(game.faces)), dtype=np.int64)
    wins = np.zeros((count, n), dtype=np.int64)
    checkpoints = [c for c in CHECKPOINTS if c <= game.rules.max_rounds]
    snapshots = np.zeros((count, max(len(checkpoints), 1), n + 1), dtype=np.int64)
    arrays = (out, chips, elim, bets, refunds, wins, snapshots, np.zeros((count, log_room, 3), dtype=np.int64),
              np.zeros(count, dtype=np.int64))
    if len(by_order) == 1:  # one seating of the agents (the same agent everywhere): filled in place
        order = next(iter(by_order))
        play_games(seeds, *_cached_tables(game, tuple(choosers[a] for a in order)), *arrays)
        return arrays
    for order, listed in by_order.items():  # one call per seating of the agents
        tables = _cached_tables(game, tuple(choosers[a] for a in order))
        rows = np.array(listed)
        parts = [np.zeros((len(rows),) + a.shape[1:], dtype=a.dtype) for a in arrays]
        play_games(seeds[rows], *tables, *parts)
        for whole, part in zip(arrays, parts):
            whole[rows] = part
    return arrays


def play_records(match: Match, indices: Sequence[int], choosers: Sequence[Chooser | None]) -> list[GameRecord]:
    """The `GameRecord`s of games `indices` of a match, equal to `runner.play_one`'s."""
    game = cast("SixBySixGame", match.game)  # a 6x6 match
    n = game.players
    layouts = [match.seating(i) for i in indices]
    out, chips, elim, bets, refunds, wins, snapshots, _, _ = play_arrays(match, indices, choosers)
    records = []
    for g, (index, (deal, rotation, order)) in enumerate(zip(indices, layouts)):
        st = out[g].tolist()
        winners = tuple(s for s in range(n) if st[WINNERS] >> s & 1)
        held = snapshots[g, :st[N_SNAPSHOTS]].tolist()
        stats = {"rounds": st[ROUNDS], "first_elimination": st[FIRST_ELIMINATION] if st[FIRST_ELIMINATION] >= 0 else None,
                 "eliminations": elim[g, :st[N_ELIM]].tolist(), "no_winner_rounds": st[NO_WINNER],
                 "largest_bank": st[LARGEST], "bets_by_face": bets[g].tolist(), "refunds_by_face": refunds[g].tolist(),
                 "house_chips": st[HOUSE], "round_wins": wins[g].tolist(), "lead": game.lead,
                 "chips_over_time": chips_over_time(held, chips[g].tolist(), st[BANK], game.rules.max_rounds)}
        records.append(GameRecord(index, deal, rotation, tuple(match.agent_names[a] for a in order),
                                  winners, bool(st[UNFINISHED]), st[ROUNDS], stats))
    return records


def single_winner(out: np.ndarray, players: int) -> np.ndarray:
    """Per game, the seat of its single winner, or -1 (several winners, or none: unfinished).

    >>> out = np.zeros((3, FIELDS), dtype=np.int64); out[:, WINNERS] = [0b100, 0b011, 0]
    >>> single_winner(out, 3).tolist()
    [2, -1, -1]
    """
    winner = np.full(len(out), -1, dtype=np.int64)
    for seat in range(players):
        winner[out[:, WINNERS] == 1 << seat] = seat
    return winner


def tally_block(match: Match, start: int, stop: int) -> SummaryTally | None:
    """The summary tally of games start..stop-1 straight from the kernel's arrays (no record
    built), with the replay under the other lead rule when the game compares leads; None when
    the kernel does not play the match (`choosers_of`).  Equal to the tally of `play_block`'s
    records of the same games (tests/test_game_tallies.py)."""
    from boardlab.analysis.sixbysix.summary import SixBySixTally
    from boardlab.analysis.tally import SummaryTally

    choosers = choosers_of(match)
    if choosers is None:
        return None
    game = cast("SixBySixGame", match.game)  # a 6x6 match
    indices = list(range(start, stop))
    played = play_arrays(match, indices, choosers)
    out = played[0]
    tally = SummaryTally(match)
    winner, unfinished = single_winner(out, game.players), out[:, UNFINISHED] != 0
    tally.add_arrays(np.array(indices, dtype=np.int64), winner, unfinished, out[:, ROUNDS])
    own = tally.own
    assert isinstance(own, SixBySixTally)  # 6x6's own figures (`SixBySixGame.tally`)
    out, chips, elim, bets, refunds, wins, snapshots, _, _ = played
    own.add_arrays(out, chips, elim, bets, refunds, wins, snapshots, winner, game.rules.max_rounds)
    if game.compare_lead:
        twin = dataclasses.replace(match, game=game.twin())
        other = play_arrays(twin, indices, choosers)[0]
        own.add_other_lead(cast("SixBySixGame", twin.game).lead, single_winner(other, game.players), other[:, UNFINISHED] != 0,
                           other[:, ROUNDS])
    return tally
