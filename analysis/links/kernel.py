"""Links' compiled fast path: the rules on flat integer arrays, compiled with numba.

The reference engine (`engine.LinksState`, `table.py`) stays the readable definition of the
rules; this module plays the same rules in `numba.njit(cache=True)` functions, for the hot
loops: random self-play (`play_games`, used by `simulate` through `batch.play_block`) and the
searches of the determinised MCTS agent (`search`).  The tests replay its games move by move
through the engine (`tests/test_links_kernel.py`).

A position is one int64 vector `s` laid out by `Layout` (`offsets`): the counters `MOVER` ..
`LEADER`, then per seat the hand length and the hand (kinds, kept in ascending order as the
engine keeps them), the draw pile (`DECK_POS` is the next card), per line slot its length,
run start and count and its cards (kind and exposed end), the captured count per seat and the
capture tallies (row 0: the fifth card, row 1 + i: master i; columns: captures, cards).
The cards' facts are `kinds`: per kind its category, its two ends (-1 for a wild card), its
master value and master index (-1).

Moves are listed exactly as `table.legal_plays` lists them (a pass first when allowed, then the
lines in slot order, kinds ascending, exposed ends as `LinksDeck.exposures` gives them), as
rows (kind, line, exposed) with a pass as (-1, -1, -1), so a uniform number in [0, moves)
is a uniform legal move.  Random number t of a game with key k is `splitmix(k + (t + 1) *
golden)`.

The moves' functions compile without numba's reference counting (`jit.NO_REFCOUNT`: they
allocate nothing; the arrays are their caller's and outlive the call), the smallest of them
inlined into their callers: the atomic counting of every array passed at every call had
been more than half of a rollout's time (a search's iterations per second about 2.3x since).

(Why one module of about 480 lines: every compiled function reads and writes the same flat
position layout, whose offsets are the constants at the top; kept in one module, that layout
is defined and documented in one place, beside the only code that depends on it.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from boardlab.analysis.jit import njit

from boardlab.analysis import uct
from boardlab.analysis.jit import NO_REFCOUNT
from boardlab.analysis.splitmix import GOLDEN, splitmix

#: a compiled function's array argument, and its integer (a Python int, or numpy's inside the kernel)
Arr = np.ndarray
Int = int | np.integer

WILD = -1
GAME_CARD, EMPTY_CARD, MASTER_CARD = 0, 1, 2

# counters at the start of the position vector
MOVER, TURNS, PLAYS, DECK_POS, DECK_LEN, BLOCKED, PASSES, LEAD_CHANGES, LEADER, DONE, UNFINISHED, DRAWS = range(12)
COUNTERS = 12
# the offsets vector: sizes, then where each part of the position starts
(O_PLAYERS, O_CARDS, O_LINES, O_MASTERS, O_HAND_LEN, O_HANDS, O_DECK, O_LINE_LEN, O_RUN, O_COUNT, O_LINE_KIND,
 O_LINE_END, O_CAPTURED, O_TALLY, O_SIZE) = range(15)
# the rules vector
R_CAPTURE, R_TAKEN, R_MUST_PLAY, R_MAX_TURNS, R_IDLE_BARRED = range(5)
# columns of the kinds table
K_CAT, K_A, K_B, K_VALUE, K_MASTER = range(5)



def layout(players: int, cards: int, lines: int, masters: int) -> np.ndarray:
    """The offsets vector of a position of this many seats, cards, line slots and masters."""
    at = COUNTERS
    parts = []
    for size in (players, players * cards, cards, lines, lines, lines, lines * (cards + 1), lines * (cards + 1),
                 players, (1 + masters) * 2):
        parts.append(at)
        at += size
    return np.array([players, cards, lines, masters, *parts, at], dtype=np.int64)


@njit(cache=True, inline="always")
def uniform_below(s: Arr, o: Arr, key: np.uint64, n: Int) -> Int:
    """The game's next random number in [0, n) (advances the draw counter)."""
    t = np.uint64(s[DRAWS] + 1)
    s[DRAWS] += 1
    return np.int64((splitmix(key + t * GOLDEN) >> np.uint64(11)) % np.uint64(n))


@njit(cache=True, inline="always")
def line_end(s: Arr, o: Arr, slot: Int) -> Int:
    length = s[o[O_LINE_LEN] + slot]
    if length == 0:
        return WILD
    return s[o[O_LINE_END] + slot * (o[O_CARDS] + 1) + length - 1]


@njit(cache=True, inline="always")
def add_exposures(kinds: Arr, kind: Int, end: Int, slot: Int, moves: Arr, m: Int) -> Int:
    a = kinds[kind, K_A]
    b = kinds[kind, K_B]
    if a < 0:
        moves[m, 0], moves[m, 1], moves[m, 2] = kind, slot, WILD
        return m + 1
    if end == WILD:
        moves[m, 0], moves[m, 1], moves[m, 2] = kind, slot, a
        m += 1
        if a != b:
            moves[m, 0], moves[m, 1], moves[m, 2] = kind, slot, b
            m += 1
    elif end == a:
        moves[m, 0], moves[m, 1], moves[m, 2] = kind, slot, b
        m += 1
    elif end == b:
        moves[m, 0], moves[m, 1], moves[m, 2] = kind, slot, a
        m += 1
    return m


@njit(cache=True, inline="always")
def allowed(s: Arr, o: Arr, kinds: Arr, rules: Arr, kind: Int, slot: Int) -> bool:
    """`table.allowed`: under idle_master = "barred", master N not on a count below N - 1."""
    return not (rules[R_IDLE_BARRED] != 0 and kinds[kind, K_CAT] == MASTER_CARD
                and s[o[O_COUNT] + slot] < kinds[kind, K_VALUE] - 1)


@njit(cache=True, **NO_REFCOUNT)
def add_line_plays(s: Arr, o: Arr, kinds: Arr, rules: Arr, hand: Int, size: Int, slot: Int, end: Int, moves: Arr,
                   m: Int) -> Int:
    """Add from row m the plays of each kind of the hand (sorted, so alike cards are next to each
    other) on line `slot` whose open end is `end`; return the new m."""
    previous: Any = -2  # the last kind seen, an element of s
    for i in range(size):
        kind = s[hand + i]
        if kind != previous:
            if allowed(s, o, kinds, rules, kind, slot):
                m = add_exposures(kinds, kind, end, slot, moves, m)
            previous = kind
    return m


@njit(cache=True, **NO_REFCOUNT)
def legal_moves(s: Arr, o: Arr, kinds: Arr, rules: Arr, seat: Int, moves: Arr) -> Int:
    """Fill `moves` with the legal moves of `seat` (rows 0..m-1) and return m."""
    hand = o[O_HANDS] + seat * o[O_CARDS]
    size = s[o[O_HAND_LEN] + seat]
    m = 1  # row 0 is kept for a pass
    free = -1
    for slot in range(o[O_LINES]):
        if s[o[O_LINE_LEN] + slot] == 0:
            if free < 0:
                free = slot
            continue
        m = add_line_plays(s, o, kinds, rules, hand, size, slot, line_end(s, o, slot), moves, m)
    if free >= 0:
        m = add_line_plays(s, o, kinds, rules, hand, size, free, WILD, moves, m)
    if m == 1:
        return 0
    if rules[R_MUST_PLAY] == 0 and s[PLAYS] > 0:
        moves[0, 0], moves[0, 1], moves[0, 2] = -1, -1, -1
        return m
    for i in range(1, m):  # no pass: shift the plays down one row
        moves[i - 1, 0], moves[i - 1, 1], moves[i - 1, 2] = moves[i, 0], moves[i, 1], moves[i, 2]
    return m - 1


@njit(cache=True, **NO_REFCOUNT)
def can_play(s: Arr, o: Arr, kinds: Arr, rules: Arr, seat: Int) -> bool:
    size = s[o[O_HAND_LEN] + seat]
    if size == 0:
        return False
    hand = o[O_HANDS] + seat * o[O_CARDS]
    barred = rules[R_IDLE_BARRED] != 0
    for slot in range(o[O_LINES]):
        end = line_end(s, o, slot)
        if end == WILD and not barred:
            return True
        for i in range(size):
            kind = s[hand + i]
            if barred and not allowed(s, o, kinds, rules, kind, slot):
                continue
            if end == WILD or kinds[kind, K_A] < 0 or kinds[kind, K_A] == end or kinds[kind, K_B] == end:
                return True
    return False


@njit(cache=True, inline="always")
def draw(s: Arr, o: Arr, seat: Int) -> None:
    """The seat draws the next card, if any, into its sorted hand."""
    if s[DECK_POS] >= s[DECK_LEN]:
        return
    s[DECK_POS] += 1
    take(s, o, seat, s[o[O_DECK] + s[DECK_POS] - 1])


@njit(cache=True, inline="always")
def take(s: Arr, o: Arr, seat: Int, card: Int) -> None:
    """Put a card into the seat's hand, keeping it in ascending order."""
    hand = o[O_HANDS] + seat * o[O_CARDS]
    i = s[o[O_HAND_LEN] + seat]
    while i > 0 and s[hand + i - 1] > card:
        s[hand + i] = s[hand + i - 1]
        i -= 1
    s[hand + i] = card
    s[o[O_HAND_LEN] + seat] += 1


@njit(cache=True, inline="always")
def track_lead(s: Arr, o: Arr) -> None:
    best, leader, ties = 0, -1, 0
    for seat in range(o[O_PLAYERS]):
        c = s[o[O_CAPTURED] + seat]
        if c > best:
            best, leader, ties = c, seat, 1
        elif c == best and best > 0:
            ties += 1
    if best > 0 and ties == 1 and leader != s[LEADER]:
        if s[LEADER] >= 0:
            s[LEAD_CHANGES] += 1
        s[LEADER] = leader


@njit(cache=True, **NO_REFCOUNT)
def next_player(s: Arr, o: Arr, kinds: Arr, rules: Arr, seat: Int) -> None:
    """Hand the turn to the next seat that can play; seats without a play only draw."""
    n = o[O_PLAYERS]
    while True:
        if s[DECK_POS] >= s[DECK_LEN]:
            anyone = False
            for other in range(n):
                if can_play(s, o, kinds, rules, other):
                    anyone = True
                    break
            if not anyone:
                s[DONE] = 1
                return
        if s[TURNS] >= rules[R_MAX_TURNS]:
            s[UNFINISHED] = 1
            s[DONE] = 1
            return
        seat = (seat + 1) % n
        if can_play(s, o, kinds, rules, seat):
            s[MOVER] = seat
            return
        s[BLOCKED] += 1
        draw(s, o, seat)
        s[TURNS] += 1
        track_lead(s, o)


@njit(cache=True)
def deal(s: Arr, o: Arr, kinds: Arr, rules: Arr, cards: Arr, hand_size: Int) -> None:
    """Start a game from a shuffle (hands seat by seat, then the draw pile)."""
    s[:] = 0
    s[LEADER] = -1
    n = o[O_PLAYERS]
    total = o[O_CARDS]
    for seat in range(n):
        for i in range(hand_size):
            take(s, o, seat, cards[seat * hand_size + i])
    pile = total - n * hand_size
    for i in range(pile):
        s[o[O_DECK] + i] = cards[n * hand_size + i]
    s[DECK_POS], s[DECK_LEN] = 0, pile
    next_player(s, o, kinds, rules, -1)


@njit(cache=True, inline="always")
def capture_size(s: Arr, o: Arr, kinds: Arr, rules: Arr, kind: Int, slot: Int) -> Int:
    """Cards laying `kind` on `slot` captures, or -1 when it does not capture."""
    cat = kinds[kind, K_CAT]
    count = s[o[O_COUNT] + slot]
    if cat == GAME_CARD:
        capturing = count + 1 >= rules[R_CAPTURE]
    elif cat == MASTER_CARD:
        capturing = count >= kinds[kind, K_VALUE] - 1
    else:
        capturing = False
    if not capturing:
        return -1
    return s[o[O_LINE_LEN] + slot] - s[o[O_RUN] + slot] + rules[R_TAKEN]


@njit(cache=True, **NO_REFCOUNT)
def apply(s: Arr, o: Arr, kinds: Arr, rules: Arr, kind: Int, slot: Int, exposed: Int) -> None:
    """Play a move of the player to move (a pass when kind < 0), draw, and pass the turn on."""
    seat = s[MOVER]
    if kind < 0:
        s[PASSES] += 1
    else:
        hand = o[O_HANDS] + seat * o[O_CARDS]
        size = s[o[O_HAND_LEN] + seat]
        i = 0
        while s[hand + i] != kind:
            i += 1
        for j in range(i, size - 1):
            s[hand + j] = s[hand + j + 1]
        s[o[O_HAND_LEN] + seat] = size - 1
        taken = capture_size(s, o, kinds, rules, kind, slot)
        width = o[O_CARDS] + 1
        length = s[o[O_LINE_LEN] + slot]
        s[o[O_LINE_KIND] + slot * width + length] = kind
        s[o[O_LINE_END] + slot * width + length] = exposed
        length += 1
        cat = kinds[kind, K_CAT]
        if cat == EMPTY_CARD:
            s[o[O_RUN] + slot] = length
            s[o[O_COUNT] + slot] = 0
        else:
            if cat == GAME_CARD:
                s[o[O_COUNT] + slot] += 1
            if taken >= 0:
                cut = s[o[O_RUN] + slot]
                if rules[R_TAKEN]:
                    length = cut
                else:
                    s[o[O_LINE_KIND] + slot * width + cut] = kind
                    s[o[O_LINE_END] + slot * width + cut] = exposed
                    length = cut + 1
                s[o[O_RUN] + slot] = length
                s[o[O_COUNT] + slot] = 0
                s[o[O_CAPTURED] + seat] += taken
                row = 0 if cat == GAME_CARD else 1 + kinds[kind, K_MASTER]
                s[o[O_TALLY] + 2 * row] += 1
                s[o[O_TALLY] + 2 * row + 1] += taken
        s[o[O_LINE_LEN] + slot] = length
        s[PLAYS] += 1
    draw(s, o, seat)
    s[TURNS] += 1
    track_lead(s, o)
    next_player(s, o, kinds, rules, seat)


@njit(cache=True, **NO_REFCOUNT)
def greedy_choice(s: Arr, o: Arr, kinds: Arr, rules: Arr, moves: Arr, m: Int, key: np.uint64) -> Int:
    """The greedy agent's move: most cards captured, then a non-wild card, then a play over a
    pass; ties uniformly at random (one random number per candidate tie)."""
    best, best_score, ties = 0, -1, 0
    for i in range(m):
        kind = moves[i, 0]
        if kind < 0:
            score = 0
        else:
            taken = capture_size(s, o, kinds, rules, kind, moves[i, 1])
            score = 4 * (max(taken, 0) + 1) + 2 * (kinds[kind, K_A] >= 0) + 1
        if score > best_score:
            best, best_score, ties = i, score, 1
        elif score == best_score:
            ties += 1
            if uniform_below(s, o, key, ties) == 0:
                best = i
    return best


#: rollout policies of `play_out`: every seat random, every seat greedy, the searching seat
#: greedy and the others random, every move greedy or random with equal chance
RANDOM_ROLLOUT, GREEDY_ROLLOUT, SELF_GREEDY_ROLLOUT, MIXED_ROLLOUT = range(4)


@njit(cache=True, **NO_REFCOUNT)
def play_out(s: Arr, o: Arr, kinds: Arr, rules: Arr, moves: Arr, key: np.uint64, policy: Int, seat: Int,
             log: Arr) -> Int:
    """Play to the end with the rollout `policy` (`seat`: the searching seat); record
    (kind, line, exposed, moves) in `log` when it has rows.  Returns the number of moves played."""
    played = 0
    while s[DONE] == 0:
        mover = s[MOVER]
        m = legal_moves(s, o, kinds, rules, mover, moves)
        if policy == GREEDY_ROLLOUT or (policy == SELF_GREEDY_ROLLOUT and mover == seat) or \
                (policy == MIXED_ROLLOUT and uniform_below(s, o, key, 2) == 0):
            i = greedy_choice(s, o, kinds, rules, moves, m, key)
        else:
            i = uniform_below(s, o, key, m)
        if played < log.shape[0]:
            log[played, 0], log[played, 1], log[played, 2], log[played, 3] = moves[i, 0], moves[i, 1], moves[i, 2], m
        apply(s, o, kinds, rules, moves[i, 0], moves[i, 1], moves[i, 2])
        played += 1
    return played


@njit(cache=True)
def scores(s: Arr, o: Arr, out: Arr) -> None:
    for seat in range(o[O_PLAYERS]):
        out[seat] = s[o[O_CAPTURED] + seat] - s[o[O_HAND_LEN] + seat]


@njit(cache=True)
def play_games(deals: Arr, keys: Arr, o: Arr, kinds: Arr, rules: Arr, hand_size: Int, positions: Arr) -> None:
    """Random games from the shuffles `deals[g]` with move keys `keys[g]`: every final position
    into `positions[g]`."""
    moves = np.empty((o[O_CARDS] * o[O_LINES] * 2 + 2, 3), dtype=np.int64)
    log = np.empty((0, 4), dtype=np.int64)
    for g in range(deals.shape[0]):
        s = positions[g]
        deal(s, o, kinds, rules, deals[g], hand_size)
        play_out(s, o, kinds, rules, moves, keys[g], RANDOM_ROLLOUT, -1, log)


@njit(cache=True)
def determinise(s: Arr, o: Arr, seat: Int, pool: Arr, key: np.uint64) -> None:
    """Deal the unseen cards `pool` at random to the other hands (keeping their sizes) and to the
    deck (Fisher-Yates with the position's random stream)."""
    cards = pool.copy()
    for i in range(cards.shape[0] - 1, 0, -1):
        j = uniform_below(s, o, key, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    at = 0
    for other in range(o[O_PLAYERS]):
        if other == seat:
            continue
        size = s[o[O_HAND_LEN] + other]
        s[o[O_HAND_LEN] + other] = 0
        for i in range(size):
            take(s, o, other, cards[at])
            at += 1
    pile = cards.shape[0] - at
    for i in range(pile):
        s[o[O_DECK] + i] = cards[at + i]
    s[DECK_POS], s[DECK_LEN] = 0, pile


@njit(cache=True)
def shuffle_deck(s: Arr, o: Arr, key: np.uint64) -> None:
    """Shuffle the cards still in the draw pile (Fisher-Yates with the position's random
    stream); the hands stay as they are."""
    low = o[O_DECK] + s[DECK_POS]
    for i in range(s[DECK_LEN] - s[DECK_POS] - 1, 0, -1):
        j = uniform_below(s, o, key, i + 1)
        s[low + i], s[low + j] = s[low + j], s[low + i]


#: what `search` deals afresh every iteration: the other hands and the deck (an honest search),
#: the deck order only (a search that sees the other hands), or nothing (a search that sees
#: every hand and the deck order); the last two are the benchmark's upper bounds, not agents
HIDDEN_ALL, HIDDEN_DECK, HIDDEN_NONE = range(3)


@njit(cache=True)
def result(s: Arr, o: Arr, seat: Int, margin: float) -> float:
    """The searching seat's reward of a finished game in [0, 1]: its share of the win, blended
    (weight `margin`) with a logistic of its score minus the best other score."""
    n = o[O_PLAYERS]
    best_other = -1 << 30
    best = -1 << 30
    winners = 0
    mine = s[o[O_CAPTURED] + seat] - s[o[O_HAND_LEN] + seat]
    for other in range(n):
        score = s[o[O_CAPTURED] + other] - s[o[O_HAND_LEN] + other]
        if score > best:
            best, winners = score, 1
        elif score == best:
            winners += 1
        if other != seat and score > best_other:
            best_other = score
    share = 0.0
    if s[UNFINISHED] == 0 and mine == best:
        share = 1.0 / winners
    return (1.0 - margin) * share + margin / (1.0 + np.exp(-(mine - best_other) / 3.0))


@njit(cache=True)
def search(root: Arr, o: Arr, kinds: Arr, rules: Arr, pool: Arr, iterations: Int, key: np.uint64, exploration: float,
           policy: Int, margin: float, visits: Arr, values: Arr, hidden: Int = HIDDEN_ALL) -> Int:
    """Determinised flat UCT from `root` for its player to move: every iteration deals the
    unseen cards `pool` afresh (`determinise`; with `hidden` = HIDDEN_DECK only the draw pile is
    shuffled, with HIDDEN_NONE nothing is), picks a root move by UCB1 (untried moves first,
    in move order), plays to the end (rollout `policy`) and adds the reward (`result`).
    `visits[i]`, `values[i]` are filled for the root's moves i in move order.

    The root and its children are a tree of the shared compiled UCT (`analysis/uct.py`, the
    tree of every compiled search): `uct.expand_at` opens the first untried move, `uct.select`
    picks by UCB1 (ties to the first, so to the first in move order), `uct.back_up` counts the
    reward; only the rollouts below the root are Links' own."""
    s = np.empty_like(root)
    moves = np.empty((o[O_CARDS] * o[O_LINES] * 2 + 2, 3), dtype=np.int64)
    seat = root[MOVER]
    m = legal_moves(root, o, kinds, rules, seat, moves)
    ints, value, tried, kids = uct.new_tree(m, 3, m)  # the root and one child per move: UCB1 at the root only
    tried, kids, _ = uct.open_node(ints, tried, kids, 0, 0, moves, m)
    path = np.zeros(2, dtype=np.int64)
    returns = np.zeros(o[O_PLAYERS], dtype=np.float64)
    log = np.empty((0, 4), dtype=np.int64)
    for it in range(iterations):
        s[:] = root
        s[DRAWS] = 0
        stream = splitmix(key + np.uint64(it + 1) * GOLDEN)
        if hidden == HIDDEN_ALL:
            determinise(s, o, seat, pool, stream)
        elif hidden == HIDDEN_DECK:
            shuffle_deck(s, o, stream)
        if uct.untried(ints, 0):
            child = uct.expand_at(ints, tried, kids, 0, 1 + it, seat, 0)
        else:
            child = uct.select(ints, value, kids, 0, exploration)
        apply(s, o, kinds, rules, ints[child, uct.MOVE], ints[child, uct.MOVE + 1], ints[child, uct.MOVE + 2])
        play_out(s, o, kinds, rules, moves, stream, policy, seat, log)
        returns[seat] = result(s, o, seat, margin)
        path[0], path[1] = 0, child
        uct.back_up(ints, value, path, 2, returns)
    for i in range(m):  # children 1..m are the moves in order (each expanded in turn)
        visits[i] = ints[1 + i, uct.VISITS]
        values[i] = value[1 + i]
    return m
