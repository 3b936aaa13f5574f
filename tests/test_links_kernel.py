"""The compiled Links kernel against the reference engine, move by move, under every rule option."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from boardlab.analysis import runner
from boardlab.analysis.perft import read_perft
from boardlab.analysis.links import kernel as K
from boardlab.analysis.links.agents import AGENTS, SeeingMCTS
from boardlab.analysis.links.batch import block_deals, pack, record_of, tables_of
from boardlab.analysis.links.engine import make_game
from boardlab.analysis.links.table import Move, captures
from boardlab.cli import main
from boardlab.layouts import load

RULES = ["links", "links-capturing-card-taken", "links-free-play", "links-master-match",
         "links-idle-master-barred"]


def view(game, s):
    """The meaningful fields of a kernel position (stale cells past a length left out)."""
    o = tables_of(game).offsets
    cards = int(o[K.O_CARDS])
    hands = [list(s[o[K.O_HANDS] + i * cards:o[K.O_HANDS] + i * cards + s[o[K.O_HAND_LEN] + i]])
             for i in range(game.players)]
    deck = list(s[o[K.O_DECK] + s[K.DECK_POS]:o[K.O_DECK] + s[K.DECK_LEN]])
    lines = []
    for slot in range(int(o[K.O_LINES])):
        base, length = slot * (cards + 1), s[o[K.O_LINE_LEN] + slot]
        lines.append((list(s[o[K.O_LINE_KIND] + base:o[K.O_LINE_KIND] + base + length]),
                      list(s[o[K.O_LINE_END] + base:o[K.O_LINE_END] + base + length]),
                      s[o[K.O_RUN] + slot], s[o[K.O_COUNT] + slot]))
    counters = [-1 if s[K.DONE] else s[K.MOVER]] + [s[f] for f in (K.TURNS, K.PLAYS, K.BLOCKED, K.PASSES, K.LEAD_CHANGES, K.LEADER, K.DONE,
                               K.UNFINISHED)]
    tail = list(s[o[K.O_CAPTURED]:o[K.O_SIZE]])
    return json.dumps([hands, deck, lines, counters, tail], default=int)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("players", [2, 4, 7])
def test_kernel_follows_the_engine_move_by_move(rules, players):
    game = make_game(load(rules), players)
    t = tables_of(game)
    moves = t.move_buffer()
    rng = random.Random(players * 31 + RULES.index(rules))
    for _ in range(6):
        state = game.new_initial_state()
        deal = state.sample_chance(rng)
        state.apply(deal)
        s = t.empty_positions(1)[0]
        K.deal(s, t.offsets, t.kinds, t.rules, np.array(deal, dtype=np.int64), t.hand_size)
        while not state.is_terminal():
            assert view(game, s) == view(game, pack(state))
            m = K.legal_moves(s, t.offsets, t.kinds, t.rules, s[K.MOVER], moves)
            assert [Move(*map(int, row)) for row in moves[:m]] == state.legal_moves()
            move = state.legal_moves()[rng.randrange(m)]
            state.apply(move)
            K.apply(s, t.offsets, t.kinds, t.rules, *move)
        assert s[K.DONE] == 1 and view(game, s) == view(game, pack(state))
        record = record_of(game, s, 0, 0, 0, ())
        assert (record.winners, record.unfinished, record.length, record.stats) == \
               (state.winners(), state.is_unfinished(), state.length(), state.stats())


@pytest.mark.parametrize("rules", RULES)
def test_kernel_games_replay_through_the_engine(rules):
    """Whole games played inside the kernel (its own random stream), replayed by the engine."""
    game = make_game(load(rules), 4)
    t = tables_of(game)
    moves = t.move_buffer()
    for seed in range(8):
        state = game.new_initial_state()
        deal = state.sample_chance(random.Random(seed))
        state.apply(deal)
        s = t.empty_positions(1)[0]
        K.deal(s, t.offsets, t.kinds, t.rules, np.array(deal, dtype=np.int64), t.hand_size)
        log = np.zeros((game.rules.max_turns, 4), dtype=np.int64)
        played = K.play_out(s, t.offsets, t.kinds, t.rules, moves, np.uint64(seed + 1), seed % 4, seed % 4, log)
        for kind, line, exposed, count in log[:played].tolist():
            assert len(state.legal_moves()) == count
            state.apply(Move(kind, line, exposed))
        assert state.is_terminal() and view(game, s) == view(game, pack(state))


def test_batched_random_self_play_matches_reference_deals_and_workers(capsys):
    game = make_game(load("links"), 3)
    names = ["random"] * 3
    records, summary = runner.run_records(game, [AGENTS["random"]] * 3, 300, 5, workers=1, agent_names=names,
                                  progress=False)
    again, _ = runner.run_records(game, [AGENTS["random"]] * 3, 300, 5, workers=2, agent_names=names, progress=False)
    assert records == again
    # game i is dealt as the reference engine deals it (runner.play_one's chance stream, turned)
    match = runner.make_match(game, [AGENTS["random"]] * 3, 5, agent_names=names)
    deals, rotations, rows = block_deals(game, match, range(12))
    for i in range(12):
        deal, rotation, _ = match.seating(i)
        shuffle = game.new_initial_state().sample_chance(random.Random(runner.derive_seed(5, runner.CHANCE_STREAM, deal)))
        turned = game.rotate_deal(shuffle, match.deal_rotation(i)) if match.deal_rotation(i) else shuffle
        assert (deals[i], rotations[i], tuple(rows[i])) == (deal, rotation, turned)
    assert len({tuple(r) for r in rows}) == 12  # every rotation of a deal is another arrangement
    assert summary["links"]["finished_games"] == 300



def kernel_perft(s, t, depth: int) -> int:
    """Move sequences of `depth` plies from kernel position `s`, walked with the kernel's own
    move lists and `apply` (the count tests/data/links.perft was made with)."""
    if depth == 0:
        return 1
    if s[K.DONE]:
        return 0
    moves = t.move_buffer()
    m = K.legal_moves(s, t.offsets, t.kinds, t.rules, s[K.MOVER], moves)
    if depth == 1:
        return m
    total = 0
    for i in range(m):
        child = s.copy()
        K.apply(child, t.offsets, t.kinds, t.rules, moves[i, 0], moves[i, 1], moves[i, 2])
        total += kernel_perft(child, t, depth - 1)
    return total


@pytest.mark.parametrize("entry", read_perft(Path(__file__).parent / "data" / "links.perft"), ids=lambda e: e.id)
def test_the_perft_counts_are_the_kernels_own_walk(entry):
    """tests/data/links.perft against the compiled kernel (tests/test_perft.py holds the engine to
    the same numbers): the counts are those of a second implementation of the rules."""
    game = make_game(load(entry.definition), entry.players)
    t = tables_of(game)
    start = pack(entry.start(game))
    assert {depth: kernel_perft(start, t, depth) for depth in entry.counts} == entry.counts



def test_the_perft_positions_are_reached_in_play():
    """Each entry of links.perft names the seeded game that reached it ("random.Random(SEED), N
    decisions in": the deal and uniform random moves from one generator); replaying that game gives
    the position, and `boardlab moves links` accepts it (none of the impossible-position checks)."""
    import re

    from boardlab.analysis.links.position import moves, position_of

    path = Path(__file__).parent / "data" / "links.perft"
    found = re.findall(r"^id (\S+)\n#[^\n]*\n# random\.Random\((\d+)\), (\d+) decisions in", path.read_text(), re.M)
    named = {entry: (int(seed), int(decisions)) for entry, seed, decisions in found}
    entries = read_perft(path)
    assert set(named) == {entry.id for entry in entries}
    for entry in entries:
        seed, decisions = named[entry.id]
        game = make_game(load(entry.definition), entry.players)
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        for _ in range(decisions):
            state.apply(rng.choice(state.legal_moves()))
        assert position_of(state) == entry.position, entry.id
        assert len(moves(load(entry.definition), entry.position)) == len(state.legal_moves())

# -- the search: a plain Python twin of kernel.search on the reference engine ------------------
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _splitmix64(x: int) -> int:
    z = x & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class _Stream:
    """The kernel's `uniform_below`: draw t of a key is splitmix64(key + t * golden)."""

    def __init__(self, key: int):
        self.key, self.t = key, 0

    def below(self, n: int) -> int:
        self.t += 1
        return (_splitmix64(self.key + self.t * _GOLDEN) >> 11) % n


def _greedy(state, moves, stream):
    deck, rules = state.game.deck, state.game.rules
    best, best_score, ties = 0, -1, 0
    for i, move in enumerate(moves):
        if move.is_pass:
            score = 0
        else:
            line = state.lines[move.line]
            taken = len(line.cards) - line.run_start + (rules.capturing_card == "taken") \
                if captures(deck, rules, line, move.kind) else -1
            score = 4 * (max(taken, 0) + 1) + 2 * (not deck.kinds[move.kind].is_wild) + 1
        if score > best_score:
            best, best_score, ties = i, score, 1
        elif score == best_score:
            ties += 1
            if stream.below(ties) == 0:
                best = i
    return best


def _shuffled(cards, stream):
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def reference_search(root, pool, iterations, key, exploration, policy, margin, hidden=K.HIDDEN_ALL):
    """Determinised flat UCT written plainly on the engine, with the kernel's random numbers:
    every iteration deals `pool` to the other hands and the deck (HIDDEN_ALL), shuffles the deck
    alone (HIDDEN_DECK) or keeps the state as it is (HIDDEN_NONE)."""
    seat = root.current_player()
    first = root.legal_moves()
    visits, values = [0] * len(first), [0.0] * len(first)
    for it in range(iterations):
        state = root.clone()
        stream = _Stream(_splitmix64(key + (it + 1) * _GOLDEN))
        if hidden == K.HIDDEN_ALL:
            cards = _shuffled(pool, stream)
            at = 0
            for other in range(state.players):
                if other != seat:
                    size = len(state.hands[other])
                    state.hands[other] = sorted(cards[at:at + size])
                    at += size
            state.deck = cards[at:][::-1]  # the engine draws from the end
        elif hidden == K.HIDDEN_DECK:
            state.deck = _shuffled(state.deck[::-1], stream)[::-1]  # in drawing order, as the kernel holds it
        if it < len(first):
            pick = it
        else:
            scores = [values[i] / visits[i] + exploration * math.sqrt(math.log(it) / visits[i])
                      for i in range(len(first))]
            pick = scores.index(max(scores))
        state.apply(first[pick])
        while not state.is_terminal():
            moves = state.legal_moves()
            mover = state.current_player()
            if policy == 1 or (policy == 2 and mover == seat) or (policy == 3 and stream.below(2) == 0):
                i = _greedy(state, moves, stream)
            else:
                i = stream.below(len(moves))
            state.apply(moves[i])
        scores = state.scores()
        mine, best = scores[seat], max(scores)
        share = 1 / scores.count(best) if mine == best and not state.is_unfinished() else 0.0
        best_other = max(s for k, s in enumerate(scores) if k != seat)
        visits[pick] += 1
        values[pick] += (1 - margin) * share + margin / (1 + math.exp(-(mine - best_other) / 3.0))
    return visits, values


@pytest.mark.parametrize("rules,policy", [("links", 1), ("links", 0), ("links-free-play", 3),
                                          ("links-capturing-card-taken", 2), ("links-idle-master-barred", 1)])
def test_kernel_search_equals_its_python_twin(rules, policy):
    game = make_game(load(rules), 3)
    rng = random.Random(policy)
    state = game.new_initial_state()
    state.apply(state.sample_chance(rng))
    for _ in range(7):
        state.apply(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
    seen = state.observation()
    root = game.determinise(seen, rng)
    pool = seen.unseen()
    t = tables_of(game)
    m = len(seen.legal_moves())
    visits, values = np.zeros(m, dtype=np.int64), np.zeros(m)
    found = K.search(pack(root), t.offsets, t.kinds, t.rules, np.array(pool, dtype=np.int64), 60, np.uint64(12345),
                     0.7, policy, 0.5, visits, values)
    want_visits, want_values = reference_search(root, pool, 60, 12345, 0.7, policy, 0.5)
    assert found == m and visits.tolist() == want_visits
    assert values.tolist() == pytest.approx(want_values, abs=1e-9)


@pytest.mark.parametrize("hidden", [K.HIDDEN_DECK, K.HIDDEN_NONE])
def test_seeing_searches_equal_their_python_twin(hidden):
    """The benchmark's upper bounds: the same search shown the other hands (and the deck order)."""
    game = make_game(load("links"), 4)
    rng = random.Random(hidden)
    state = game.new_initial_state()
    state.apply(state.sample_chance(rng))
    for _ in range(9):
        state.apply(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
    t = tables_of(game)
    m = len(state.legal_moves())
    visits, values = np.zeros(m, dtype=np.int64), np.zeros(m)
    before = view(game, pack(state))
    K.search(pack(state), t.offsets, t.kinds, t.rules, np.zeros(0, dtype=np.int64), 50, np.uint64(99), 0.7, 1, 0.5,
             visits, values, hidden)
    want_visits, want_values = reference_search(state, [], 50, 99, 0.7, 1, 0.5, hidden)
    assert visits.tolist() == want_visits and values.tolist() == pytest.approx(want_values, abs=1e-9)
    assert view(game, pack(state)) == before  # the root is not touched


def test_an_agent_that_sees_everything_plays_the_state_not_the_observation():
    """SeeingMCTS reads the true state: two states with one observation but other hidden cards
    get different searches; the honest agent's search depends on the observation alone."""
    game = make_game(load("links"), 4)
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(4)))
    for _ in range(6):
        state.apply(state.legal_moves()[0])
    other = game.determinise(state.observation(), random.Random(5))
    assert other.observation() == state.observation() and other.hands != state.hands
    seeing = SeeingMCTS(200, "all")
    honest = AGENTS["mcts-200"](game)
    t = tables_of(game)
    runs = {}
    for name, s in (("state", state), ("other", other)):
        runs[name] = (seeing._search(game, pack(s), [], len(s.legal_moves()), random.Random(1), K.HIDDEN_NONE)[1].tolist(),
                      honest.search(s.observation(), random.Random(1))[1].tolist())
    assert runs["state"][0] != runs["other"][0]
    assert runs["state"][1] == runs["other"][1]
    assert seeing.choose(state, random.Random(2)) in state.legal_moves()
