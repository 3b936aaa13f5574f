"""Links games on the compiled path (`kernel`, `games`), and positions in the kernel's form.

`play_block` plays a runner block when every agent is one the compiled games play (random,
greedy, mcts-N, ismcts-N, any mix; `games.play_agent_games`): those are the reference path's
games themselves, record for record (the same deals, the same draws of every seat's
generator).  When every agent is `random` it plays them by the random self-play kernel instead: the deals are the reference
path's (`engine.shuffled` from `derive_seed(seed, CHANCE_STREAM, deal)`, turned by
`rotate_deal` as `runner.play_one` turns them), so game i is dealt as the reference engine
would deal it; the moves come from the kernel's own stream (key of game i:
`derive_seed(seed, BATCH_STREAM, i)`), so the same game is not the same sequence of moves as
the reference engine's random agents would play.  The records have the same form as the
reference engine's (`LinksState.stats`); the tests replay the kernel's games move by move
through the engine.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from boardlab.analysis.seeds import derive_seeds
from boardlab.analysis.links import kernel as K
from boardlab.analysis.links.cards import EMPTY, GAME
from boardlab.analysis.links.engine import FIFTH, shuffled
from boardlab.analysis.runner import AGENT_STREAM, CHANCE_STREAM, GameRecord, derive_seed

if TYPE_CHECKING:
    from boardlab.analysis.links.engine import LinksGame, LinksState, Observation
    from boardlab.analysis.runner import Match

#: the kernel's stream of random moves (the reference path uses CHANCE_STREAM 0 and AGENT_STREAM 1)
BATCH_STREAM = 2
#: games per runner block when this path plays them
BATCH_BLOCK = 2048

_CATEGORIES = {GAME: K.GAME_CARD, EMPTY: K.EMPTY_CARD}


class Tables:
    """The integer tables of a game for the kernel: kinds, rules and the position layout."""

    def __init__(self, game: LinksGame) -> None:
        deck, rules = game.deck, game.rules
        self.game = game
        self.kinds = np.array([[_CATEGORIES.get(k.category, K.MASTER_CARD),
                                *(k.ends if k.ends is not None else (K.WILD, K.WILD)), k.value, k.master]
                               for k in deck.kinds], dtype=np.int64)
        self.rules = np.array([rules.capture_count, rules.capturing_card == "taken", rules.must_play,
                               rules.max_turns, rules.idle_master == "barred"], dtype=np.int64)
        self.offsets = K.layout(game.players, len(game.cards), rules.lines, len(deck.master_kinds))
        self.at = [int(x) for x in self.offsets]  # the same as Python ints (quicker to index from Python)
        self.hand_size = deck.hand_size

    def empty_positions(self, count: int) -> np.ndarray:
        return np.zeros((count, int(self.offsets[K.O_SIZE])), dtype=np.int64)

    def move_buffer(self) -> np.ndarray:
        o = self.offsets
        return np.empty((int(o[K.O_CARDS] * o[K.O_LINES] * 2 + 2), 3), dtype=np.int64)


def tables_of(game: LinksGame) -> Tables:
    """The game's kernel tables, built once per game object."""
    cached = getattr(game, "_kernel_tables", None)
    if cached is None:
        cached = game._kernel_tables = Tables(game)
    return cached


def pack(state: LinksState) -> np.ndarray:
    """A reference `LinksState` (between turns) as a kernel position vector."""
    t = tables_of(state.game)
    o = t.offsets
    s = t.empty_positions(1)[0]
    counters = state.counters
    s[K.MOVER] = max(state.mover, 0)
    s[K.TURNS], s[K.PLAYS] = state.turns, state.plays
    s[K.DECK_POS], s[K.DECK_LEN] = 0, len(state.deck)
    s[K.BLOCKED], s[K.PASSES] = counters["blocked_turns"], counters["passes"]
    s[K.LEAD_CHANGES], s[K.LEADER] = counters["lead_changes"], counters["leader"]
    s[K.DONE], s[K.UNFINISHED] = state.is_terminal(), state.unfinished
    cards = int(o[K.O_CARDS])
    for seat, hand in enumerate(state.hands):
        s[o[K.O_HAND_LEN] + seat] = len(hand)
        s[o[K.O_HANDS] + seat * cards:o[K.O_HANDS] + seat * cards + len(hand)] = sorted(hand)
        s[o[K.O_CAPTURED] + seat] = len(state.captured[seat])
    s[o[K.O_DECK]:o[K.O_DECK] + len(state.deck)] = state.deck[::-1]  # the engine draws from the end
    for slot, line in enumerate(state.lines):
        s[o[K.O_LINE_LEN] + slot], s[o[K.O_RUN] + slot], s[o[K.O_COUNT] + slot] = \
            len(line.cards), line.run_start, line.count
        base = slot * (cards + 1)
        for i, (kind, end) in enumerate(line.cards):
            s[o[K.O_LINE_KIND] + base + i], s[o[K.O_LINE_END] + base + i] = kind, end
    names = [FIFTH, *state.game.deck.master_names]
    for row, name in enumerate(names):
        times, taken = state.captures.get(name, (0, 0))
        s[o[K.O_TALLY] + 2 * row], s[o[K.O_TALLY] + 2 * row + 1] = times, taken
    return s


def pack_observed(observation: Observation, unseen: list[int]) -> np.ndarray:
    """`pack(game.dealt(observation, hands, deck))` with the `unseen` cards (ascending) dealt in
    order to the other hands by their sizes and the rest to the draw pile (next card last), built
    straight from the observation (`observed`'s position: the tests compare the two)."""
    t = tables_of(observation.game)
    o = t.at
    cards = o[K.O_CARDS]
    s = np.zeros(o[K.O_SIZE], dtype=np.int64)
    s[K.MOVER], s[K.TURNS], s[K.PLAYS], s[K.LEADER] = observation.mover, observation.turns, observation.plays, -1
    sizes = observation.hand_sizes
    s[o[K.O_HAND_LEN]:o[K.O_HAND_LEN] + len(sizes)] = sizes
    s[o[K.O_CAPTURED]:o[K.O_CAPTURED] + len(sizes)] = [len(pile) for pile in observation.captured]
    at = 0
    for seat, size in enumerate(sizes):
        hand = o[K.O_HANDS] + seat * cards
        if seat == observation.seat:
            s[hand:hand + size] = observation.hand
        else:
            s[hand:hand + size] = unseen[at:at + size]
            at += size
    pile = len(unseen) - at
    s[K.DECK_LEN] = pile
    s[o[K.O_DECK]:o[K.O_DECK] + pile] = unseen[at:][::-1]  # the engine draws from the end (as in `pack`)
    lines = observation.lines
    s[o[K.O_LINE_LEN]:o[K.O_LINE_LEN] + len(lines)] = [len(laid) for laid, *_ in lines]
    s[o[K.O_RUN]:o[K.O_RUN] + len(lines)] = [run_start for _, run_start, *_ in lines]
    s[o[K.O_COUNT]:o[K.O_COUNT] + len(lines)] = [count for _, _, count, _ in lines]
    for slot, (laid, *_) in enumerate(lines):
        if laid:
            base = slot * (cards + 1)
            s[o[K.O_LINE_KIND] + base:o[K.O_LINE_KIND] + base + len(laid)] = [kind for kind, _ in laid]
            s[o[K.O_LINE_END] + base:o[K.O_LINE_END] + base + len(laid)] = [end for _, end in laid]
    return s


def observed(observation: Observation) -> tuple[np.ndarray, np.ndarray, np.ndarray, int] | None:
    """What a compiled search of the seat to move needs from its `Observation`
    (`games.ismcts_decision`): the position (the unseen cards dealt to the other hands and the
    draw pile in ascending order: only their kinds and the hands' sizes matter to the search,
    which deals them again), the blocked turns as `games.play_agent_games` logs them (seat,
    cards drawn by then; the kinds with no play on that table) and the draw pile's size after
    the deal.  None when the observation is not one the compiled search can take: not its
    mover's, counts that do not add up (`LinksGame.determinise` says why), or a blocked turn
    in the history with draws that turns going round from seat 0, one card a turn, do not give
    (`games.drawn_by`)."""
    from boardlab.analysis.links.games import drawn_by

    game = observation.game
    seat, n = observation.seat, game.players
    if seat != observation.mover or seat < 0:
        return None
    unseen = observation.unseen()
    sizes = observation.hand_sizes
    if len(unseen) != sum(size for p, size in enumerate(sizes) if p != seat) + observation.deck_size:
        return None
    draws = list(observation.draws or [0] * n)
    pile = observation.deck_size + sum(draws)  # (without a blocked turn the draws are never read)
    if observation.blocked and any(drawn_by(p, observation.turns, pile, n) != draws[p] for p in range(n)):
        return None
    s = pack_observed(observation, unseen)
    blocked = observation.blocked
    events = np.zeros((max(1, len(blocked)), 2), dtype=np.int64)
    masks = np.zeros((max(1, len(blocked)), len(game.copies)), dtype=np.int64)
    for e, (other, drawn, lines) in enumerate(blocked):
        events[e, 0], events[e, 1] = other, drawn
        masks[e, list(game.unplayable_kinds(lines))] = 1
    return s, events, masks, pile


def records_of(game: LinksGame, positions: np.ndarray, indices: Sequence[int], deals: Sequence[int],
               rotations: Sequence[int], agents: Sequence[tuple[str, ...]]) -> list[GameRecord]:
    """The `GameRecord`s of finished kernel games (rows of `positions`), in the reference
    engine's form (`LinksState.stats`); `agents[i]` names the agents by seat of game i."""
    o = tables_of(game).offsets
    n = game.players
    names = [FIFTH, *game.deck.master_names]
    captured = positions[:, o[K.O_CAPTURED]:o[K.O_CAPTURED] + n]
    in_hand = positions[:, o[K.O_HAND_LEN]:o[K.O_HAND_LEN] + n]
    scores = (captured - in_hand).tolist()
    tally = positions[:, o[K.O_TALLY]:o[K.O_TALLY] + 2 * len(names)].tolist()
    left = in_hand.sum(axis=1).tolist()
    counters = positions[:, [K.TURNS, K.UNFINISHED, K.BLOCKED, K.PASSES, K.LEAD_CHANGES]].tolist()
    order = sorted(range(len(names)), key=names.__getitem__)  # the engine lists captures sorted by name
    out = []
    for i, (turns, unfinished, blocked, passes, leads) in enumerate(counters):
        score, row = scores[i], tally[i]
        best = max(score)
        winners = () if unfinished else tuple(seat for seat in range(n) if score[seat] == best)
        captures = {names[k]: [row[2 * k], row[2 * k + 1]] for k in order if row[2 * k]}
        stats = {"scores": score, "captures": captures, "blocked_turns": blocked, "passes": passes,
                 "lead_changes": leads, "left_in_hands": left[i], "rounds": -(-turns // n)}
        out.append(GameRecord(indices[i], deals[i], rotations[i], agents[i], winners, bool(unfinished), turns,
                              stats))
    return out


def record_of(game: LinksGame, s: np.ndarray, index: int, deal: int, rotation: int, agents: tuple[str,
              ...]) -> GameRecord:
    """The `GameRecord` of one finished kernel game."""
    return records_of(game, s[None, :], [index], [deal], [rotation], [agents])[0]


def block_deals(game: LinksGame, match: Match, indices: Sequence[int]) -> tuple[list[int], list[int], np.ndarray]:
    """(deal, rotation, shuffle) of games `indices`, as `runner.play_one` deals them."""
    layouts = [match.seating(i) for i in indices]
    deals = sorted({d for d, _, _ in layouts})
    seeds = dict(zip(deals, derive_seeds(match.seed, CHANCE_STREAM, deals).tolist()))
    shuffles = {d: shuffled(game, random.Random(seeds[d])) for d in deals}
    rows = []
    for i, (d, _, _) in zip(indices, layouts):
        turn = match.deal_rotation(i)
        rows.append(game.rotate_deal(shuffles[d], turn) if turn else shuffles[d])
    return [d for d, _, _ in layouts], [r for _, r, _ in layouts], np.array(rows, dtype=np.int64)


def plays_it(game: LinksGame, match: Match) -> bool:
    """Whether this path plays the match: every agent is Links' random agent."""
    from boardlab.analysis.links.agents import RandomLinksAgent
    return all(type(factory(game)) is RandomLinksAgent for factory in match.agents)


def block_size(game: LinksGame, match: Match) -> int | None:
    return BATCH_BLOCK if plays_it(game, match) else None


def agent_table(game: LinksGame, match: Match) -> list[tuple[int, int, float, int, float]] | None:
    """(kind, budget, exploration, rollout policy, margin) of each of the match's agents for
    `games.play_agent_games`, or None when one of them is not an agent it plays (random,
    greedy, mcts-N, ismcts-N: the classes themselves, not a subclass or a barred agent)."""
    from boardlab.analysis.links import games
    from boardlab.analysis.links.agents import (CompiledHistoryMCTS, DeterminisedMCTS, GreedyAgent, HistoryMCTS,
                                                RandomLinksAgent)

    table = []
    for factory in match.agents:
        agent = factory(game)
        kind = type(agent)
        if kind is RandomLinksAgent:
            table.append((games.RANDOM, 0, 0.0, 0, 0.0))
        elif kind is GreedyAgent:
            table.append((games.GREEDY, 0, 0.0, 0, 0.0))
        elif kind is DeterminisedMCTS or kind is HistoryMCTS or kind is CompiledHistoryMCTS:
            assert isinstance(agent, DeterminisedMCTS)
            table.append((games.MCTS if kind is DeterminisedMCTS else games.ISMCTS, agent.iterations,
                          agent.exploration, agent.policy, agent.margin))
        else:
            return None
    return table


def twisters(game: LinksGame, match: Match, indices: Sequence[int]) -> np.ndarray:
    """The Mersenne Twister state of every seat's `random.Random` in games `indices`, as
    `runner.play_one` seeds them (`derive_seed(seed, AGENT_STREAM, game, seat)`)."""
    from boardlab.analysis.mersenne import STATE_WORDS

    out = np.empty((len(indices), game.players, STATE_WORDS), dtype=np.uint32)
    for g, index in enumerate(indices):
        for seat in range(game.players):
            out[g, seat] = random.Random(derive_seed(match.seed, AGENT_STREAM, index, seat)).getstate()[1]
    return out


def play_agent_block(game: LinksGame, match: Match, start: int, stop: int,
                     table: list[tuple[int, int, float, int, float]]) -> list[GameRecord]:
    """Records of games start..stop-1 played by `games.play_agent_games`: the records
    `runner.play_one` gives (the same deals, the same agents' draws, the same moves)."""
    from boardlab.analysis.links import agents, games

    t = tables_of(game)
    indices = list(range(start, stop))
    deals, rotations, rows = block_deals(game, match, indices)
    orders = [match.seating(index)[2] for index in indices]
    kind, budget, exploration, policy, margin = (np.array(column) for column in zip(*table))
    positions = t.empty_positions(len(indices))
    states, seats = twisters(game, match, indices), np.array(orders, dtype=np.int64)
    arrays = (kind.astype(np.int64), budget.astype(np.int64), exploration.astype(np.float64),
              policy.astype(np.int64), margin.astype(np.float64), t.offsets, t.kinds, t.rules)
    for g in range(len(indices)):  # a game per call: a stop (Ctrl-C) waits for one game, not a block
        games.play_agent_games(rows[g:g + 1], states[g:g + 1], seats[g:g + 1], *arrays, t.hand_size,
                               agents.SAMPLES, agents.TRIES, positions[g:g + 1])
    names = [tuple(match.agent_names[a] for a in order) for order in orders]
    return records_of(game, positions, indices, deals, rotations, names)


def play_block(game: LinksGame, match: Match, start: int, stop: int) -> list[GameRecord] | None:
    """Records of games start..stop-1 of `match`, or None when no compiled path plays it: every
    agent random, the random self-play kernel (its own move stream); every agent random,
    greedy, mcts-N or ismcts-N, the compiled agent games (`games.py`: the reference path's games)."""
    if not plays_it(game, match):
        table = agent_table(game, match)
        return None if table is None else play_agent_block(game, match, start, stop, table)
    paused = gc.isenabled()  # thousands of small acyclic records: the cyclic GC would only slow them
    gc.disable()
    try:
        t = tables_of(game)
        indices = list(range(start, stop))
        deals, rotations, rows = block_deals(game, match, indices)
        keys = derive_seeds(match.seed, BATCH_STREAM, indices)
        positions = t.empty_positions(len(indices))
        K.play_games(rows, keys, t.offsets, t.kinds, t.rules, t.hand_size, positions)
        names = {}
        agents = []
        for index in indices:
            order = match.seating(index)[2]
            if order not in names:
                names[order] = tuple(match.agent_names[a] for a in order)
            agents.append(names[order])
        out = records_of(game, positions, indices, deals, rotations, agents)
        return out
    finally:
        if paused:
            gc.enable()
