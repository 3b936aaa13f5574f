"""Links' agent games compiled end to end (`analysis/links/games.py`) against their plain twins:
the runner's reference path (`runner.play_one` with the Python agents of `agents.py`, among them
`HistoryMCTS`, the plain ISMCTS) plays the same games, record for record, and every
history-consistent determinisation is the engine's (`LinksGame.determinise`) from the same
seed, card for card, with the generator left in the same state.  A single decision of `ismcts-N`
(`CompiledHistoryMCTS`, one compiled call) is `HistoryMCTS`'s, move for move, with the same
visits and rewards and the generator left in the same state."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.analysis.links import games as G
from boardlab.analysis.links import kernel as K
from dataclasses import replace

from boardlab.analysis.links.agents import AGENTS, TRIES, CompiledHistoryMCTS, HistoryMCTS, SeeingMCTS
from boardlab.analysis.links.batch import agent_table, observed, pack, pack_observed, play_block, tables_of
from boardlab.analysis.links.engine import make_game
from boardlab.analysis.runner import make_match, play_one
from boardlab.layouts import load


def twister(rng: random.Random) -> np.ndarray:
    return np.array(rng.getstate()[1], dtype=np.uint32)


def test_the_compiled_draws_are_pythons():
    for seed in (0, 1, 2 ** 40 + 7):
        rng, mt = random.Random(seed), twister(random.Random(seed))
        for n in (1, 2, 5, 33, 64):
            cards = list(range(n))
            rng.shuffle(cards)
            mine = np.arange(n, dtype=np.int64)
            G.shuffle(mt, mine, n)
            assert mine.tolist() == cards
            assert int(G.getrandbits64(mt)) == rng.getrandbits(64)
        assert mt.tolist() == list(rng.getstate()[1])


def positions(rules: str, players: int, games: int, seed: int):
    """Every decision of seeded games between greedy and random players (so that seats get
    blocked and the history says something)."""
    game = make_game(load(rules), players)
    rng = random.Random(seed)
    greedy, rand = AGENTS["greedy"](game), AGENTS["random"](game)
    for _ in range(games):
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        while not state.is_terminal():
            yield game, state
            agent = greedy if state.current_player() % 2 else rand
            state.apply(agent.choose(state, rng))


def hidden(game, s):
    """The hands and the draw pile of a kernel position."""
    o, cards = tables_of(game).offsets, len(game.cards)
    hands = [s[o[K.O_HANDS] + p * cards:o[K.O_HANDS] + p * cards + s[o[K.O_HAND_LEN] + p]].tolist()
             for p in range(game.players)]
    return hands, s[o[K.O_DECK] + s[K.DECK_POS]:o[K.O_DECK] + s[K.DECK_LEN]].tolist()


def history_arrays(game, state):
    """The blocked turns of `state` as `games.play_agent_games` logs them: (seat, drawn) and
    the kinds with no play on that table, taken here from the engine."""
    kinds = len(game.copies)
    events = np.zeros((len(state.blocked) + 1, 2), dtype=np.int64)
    masks = np.zeros((len(state.blocked) + 1, kinds), dtype=np.int64)
    for e, (seat, drawn, lines) in enumerate(state.blocked):
        events[e] = seat, drawn
        masks[e, sorted(game.unplayable_kinds(lines))] = 1
    return events, masks


@pytest.mark.parametrize("rules,players", [("links", 4), ("links-idle-master-barred", 3), ("links-free-play", 4),
                                           ("links-capturing-card-taken", 3)])
def test_each_history_consistent_determinisation_is_the_engines(rules, players):
    rejected = 0
    checked = 0
    for game, state in positions(rules, players, 4, players):
        if state.turns % 3:
            continue
        t = tables_of(game)
        observation = state.observation()
        seed = state.turns * 1009 + len(state.blocked)
        rng = random.Random(seed)
        want = pack(game.determinise(observation, rng, tries=TRIES))
        mt = twister(random.Random(seed))
        s = pack(state)
        events, masks = history_arrays(game, state)
        cards, best = np.empty(len(game.cards), dtype=np.int64), np.empty(len(game.cards), dtype=np.int64)
        pile = len(game.cards) - players * game.deck.hand_size
        n = G.history_deal(s, t.offsets, t.kinds, state.current_player(), mt, cards, best, events, masks,
                           len(state.blocked), pile, TRIES)
        assert sorted(cards[:n].tolist()) == observation.unseen()
        G.deal_hidden(s, t.offsets, state.current_player(), best, n)
        assert hidden(game, s) == hidden(game, want)
        assert mt.tolist() == list(rng.getstate()[1])  # the same draws, no more, no fewer
        # the engine's own count of broken conditions for the compiled first shuffle
        s = pack(state)
        first = twister(random.Random(seed))
        G.history_deal(s, t.offsets, t.kinds, state.current_player(), first, cards, best, events, masks,
                       len(state.blocked), pile, 1)
        rejected += G.broken(s, t.offsets, state.current_player(), best, events, masks,
                             len(state.blocked), pile) > 0
        checked += 1
    assert checked > 20
    assert rejected > 0  # the history turned a shuffle down somewhere: the conditions were exercised


@pytest.mark.parametrize("rules", ["links", "links-idle-master-barred", "links-capturing-card-taken",
                                   "links-master-match"])
def test_the_kinds_without_a_play_are_the_engines(rules):
    for game, state in positions(rules, 3, 2, 5):
        t = tables_of(game)
        out = np.zeros(len(game.copies), dtype=np.int64)
        G.unplayable(pack(state), t.offsets, t.kinds, t.rules, out)
        lines = tuple(line.key() for line in state.lines)
        assert set(np.flatnonzero(out).tolist()) == game.unplayable_kinds(lines)


def plain_factory(name: str):
    """The agent table's factory, with `HistoryMCTS` (the plain ISMCTS) for `ismcts-N`."""
    if name.startswith("ismcts-"):
        budget = int(name.partition("-")[2])
        return lambda game: HistoryMCTS(budget, name=name)
    return AGENTS[name]


@pytest.mark.parametrize("rules,players,budgets", [("links", 4, (64, 7)), ("links", 2, (64, 23)),
                                                   ("links-idle-master-barred", 3, (40,)),
                                                   ("links-free-play", 4, (64,)),
                                                   ("links-capturing-card-taken", 3, (16,)),
                                                   ("links-master-match", 5, (32,))])
def test_a_compiled_ismcts_decision_is_the_plain_ones(rules, players, budgets):
    checked = conditioned = 0
    for game, state in positions(rules, players, 3, 17 + players):
        observation = state.observation()
        assert observed(observation) is not None  # the compiled search takes every position of a game
        conditioned += bool(observation.conditions())
        for budget in budgets:
            seed = state.turns * 7919 + budget
            slow_rng, fast_rng = random.Random(seed), random.Random(seed)
            slow, fast = HistoryMCTS(budget), CompiledHistoryMCTS(budget)
            assert fast.choose(state, fast_rng) == slow.choose(state, slow_rng)
            assert fast_rng.getstate() == slow_rng.getstate()
            if state.turns % 4 == 0:  # the searches' figures themselves, for the hints and probes
                assert fast.ratings(state, fast_rng) == slow.ratings(state, slow_rng)
                assert fast_rng.getstate() == slow_rng.getstate()
            checked += 1
    assert checked > 40
    assert conditioned > 5  # the history conditioned the deals in many of them


def test_a_compiled_ismcts_takes_a_position_without_history_and_leaves_odd_ones_to_python():
    game = make_game(load("links"), 3)
    rng = random.Random(5)
    state = game.new_initial_state()
    state.apply(state.sample_chance(rng))
    for _ in range(9):
        state.apply(AGENTS["greedy"](game).choose(state, rng))
    observation = state.observation()
    # a position read from JSON knows no history (no draws, no blocked turns): compiled
    bare = replace(observation, draws=(), blocked=())
    assert observed(bare) is not None
    slow_rng, fast_rng = random.Random(3), random.Random(3)
    assert CompiledHistoryMCTS(48).decide(bare, fast_rng) == HistoryMCTS(48).decide(bare, slow_rng)
    assert fast_rng.getstate() == slow_rng.getstate()
    # a blocked turn with draws the turns do not give: the Python search
    odd = replace(observation, draws=(0,) * 3, blocked=((1, 0, observation.lines),))
    assert observation.turns > 3 and observed(odd) is None
    slow_rng, fast_rng = random.Random(4), random.Random(4)
    assert CompiledHistoryMCTS(48).decide(odd, fast_rng) == HistoryMCTS(48).decide(odd, slow_rng)
    assert fast_rng.getstate() == slow_rng.getstate()


@pytest.mark.parametrize("rules,agents,games", [
    ("links", ["ismcts-64", "mcts-64"], 6),
    ("links", ["ismcts-16", "mcts-4", "greedy", "random"], 6),
    ("links-idle-master-barred", ["ismcts-12", "greedy", "random"], 6),
    ("links-free-play", ["ismcts-8", "mcts-6", "greedy"], 3),
    ("links-capturing-card-taken", ["random", "ismcts-9", "greedy", "mcts-5"], 5),
    ("links-master-match", ["greedy", "ismcts-20"], 6),
])
def test_compiled_agent_games_are_the_reference_paths_game_for_game(rules, agents, games):
    game = make_game(load(rules), len(agents))
    match = make_match(game, [AGENTS[a] for a in agents], 11, agent_names=agents)
    fast = play_block(game, match, 3, 3 + games)
    assert fast is not None
    # the reference path with the plain Python ISMCTS (the table's `ismcts-N` decides compiled)
    plain = make_match(game, [plain_factory(a) for a in agents], 11, agent_names=agents)
    assert agent_table(game, plain) == agent_table(game, match)
    slow = [play_one(plain, i) for i in range(3, 3 + games)]
    assert fast == slow
    assert len({(r.winners, r.length, tuple(r.stats["scores"])) for r in slow}) > 1  # different games


def test_agents_the_compiled_games_do_not_play_go_to_the_reference_path():
    game = make_game(load("links"), 2)
    seeing = make_match(game, [lambda g: SeeingMCTS(8, "hands"), AGENTS["mcts-8"]], 1,
                        agent_names=["sees", "mcts-8"])
    assert agent_table(game, seeing) is None and play_block(game, seeing, 0, 2) is None
    plain = make_match(game, [AGENTS["ismcts-8"], AGENTS["greedy"]], 1, agent_names=["ismcts-8", "greedy"])
    assert agent_table(game, plain) == [(G.ISMCTS, 8, 0.7, 1, 0.5), (G.GREEDY, 0, 0.0, 0, 0.0)]
    assert type(AGENTS["ismcts-8"](game)) is CompiledHistoryMCTS


@pytest.mark.parametrize("rules,players", [("links", 4), ("links-free-play", 2), ("links-capturing-card-taken", 5)])
def test_an_observations_position_is_the_packed_state_of_its_deal(rules, players):
    checked = 0
    for game, state in positions(rules, players, 2, 3):
        observation = state.observation()
        unseen = observation.unseen()
        hands, at = [], 0
        for seat, size in enumerate(observation.hand_sizes):
            hands.append(list(observation.hand) if seat == observation.seat else unseen[at:at + size])
            at += size if seat != observation.seat else 0
        want = pack(game.dealt(observation, hands, unseen[at:]))
        assert pack_observed(observation, unseen).tolist() == want.tolist()
        checked += 1
    assert checked > 20
