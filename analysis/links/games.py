"""Links' agent games compiled end to end: whole games of `random`, `greedy`, `mcts-N` and
`ismcts-N` (any mix) played inside one compiled function, the same games as the runner's
reference path (`runner.play_one` with the agents of `agents.py`), move for move.

The agents of `agents.py` stay the readable definitions (`HistoryMCTS`, the plain Python
ISMCTS, is this module's twin for `ismcts`); `play_agent_games` makes every decision they make,
drawing every random number they draw, in the same order:

- every seat's `random.Random` (`derive_seed(seed, AGENT_STREAM, game, seat)`, as `play_one`
  seeds it) is handed over as its Mersenne Twister state (`analysis/mersenne.py`), and the
  compiled agents draw from it where the Python ones do: `randrange` for the random agent's
  move and the greedy agent's ties, `random.shuffle` of the unseen cards for a determinisation
  (`LinksGame.determinise`), `getrandbits(64)` for a search's key;
- what a seat sees is read off the kernel's position: the unseen cards (the other hands and the
  draw pile, by kind, ascending: `Observation.unseen`), and the public history
  (`Observation.conditions`): every turn a seat could not play is logged with the seat, the
  cards it had drawn by then, and the kinds with no play on that table (`unplayable`);
- the searches are `kernel.search`, the flat UCT on the shared compiled tree, with the agents'
  constants (`agents.EXPLORATION`, the rollout policy, `agents.MARGIN`, `agents.SAMPLES`,
  `agents.TRIES` passed in).

`tests/test_links_games.py` plays the same games both ways and compares the records, and the
determinisations one by one.

A single `ismcts-N` decision outside these games (`agents.CompiledHistoryMCTS`) is
`ismcts_decision`: the same search (`ismcts_search`) from the observer's position and the
history as `batch.observed` reads them off its `Observation`; the tests compare its moves,
visits, rewards and draws with `HistoryMCTS`'s.
"""

from __future__ import annotations

import numpy as np
from boardlab.analysis.jit import njit

from boardlab.analysis.links.kernel import (DECK_LEN, DECK_POS, DONE, HIDDEN_ALL, HIDDEN_DECK, K_A, MOVER,
                                            O_CARDS, O_DECK, O_HAND_LEN, O_HANDS, O_LINE_LEN, O_LINES, O_PLAYERS,
                                            R_MAX_TURNS, TURNS, Arr, Int, add_exposures, allowed, apply,
                                            capture_size, deal, legal_moves, line_end, search, take)
from boardlab.analysis.mersenne import next_uint32, randrange

#: the agents `play_agent_games` plays (the seat's kind)
RANDOM, GREEDY, MCTS, ISMCTS = range(4)
#: columns of the blocked-turn log: the seat, the cards it had drawn by then
E_SEAT, E_DRAWN = range(2)


@njit(cache=True)
def getrandbits64(mt: Arr) -> np.uint64:
    """`random.Random.getrandbits(64)`: two 32-bit outputs, the first as the low half."""
    low = np.uint64(next_uint32(mt))
    high = np.uint64(next_uint32(mt))
    return low | (high << np.uint64(32))


@njit(cache=True)
def shuffle(mt: Arr, cards: Arr, n: Int) -> None:
    """`random.Random.shuffle` of `cards[:n]`."""
    for i in range(n - 1, 0, -1):
        j = randrange(mt, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@njit(cache=True)
def drawn_by(seat: Int, turns: Int, pile: Int, players: Int) -> Int:
    """Cards `seat` has drawn in the first `turns` turns of a game whose draw pile held `pile`
    after the deal: turns go round from seat 0 and each draws one while the pile lasts."""
    t = min(turns, pile)
    return max(0, (t - seat + players - 1) // players)


@njit(cache=True)
def unplayable(s: Arr, o: Arr, kinds: Arr, rules: Arr, out: Arr) -> None:
    """`out[k]` = 1 for every kind with no play on the table of `s` (`LinksGame.unplayable_kinds`:
    a later play, not the first)."""
    scratch = np.empty((4, 3), dtype=np.int64)
    free = -1
    for slot in range(o[O_LINES]):
        if s[o[O_LINE_LEN] + slot] == 0 and free < 0:
            free = slot
    for kind in range(kinds.shape[0]):
        found = False
        for slot in range(o[O_LINES]):
            if s[o[O_LINE_LEN] + slot] == 0 and slot != free:
                continue
            if allowed(s, o, kinds, rules, kind, slot) and add_exposures(kinds, kind, line_end(s, o, slot), slot,
                                                                         scratch, 0) > 0:
                found = True
                break
        out[kind] = 0 if found else 1


@njit(cache=True)
def unseen(s: Arr, o: Arr, kinds: Arr, seat: Int, out: Arr) -> Int:
    """The kinds `seat` cannot see (the other hands and the draw pile), one entry per card,
    ascending (`Observation.unseen`), into `out`; returns how many."""
    counts = np.zeros(kinds.shape[0], dtype=np.int64)
    for other in range(o[O_PLAYERS]):
        if other != seat:
            hand = o[O_HANDS] + other * o[O_CARDS]
            for i in range(s[o[O_HAND_LEN] + other]):
                counts[s[hand + i]] += 1
    for i in range(s[DECK_POS], s[DECK_LEN]):
        counts[s[o[O_DECK] + i]] += 1
    n = 0
    for kind in range(kinds.shape[0]):
        for _ in range(counts[kind]):
            out[n] = kind
            n += 1
    return n


@njit(cache=True)
def broken(s: Arr, o: Arr, seat: Int, cards: Arr, events: Arr, masks: Arr, logged: Int, pile: Int) -> Int:
    """How many of the conditions the public history sets on the other hands (`Observation.conditions`
    as `engine.consistent` counts them) the deal of `cards` breaks: the other hands in seat order
    take `cards` by their sizes in `s`."""
    n = o[O_PLAYERS]
    count = 0
    for e in range(logged):
        other = events[e, E_SEAT]
        if other == seat:
            continue
        size = s[o[O_HAND_LEN] + other]
        least = size - (drawn_by(other, s[TURNS], pile, n) - events[e, E_DRAWN])
        if least <= 0:
            continue
        at = 0
        for before in range(other):
            if before != seat:
                at += s[o[O_HAND_LEN] + before]
        held = 0
        for i in range(size):
            held += masks[e, cards[at + i]]
        count += held < least
    return count


@njit(cache=True)
def deal_hidden(s: Arr, o: Arr, seat: Int, cards: Arr, n: Int) -> None:
    """The other hands (their sizes kept, sorted) and then the draw pile from `cards[:n]`, as
    `LinksGame.determinise` deals them: the engine's deck, drawn from its end, is the rest of
    `cards` in order, so the kernel's pile (drawn from its start) is that rest reversed."""
    at = 0
    for other in range(o[O_PLAYERS]):
        if other == seat:
            continue
        size = s[o[O_HAND_LEN] + other]
        s[o[O_HAND_LEN] + other] = 0
        for i in range(size):
            take(s, o, other, cards[at])
            at += 1
    pile = n - at
    for i in range(pile):
        s[o[O_DECK] + i] = cards[n - 1 - i]
    s[DECK_POS], s[DECK_LEN] = 0, pile


@njit(cache=True)
def history_deal(s: Arr, o: Arr, kinds: Arr, seat: Int, mt: Arr, cards: Arr, best_cards: Arr, events: Arr,
                 masks: Arr, logged: Int, pile: Int, tries: Int) -> Int:
    """`LinksGame.determinise(observation, rng, tries)`: up to `tries` shuffles of the unseen
    cards (each shuffling the last), the first breaking no condition of the history kept (else
    the first breaking fewest; no condition is checked when `tries` is 0) into `best_cards`, for
    `deal_hidden`; returns how many cards are unseen.  `events[:logged]` and `masks` are the
    blocked turns so far (seat, cards drawn by then; the kinds with no play then)."""
    n = unseen(s, o, kinds, seat, cards)
    fewest = -1
    for _ in range(max(1, tries)):
        shuffle(mt, cards, n)
        count = broken(s, o, seat, cards, events, masks, logged, pile) if tries > 0 else 0
        if fewest < 0 or count < fewest:
            fewest = count
            best_cards[:n] = cards[:n]
        if count == 0:
            break
    return n


@njit(cache=True)
def greedy_pick(s: Arr, o: Arr, kinds: Arr, rules: Arr, moves: Arr, m: Int, mt: Arr, ties: Arr) -> Int:
    """`agents.GreedyAgent`: the most cards captured, then a non-wild card, then a play over a
    pass; `pick_best`'s tie-break (`randrange` over the tied moves in move order)."""
    if m == 1:
        return 0
    best, tied = -1, 0
    for i in range(m):
        kind = moves[i, 0]
        if kind < 0:
            score = 0
        else:
            taken = capture_size(s, o, kinds, rules, kind, moves[i, 1])
            score = 4 * (max(taken, 0) + 1) + 2 * (kinds[kind, K_A] >= 0) + 1
        if score > best:
            best, tied = score, 0
        if score == best:
            ties[tied] = i
            tied += 1
    return ties[randrange(mt, tied)]


@njit(cache=True)
def mcts_pick(s: Arr, o: Arr, kinds: Arr, rules: Arr, m: Int, mt: Arr, budget: Int, exploration: float, policy: Int,
              margin: float, cards: Arr, root: Arr) -> Int:
    """`agents.DeterminisedMCTS`: one determinisation's shuffle (the root's hidden cards, dealt
    afresh by every iteration), a key, `kernel.search` over every hidden card; the most visited
    move, the first in move order among equals."""
    if m == 1:
        return 0
    seat = s[MOVER]
    n = unseen(s, o, kinds, seat, cards)
    pool = cards[:n].copy()
    shuffle(mt, cards, n)
    root[:] = s
    deal_hidden(root, o, seat, cards, n)
    visits, values = np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.float64)
    search(root, o, kinds, rules, pool, budget, getrandbits64(mt), exploration, policy, margin, visits, values,
           HIDDEN_ALL)
    return np.argmax(visits)


@njit(cache=True)
def ismcts_search(s: Arr, o: Arr, kinds: Arr, rules: Arr, m: Int, mt: Arr, budget: Int, exploration: float,
                  policy: Int, margin: float, cards: Arr, best_cards: Arr, root: Arr, events: Arr, masks: Arr,
                  logged: Int, pile: Int, samples_most: Int, tries: Int, visits: Arr, values: Arr) -> None:
    """`agents.HistoryMCTS.search`: up to `samples_most` deals of the other hands, each the first
    of up to `tries` shuffles that breaks no condition of the history (else the first breaking
    fewest), the budget shared among them with only the draw pile shuffled afresh; the visits
    and summed rewards of the `m` moves over all the deals into `visits`, `values`."""
    seat = s[MOVER]
    samples = max(1, min(samples_most, budget // m))
    visits[:m] = 0
    values[:m] = 0.0
    v, w = np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.float64)
    for sample in range(samples):
        share = budget // samples + (1 if sample < budget % samples else 0)
        n = history_deal(s, o, kinds, seat, mt, cards, best_cards, events, masks, logged, pile, tries)
        root[:] = s
        deal_hidden(root, o, seat, best_cards, n)
        search(root, o, kinds, rules, cards[:0], share, getrandbits64(mt), exploration, policy, margin, v, w,
               HIDDEN_DECK)
        for i in range(m):
            visits[i] += v[i]
            values[i] += w[i]


@njit(cache=True)
def best_mean(visits: Arr, values: Arr, m: Int) -> Int:
    """The move of the best mean reward (`values / max(visits, 1)`), the first in move order among equals."""
    pick, top = 0, -np.inf
    for i in range(m):
        mean = values[i] / max(visits[i], 1)
        if mean > top:
            pick, top = i, mean
    return pick


@njit(cache=True)
def ismcts_pick(s: Arr, o: Arr, kinds: Arr, rules: Arr, m: Int, mt: Arr, budget: Int, exploration: float,
                policy: Int, margin: float, cards: Arr, best_cards: Arr, root: Arr, events: Arr, masks: Arr,
                logged: Int, pile: Int, samples_most: Int, tries: Int) -> Int:
    """`agents.HistoryMCTS.decide`: `ismcts_search`, then the move of the best mean reward over
    all the deals, the first in move order among equals."""
    if m == 1:
        return 0
    visits, values = np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.float64)
    ismcts_search(s, o, kinds, rules, m, mt, budget, exploration, policy, margin, cards, best_cards, root, events,
                  masks, logged, pile, samples_most, tries, visits, values)
    return best_mean(visits, values, m)


@njit(cache=True)
def ismcts_decision(s: Arr, o: Arr, kinds: Arr, rules: Arr, mt: Arr, budget: Int, exploration: float, policy: Int,
                    margin: float, events: Arr, masks: Arr, logged: Int, pile: Int, samples_most: Int, tries: Int,
                    visits: Arr, values: Arr) -> Int:
    """One decision of `agents.HistoryMCTS` from the observer's position `s` (its player to move;
    the hidden cards anywhere among the other hands and the draw pile, only their kinds and the
    hands' sizes count) and the blocked turns `events[:logged]`, `masks` (as `play_agent_games`
    logs them, with `pile` cards in the draw pile after the deal), drawing from the twister `mt`:
    `ismcts_search` into `visits`, `values` (the moves in `kernel.legal_moves` order, the
    engine's); returns how many moves there are."""
    moves = np.empty((o[O_CARDS] * o[O_LINES] * 2 + 2, 3), dtype=np.int64)
    m = legal_moves(s, o, kinds, rules, s[MOVER], moves)
    cards = np.empty(o[O_CARDS], dtype=np.int64)
    best_cards = np.empty(o[O_CARDS], dtype=np.int64)
    root = np.empty_like(s)
    ismcts_search(s, o, kinds, rules, m, mt, budget, exploration, policy, margin, cards, best_cards, root, events,
                  masks, logged, pile, samples_most, tries, visits, values)
    return m


@njit(cache=True)
def play_agent_games(deals: Arr, twisters: Arr, seats: Arr, agent_kind: Arr, budget: Arr, exploration: Arr,
                     policy: Arr, margin: Arr, o: Arr, kinds: Arr, rules: Arr, hand_size: Int, samples_most: Int,
                     tries: Int, positions: Arr) -> None:
    """Games from the shuffles `deals[g]` (as `runner.play_one` deals them), seat p of game g
    played by agent `seats[g, p]` (its kind, budget, exploration, rollout policy and margin in
    the agent arrays) drawing from the twister `twisters[g, p]` (its `random.Random`'s state,
    advanced in place); every final position into `positions[g]`."""
    players = o[O_PLAYERS]
    moves = np.empty((o[O_CARDS] * o[O_LINES] * 2 + 2, 3), dtype=np.int64)
    ties = np.empty(moves.shape[0], dtype=np.int64)
    cards = np.empty(o[O_CARDS], dtype=np.int64)
    best_cards = np.empty(o[O_CARDS], dtype=np.int64)
    root = np.empty(positions.shape[1], dtype=np.int64)
    room = rules[R_MAX_TURNS] + 2  # every blocked turn is a turn, and turns stop at the cap
    events = np.zeros((room, 2), dtype=np.int64)
    masks = np.zeros((room, kinds.shape[0]), dtype=np.int64)
    table = np.zeros(kinds.shape[0], dtype=np.int64)
    for g in range(deals.shape[0]):
        s = positions[g]
        deal(s, o, kinds, rules, deals[g], hand_size)
        pile = s[DECK_LEN]
        logged = 0
        if s[TURNS] > 0:  # seats blocked before the first play
            unplayable(s, o, kinds, rules, table)
            for t in range(s[TURNS]):
                events[logged, E_SEAT], events[logged, E_DRAWN] = t % players, drawn_by(t % players, t, pile,
                                                                                        players)
                masks[logged] = table
                logged += 1
        while s[DONE] == 0:
            seat = s[MOVER]
            m = legal_moves(s, o, kinds, rules, seat, moves)
            a = seats[g, seat]
            mt = twisters[g, seat]
            kind = agent_kind[a]
            if kind == RANDOM:
                i = randrange(mt, m)
            elif kind == GREEDY:
                i = greedy_pick(s, o, kinds, rules, moves, m, mt, ties)
            elif kind == MCTS:
                i = mcts_pick(s, o, kinds, rules, m, mt, budget[a], exploration[a], policy[a], margin[a], cards, root)
            else:
                i = ismcts_pick(s, o, kinds, rules, m, mt, budget[a], exploration[a], policy[a], margin[a], cards,
                                best_cards, root, events, masks, logged, pile, samples_most, tries)
            turn = s[TURNS]
            apply(s, o, kinds, rules, moves[i, 0], moves[i, 1], moves[i, 2])
            blocked = s[TURNS] - turn - 1  # the turns after the play that only drew
            if blocked > 0:
                unplayable(s, o, kinds, rules, table)
                for b in range(blocked):
                    t = turn + 1 + b
                    events[logged, E_SEAT], events[logged, E_DRAWN] = t % players, drawn_by(t % players, t, pile,
                                                                                            players)
                    masks[logged] = table
                    logged += 1
